import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  callOperation,
  expectExampleIsReal,
  expectJson,
  expectNeverThrows,
  expectProblem,
  findOperation,
} from "../_data/operation-test-helpers";
import { definition } from "./index";
import type { NumberWords } from "./schema";

const getWords = findOperation(definition, "numberToWords");
const postWords = findOperation(definition, "numberToWordsJson");

async function spell(raw: Record<string, unknown>): Promise<NumberWords> {
  return expectJson(await callOperation(postWords, raw)) as NumberWords;
}

async function words(raw: Record<string, unknown>): Promise<string> {
  return (await spell(raw)).words;
}

/**
 * An independent reader of short-scale English cardinals, to check the writer against: it
 * knows nothing of how the engine groups digits, only what the words mean.
 */
const SMALL: Record<string, bigint> = Object.fromEntries(
  [
    ["zero", 0],
    ["one", 1],
    ["two", 2],
    ["three", 3],
    ["four", 4],
    ["five", 5],
    ["six", 6],
    ["seven", 7],
    ["eight", 8],
    ["nine", 9],
    ["ten", 10],
    ["eleven", 11],
    ["twelve", 12],
    ["thirteen", 13],
    ["fourteen", 14],
    ["fifteen", 15],
    ["sixteen", 16],
    ["seventeen", 17],
    ["eighteen", 18],
    ["nineteen", 19],
    ["twenty", 20],
    ["thirty", 30],
    ["forty", 40],
    ["fifty", 50],
    ["sixty", 60],
    ["seventy", 70],
    ["eighty", 80],
    ["ninety", 90],
  ].map(([word, value]) => [word, BigInt(value ?? 0)]),
);
const SCALE: Record<string, bigint> = {
  thousand: 10n ** 3n,
  million: 10n ** 6n,
  billion: 10n ** 9n,
  trillion: 10n ** 12n,
  quadrillion: 10n ** 15n,
  quintillion: 10n ** 18n,
};

function readCardinal(text: string): bigint {
  let total = 0n;
  let group = 0n;
  for (const word of text.split(/[\s-]+/)) {
    const small = SMALL[word];
    const scale = SCALE[word];
    if (small !== undefined) group += small;
    else if (word === "hundred") group *= 100n;
    else if (scale !== undefined) {
      total += group * scale;
      group = 0n;
    } else throw new Error(`unexpected word ${word} in "${text}"`);
  }
  return total + group;
}

/** English ordinals that are not the cardinal plus "th" (or "y" → "ieth"). */
const IRREGULAR_ORDINAL: Record<string, string> = {
  first: "one",
  second: "two",
  third: "three",
  fifth: "five",
  eighth: "eight",
  ninth: "nine",
  twelfth: "twelve",
};

/** Reads an ordinal back to its number: an optional "minus", then a cardinal whose last word is ordinal. */
function readOrdinal(text: string): bigint {
  const negative = text.startsWith("minus ");
  const body = negative ? text.slice("minus ".length) : text;
  const cut = Math.max(body.lastIndexOf(" "), body.lastIndexOf("-")) + 1;
  const last = body.slice(cut);
  const cardinal =
    IRREGULAR_ORDINAL[last] ??
    (last.endsWith("ieth") ? `${last.slice(0, -4)}y` : last.endsWith("th") ? last.slice(0, -2) : undefined);
  if (cardinal === undefined) throw new Error(`"${text}" does not end in an ordinal`);
  const value = readCardinal(body.slice(0, cut) + cardinal);
  return negative ? -value : value;
}

describe("numtoword: cardinals", () => {
  it.each([
    [0, "zero"],
    [13, "thirteen"],
    [21, "twenty-one"],
    [100, "one hundred"],
    [1234, "one thousand two hundred thirty-four"],
    ["1,000,001", "one million one"],
    [1_000_001, "one million one"],
    [-7.25, "minus seven point two five"],
    ["-0.000", "zero"],
    ["0.5", "zero point five"],
    ["2.500", "two point five"],
  ])("%j is %s", async (number, expected) => {
    expect(await words({ number })).toBe(expected);
  });

  it("spells 10^21 − 1, the largest number it takes, exactly", async () => {
    const largest = (10n ** 21n - 1n).toString();
    const result = await spell({ number: largest });
    expect(result.number).toBe("999999999999999999999");
    expect(result.words.startsWith("nine hundred ninety-nine quintillion nine hundred ninety-nine quadrillion")).toBe(
      true,
    );
    expect(readCardinal(result.words)).toBe(10n ** 21n - 1n);
  });

  it("reports the number as read, in plain digits", async () => {
    expect((await spell({ number: " +0012.340 " })).number).toBe("12.34");
    expect((await spell({ number: "-7.25" })).number).toBe("-7.25");
  });

  it("uses lakh and crore in the Indian system", async () => {
    expect(await words({ number: 12_345_678, system: "indian" })).toBe(
      "one crore twenty-three lakh forty-five thousand six hundred seventy-eight",
    );
    expect(await words({ number: "1000000000000", system: "indian" })).toBe("one lakh crore");
  });

  it("any integer below 10^21 reads back as itself", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: 10n ** 21n - 1n }), async (value) => {
        expect(readCardinal(await words({ number: value.toString() }))).toBe(value);
      }),
      { numRuns: 300 },
    );
  });
});

