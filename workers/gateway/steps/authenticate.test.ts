import { describe, expect, it } from "vitest";
import type { KeyRecord } from "../api-key-auth";
import { memoryKeyStore } from "../../../tests/fakes/services";
import { hmacUrlSigner } from "../signed-url";
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
    expect(result).toEqual({ ok: true, credential: { key: KEY }, record });
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
    expect(await reauthenticate({ key: KEY }, keys, NOW)).toEqual({
      ok: true,
      credential: { key: KEY },
      record: fresher,
    });
    expect(keys.reloads).toEqual([KEY]);
  });

  it("refuses a signed URL whose key was deleted since, saying to sign a new URL (its holder has no key to copy)", async () => {
    const store = memoryKeyStore({ [KEY]: record }, { [KEY]: null });
    const result = await reauthenticate({ keyId: record.keyId, expiresAt: NOW / 1000 + 600 }, store, NOW);
    expect(result).toMatchObject({
      ok: false,
      refusal: { type: "invalid-api-key", headers: { "Cache-Control": "no-store" } },
    });
    if (result.ok) return;
    expect(result.refusal.detail).toMatch(/URL was signed with/);
    expect(result.refusal.detail).not.toMatch(/API Key page/);
  });

  it("refuses a key deleted since its record was cached", async () => {
    const keys = memoryKeyStore({ [KEY]: record }, { [KEY]: null });
    expect(await reauthenticate({ key: KEY }, keys, NOW)).toMatchObject({
      ok: false,
      refusal: { type: "invalid-api-key" },
    });
  });
});

describe("gateway step: authenticate a signed URL", () => {
  const signer = hmacUrlSigner("a-test-session-secret-of-at-least-32-characters");
  const keys = () => memoryKeyStore({ [KEY]: record });

  async function signed(params: Record<string, string>, expiresAt = NOW / 1000 + 600): Promise<Request> {
    const query = await signer.sign({
      method: "GET",
      path: "/api/v1/qrcode",
      params: new URLSearchParams(params),
      keyId: record.keyId,
      expiresAt,
    });
    return new Request(`https://portico.test/api/v1/qrcode?${query}`);
  }

  it("finds the account of the key the URL names, when the operation accepts signed URLs", async () => {
    const result = await authenticate(await signed({ text: "hi" }), keys(), NOW, { accepted: true, signer });
    expect(result).toEqual({ ok: true, credential: { keyId: record.keyId, expiresAt: NOW / 1000 + 600 }, record });
  });

  it("takes a HEAD of a signed GET URL as that GET (link checkers and mail clients ask HEAD first)", async () => {
    const head = new Request((await signed({ text: "hi" })).url, { method: "HEAD" });
    const result = await authenticate(head, keys(), NOW, { accepted: true, signer });
    expect(result).toMatchObject({ ok: true, credential: { keyId: record.keyId } });
  });

  it("refuses a signed URL on an operation that does not accept them, before verifying it", async () => {
    const result = await authenticate(await signed({ text: "hi" }), keys(), NOW, { accepted: false, signer });
    expect(result).toMatchObject({ ok: false, refusal: { type: "invalid-signed-url" } });
    // And where the gateway passes no policy at all.
    expect(await authenticate(await signed({ text: "hi" }), keys(), NOW)).toMatchObject({
      ok: false,
      refusal: { type: "invalid-signed-url" },
    });
  });

  it("refuses a tampered URL and an expired one, neither kept by a browser", async () => {
    const tampered = new URL((await signed({ text: "hi" })).url);
    tampered.searchParams.set("text", "bye");
    const refusedTampered = await authenticate(new Request(tampered), keys(), NOW, { accepted: true, signer });
    expect(refusedTampered).toMatchObject({
      ok: false,
      refusal: { type: "invalid-signed-url", headers: { "Cache-Control": "no-store" } },
    });
    const expired = await authenticate(await signed({ text: "hi" }, NOW / 1000 - 1), keys(), NOW, {
      accepted: true,
      signer,
    });
    expect(expired).toMatchObject({
      ok: false,
      refusal: { type: "expired-signed-url", headers: { "Cache-Control": "no-store" } },
    });
  });

  it("re-reads a signed URL's key by its id when the Meter says the record is stale", async () => {
    const revoked = { ...record, revoked: true };
    const store = memoryKeyStore({ [KEY]: record }, { [KEY]: revoked });
    const credential = { keyId: record.keyId, expiresAt: NOW / 1000 + 600 };
    expect(await reauthenticate(credential, store, NOW)).toEqual({ ok: true, credential, record: revoked });
    expect(store.reloads).toEqual([record.keyId]);
  });
});
