/** Reading the usage rollups (the gateway writes them). */
export interface MonthUsage {
  /**
   * Successful (2xx) calls this period. The quota itself is the Meter's count, which also counts
   * a refusal a handler made after reaching the network (decision 013); such calls show here
   * under `errors`.
   */
  calls: number;
  errors: number;
  byApi: { apiSlug: string; calls: number; errors: number }[];
  /** First day of the period, YYYY-MM-DD (UTC). */
  since: string;
}

export function utcDay(time: number): string {
  // The gateway records every call under its day: the last day's string is kept, since
  // formatting a date on each call was a measurable part of the recording's CPU (#17).
  const day = Math.floor(time / DAY_MS);
  if (day !== lastDay.number) lastDay = { number: day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

const DAY_MS = 24 * 60 * 60 * 1000;
let lastDay = { number: Number.NaN, text: "" };

export const HOUR_MS = 60 * 60 * 1000;

/** Epoch ms of the start of the UTC hour holding `time`: the key of the hourly rollups. */
export function utcHourStart(time: number): number {
  return Math.floor(time / HOUR_MS) * HOUR_MS;
}

/** The hourly rollups feed /benchmarking's last 7 days; a day's margin beyond that is kept. */
export const HOURLY_USAGE_KEPT_MS = 8 * 24 * HOUR_MS;

/** Deletes hourly rollups older than HOURLY_USAGE_KEPT_MS (daily housekeeping). */
export async function pruneHourlyUsage(db: D1Database, now: number = Date.now()): Promise<void> {
  const before = utcHourStart(now - HOURLY_USAGE_KEPT_MS);
  await db.batch([
    db.prepare("DELETE FROM usage_api_hourly WHERE hour_start < ?").bind(before),
    db.prepare("DELETE FROM usage_latency_hourly WHERE hour_start < ?").bind(before),
  ]);
}

export async function usageSince(db: D1Database, userId: string, since: number): Promise<MonthUsage> {
  const sinceDay = utcDay(since);
  const { results } = await db
    .prepare(
      `SELECT api_slug, SUM(calls) AS calls, SUM(errors) AS errors FROM usage_daily
       WHERE user_id = ? AND day >= ? GROUP BY api_slug ORDER BY calls DESC`,
    )
    .bind(userId, sinceDay)
    .all<{ api_slug: string; calls: number; errors: number }>();
  const byApi = results.map((row) => ({ apiSlug: row.api_slug, calls: row.calls, errors: row.errors }));
  return {
    calls: byApi.reduce((sum, row) => sum + row.calls, 0),
    errors: byApi.reduce((sum, row) => sum + row.errors, 0),
    byApi,
    since: sinceDay,
  };
}

/** Calls per UTC day over the last `days` days, oldest first, with empty days filled in. */
export async function dailyCalls(
  db: D1Database,
  userId: string,
  now: number,
  days = 30,
): Promise<{ day: string; calls: number; errors: number }[]> {
  const first = now - (days - 1) * 24 * 60 * 60 * 1000;
  const { results } = await db
    .prepare(
      `SELECT day, SUM(calls) AS calls, SUM(errors) AS errors FROM usage_daily WHERE user_id = ? AND day >= ? GROUP BY day`,
    )
    .bind(userId, utcDay(first))
    .all<{ day: string; calls: number; errors: number }>();
  const byDay = new Map(results.map((row) => [row.day, row]));
  return Array.from({ length: days }, (_, index) => {
    const day = utcDay(first + index * 24 * 60 * 60 * 1000);
    const row = byDay.get(day);
    return { day, calls: row?.calls ?? 0, errors: row?.errors ?? 0 };
  });
}

/** One API's calls, errors and latency histogram, summed over a run of hours. */
export interface ApiHourlyUsage {
  apiSlug: string;
  calls: number;
  errors: number;
  totalLatencyMs: number;
  maxLatencyMs: number;
  /** Calls per latency bucket, by the bucket's upper edge in ms. */
  latencyBuckets: { upperMs: number; calls: number }[];
}

/** Per-API usage over the hours starting at or after `sinceHourStart`, busiest API first. */
export async function apiUsageSinceHour(db: D1Database, sinceHourStart: number): Promise<ApiHourlyUsage[]> {
  const [totals, histogram] = await Promise.all([
    db
      .prepare(
        `SELECT api_slug, SUM(calls) AS calls, SUM(errors) AS errors, SUM(total_latency_ms) AS total_latency_ms,
           MAX(max_latency_ms) AS max_latency_ms
         FROM usage_api_hourly WHERE hour_start >= ? GROUP BY api_slug ORDER BY calls DESC, api_slug`,
      )
      .bind(sinceHourStart)
      .all<{ api_slug: string; calls: number; errors: number; total_latency_ms: number; max_latency_ms: number }>(),
    db
      .prepare(
        `SELECT api_slug, upper_ms, SUM(calls) AS calls FROM usage_latency_hourly
         WHERE hour_start >= ? GROUP BY api_slug, upper_ms ORDER BY upper_ms`,
      )
      .bind(sinceHourStart)
      .all<{ api_slug: string; upper_ms: number; calls: number }>(),
  ]);
  return totals.results.map((row) => ({
    apiSlug: row.api_slug,
    calls: row.calls,
    errors: row.errors,
    totalLatencyMs: row.total_latency_ms,
    maxLatencyMs: row.max_latency_ms,
    latencyBuckets: histogram.results
      .filter((bucket) => bucket.api_slug === row.api_slug)
      .map((bucket) => ({ upperMs: bucket.upper_ms, calls: bucket.calls })),
  }));
}
