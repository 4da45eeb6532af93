import { z } from "zod";
import { CURRENCY_CODES } from "./currencies";

/**
 * Digits with an optional sign and decimal point; the integer part may be grouped in threes
 * with commas ("1,000,001"). A comma anywhere else is refused rather than read as a decimal
 * comma, which would change the value.
 */
const NUMBER_PATTERN = /^[+-]?(?:(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d*)?|\.\d+)$/;

export const MODES = ["cardinal", "ordinal", "currency"] as const;

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
      .default("international")
      .describe("indian groups by thousand, lakh (10^5) and crore (10^7)"),
    language: z.enum(["en"]).default("en").describe("only English for now"),
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
