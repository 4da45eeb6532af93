/**
 * Number to Word: cardinal, ordinal and currency words in English. Pure TypeScript over BigInt
 * (`spell-number.ts`), so every one of the 21 accepted digits is exact.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { CURRENCY_CODES } from "./currencies";
import { handleNumberToWords } from "./handler";
import { NumberToWordsInputSchema, NumberWordsSchema } from "./schema";

const DESCRIPTION =
  'Spells `number` (an integer up to 10^21 − 1, or a decimal with up to 6 places; negatives allowed; commas only as thousands separators) in US English: short scale (billion = 10^9), hyphenated tens, and no "and" inside a number ("one hundred twenty-three"). ' +
  '`mode=cardinal` reads decimals digit by digit after "point" and negatives with "minus"; `mode=ordinal` takes whole numbers, negatives with "minus" ("twenty-first", "minus twenty-first"); ' +
  `\`mode=currency\` needs \`currency\` (${CURRENCY_CODES.join(", ")}) and joins the major and minor units with "and" ("one hundred twenty-three dollars and forty-five cents"); amounts may not have more decimals than the currency (none for JPY, KRW and VND). ` +
  "`system=indian` groups by thousand, lakh and crore. Send numbers above 2^53 as strings: as JSON numbers they have already lost digits. `language` is `en` for now.";

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
          words: "one hundred twenty-three dollars and forty-five cents",
          number: "123.45",
          mode: "currency",
          currency: "USD",
        },
      },
      example: { number: "123.45", mode: "currency", currency: "USD" },
      handler: handleNumberToWords,
    }),
  ],
};
