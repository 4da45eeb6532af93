/**
 * The ECB's publishing calendar: reference rates are set on TARGET business days (Monday to
 * Friday except New Year's Day, Good Friday, Easter Monday, 1 May, 25 and 26 December) and
 * published around 16:00 CET. The stored days are the truth for answering a date (a day
 * without rows had no rates); this calendar only says which day *should* be stored by now,
 * to tell a missed fetch (`stale`) from a day the ECB did not publish, and which feed the cron
 * needs to catch up.
 */

const DAY_MS = 86_400_000;

/** "2024-10-10" → days since 1970-01-01, or null when it is not a real calendar date. */
export function dayNumber(date: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  // Date.UTC rolls 2023-02-30 over to March: a round trip tells a real date from one rolled.
  if (new Date(ms).toISOString().slice(0, 10) !== date) return null;
  return ms / DAY_MS;
}

export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Easter Sunday of `year` (Gregorian; the anonymous algorithm in Meeus), as a day number. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const dayOfMonth = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, dayOfMonth) / DAY_MS;
}

export function isTargetBusinessDay(day: number): boolean {
  // 1970-01-01 was a Thursday: (day + 4) % 7 is 0 on Sundays.
  const weekday = (((day + 4) % 7) + 7) % 7;
  if (weekday === 0 || weekday === 6) return false;
  const date = dateOfDay(day);
  const monthDay = date.slice(5);
  if (monthDay === "01-01" || monthDay === "05-01" || monthDay === "12-25" || monthDay === "12-26") return false;
  const easter = easterSunday(Number(date.slice(0, 4)));
  return day !== easter - 2 && day !== easter + 1;
}

/**
 * Publication is "around 16:00 CET" (15:00 UTC in winter, 14:00 UTC in summer); a day counts as
 * due from 16:00 UTC, which leaves the ECB's usual delays room in both seasons.
 */
const DUE_AFTER_MS = 16 * 3_600_000;

/** The latest business day whose rates should be published by `now`. */
export function latestDueDay(now: number): number {
  let day = Math.floor((now - DUE_AFTER_MS) / DAY_MS);
  while (!isTargetBusinessDay(day)) day -= 1;
  return day;
}

/** How many business days after `from` up to and including `to` (0 when `to` is not later). */
export function businessDaysAfter(from: number, to: number): number {
  let count = 0;
  for (let day = from + 1; day <= to; day += 1) if (isTargetBusinessDay(day)) count += 1;
  return count;
}

/**
 * Freshness of the newest stored day: `stale` once the fetches have failed for more than one
 * business day, i.e. at least two due business days are missing. One missing day is normal
 * between 16:00 UTC and the cron's next success, so it does not count.
 */
export function freshness(
  latestStored: string,
  now: number,
): { stale: false } | { stale: true; ageBusinessDays: number } {
  const stored = dayNumber(latestStored);
  if (stored === null) return { stale: false };
  const missing = businessDaysAfter(stored, latestDueDay(now));
  return missing > 1 ? { stale: true, ageBusinessDays: missing } : { stale: false };
}
