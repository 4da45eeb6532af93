import { z } from "zod";

const SEARCH_MAX = 80;

export const PhoneCodesQuerySchema = z.object({
  country: z
    .string()
    .trim()
    .max(SEARCH_MAX, `at most ${SEARCH_MAX} characters`)
    .optional()
    .describe("the start of a word of the country's name, or its alpha-2 or alpha-3 code; case and accents ignored"),
  q: z
    .string()
    .trim()
    .max(SEARCH_MAX, `at most ${SEARCH_MAX} characters`)
    .optional()
    .describe('like country, or a calling code such as "+44" or "1-684"'),
});

export type PhoneCodesQuery = z.infer<typeof PhoneCodesQuerySchema>;

export const PhoneCodeSchema = z.object({
  name: z.string(),
  code: z.string().length(2).describe("ISO 3166-1 alpha-2"),
  callingCode: z
    .string()
    .regex(/^\+\d+(-\d+)?$/)
    .describe('"+44", "+1-684"; for countries with several area codes, the country code alone ("+1")'),
  flag: z.string(),
});

export const PhoneCodesSchema = z.object({ data: z.array(PhoneCodeSchema) });

export type PhoneCodes = z.infer<typeof PhoneCodesSchema>;
