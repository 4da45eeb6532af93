/**
 * Writes one call into the rollups and the key's last-used time; runs after the response. Two
 * sets of rollups: per account, key, API and UTC day (usage_daily: the dashboard and the admin's
 * user list), and per API and UTC hour (usage_api_hourly and usage_latency_hourly: the
 * benchmarking page's last 24 hours and last 7 days).
 */
import { utcDay, utcHourStart } from "~workers/platform/usage";

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
  /** 2xx: a call in the rollups, anything else an error. (The Meter's count follows decision 013.) */
  success: boolean;
  /**
   * How many calls the Meter counted this one as (a batch's weight, decision 048); 1 unless
   * given. The account's daily rollup counts them, so the dashboard agrees with the quota; the
   * per-API hourly rollups and latency buckets count requests, whose latency they measure.
   */
  weight?: number;
  latencyMs: number;
  at: number;
}

interface CallCounts {
  /** Calls and errors count a call's weight where the rollup is the account's (decision 048). */
  calls: number;
  errors: number;
  /**
   * Latency always adds once per request, whatever its weight: a batch of 50 took its time
   * once. So in usage_daily, total_latency_ms / (calls + errors) is no mean latency once a
   * batch is in the day; nothing reads it so (the benchmarking page reads the hourly rollups,
   * whose calls are requests). A mean per request there would need a request count of its own.
   */
  totalLatency: number;
  maxLatency: number;
}

interface Rollup extends CallCounts {
  userId: string;
  keyId: string;
  apiSlug: string;
  day: string;
}

interface ApiHourRollup extends CallCounts {
  apiSlug: string;
  hourStart: number;
}

const noCalls = (): CallCounts => ({ calls: 0, errors: 0, totalLatency: 0, maxLatency: 0 });

function countCall(counts: CallCounts, success: boolean, latency: number, weight = 1): void {
  if (success) counts.calls += weight;
  else counts.errors += weight;
  counts.totalLatency += latency;
  counts.maxLatency = Math.max(counts.maxLatency, latency);
}

interface LatencyBucketCount {
  apiSlug: string;
  hourStart: number;
  upperMs: number;
  calls: number;
}

/**
 * Calls wait here and are written together, one D1 batch per flush, every `flushAfterMs`
 * (USAGE_FLUSH_SECONDS: 20 in production, 1 locally so a developer sees a call on the
 * dashboard at once). A flush writes one row per account, key and API of the window, so the
 * longer the window, the fewer D1 writes per call: at 20 s the bench's sustained run costs
 * about 0.01 write per call (issue #17's bound is 0.02). The window stays under the 30 s a
 * Worker may keep working after its response (waitUntil). If the isolate is evicted before a
 * flush, that window's rollups are lost: they feed the dashboard and benchmarks, while quotas
 * are counted by the Meter and lose nothing.
 */
export const DEFAULT_FLUSH_AFTER_MS = 1_000;

/**
 * A key's last use is written at most once a minute per isolate: the API key page shows it to
 * the minute, and writing it with every flush would double the statements of a flush.
 */
export const LAST_USED_GRANULARITY_MS = 60_000;
const rollups = new Map<string, Rollup>();
const apiHourRollups = new Map<string, ApiHourRollup>();
const latencyBuckets = new Map<string, LatencyBucketCount>();
const lastUsed = new Map<string, number>();
/** When each key's last use was last written from this isolate. */
const lastUsedWritten = new Map<string, number>();
let flushScheduled = false;

export function recordCall(
  db: D1Database,
  waitUntil: (promise: Promise<unknown>) => void,
  call: CallRecord,
  flushAfterMs: number = DEFAULT_FLUSH_AFTER_MS,
): void {
  const latency = Math.max(0, Math.round(call.latencyMs));
  const day = utcDay(call.at);
  const hourStart = utcHourStart(call.at);
  const key = `${call.userId}|${call.keyId}|${call.apiSlug}|${day}`;
  const rollup = rollups.get(key) ?? {
    userId: call.userId,
    keyId: call.keyId,
    apiSlug: call.apiSlug,
    day,
    ...noCalls(),
  };
  countCall(rollup, call.success, latency, call.weight ?? 1);
  rollups.set(key, rollup);
  const hourKey = `${call.apiSlug}|${hourStart}`;
  const apiHour = apiHourRollups.get(hourKey) ?? { apiSlug: call.apiSlug, hourStart, ...noCalls() };
  countCall(apiHour, call.success, latency);
  apiHourRollups.set(hourKey, apiHour);
  const upperMs = latencyBucket(latency);
  const bucketKey = `${call.apiSlug}|${hourStart}|${upperMs}`;
  const bucket = latencyBuckets.get(bucketKey) ?? { apiSlug: call.apiSlug, hourStart, upperMs, calls: 0 };
  bucket.calls += 1;
  latencyBuckets.set(bucketKey, bucket);
  lastUsed.set(call.keyId, Math.max(lastUsed.get(call.keyId) ?? 0, call.at));
  if (flushScheduled) return;
  flushScheduled = true;
  waitUntil(
    new Promise((resolve) => setTimeout(resolve, flushAfterMs))
      .then(() => flushUsage(db))
      .catch((error: unknown) => console.error("usage not recorded:", error)),
  );
}

/** Writes what has gathered since the last flush. */
export async function flushUsage(db: D1Database): Promise<void> {
  flushScheduled = false;
  const pendingRollups = [...rollups.values()];
  const pendingApiHours = [...apiHourRollups.values()];
  const pendingBuckets = [...latencyBuckets.values()];
  const now = Date.now();
  const pendingLastUsed = [...lastUsed.entries()].filter(
    ([keyId]) => now - (lastUsedWritten.get(keyId) ?? 0) >= LAST_USED_GRANULARITY_MS,
  );
  for (const [keyId] of pendingLastUsed) lastUsedWritten.set(keyId, now);
  rollups.clear();
  apiHourRollups.clear();
  latencyBuckets.clear();
  // A key's use not written this time waits for the next flush after its minute is up.
  for (const [keyId] of pendingLastUsed) lastUsed.delete(keyId);
  // Every recorded call adds to each of these maps: no rollups means nothing to write.
  if (pendingRollups.length === 0) return;
  await db.batch([
    ...pendingRollups.map((row) =>
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
        .bind(row.userId, row.keyId, row.apiSlug, row.day, row.calls, row.errors, row.totalLatency, row.maxLatency),
    ),
    ...pendingApiHours.map((row) =>
      db
        .prepare(
          `INSERT INTO usage_api_hourly (hour_start, api_slug, calls, errors, total_latency_ms, max_latency_ms)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (hour_start, api_slug) DO UPDATE SET
             calls = calls + excluded.calls,
             errors = errors + excluded.errors,
             total_latency_ms = total_latency_ms + excluded.total_latency_ms,
             max_latency_ms = MAX(max_latency_ms, excluded.max_latency_ms)`,
        )
        .bind(row.hourStart, row.apiSlug, row.calls, row.errors, row.totalLatency, row.maxLatency),
    ),
    ...pendingBuckets.map((bucket) =>
      db
        .prepare(
          `INSERT INTO usage_latency_hourly (hour_start, api_slug, upper_ms, calls) VALUES (?, ?, ?, ?)
           ON CONFLICT (hour_start, api_slug, upper_ms) DO UPDATE SET calls = calls + excluded.calls`,
        )
        .bind(bucket.hourStart, bucket.apiSlug, bucket.upperMs, bucket.calls),
    ),
    ...pendingLastUsed.map(([keyId, at]) =>
      db
        .prepare(`UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`)
        .bind(at, keyId, at),
    ),
  ]);
}
