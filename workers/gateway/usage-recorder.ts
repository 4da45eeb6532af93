/** Writes one call into the daily rollups and the key's last-used time; runs after the response. */
import { utcDay } from "~workers/platform/usage";

/** Upper edges of the latency buckets, in ms; the last one catches everything slower. */
export const LATENCY_BUCKETS_MS = [
  5,
  10,
  25,
  50,
  100,
  250,
  500,
  1_000,
  2_500,
  5_000,
  10_000,
  30_000,
  Number.MAX_SAFE_INTEGER,
];

export function latencyBucket(latencyMs: number): number {
  return LATENCY_BUCKETS_MS.find((edge) => latencyMs <= edge) ?? Number.MAX_SAFE_INTEGER;
}

export interface CallRecord {
  userId: string;
  keyId: string;
  apiSlug: string;
  /** 2xx: counts against the quota. */
  success: boolean;
  latencyMs: number;
  at: number;
}

export async function recordCall(db: D1Database, call: CallRecord): Promise<void> {
  const latency = Math.max(0, Math.round(call.latencyMs));
  await db.batch([
    db
      .prepare(
        `INSERT INTO usage_daily (user_id, key_id, api_slug, day, calls, errors, total_latency_ms, max_latency_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id, key_id, api_slug, day) DO UPDATE SET
           calls = calls + excluded.calls,
           errors = errors + excluded.errors,
           total_latency_ms = total_latency_ms + excluded.total_latency_ms,
           max_latency_ms = MAX(max_latency_ms, excluded.max_latency_ms)`,
      )
      .bind(
        call.userId,
        call.keyId,
        call.apiSlug,
        utcDay(call.at),
        call.success ? 1 : 0,
        call.success ? 0 : 1,
        latency,
        latency,
      ),
    db
      .prepare(`UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`)
      .bind(call.at, call.keyId, call.at),
  ]);
}
