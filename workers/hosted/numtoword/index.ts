/**
 * Number to Word: cardinal, ordinal and currency words. English is pure TypeScript over BigInt
 * (`spell-number.ts`), so every one of the 21 accepted digits is exact; Hindi, Spanish, French
 * and German take their words from n2words, corrected against CLDR (`languages.ts`, decision 046).
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { CURRENCY_CODES } from "./currencies";
import { handleNumberToWords } from "./handler";
import { NumberToWordsInputSchema, NumberWordsSchema } from "./schema";

const DESCRIPTION =
  'Spells `number` (an integer up to 10^21 − 1, or a decimal with up to 6 places; negatives allowed; commas only as thousands separators), by default in US English: short scale (billion = 10^9), hyphenated tens, and no "and" inside a number ("one hundred twenty-three"). ' +
  '`mode=cardinal` reads decimals digit by digit after "point" and negatives with "minus"; `mode=ordinal` takes whole numbers, negatives with "minus" ("twenty-first", "minus twenty-first"); ' +
  `\`mode=currency\` needs \`currency\` (${CURRENCY_CODES.join(", ")}) and joins the major and minor units with "and" ("one hundred twenty-three dollars and forty-five cents"); amounts may not have more decimals than the currency (none for JPY, KRW and VND). ` +
  "`system=indian` groups by thousand, lakh and crore. Send numbers above 2^53 as strings: as JSON numbers they have already lost digits. " +
  "`language` (or its BCP 47 tag) chooses the words; the range is the same in every language, cardinals read decimals digit by digit after the language's decimal word, and the spelling follows CLDR's spell-out rules where the languages' authorities agree with them. " +
  "`en` (`en-US`): all of the above. " +
  '`hi` (`hi-IN`): always Indian grouping (हज़ार, लाख, करोड़, अरब, खरब; "एक सौ खरब" past 99 खरब); negatives with "ऋण", decimals after "दशमलव"; ordinals of positive whole numbers ("पहला", "इक्कीसवाँ"); currency INR only ("इक्कीस रुपये एक पैसा"). ' +
  '`es` (`es-ES`): long scale (mil millones, billón = 10^12, trillón = 10^18), "veintiún mil", "un millón de euros"; "menos", "punto"; ordinals 1–999 ("vigésimo primero", "decimotercero"); currency EUR only ("veintiún euros con cincuenta céntimos"). ' +
  '`fr` (`fr-FR`): traditional spelling ("vingt et un", "deux cent mille", "quatre-vingts"), long scale (milliard, billion = 10^12); "moins", "virgule"; ordinals 1–999 999 ("vingt et unième"); currency EUR only ("un million d\'euros"). ' +
  '`de` (`de-DE`): one word below a million ("einhunderteinundzwanzig"), long scale (Milliarde, Billion = 10^12, Trillion = 10^18); "minus", "Komma"; ordinals 1–999 999 ("einundzwanzigste"); currency EUR only ("ein Euro und ein Cent"). ' +
  "Other combinations (an ordinal outside a language's range, another currency, `system` other than indian for hi or any `system` for es, fr and de) are refused with a 422 naming what the language supports.";

export const definition: HostedApiDefinition = {
  slug: "numtoword",
  operations: [
    defineOperation({
      id: "numberToWords",
      method: "GET",
      path: "",
      summary: "Spell a number given in the query string",
      description: DESCRIPTION,
      inputSource: "query",
      input: NumberToWordsInputSchema,
      output: {
        kind: "json",
        schema: NumberWordsSchema,
        example: { words: "one thousand two hundred thirty-four", number: "1234", mode: "cardinal" },
      },
      example: { number: "1234" },
      handler: handleNumberToWords,
    }),
    defineOperation({
      id: "numberToWordsJson",
      method: "POST",
      path: "",
      summary: "Spell a number given in a JSON body",
      description: DESCRIPTION,
      inputSource: "json",
      input: NumberToWordsInputSchema,
      output: {
        kind: "json",
        schema: NumberWordsSchema,
        example: {
          words: "veintiún euros con cincuenta céntimos",
          number: "21.5",
          mode: "currency",
          currency: "EUR",
        },
      },
      example: { number: "21.50", mode: "currency", currency: "EUR", language: "es" },
      handler: handleNumberToWords,
    }),
  ],
};
