/**
 * Resolving the API key of a call: isolate memory (a few seconds) -> KV (minutes) -> D1, by
 * the key's SHA-256. The record also carries the account's plan, so the gateway needs no
 * other lookup on its hot path.
 *
 * The caches are not trusted to know about a revoke or a plan change: KV is eventually
 * consistent, every isolate keeps its own memory, and a lookup that read D1 just before a
 * revoke can write the old record back to KV afterwards. The account's Meter judges each
 * record the gateway uses (its key id and plan version, meter.ts); when it answers "stale" the
 * gateway calls `reloadApiKey`, which reads D1 and replaces both cached copies.
 */
import { z } from "zod";
import { apiKeyCacheName } from "~workers/platform/api-keys";
import { sha256Hex } from "~workers/platform/ids";
import { REFERRAL_BONUS_CALLS, type PlanId } from "~workers/platform/plans";

export const MEMORY_TTL_MS = 5_000;
export const KV_TTL_SECONDS = 300;

const KeyRecordSchema = z.object({
  keyId: z.string(),
  userId: z.string(),
  revoked: z.boolean(),
  planId: z.enum(["free", "standard", "premium"]),
  planExpiresAt: z.number().nullable(),
  /** `users.plan_version` when the record was read; older than the Meter's means stale. */
  planVersion: z.number().int().min(0),
  bonusCalls: z.number().int().min(0),
});
export type KeyRecord = z.infer<typeof KeyRecordSchema>;

const memory = new Map<string, { record: KeyRecord | null; until: number }>();

/** The key a request carries: `x-api-key`, `Authorization: Bearer`, or the older `X-Avatar-Key`. */
export function presentedKey(request: Request): string | null {
  const header =
    request.headers.get("x-api-key") ??
    request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1] ??
    request.headers.get("x-avatar-key");
  const key = header?.trim();
  return key ? key : null;
}

const KEY_RECORD_SELECT = `SELECT k.id AS key_id, k.user_id, k.revoked_at, u.plan_id, u.plan_expires_at, u.plan_version,
         EXISTS (SELECT 1 FROM referrals r WHERE r.referred_user_id = u.id) AS referred
       FROM api_keys k JOIN users u ON u.id = k.user_id`;

/** A key's record by the key's hash (a key presented in a header) or by its id (a signed URL). */
async function loadFromD1(db: D1Database, by: { hash: string } | { id: string }): Promise<KeyRecord | null> {
  const statement =
    "hash" in by
      ? db.prepare(`${KEY_RECORD_SELECT} WHERE k.hash = ?`).bind(by.hash)
      : db.prepare(`${KEY_RECORD_SELECT} WHERE k.id = ?`).bind(by.id);
  const row = await statement.first<{
    key_id: string;
    user_id: string;
    revoked_at: number | null;
    plan_id: string;
    plan_expires_at: number | null;
    plan_version: number;
    referred: number;
  }>();
  if (!row) return null;
  return {
    keyId: row.key_id,
    userId: row.user_id,
    revoked: row.revoked_at !== null,
    planId: (["free", "standard", "premium"].includes(row.plan_id) ? row.plan_id : "free") as PlanId,
    planExpiresAt: row.plan_expires_at,
    planVersion: row.plan_version,
    bonusCalls: row.referred ? REFERRAL_BONUS_CALLS : 0,
  };
}

function remember(hash: string, record: KeyRecord | null, now: number): void {
  memory.set(hash, { record, until: now + MEMORY_TTL_MS });
  if (memory.size > 10_000) memory.delete(memory.keys().next().value as string);
}

/** Where the records live: D1, the truth, and KV, a cache shared by every isolate. */
type KeyBindings = Pick<Env, "DB" | "CACHE">;

/** API keys' records, by the key a caller presents. */
export interface KeyStore {
  /** The key's record, from wherever it is cheapest to read; null for a key that is not ours. */
  resolve(key: string, now: number): Promise<KeyRecord | null>;
  /** The record from the source of truth, past every cache, for when a cached one proved stale. */
  reload(key: string, now: number): Promise<KeyRecord | null>;
  /** A key's record by its id (api_keys.id), for a signed URL, which names its key by id. */
  resolveId(keyId: string, now: number): Promise<KeyRecord | null>;
  /** The same past every cache. */
  reloadId(keyId: string, now: number): Promise<KeyRecord | null>;
}

