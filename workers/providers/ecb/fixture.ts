/**
 * The days the fake ECB feed publishes (development and tests). Made-up rates on the real
 * business-day calendar, except one real day:
 *
 * - 2024-10-10 is the ECB's own fixing for that day, all 30 currencies, as quoted in the
 *   README of the `ecb_rates` Hex package (1.0.0, ISC), which fetches it from the ECB's
 *   eurofxref-hist.xml. The docs' examples use it, so what they show is real.
 * - Every other day is synthetic: that day's 2024-10-10 rate moved by up to ±2 %, by a formula,
 *   so tests can tell which day answered. They cover 2022-12-19 to 2023-01-13 (Croatia's kuna
 *   ends on 2022-12-30, the euro replacing it on 2023-01-01), 2024-03-25 to 2024-04-05 (Good
 *   Friday and Easter Monday), 2024-10-07 to 2024-10-18, and the last 90 business days before
 *   `now` (so `latest` is fresh in development and in tests, whenever they run).
 *
 * None of this is shipped to production: only the fake imports it.
 */
import { dateOfDay, dayNumber, isTargetBusinessDay, latestDueDay } from "./calendar";
import type { DayRates } from "./feed";

/** The ECB's reference rates of 2024-10-10 (see above). */
export const ECB_2024_10_10: Readonly<Record<string, number>> = {
  USD: 1.0932,
  JPY: 162.85,
  BGN: 1.9558,
  CZK: 25.317,
  DKK: 7.4592,
  GBP: 0.83686,
  HUF: 400.4,
  PLN: 4.3048,
  RON: 4.9756,
  SEK: 11.3655,
  CHF: 0.9393,
  ISK: 148.5,
  NOK: 11.792,
  TRY: 37.4017,
  AUD: 1.6276,
  BRL: 6.1061,
  CAD: 1.5031,
  CNY: 7.7376,
  HKD: 8.496,
  IDR: 17165.59,
  ILS: 4.1238,
  INR: 91.7985,
  KRW: 1477.51,
  MXN: 21.2788,
  MYR: 4.6915,
  NZD: 1.7998,
  PHP: 62.762,
  SGD: 1.43,
  THB: 36.721,
  ZAR: 19.2391,
};

/** The kuna's last days, near its conversion rate of 7.53450 (synthetic, like the rest). */
const HRK_BASE = 7.5365;
export const HRK_LAST_DAY = "2022-12-30";

function synthetic(base: number, day: number, salt: number): number {
  const step = ((day * 7 + salt * 13) % 41) - 20; // -20 … 20
  return Number((base * (1 + step / 1000)).toPrecision(6));
}

function dayOf(day: number, withKuna: boolean): DayRates {
  const date = dateOfDay(day);
  if (date === "2024-10-10") return { date, rates: { ...ECB_2024_10_10 } };
  const rates: Record<string, number> = {};
  Object.entries(ECB_2024_10_10).forEach(([code, base], index) => {
    rates[code] = synthetic(base, day, index);
  });
  if (withKuna) rates.HRK = synthetic(HRK_BASE, day, 99);
  return { date, rates };
}

function window(from: string, to: string): number[] {
  const days: number[] = [];
  for (let day = dayNumber(from) as number; day <= (dayNumber(to) as number); day += 1) {
    if (isTargetBusinessDay(day)) days.push(day);
  }
  return days;
}

const kunaLast = dayNumber(HRK_LAST_DAY) as number;

/** The fixture's days for `now`, oldest first. */
export function fixtureDays(now: number): DayRates[] {
  const days = new Set<number>([
    ...window("2022-12-19", "2023-01-13"),
    ...window("2024-03-25", "2024-04-05"),
    ...window("2024-10-07", "2024-10-18"),
  ]);
  let day = latestDueDay(now);
  for (let count = 0; count < 90; day -= 1) {
    if (!isTargetBusinessDay(day)) continue;
    days.add(day);
    count += 1;
  }
  return [...days].sort((a, b) => a - b).map((value) => dayOf(value, value <= kunaLast));
}
