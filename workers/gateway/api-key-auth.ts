/**
 * Resolving the API key of a call: isolate memory (a few seconds) -> KV (minutes) -> D1, by
 * the key's SHA-256. Revoking deletes the KV copy, so a revoked key stops within the memory
 * cache's few seconds. The record also carries the account's plan, so the gateway needs no
 * other lookup on its hot path.
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

async function loadFromD1(db: D1Database, hash: string): Promise<KeyRecord | null> {
  const row = await db
    .prepare(
      `SELECT k.id AS key_id, k.user_id, k.revoked_at, u.plan_id, u.plan_expires_at,
         EXISTS (SELECT 1 FROM referrals r WHERE r.referred_user_id = u.id) AS referred
       FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = ?`,
    )
    .bind(hash)
    .first<{
      key_id: string;
      user_id: string;
      revoked_at: number | null;
      plan_id: string;
      plan_expires_at: number | null;
      referred: number;
    }>();
  if (!row) return null;
  return {
    keyId: row.key_id,
    userId: row.user_id,
    revoked: row.revoked_at !== null,
    planId: (["free", "standard", "premium"].includes(row.plan_id) ? row.plan_id : "free") as PlanId,
    planExpiresAt: row.plan_expires_at,
    bonusCalls: row.referred ? REFERRAL_BONUS_CALLS : 0,
  };
}

export async function resolveApiKey(env: Env, key: string, now: number = Date.now()): Promise<KeyRecord | null> {
  const hash = await sha256Hex(key);
  const cached = memory.get(hash);
  if (cached && cached.until > now) return cached.record;

  const fromKv = await env.CACHE.get(apiKeyCacheName(hash), "json").catch(() => null);
  const parsed = KeyRecordSchema.safeParse(fromKv);
  let record: KeyRecord | null = parsed.success ? parsed.data : null;
  if (!record) {
    record = await loadFromD1(env.DB, hash);
    // Unknown keys are not written to KV: a flood of random keys must not fill it.
    if (record && !record.revoked) {
      await env.CACHE.put(apiKeyCacheName(hash), JSON.stringify(record), { expirationTtl: KV_TTL_SECONDS });
    }
  }
  memory.set(hash, { record, until: now + MEMORY_TTL_MS });
  if (memory.size > 10_000) memory.delete(memory.keys().next().value as string);
  return record;
}

/** The plan in force: a paid plan past its expiry is Free again. */
export function effectivePlan(record: Pick<KeyRecord, "planId" | "planExpiresAt">, now: number): PlanId {
  if (record.planId === "free") return "free";
  return record.planExpiresAt !== null && record.planExpiresAt > now ? record.planId : "free";
}

/** Forgets every cached key record of an account, so a plan change shows at once. */
export async function forgetAccountKeys(db: D1Database, cache: KVNamespace, userId: string): Promise<void> {
  const { results } = await db
    .prepare(`SELECT hash FROM api_keys WHERE user_id = ?`)
    .bind(userId)
    .all<{ hash: string }>();
  await Promise.all(results.map((row) => cache.delete(apiKeyCacheName(row.hash))));
  for (const row of results) memory.delete(row.hash);
}
