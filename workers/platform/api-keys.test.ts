/**
 * Key creation, revocation and rotation: the use cases both the API Key page and
 * /api/user/keys call. Real D1, KV and Meters; the gateway's caches are warmed the way a call
 * warms them, so a test sees what the next call would.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { resolveApiKey } from "~workers/gateway/api-key-auth";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { createAccountWithKey } from "../../tests/factories";
import { recordingNotices } from "../../tests/fakes/services";
import {
  API_KEY_PREFIX,
  apiKeyCacheName,
  createApiKey,
  MAX_KEYS_PER_USER,
  revokeApiKey,
  rotateApiKey,
} from "./api-keys";
import { sha256Hex } from "./ids";

async function unverify(userId: string) {
  await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(userId).run();
}

function keyRow(keyId: string) {
  return env.DB.prepare("SELECT name, revoked_at FROM api_keys WHERE id = ?")
    .bind(keyId)
    .first<{ name: string; revoked_at: number | null }>();
}

describe("createApiKey", () => {
  it("shows the whole key once and keeps only its hash and first characters", async () => {
    const { userId } = await createAccountWithKey(env.DB);
    const result = await createApiKey(env.DB, userId, "production");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(result.summary).toMatchObject({
      name: "production",
      prefix: result.key.slice(0, API_KEY_PREFIX.length + 6),
    });
    const stored = await env.DB.prepare("SELECT hash, prefix FROM api_keys WHERE id = ?")
      .bind(result.summary.id)
      .first<{ hash: string; prefix: string }>();
    expect(stored).toEqual({ hash: await sha256Hex(result.key), prefix: result.summary.prefix });
    // The resolver finds the new key's account.
    expect((await resolveApiKey(env, result.key))?.userId).toBe(userId);
  });

  it(`holds an account to ${MAX_KEYS_PER_USER} active keys`, async () => {
    const { userId } = await createAccountWithKey(env.DB);
    for (let i = 1; i < MAX_KEYS_PER_USER; i++) expect((await createApiKey(env.DB, userId, `k${i}`)).ok).toBe(true);
    expect(await createApiKey(env.DB, userId, "one too many")).toEqual({ ok: false, code: "too-many-keys" });
  });

  it("gives no key to an account whose address is not proven", async () => {
    const { userId } = await createAccountWithKey(env.DB);
    await unverify(userId);
    expect(await createApiKey(env.DB, userId, "sneaky")).toEqual({ ok: false, code: "email-unverified" });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});

describe("revokeApiKey", () => {
  it("revokes the key and tells the gateway which one, with its hash", async () => {
    const { userId, keyId, key } = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    const at = Date.now();
    expect(await revokeApiKey(env.DB, notices, userId, keyId, at)).toBe(true);
    expect((await keyRow(keyId))?.revoked_at).toBe(at);
    expect(notices.revoked).toEqual([{ userId, keyId, hash: await sha256Hex(key), at }]);
  });

  it("drops the key's cached copies, in this isolate's memory as well as KV", async () => {
    const { userId, keyId, key } = await createAccountWithKey(env.DB);
    const now = Date.now();
    // A call just now cached the live record in both places.
    expect((await resolveApiKey(env, key, now))?.revoked).toBe(false);
    expect(await env.CACHE.get(apiKeyCacheName(await sha256Hex(key)))).not.toBeNull();
    expect(await revokeApiKey(env.DB, gatewayNotices(env), userId, keyId, now)).toBe(true);
    expect(await env.CACHE.get(apiKeyCacheName(await sha256Hex(key)))).toBeNull();
    // Within the memory copy's few seconds, the next lookup reads D1 and sees the revoke.
    expect((await resolveApiKey(env, key, now + 1))?.revoked).toBe(true);
  });

  it("tells the account's Meter, which then refuses a stale live copy of the key", async () => {
    const { userId, keyId } = await createAccountWithKey(env.DB);
    expect(await revokeApiKey(env.DB, gatewayNotices(env), userId, keyId)).toBe(true);
    const meter = env.METER.get(env.METER.idFromName(userId));
    const now = Date.now();
    const policy = {
      now,
      perSecond: 2,
      monthlyQuota: 200,
      periodStart: now - 1000,
      periodEnd: now + 24 * 60 * 60 * 1000,
      freemiumCap: null,
      bonusGranted: 0,
    };
    expect(await meter.take(policy, { keyId, planVersion: 0 })).toEqual({ ok: false, stale: "key-revoked" });
  });

  it("cannot revoke another account's key, and says so without touching it", async () => {
    const owner = await createAccountWithKey(env.DB);
    const stranger = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    expect(await revokeApiKey(env.DB, notices, stranger.userId, owner.keyId)).toBe(false);
    expect((await keyRow(owner.keyId))?.revoked_at).toBeNull();
    expect(notices.revoked).toEqual([]);
  });

  it("revokes a key once: a second revoke finds no active key", async () => {
    const { userId, keyId } = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    expect(await revokeApiKey(env.DB, notices, userId, keyId, 1_000)).toBe(true);
    expect(await revokeApiKey(env.DB, notices, userId, keyId, 2_000)).toBe(false);
    expect((await keyRow(keyId))?.revoked_at).toBe(1_000);
    expect(notices.revoked).toHaveLength(1);
  });
});

describe("rotateApiKey", () => {
  it("replaces a key with a new one of the same name and revokes the old", async () => {
    const { userId, keyId, key } = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    const result = await rotateApiKey(env.DB, notices, userId, keyId);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.key).not.toBe(key);
    expect(result.summary.name).toBe("test");
    expect((await keyRow(keyId))?.revoked_at).not.toBeNull();
    expect(notices.revoked.map((notice) => notice.keyId)).toEqual([keyId]);
    expect((await resolveApiKey(env, result.key))?.revoked).toBe(false);
  });

  it("leaves an unproven account its key rather than revoke one it could not replace", async () => {
    const { userId, keyId } = await createAccountWithKey(env.DB);
    await unverify(userId);
    const notices = recordingNotices();
    expect(await rotateApiKey(env.DB, notices, userId, keyId)).toEqual({ ok: false, code: "email-unverified" });
    expect((await keyRow(keyId))?.revoked_at).toBeNull();
    expect(notices.revoked).toEqual([]);
  });

  it("cannot rotate another account's key", async () => {
    const owner = await createAccountWithKey(env.DB);
    const stranger = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    expect(await rotateApiKey(env.DB, notices, stranger.userId, owner.keyId)).toEqual({ ok: false, code: "not-found" });
    expect((await keyRow(owner.keyId))?.revoked_at).toBeNull();
  });
});
