/**
 * English number words, US style: short scale (billion = 10^9), hyphenated tens
 * ("twenty-one") and no "and" inside a number ("one hundred twenty-three"); "and" only joins
 * the major and minor units of an amount. Decimals are read digit by digit after "point",
 * negatives start with "minus", ordinals included ("minus twenty-first"). Integers are BigInt
 * so 21-digit numbers stay exact.
 */
import { CURRENCIES, type CurrencyCode } from "./currencies";
import { LANGUAGE_RULES, type LanguageRules } from "./languages";
import type { NumberToWordsInput, NumberWords } from "./schema";

export const MAX_INTEGER_DIGITS = 21;
export const MAX_FRACTION_DIGITS = 6;

/** Absent is international, for English. */
type NumberSystem = NumberToWordsInput["system"];

interface ParsedNumber {
  negative: boolean;
  integer: bigint;
  /** Decimal digits without trailing zeros; "" for an integer. */
  fraction: string;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
] as const;
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"] as const;
/** Enough for 21 digits: seven groups of three. */
const SCALES = ["", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion"] as const;
const LAKH = 100_000n;
const CRORE = 10_000_000n;

const IRREGULAR_ORDINALS: Readonly<Record<string, string>> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

/** Reads the caller's number into sign, integer and fraction without going through a float. */
export function parseNumber(value: string | number): Outcome<ParsedNumber> {
  let text: string;
  if (typeof value === "number") {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      return { ok: false, message: "integers beyond 2^53 lose digits as JSON numbers: send the number as a string" };
    }
    text = String(value);
    // String() switches to exponent form below 1e-6, which is past the six places anyway.
    if (/e/i.test(text)) return { ok: false, message: `at most ${MAX_FRACTION_DIGITS} decimal places` };
  } else {
    text = value.trim().replace(/,/g, "");
  }
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === "" && !match[3])) return { ok: false, message: `"${value}" is not a number` };
  const digits = (match[2] ?? "").replace(/^0+/, "");
  const fraction = (match[3] ?? "").replace(/0+$/, "");
  if (digits.length > MAX_INTEGER_DIGITS) {
    return { ok: false, message: `integers up to 10^${MAX_INTEGER_DIGITS} - 1 (${MAX_INTEGER_DIGITS} digits)` };
  }
  if (fraction.length > MAX_FRACTION_DIGITS) {
    return { ok: false, message: `at most ${MAX_FRACTION_DIGITS} decimal places` };
  }
  const integer = BigInt(digits === "" ? "0" : digits);
  // "-0" and "-0.000" are zero, which has no sign.
  const negative = match[1] === "-" && (integer !== 0n || fraction !== "");
  return { ok: true, value: { negative, integer, fraction } };
}

function formatNumber({ negative, integer, fraction }: ParsedNumber): string {
  return `${negative ? "-" : ""}${integer}${fraction ? `.${fraction}` : ""}`;
}

/** 1–999. */
function wordsBelowThousand(value: number): string[] {
  const words: string[] = [];
  const hundreds = Math.floor(value / 100);
  const rest = value % 100;
  if (hundreds > 0) words.push(ONES[hundreds] ?? "", "hundred");
  if (rest >= 20) {
    const unit = rest % 10;
    words.push(`${TENS[Math.floor(rest / 10)] ?? ""}${unit > 0 ? `-${ONES[unit] ?? ""}` : ""}`);
  } else if (rest > 0) {
    words.push(ONES[rest] ?? "");
  }
  return words;
}

function internationalWords(value: bigint): string[] {
  const groups: string[][] = [];
  let rest = value;
  for (let scale = 0; rest > 0n; scale++) {
    const group = Number(rest % 1000n);
    rest /= 1000n;
    if (group > 0) groups.unshift([...wordsBelowThousand(group), ...(scale > 0 ? [SCALES[scale] ?? ""] : [])]);
  }
  return groups.flat();
}

/** Thousand, lakh, crore; past 99 crore the count of crores is itself spelled the Indian way. */
function indianWords(value: bigint): string[] {
  if (value >= CRORE) {
    const rest = value % CRORE;
    return [...indianWords(value / CRORE), "crore", ...(rest > 0n ? indianWords(rest) : [])];
  }
  const lakhs = Number(value / LAKH);
  const thousands = Number((value % LAKH) / 1000n);
  const below = Number(value % 1000n);
  return [
    ...(lakhs > 0 ? [...wordsBelowThousand(lakhs), "lakh"] : []),
    ...(thousands > 0 ? [...wordsBelowThousand(thousands), "thousand"] : []),
    ...(below > 0 ? wordsBelowThousand(below) : []),
  ];
}

export function integerWords(value: bigint, system: NumberSystem): string {
  if (value === 0n) return "zero";
  return (system === "indian" ? indianWords(value) : internationalWords(value)).join(" ");
}

function ordinalWord(word: string): string {
  const irregular = IRREGULAR_ORDINALS[word];
  if (irregular) return irregular;
  return word.endsWith("y") ? `${word.slice(0, -1)}ieth` : `${word}th`;
}