/** The real KeyStore of the gateway's Services. */
export function apiKeyStore(db: D1Database, cache: KVNamespace): KeyStore {
  const bindings: KeyBindings = { DB: db, CACHE: cache };
  return {
    resolve: (key, now) => resolveApiKey(bindings, key, now),
    reload: (key, now) => reloadApiKey(bindings, key, now),
    resolveId: (keyId, now) => resolveApiKeyById(db, keyId, now),
    reloadId: (keyId, now) => reloadApiKeyById(db, keyId, now),
  };
}

/**
 * A key's record by its id, for a signed URL (which names the key, never carries it). Kept in
 * this isolate's memory only, for the same few seconds as a key's: the Meter judges the record
 * as it judges any (meter.ts), so a revoke or plan change still shows on the next call, and
 * KV, keyed by the key's hash, is left to header keys.
 */
export async function resolveApiKeyById(
  db: D1Database,
  keyId: string,
  now: number = Date.now(),
): Promise<KeyRecord | null> {
  const name = `id:${keyId}`;
  const cached = memory.get(name);
  if (cached && cached.until > now) return cached.record;
  return reloadApiKeyById(db, keyId, now);
}

export async function reloadApiKeyById(
  db: D1Database,
  keyId: string,
  now: number = Date.now(),
): Promise<KeyRecord | null> {
  const record = await loadFromD1(db, { id: keyId });
  remember(`id:${keyId}`, record, now);
  return record;
}

export async function resolveApiKey(
  env: KeyBindings,
  key: string,
  now: number = Date.now(),
): Promise<KeyRecord | null> {
  const hash = await sha256Hex(key);
  const cached = memory.get(hash);
  if (cached && cached.until > now) return cached.record;

  const fromKv = await env.CACHE.get(apiKeyCacheName(hash), "json").catch(() => null);
  const parsed = KeyRecordSchema.safeParse(fromKv);
  let record: KeyRecord | null = parsed.success ? parsed.data : null;
  if (!record) {
    record = await loadFromD1(env.DB, { hash });
    // Unknown keys are not written to KV: a flood of random keys must not fill it.
    if (record && !record.revoked) {
      await env.CACHE.put(apiKeyCacheName(hash), JSON.stringify(record), { expirationTtl: KV_TTL_SECONDS });
    }
  }
  remember(hash, record, now);
  return record;
}

/**
 * The key's record from D1, past both caches, for when the Meter said the cached one is
 * stale. The copies in this isolate's memory and in KV are replaced (or dropped, for a key no
 * longer live), so the next call does not have to find it out again.
 */
export async function reloadApiKey(env: KeyBindings, key: string, now: number = Date.now()): Promise<KeyRecord | null> {
  const hash = await sha256Hex(key);
  const record = await loadFromD1(env.DB, { hash });
  const name = apiKeyCacheName(hash);
  await (record && !record.revoked
    ? env.CACHE.put(name, JSON.stringify(record), { expirationTtl: KV_TTL_SECONDS })
    : env.CACHE.delete(name));
  remember(hash, record, now);
  return record;
}

/**
 * Forgets every cached key record of an account in this isolate and KV. The Meter already
 * makes a plan change show on the next call; this only spares that call a reload. Called by
 * the use cases that change a plan, through `gatewayNotices` (meter-notices.ts).
 */
export async function forgetAccountKeys(db: D1Database, cache: KVNamespace, userId: string): Promise<void> {
  const { results } = await db
    .prepare(`SELECT id, hash FROM api_keys WHERE user_id = ?`)
    .bind(userId)
    .all<{ id: string; hash: string }>();
  await Promise.all(results.map((row) => cache.delete(apiKeyCacheName(row.hash))));
  for (const row of results) {
    memory.delete(row.hash);
    memory.delete(`id:${row.id}`);
  }
}

/**
 * Forgets one key's cached records in this isolate and KV (a revoke): the one kept by hash for
 * header keys and the one kept by id for signed URLs, as forgetAccountKeys does for each key.
 */
export async function forgetApiKey(cache: KVNamespace, key: { id: string; hash: string }): Promise<void> {
  memory.delete(key.hash);
  memory.delete(`id:${key.id}`);
  await cache.delete(apiKeyCacheName(key.hash));
}