describe("numtoword: ordinals", () => {
  it.each([
    [0, "zeroth"],
    [1, "first"],
    [2, "second"],
    [3, "third"],
    [12, "twelfth"],
    [20, "twentieth"],
    [21, "twenty-first"],
    [100, "one hundredth"],
    [1_000_003, "one million third"],
    [-1, "minus first"],
    [-21, "minus twenty-first"],
    ["-100", "minus one hundredth"],
    ["-1,000,003", "minus one million third"],
    ["-0", "zeroth"],
  ])("%j is %s", async (number, expected) => {
    expect(await words({ number, mode: "ordinal" })).toBe(expected);
  });

  it("answers a negative ordinal with the number as read and the Indian grouping too", async () => {
    expect(await spell({ number: "-21", mode: "ordinal" })).toEqual({
      words: "minus twenty-first",
      number: "-21",
      mode: "ordinal",
    });
    expect(await words({ number: -12_345_678, mode: "ordinal", system: "indian" })).toBe(
      "minus one crore twenty-three lakh forty-five thousand six hundred seventy-eighth",
    );
  });

  it("any integer in ±10^21 reads back as itself from its ordinal, sign included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: -(10n ** 21n) + 1n, max: 10n ** 21n - 1n }), async (value) => {
        expect(readOrdinal(await words({ number: value.toString(), mode: "ordinal" }))).toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ["2.5", "whole numbers"],
    ["-2.5", "whole numbers"],
  ])("%s has no ordinal (%s)", async (number, message) => {
    expect(expectProblem(await callOperation(postWords, { number, mode: "ordinal" }), "invalid-input")).toContain(
      message,
    );
  });
});

describe("numtoword: currency", () => {
  it.each([
    [{ number: "123.45", currency: "USD" }, "one hundred twenty-three dollars and forty-five cents"],
    [{ number: 1, currency: "jpy" }, "one yen"],
    [{ number: "1.01", currency: "GBP" }, "one pound and one penny"],
    [{ number: "0.5", currency: "EUR" }, "zero euros and fifty cents"],
    [{ number: "-5", currency: "USD" }, "minus five dollars"],
    [{ number: "1.005", currency: "KWD" }, "one dinar and five fils"],
    [
      { number: "12345678.50", currency: "INR", system: "indian" },
      "one crore twenty-three lakh forty-five thousand six hundred seventy-eight rupees and fifty paise",
    ],
  ])("%j is %s", async (raw, expected) => {
    const result = await spell({ ...raw, mode: "currency" });
    expect(result.words).toBe(expected);
    expect(result.currency).toBe(String(raw.currency).toUpperCase());
  });

  it.each([
    [{ number: "1.5", currency: "JPY" }, "no minor unit"],
    [{ number: "1.005", currency: "USD" }, "2 decimal places"],
  ])("%j is refused (%s)", async (raw, message) => {
    expect(expectProblem(await callOperation(postWords, { ...raw, mode: "currency" }), "invalid-input")).toContain(
      message,
    );
  });
});

describe("numtoword: refusals", () => {
  it.each([
    { number: "1,5" },
    { number: "12e3" },
    { number: "" },
    { number: "0x10" },
    { number: 5, mode: "currency" },
    { number: 5, mode: "currency", currency: "XYZ" },
    { number: 5, language: "it" },
    { number: 5, language: "es-MX" },
    { number: Number.NaN },
  ])("the schema refuses %j", (raw) => {
    expect(postWords.input.safeParse(raw).success).toBe(false);
  });

  it.each([
    [{ number: (10n ** 21n).toString() }, "10^21"],
    [{ number: "0.1234567" }, "6 decimal places"],
    [{ number: 0.1 + 0.2 }, "6 decimal places"],
    [{ number: 2 ** 53 + 2 }, "as a string"],
  ])("%j is refused (%s)", async (raw, message) => {
    expect(expectProblem(await callOperation(postWords, raw), "invalid-input")).toContain(message);
  });
});

describe("numtoword: properties", () => {
  it.each([getWords, postWords])("$id never throws on arbitrary or hostile input", async (operation) => {
    await expectNeverThrows(operation, {
      number: fc.oneof(fc.double(), fc.integer(), fc.stringMatching(/^[+-]?\d{0,25}(\.\d{0,8})?$/), fc.string()),
      mode: fc.constantFrom("cardinal", "ordinal", "currency", "other"),
      currency: fc.constantFrom("USD", "jpy", "KWD", "INR", "ABC", ""),
      system: fc.constantFrom("international", "indian"),
      language: fc.constantFrom("en", "hi", "es-ES", "fr", "de", "it"),
    });
  });
});

describe("numtoword: documentation", () => {
  it.each([getWords, postWords])("$id's example output is what the example input produces", async (operation) => {
    await expectExampleIsReal(operation);
  });
});