/** Only the last word changes: "twenty-one" → "twenty-first", "one hundred" → "one hundredth". */
function ordinalize(words: string): string {
  const cut = Math.max(words.lastIndexOf(" "), words.lastIndexOf("-")) + 1;
  return words.slice(0, cut) + ordinalWord(words.slice(cut));
}

function unitName(count: bigint, [singular, plural]: readonly [string, string]): string {
  return count === 1n ? singular : plural;
}

function currencyWords(number: ParsedNumber, code: CurrencyCode, system: NumberSystem): Outcome<string> {
  const units = CURRENCIES[code];
  if (number.fraction.length > units.minorDigits) {
    return {
      ok: false,
      message:
        units.minorDigits === 0
          ? `${code} has no minor unit: give a whole amount`
          : `${code} has ${units.minorDigits} decimal places`,
    };
  }
  const major = `${integerWords(number.integer, system)} ${unitName(number.integer, units.major)}`;
  const minorCount = number.fraction === "" ? 0n : BigInt(number.fraction.padEnd(units.minorDigits, "0"));
  const minor =
    "minor" in units && minorCount > 0n
      ? ` and ${integerWords(minorCount, system)} ${unitName(minorCount, units.minor)}`
      : "";
  return { ok: true, value: major + minor };
}

/**
 * Hindi, Spanish, French and German: the sign, decimals and currency amounts are put together
 * here the same way for each; the words come from the language's rules (`languages.ts`).
 */
function spellInLanguage(number: ParsedNumber, input: NumberToWordsInput, rules: LanguageRules): Outcome<NumberWords> {
  const indianOnly = input.language === "hi";
  if (input.system !== undefined && (input.system === "indian") !== indianOnly) {
    return {
      ok: false,
      message: indianOnly
        ? "Hindi numbers are always grouped in thousand, lakh and crore: leave system out or send indian"
        : `system=indian is for en and hi; ${rules.name} has its own grouping: leave system out`,
    };
  }
  const sign = number.negative ? `${rules.minus} ` : "";
  const base = { number: formatNumber(number), mode: input.mode };

  if (input.mode === "ordinal") {
    const range = rules.ordinalMax === null ? "positive whole numbers" : `whole numbers from 1 to ${rules.ordinalMax}`;
    if (number.fraction !== "")
      return { ok: false, message: `ordinals are for whole numbers (in ${rules.name}: ${range})` };
    if (number.negative || number.integer === 0n || (rules.ordinalMax !== null && number.integer > rules.ordinalMax)) {
      return { ok: false, message: `${rules.name} ordinals are for ${range}` };
    }
    return { ok: true, value: { words: rules.ordinal(number.integer), ...base } };
  }

  if (input.mode === "currency") {
    if (!input.currency) return { ok: false, message: "currency is required when mode is currency" };
    if (input.currency !== rules.currency) {
      return { ok: false, message: `${rules.name} amounts are in ${rules.currency} only (other currencies in en)` };
    }
    const units = CURRENCIES[input.currency];
    if (number.fraction.length > units.minorDigits) {
      return { ok: false, message: `${input.currency} has ${units.minorDigits} decimal places` };
    }
    const minor = number.fraction === "" ? 0n : BigInt(number.fraction.padEnd(units.minorDigits, "0"));
    // As n2words does: the major part is left out of an amount below one ("un céntimo").
    const parts = [
      ...(number.integer > 0n || minor === 0n ? [rules.amount(number.integer, false)] : []),
      ...(minor > 0n ? [rules.amount(minor, true)] : []),
    ];
    return { ok: true, value: { words: sign + parts.join(rules.and), ...base, currency: input.currency } };
  }

  const digits = [...number.fraction].map((digit) => rules.cardinal(BigInt(digit))).join(" ");
  const words = rules.cardinal(number.integer) + (digits ? ` ${rules.point} ${digits}` : "");
  return { ok: true, value: { words: sign + words, ...base } };
}

export function spellNumber(input: NumberToWordsInput): Outcome<NumberWords> {
  const parsed = parseNumber(input.number);
  if (!parsed.ok) return parsed;
  const number = parsed.value;
  if (input.language !== "en") return spellInLanguage(number, input, LANGUAGE_RULES[input.language]);
  const sign = number.negative ? "minus " : "";
  const base = { number: formatNumber(number), mode: input.mode };

  if (input.mode === "ordinal") {
    if (number.fraction !== "") return { ok: false, message: "ordinals are for whole numbers" };
    // A negative ordinal counts from the other end ("minus twenty-first"), as for cardinals only
    // the magnitude's last word turns ordinal; zero has no sign, so "-0" is "zeroth".
    return { ok: true, value: { words: sign + ordinalize(integerWords(number.integer, input.system)), ...base } };
  }

  if (input.mode === "currency") {
    if (!input.currency) return { ok: false, message: "currency is required when mode is currency" };
    const words = currencyWords(number, input.currency, input.system);
    if (!words.ok) return words;
    return { ok: true, value: { words: sign + words.value, ...base, currency: input.currency } };
  }

  const digits = [...number.fraction].map((digit) => ONES[Number(digit)] ?? "").join(" ");
  const words = integerWords(number.integer, input.system) + (digits ? ` point ${digits}` : "");
  return { ok: true, value: { words: sign + words, ...base } };
}
