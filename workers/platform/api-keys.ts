/**
 * API keys: `pk_live_` + 32 random bytes in base58. Only the SHA-256 and the first characters
 * are stored; the whole key is shown once, at creation. Revoking tells the gateway
 * (`GatewayNotices`): the account's Meter, which the gateway asks on every call, so the key
 * stops on the next call from anywhere whatever the caches still hold, and the caches, which
 * drop their copy.
 */
import { z } from "zod";
import type { GatewayNotices } from "./gateway-notices";
import { createId, sha256Hex } from "./ids";

export const API_KEY_PREFIX = "pk_live_";
const KEY_BYTES = 32;
/** Characters of the key kept to recognise it: the prefix and six more. */
const SHOWN_CHARACTERS = API_KEY_PREFIX.length + 6;
export const MAX_KEYS_PER_USER = 20;

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function encodeBase58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = "";
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = "1" + out;
  }
  return out;
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + encodeBase58(crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

/** Where the gateway caches a key's record in KV. */
export function apiKeyCacheName(hash: string): string {
  return `apikey:${hash}`;
}

export const KeyNameSchema = z
  .string({ error: "Name the key" })
  .trim()
  .min(1, "Name the key")
  .max(60, "Key names are at most 60 characters");

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

function toSummary(row: ApiKeyRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

export async function listApiKeys(db: D1Database, userId: string): Promise<ApiKeySummary[]> {
  const { results } = await db
    .prepare(
      `SELECT id, name, prefix, created_at, last_used_at, revoked_at FROM api_keys
       WHERE user_id = ? ORDER BY revoked_at IS NOT NULL, created_at DESC`,
    )
    .bind(userId)
    .all<ApiKeyRow>();
  return results.map(toSummary);
}

export type CreateApiKeyResult =
  | { ok: true; key: string; summary: ApiKeySummary }
  | { ok: false; code: "too-many-keys" }
  /** Keys are for accounts whose address is proven (`roles.ts`). */
  | { ok: false; code: "email-unverified" };

export async function createApiKey(
  db: D1Database,
  userId: string,
  name: string,
  now: number = Date.now(),
): Promise<CreateApiKeyResult> {
  const active = await db
    .prepare(`SELECT COUNT(*) AS count FROM api_keys WHERE user_id = ? AND revoked_at IS NULL`)
    .bind(userId)
    .first<{ count: number }>();
  if ((active?.count ?? 0) >= MAX_KEYS_PER_USER) return { ok: false, code: "too-many-keys" };
  const key = generateApiKey();
  const row: ApiKeyRow = {
    id: createId("key"),
    name,
    prefix: key.slice(0, SHOWN_CHARACTERS),
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  // The proven address is checked in the same statement that writes the key, so no caller can skip it.
  const inserted = await db
    .prepare(
      `INSERT INTO api_keys (id, user_id, name, prefix, hash, created_at)
       SELECT ?, id, ?, ?, ?, ? FROM users WHERE id = ? AND email_verified_at IS NOT NULL`,
    )
    .bind(row.id, row.name, row.prefix, await sha256Hex(key), now, userId)
    .run();
  if (inserted.meta.changes !== 1) return { ok: false, code: "email-unverified" };
  return { ok: true, key, summary: toSummary(row) };
}

/**
 * Revokes one of the user's keys; false when there is no such active key of theirs. The
 * gateway hears of it before this returns, so the key's next call is refused.
 */
export async function revokeApiKey(
  db: D1Database,
  notices: GatewayNotices,
  userId: string,
  keyId: string,
  now: number = Date.now(),
): Promise<boolean> {
  const row = await db
    .prepare(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL RETURNING hash`)
    .bind(now, keyId, userId)
    .first<{ hash: string }>();
  if (!row) return false;
  await notices.keyRevoked(userId, { id: keyId, hash: row.hash }, now);
  return true;
}

/** A new key with the same name, and the old one revoked. */
export async function rotateApiKey(
  db: D1Database,
  notices: GatewayNotices,
  userId: string,
  keyId: string,
  now: number = Date.now(),
): Promise<CreateApiKeyResult | { ok: false; code: "not-found" }> {
  const old = await db
    .prepare(
      `SELECT k.name, u.email_verified_at FROM api_keys k JOIN users u ON u.id = k.user_id
       WHERE k.id = ? AND k.user_id = ? AND k.revoked_at IS NULL`,
    )
    .bind(keyId, userId)
    .first<{ name: string; email_verified_at: number | null }>();
  if (!old) return { ok: false, code: "not-found" };
  // Checked before revoking, so an unproven account never loses a key it cannot replace.
  if (old.email_verified_at === null) return { ok: false, code: "email-unverified" };
  if (!(await revokeApiKey(db, notices, userId, keyId, now))) return { ok: false, code: "not-found" };
  return createApiKey(db, userId, old.name, now);
}
