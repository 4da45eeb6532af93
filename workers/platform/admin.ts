/** What the admin pages read: users with their plan and this month's calls, and API latency. */
import { utcDay } from "./usage";

export interface AdminUserRow {
  id: string;
  email: string;
  name: string;
  planId: string;
  planExpiresAt: number | null;
  createdAt: number;
  activeKeys: number;
  callsThisMonth: number;
  errorsThisMonth: number;
}

export async function listUsersForAdmin(
  db: D1Database,
  options: { search: string; now: number; limit?: number },
): Promise<AdminUserRow[]> {
  const monthStart = utcDay(Date.UTC(new Date(options.now).getUTCFullYear(), new Date(options.now).getUTCMonth(), 1));
  const { results } = await db
    .prepare(
      `SELECT u.id, u.email, u.name, u.plan_id, u.plan_expires_at, u.created_at,
         (SELECT COUNT(*) FROM api_keys k WHERE k.user_id = u.id AND k.revoked_at IS NULL) AS active_keys,
         COALESCE((SELECT SUM(calls) FROM usage_daily d WHERE d.user_id = u.id AND d.day >= ?), 0) AS calls,
         COALESCE((SELECT SUM(errors) FROM usage_daily d WHERE d.user_id = u.id AND d.day >= ?), 0) AS errors
       FROM users u WHERE u.email LIKE ? ESCAPE '\\' ORDER BY u.created_at DESC LIMIT ?`,
    )
    .bind(monthStart, monthStart, `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, options.limit ?? 100)
    .all<{
      id: string;
      email: string;
      name: string;
      plan_id: string;
      plan_expires_at: number | null;
      created_at: number;
      active_keys: number;
      calls: number;
      errors: number;
    }>();
  return results.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    planId: row.plan_id,
    planExpiresAt: row.plan_expires_at,
    createdAt: row.created_at,
    activeKeys: row.active_keys,
    callsThisMonth: row.calls,
    errorsThisMonth: row.errors,
  }));
}

export interface ApiLatencyRow {
  apiSlug: string;
  calls: number;
  errors: number;
  meanLatencyMs: number;
  maxLatencyMs: number;
}

/** Per-API calls, errors and latency over the days since `sinceDay` (inclusive), from the rollups. */
export async function apiLatencySince(db: D1Database, sinceDay: string): Promise<ApiLatencyRow[]> {
  const { results } = await db
    .prepare(
      `SELECT api_slug, SUM(calls) AS calls, SUM(errors) AS errors, SUM(total_latency_ms) AS total, MAX(max_latency_ms) AS max
       FROM usage_daily WHERE day >= ? GROUP BY api_slug ORDER BY calls DESC`,
    )
    .bind(sinceDay)
    .all<{ api_slug: string; calls: number; errors: number; total: number; max: number }>();
  return results.map((row) => {
    const answered = row.calls + row.errors;
    return {
      apiSlug: row.api_slug,
      calls: row.calls,
      errors: row.errors,
      meanLatencyMs: answered ? Math.round(row.total / answered) : 0,
      maxLatencyMs: row.max,
    };
  });
}
