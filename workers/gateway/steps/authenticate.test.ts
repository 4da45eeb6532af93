import { describe, expect, it } from "vitest";
import type { KeyRecord } from "../api-key-auth";
import { memoryKeyStore } from "../../../tests/fakes/services";
import { authenticate, reauthenticate } from "./authenticate";

const NOW = Date.UTC(2026, 10, 20, 12);
const KEY = "pk_live_AuthenticateStepKey";

const record: KeyRecord = {
  keyId: "key_step",
  userId: "usr_step",
  revoked: false,
  planId: "free",
  planExpiresAt: null,
  planVersion: 0,
  bonusCalls: 0,
};

const call = (headers: Record<string, string> = {}) => new Request("https://portico.test/api/v1/qrcode", { headers });

describe("gateway step: authenticate", () => {
  it("refuses a call without a key, saying where the key goes", async () => {
    const result = await authenticate(call(), memoryKeyStore({ [KEY]: record }), NOW);
    expect(result).toMatchObject({ ok: false, refusal: { type: "missing-api-key" } });
    if (result.ok) return;
    expect(result.refusal.headers?.["WWW-Authenticate"]).toBe('ApiKey realm="portico", header="x-api-key"');
  });

  it("treats a blank key header as no key", async () => {
    const result = await authenticate(call({ "x-api-key": "   " }), memoryKeyStore({}), NOW);
    expect(result).toMatchObject({ ok: false, refusal: { type: "missing-api-key" } });
  });

  it.each([
    ["x-api-key", KEY],
    ["authorization", `Bearer ${KEY}`],
    ["x-avatar-key", KEY],
  ])("finds the account of a key sent in %s", async (header, value) => {
    const result = await authenticate(call({ [header]: value }), memoryKeyStore({ [KEY]: record }), NOW);
    expect(result).toEqual({ ok: true, key: KEY, record });
  });

  it("refuses a key that is not ours, without telling why beyond that", async () => {
    const result = await authenticate(call({ "x-api-key": `${KEY}x` }), memoryKeyStore({ [KEY]: record }), NOW);
    expect(result).toMatchObject({ ok: false, refusal: { type: "invalid-api-key" } });
    if (result.ok) return;
    expect(result.refusal.headers?.["WWW-Authenticate"]).toBe('ApiKey realm="portico", error="invalid_key"');
  });

  it("does not take a key from the query string or a cookie", async () => {
    const keys = memoryKeyStore({ [KEY]: record });
    const inQuery = new Request(`https://portico.test/api/v1/qrcode?api_key=${KEY}&x-api-key=${KEY}`);
    expect(await authenticate(inQuery, keys, NOW)).toMatchObject({ ok: false, refusal: { type: "missing-api-key" } });
    const inCookie = call({ cookie: `x-api-key=${KEY}` });
    expect(await authenticate(inCookie, keys, NOW)).toMatchObject({ ok: false, refusal: { type: "missing-api-key" } });
  });
});

describe("gateway step: reauthenticate", () => {
  it("reads the key's record past the caches", async () => {
    const fresher = { ...record, planId: "premium" as const, planExpiresAt: NOW + 1000, planVersion: 1 };
    const keys = memoryKeyStore({ [KEY]: record }, { [KEY]: fresher });
    expect(await reauthenticate(KEY, keys, NOW)).toEqual({ ok: true, key: KEY, record: fresher });
    expect(keys.reloads).toEqual([KEY]);
  });

  it("refuses a key deleted since its record was cached", async () => {
    const keys = memoryKeyStore({ [KEY]: record }, { [KEY]: null });
    expect(await reauthenticate(KEY, keys, NOW)).toMatchObject({ ok: false, refusal: { type: "invalid-api-key" } });
  });
});
