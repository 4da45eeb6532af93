/**
 * Fixed-window throttling on D1. One atomic upsert per hit, so concurrent requests from the
 * same client cannot both slip under the limit. The rule for every caller: reserve the attempt
 * (`hitThrottle`) *before* the slow work it guards — a password check, a mail — never check
 * first and count afterwards, or a burst of concurrent attempts all pass the check together.
 * Work that turns out not to count (a successful login) gives its reservation back
 * (`releaseThrottle`). The per-second API limits live in the Meter Durable Object instead,
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

/** Gives back a reservation made by `hitThrottle` in the same window (the attempt did not count). */
export async function releaseThrottle(
  db: D1Database,
  rule: ThrottleRule,
  subject: string,
  reservedAt: number,
): Promise<void> {
  const windowStart = reservedAt - (reservedAt % rule.windowMs);
  await db
    .prepare(`UPDATE rate_limit_windows SET hits = hits - 1 WHERE bucket = ? AND window_start = ? AND hits > 0`)
    .bind(`${rule.name}:${await sha256Hex(subject)}`, windowStart)
    .run();
}

/** Deletes windows that ended more than a day ago; called now and then, never on a hot path. */
export async function pruneThrottleWindows(db: D1Database, now: number = Date.now()): Promise<void> {
  await db
    .prepare(`DELETE FROM rate_limit_windows WHERE window_start < ?`)
    .bind(now - 24 * 60 * 60 * 1000)
    .run();
}

/**
 * The client a request came from, as throttles count it: Cloudflare's connecting address in
 * production ("local" when there is none, as in development). An IPv6 client is its /64: one
 * subscriber is routinely handed a whole /64, so counting single addresses would let it rotate
 * through 2^64 of them.
 */
export function clientAddress(request: Request): string {
  const address = request.headers.get("cf-connecting-ip")?.trim();
  if (!address) return "local";
  return address.includes(":") ? ipv6Prefix64(address) : address;
}

/** `2001:db8:a:b:1:2:3:4` → `2001:db8:a:b::/64`; anything unparseable stays as it was given. */
export function ipv6Prefix64(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0]!.toLowerCase();
  const halves = bare.split("::");
  if (halves.length > 2) return bare;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  // An embedded IPv4 tail (::ffff:1.2.3.4) lies in the last 64 bits, which are dropped anyway.
  const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes(".") ? 2 : 1), 0);
  const missing = 8 - width(head) - width(tail);
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return bare;
  const full = [...head, ...Array<string>(missing).fill("0"), ...tail];
  const prefix = full.slice(0, 4);
  if (!prefix.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return bare;
  return `${prefix.map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
