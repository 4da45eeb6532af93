/**
 * The key caches against real D1 and KV: what a revoke's notice forgets must be every copy the
 * gateway reads, the one kept by id for signed URLs as well as the one kept by hash.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~workers/platform/ids";
import { createAccountWithKey } from "../../tests/factories";
import { forgetApiKey, resolveApiKey, resolveApiKeyById } from "./api-key-auth";

async function revokeInD1(keyId: string, at: number): Promise<void> {
  await env.DB.prepare(`UPDATE api_keys SET revoked_at = ? WHERE id = ?`).bind(at, keyId).run();
}

describe("api-key-auth: forgetting a revoked key", () => {
  it("forgets the record kept by id (signed URLs) as well as the one kept by hash", async () => {
    const { keyId, key } = await createAccountWithKey(env.DB);
    const now = Date.now();
    expect(await resolveApiKey(env, key, now)).toMatchObject({ keyId, revoked: false });
    expect(await resolveApiKeyById(env.DB, keyId, now)).toMatchObject({ keyId, revoked: false });
    await revokeInD1(keyId, now);

    await forgetApiKey(env.CACHE, { id: keyId, hash: await sha256Hex(key) });

    // Still within the memory TTL of both reads above: only a forgotten copy is read again.
    expect(await resolveApiKeyById(env.DB, keyId, now + 1)).toMatchObject({ keyId, revoked: true });
    expect(await resolveApiKey(env, key, now + 1)).toMatchObject({ keyId, revoked: true });
  });
});
