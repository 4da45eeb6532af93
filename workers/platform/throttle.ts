/**
 * Fixed-window throttling on D1. One atomic upsert per hit, so concurrent requests from the
 * same client cannot both slip under the limit. Used for the public forms here and for
 * failed logins later; the per-second API limits live in the Meter Durable Object instead,
 * because a D1 round trip per call is too slow for them.
 */
import { sha256Hex } from "./ids";

export interface ThrottleRule {
  /** Names the limit: `contact`, `newsletter`, `login-email`. */
  name: string;
  limit: number;
  windowMs: number;
}

export type ThrottleResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export async function hitThrottle(
  db: D1Database,
  rule: ThrottleRule,
  subject: string,
  now: number = Date.now(),
): Promise<ThrottleResult> {
  const windowStart = now - (now % rule.windowMs);
  const bucket = `${rule.name}:${await sha256Hex(subject)}`;
  const row = await db
    .prepare(
      `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES (?, ?, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + 1
       RETURNING hits`,
    )
    .bind(bucket, windowStart)
    .first<{ hits: number }>();
  const hits = row?.hits ?? 1;
  if (hits > rule.limit) {
    return { ok: false, retryAfterSeconds: Math.ceil((windowStart + rule.windowMs - now) / 1000) };
  }
  return { ok: true, remaining: rule.limit - hits };
}

/** Whether the subject is already over the limit, without counting a hit. */
export async function isThrottled(
  db: D1Database,
  rule: ThrottleRule,
  subject: string,
  now: number = Date.now(),
): Promise<ThrottleResult> {
  const windowStart = now - (now % rule.windowMs);
  const row = await db
    .prepare(`SELECT hits FROM rate_limit_windows WHERE bucket = ? AND window_start = ?`)
    .bind(`${rule.name}:${await sha256Hex(subject)}`, windowStart)
    .first<{ hits: number }>();
  const hits = row?.hits ?? 0;
  if (hits >= rule.limit) {
    return { ok: false, retryAfterSeconds: Math.ceil((windowStart + rule.windowMs - now) / 1000) };
  }
  return { ok: true, remaining: rule.limit - hits };
}

/** Deletes windows that ended more than a day ago; called now and then, never on a hot path. */
export async function pruneThrottleWindows(db: D1Database, now: number = Date.now()): Promise<void> {
  await db
    .prepare(`DELETE FROM rate_limit_windows WHERE window_start < ?`)
    .bind(now - 24 * 60 * 60 * 1000)
    .run();
}

/** The address a request came from: Cloudflare's header in production, a fixed name locally. */
export function clientAddress(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? "local";
}
