/**
 * Conversions over one ECB day. The ECB quotes every currency against the euro, so a cross rate
 * is two of its quotes divided (USD→JPY = JPY per EUR ÷ USD per EUR), computed in full double
 * precision with the amount multiplied in before anything is rounded; rounding happens once,
 * at the output.
 *
 * The rounding keeps at least Frankfurter's decimals (none above 5,000, two above 80, three
 * above 20, four above 1, five below) and at least seven significant digits, the most the ECB
 * ever quotes: Frankfurter's rule alone prints the ECB's own 91.7985 rupees as 91.8 and
 * 17165.59 rupiah as 17166, and one rupiah in euros as 0.00006 (one significant digit). Here
 * every quote of the ECB comes back as published, and one rupiah is 0.00005825608 euros.
 */
import { dayNumber } from "~workers/providers/ecb/calendar";
import type { DayRates } from "~workers/providers/ecb/feed";
import type { CurrencySpan } from "~workers/providers/ecb/store";

/** The decimals a value keeps at the output (see above). */
export function outputDecimals(value: number): number {
  const size = Math.abs(value);
  const frankfurter = size > 5000 ? 0 : size > 80 ? 2 : size > 20 ? 3 : size > 1 ? 4 : 5;
  if (size === 0) return frankfurter;
  return Math.max(frankfurter, SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(size)));
}

/** The ECB's quotes have at most seven significant digits (17165.59 rupiah). */
export const SIGNIFICANT_DIGITS = 7;

export function roundOutput(value: number): number {
  return Number(value.toFixed(Math.min(outputDecimals(value), 20)));
}

/** The ECB's first day of reference rates. */
export const FIRST_ECB_DAY = "1999-01-04";

/** Why a currency has no rate on a day: after its last, before its first, or a gap (the krona 2008–2018). */
export function unpublishedDetail(
  code: string,
  date: string,
  span: CurrencySpan,
): { detail: string; extensions: Record<string, unknown> } {
  if (date > span.last) {
    return {
      detail: `The ECB stopped publishing ${code} after ${span.last}; ask for a date up to ${span.last}.`,
      extensions: { currency: code, lastDate: span.last },
    };
  }
  if (date < span.first) {
    return {
      detail: `The ECB's rates for ${code} begin on ${span.first}; ask for a date from ${span.first}.`,
      extensions: { currency: code, firstDate: span.first },
    };
  }
  return {
    detail: `The ECB published no ${code} rate on ${date}.`,
    extensions: { currency: code, firstDate: span.first, lastDate: span.last },
  };
}

/** Units of `code` per euro on the day, or undefined where the ECB published none. */
export function euroRate(day: DayRates, code: string): number | undefined {
  return code === "EUR" ? 1 : day.rates[code];
}

/**
 * `amount` of `base` in each target on the day, unrounded; targets the day lacks are left out.
 * Without targets, every currency of the day and the euro, except the base (as Frankfurter).
 */
export function convertOnDay(
  day: DayRates,
  base: string,
  targets: readonly string[] | undefined,
  amount: number,
): Record<string, number> | null {
  const baseRate = euroRate(day, base);
  if (baseRate === undefined) return null;
  const codes = targets ?? ["EUR", ...Object.keys(day.rates)].filter((code) => code !== base).sort();
  const converted: Record<string, number> = {};
  for (const code of codes) {
    const rate = euroRate(day, code);
    // amount × (to per EUR) ÷ (base per EUR): one division, after the multiplication.
    if (rate !== undefined) converted[code] = (amount * rate) / baseRate;
  }
  return converted;
}

export function roundAll(values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([code, value]) => [code, roundOutput(value)]));
}

/** Today in UTC as a day number: the latest date a caller may ask for is tomorrow (time zones east of UTC). */
export function latestAskableDay(now: number): number {
  return Math.floor(now / 86_400_000) + 1;
}

export type DatePath = { kind: "day"; date: string } | { kind: "range"; start: string; end: string | null };

/** `2024-10-10`, `2024-10-01..2024-10-31` or `2024-10-01..` (open end), as Frankfurter writes them. */
export function parseDatePath(text: string): DatePath | { error: string } {
  const match = /^(\d{4}-\d{2}-\d{2})(\.\.(\d{4}-\d{2}-\d{2})?)?$/.exec(text);
  if (!match)
    return { error: "Write a date as YYYY-MM-DD, or a range as YYYY-MM-DD..YYYY-MM-DD (the end may be left out)." };
  const [, first = "", dots, last] = match;
  if (dayNumber(first) === null) return { error: `${first} is not a date.` };
  if (!dots) return { kind: "day", date: first };
  if (last !== undefined && dayNumber(last) === null) return { error: `${last} is not a date.` };
  if (last !== undefined && last < first) return { error: `The range ends (${last}) before it starts (${first}).` };
  return { kind: "range", start: first, end: last ?? null };
}
