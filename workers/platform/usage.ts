/** Reading the usage rollups (the gateway writes them). */
export interface MonthUsage {
  /** Successful calls this month: what counts against the quota. */
  calls: number;
  errors: number;
  byApi: { apiSlug: string; calls: number; errors: number }[];
  /** First day of the period, YYYY-MM-DD (UTC). */
  since: string;
}

export function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
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
