import { z } from "zod";
import { CURRENCY_CODES } from "./currencies";
import { LANGUAGE_RULES, OTHER_LANGUAGES } from "./languages";

/**
 * Digits with an optional sign and decimal point; the integer part may be grouped in threes
 * with commas ("1,000,001"). A comma anywhere else is refused rather than read as a decimal
 * comma, which would change the value.
 */
const NUMBER_PATTERN = /^[+-]?(?:(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d*)?|\.\d+)$/;

export const MODES = ["cardinal", "ordinal", "currency"] as const;

export const LANGUAGES = ["en", ...OTHER_LANGUAGES] as const;
export type Language = (typeof LANGUAGES)[number];

/** The BCP 47 tag of the variety each language is spelled in; callers may send it instead. */
export const LANGUAGE_TAGS = { en: "en-US", hi: "hi-IN", es: "es-ES", fr: "fr-FR", de: "de-DE" } as const;

const LANGUAGE_OF_TAG = Object.fromEntries(
  Object.entries(LANGUAGE_TAGS).flatMap(([language, tag]) => [
    [language, language],
    [tag, language],
  ]),
) as Record<string, Language>;
const ACCEPTED_LANGUAGES = Object.keys(LANGUAGE_OF_TAG) as [string, ...string[]];

export const NumberToWordsInputSchema = z
  .object({
    number: z
      .union([
        z
          .string()
          .trim()
          .max(64, "at most 64 characters")
          .regex(NUMBER_PATTERN, "digits, an optional sign and decimal point"),
        z.number(),
      ])
      // JSON numbers above 2^53 have lost digits before we see them.
      .describe(
        "an integer up to 10^21 − 1 or a decimal with up to 6 places, negative allowed; send numbers above 2^53 as strings",
      ),
    mode: z
      .enum(MODES)
      .default("cardinal")
      .describe("cardinal (twenty-one), ordinal (twenty-first, minus twenty-first; whole numbers only) or currency"),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(CURRENCY_CODES))
      .optional()
      .describe(`ISO 4217 code, required with mode=currency: ${CURRENCY_CODES.join(", ")}`),
    system: z
      .enum(["international", "indian"])
      .optional()
      .describe(
        "en: international (the default) or indian, which groups by thousand, lakh (10^5) and crore (10^7); hi is always indian (send indian or leave it out); es, fr and de take none",
      ),
    language: z
      .enum(ACCEPTED_LANGUAGES)
      .default("en")
      .transform((tag) => LANGUAGE_OF_TAG[tag] ?? "en")
      .describe(
        `en (US English), ${OTHER_LANGUAGES.map((code) => `${code} (${LANGUAGE_RULES[code].name})`).join(", ")}; or the tag ${Object.values(LANGUAGE_TAGS).join(", ")}`,
      ),
  })
  .refine((input) => input.mode !== "currency" || input.currency !== undefined, {
    message: "currency is required when mode is currency",
    path: ["currency"],
  });

export type NumberToWordsInput = z.infer<typeof NumberToWordsInputSchema>;

export const NumberWordsSchema = z.object({
  words: z.string(),
  number: z.string().describe('the number as read, in plain digits: "-7.25", "1000001"'),
  mode: z.enum(MODES),
  currency: z.enum(CURRENCY_CODES).optional().describe("with mode=currency"),
});

export type NumberWords = z.infer<typeof NumberWordsSchema>;
