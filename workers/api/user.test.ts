/**
 * `/api/user/*` (the signed-in account's API keys and referral code) through the Worker: the
 * cases tests/integration/accounts.test.ts leaves out — every call without a session, one
 * account acting on another's key, the per-account cap, and what the listing never shows.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_KEYS_PER_USER } from "~workers/platform/api-keys";
import { callApi, expectProblem, signUpVerified } from "../../tests/factories";

interface KeyAnswer {
  id: string;
  key: string;
  name: string;
  prefix: string;
}

async function createKey(cookie: string, name = "mine"): Promise<KeyAnswer> {
  const response = await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name } });
  expect(response.status).toBe(201);
  return response.json<KeyAnswer>();
}

function keyRow(id: string) {
  return env.DB.prepare(`SELECT hash, revoked_at FROM api_keys WHERE id = ?`)
    .bind(id)
    .first<{ hash: string; revoked_at: number | null }>();
}

describe("without a session", () => {
  it.each([
    ["GET", "/api/user/keys"],
    ["POST", "/api/user/keys"],
    ["DELETE", "/api/user/keys/key_anything"],
    ["POST", "/api/user/keys/key_anything/rotate"],
    ["GET", "/api/user/referral-code"],
  ])("%s %s answers 401", async (method, path) => {
    const response = await callApi(SELF, method, path, method === "POST" ? { body: { name: "x" } } : {});
    await expectProblem(response, 401, "unauthenticated");
  });
});

describe("another account's key", () => {
  it("cannot be rotated: 404, and the owner's key stays active and unchanged", async () => {
    const alice = await signUpVerified(SELF);
    const bob = await signUpVerified(SELF);
    const key = await createKey(alice.cookie);
    const before = await keyRow(key.id);
    await expectProblem(
      await callApi(SELF, "POST", `/api/user/keys/${key.id}/rotate`, { cookie: bob.cookie }),
      404,
      "not-found",
    );
    expect(await keyRow(key.id)).toEqual(before);
    expect(before?.revoked_at).toBeNull();
    // Nor does Bob's listing show it.
    const listed = await (
      await callApi(SELF, "GET", "/api/user/keys", { cookie: bob.cookie })
    ).json<{ keys: unknown[] }>();
    expect(listed.keys).toEqual([]);
  });
});

describe("revoking and rotating", () => {
  it("revokes once: a second revoke, or a rotation of the revoked key, is a 404", async () => {
    const { cookie } = await signUpVerified(SELF);
    const key = await createKey(cookie);
    expect((await callApi(SELF, "DELETE", `/api/user/keys/${key.id}`, { cookie })).status).toBe(204);
    await expectProblem(await callApi(SELF, "DELETE", `/api/user/keys/${key.id}`, { cookie }), 404, "not-found");
    await expectProblem(await callApi(SELF, "POST", `/api/user/keys/${key.id}/rotate`, { cookie }), 404, "not-found");
  });
});

describe("creating", () => {
  it(`stops at ${MAX_KEYS_PER_USER} active keys with 409, and a revoke makes room`, async () => {
    const { cookie } = await signUpVerified(SELF);
    const keys: KeyAnswer[] = [];
    for (let i = 0; i < MAX_KEYS_PER_USER; i++) keys.push(await createKey(cookie, `key ${i}`));
    await expectProblem(
      await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "one too many" } }),
      409,
      "conflict",
    );
    await callApi(SELF, "DELETE", `/api/user/keys/${keys[0]!.id}`, { cookie });
    await createKey(cookie, "in its place");
  });

  it("names a name that is too long, and a body that is not JSON", async () => {
    const { cookie } = await signUpVerified(SELF);
    const long = await expectProblem(
      await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "k".repeat(200) } }),
      422,
      "invalid-input",
    );
    expect(Object.keys(long.errors as object)).toEqual(["name"]);
    const garbled = await SELF.fetch("https://portico.test/api/user/keys", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: "{name:",
    });
    expect((await expectProblem(garbled, 422, "invalid-input")).errors).toEqual({ name: "Name the key" });
  });

  it("shows the whole key once: the listing holds its prefix, never the key or its hash", async () => {
    const { cookie } = await signUpVerified(SELF);
    const key = await createKey(cookie);
    expect(key.key.startsWith(key.prefix)).toBe(true);
    const listing = await (await callApi(SELF, "GET", "/api/user/keys", { cookie })).text();
    expect(listing).toContain(key.prefix);
    expect(listing).not.toContain(key.key);
    expect(listing).not.toContain((await keyRow(key.id))?.hash);
  });
});
