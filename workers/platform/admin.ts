import { z } from "zod";
import type { GatewayNotices } from "./gateway-notices";
import { createId } from "./ids";
import type { PlanId } from "./plans";
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
  lastCallAt: number | null;
  byApi: { apiSlug: string; calls: number; errors: number }[];
}

export async function listUsersForAdmin(
  db: D1Database,
  options: { search: string; now: number; limit?: number },
): Promise<AdminUserRow[]> {
  const monthStart = utcDay(Date.UTC(new Date(options.now).getUTCFullYear(), new Date(options.now).getUTCMonth(), 1));
  // LIKE with the caller's text taken literally: its own %, _ and \ are escaped.
  const pattern = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const limit = options.limit ?? 100;
  const { results } = await db
    .prepare(
      `SELECT u.id, u.email, u.name, u.plan_id, u.plan_expires_at, u.created_at,
         (SELECT COUNT(*) FROM api_keys k WHERE k.user_id = u.id AND k.revoked_at IS NULL) AS active_keys,
         COALESCE((SELECT SUM(calls) FROM usage_daily d WHERE d.user_id = u.id AND d.day >= ?), 0) AS calls,
         COALESCE((SELECT SUM(errors) FROM usage_daily d WHERE d.user_id = u.id AND d.day >= ?), 0) AS errors,
         (SELECT MAX(last_used_at) FROM api_keys k WHERE k.user_id = u.id) AS last_call_at
       FROM users u WHERE u.email LIKE ? ESCAPE '\\' ORDER BY u.created_at DESC LIMIT ?`,
    )
    .bind(monthStart, monthStart, pattern, limit)
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
      last_call_at: number | null;
    }>();
  // The same search again as a join, not an IN list: D1 binds at most 100 parameters.
  const perApi = await db
    .prepare(
      `SELECT d.user_id, d.api_slug, SUM(d.calls) AS calls, SUM(d.errors) AS errors
       FROM usage_daily d
       JOIN (SELECT id FROM users WHERE email LIKE ? ESCAPE '\\' ORDER BY created_at DESC LIMIT ?) u ON u.id = d.user_id
       WHERE d.day >= ? GROUP BY d.user_id, d.api_slug ORDER BY calls DESC`,
    )
    .bind(pattern, limit, monthStart)
    .all<{ user_id: string; api_slug: string; calls: number; errors: number }>();
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
    lastCallAt: row.last_call_at,
    byApi: perApi.results
      .filter((usage) => usage.user_id === row.id)
      .map((usage) => ({ apiSlug: usage.api_slug, calls: usage.calls, errors: usage.errors })),
  }));
}

/** The bucket edge at or below which `fraction` of the calls fall. */
export function percentileFromBuckets(buckets: { upperMs: number; calls: number }[], fraction: number): number | null {
  const total = buckets.reduce((sum, bucket) => sum + bucket.calls, 0);
  if (total === 0) return null;
  const sorted = [...buckets].sort((a, b) => a.upperMs - b.upperMs);
  let seen = 0;
  for (const bucket of sorted) {
    seen += bucket.calls;
    if (seen >= fraction * total) return bucket.upperMs;
  }
  return sorted.at(-1)?.upperMs ?? null;
}

export const GrantPlanSchema = z.object({
  planId: z.enum(["free", "standard", "premium"]),
  days: z.coerce.number().int().min(1).max(366),
  reason: z.string().trim().max(500).default(""),
});

export type GrantPlanResult = { ok: true; planExpiresAt: number | null } | { ok: false; code: "not-found" };

/**
 * Support's tool: puts a user on a plan for a number of days from now (Free ends any paid
 * plan), with an audit record of who did it and what it was before, in one batch. The gateway
 * hears of the new plan version before this returns (`GatewayNotices`), so the plan applies
 * to the account's next call. Who may grant is the adapters' check (`isAdmin`).
 */
export async function grantPlan(
  db: D1Database,
  notices: GatewayNotices,
  grant: { adminUserId: string; targetUserId: string; planId: PlanId; days: number; reason: string },
  now: number = Date.now(),
): Promise<GrantPlanResult> {
  const before = await db
    .prepare(`SELECT plan_id, plan_expires_at FROM users WHERE id = ?`)
    .bind(grant.targetUserId)
    .first<{ plan_id: string; plan_expires_at: number | null }>();
  if (!before) return { ok: false, code: "not-found" };
  const planExpiresAt = grant.planId === "free" ? null : now + grant.days * 24 * 60 * 60 * 1000;
  const [moved] = await db.batch([
    db
      .prepare(
        `UPDATE users SET plan_id = ?, plan_expires_at = ?, plan_version = plan_version + 1, updated_at = ?
         WHERE id = ? RETURNING plan_version`,
      )
      .bind(grant.planId, planExpiresAt, now, grant.targetUserId),
    db
      .prepare(
        `INSERT INTO admin_audit (id, admin_user_id, target_user_id, action, detail, created_at) VALUES (?, ?, ?, 'grant-plan', ?, ?)`,
      )
      .bind(
        createId("aud"),
        grant.adminUserId,
        grant.targetUserId,
        JSON.stringify({
          from: { planId: before.plan_id, planExpiresAt: before.plan_expires_at },
          to: { planId: grant.planId, planExpiresAt },
          days: grant.days,
          reason: grant.reason,
        }),
        now,
      ),
  ]);
  const version = (moved?.results[0] as { plan_version: number } | undefined)?.plan_version;
  if (version !== undefined) await notices.planChanged(grant.targetUserId, version);
  return { ok: true, planExpiresAt };
}
