import { describe, expect, it } from "vitest";
import { canonicalForm, hmacUrlSigner, SIGNED_URL_MAX_LIFETIME_SECONDS, timingSafeEqualBytes } from "./signed-url";

const SECRET = "a-test-session-secret-of-at-least-32-characters";
const NOW = Date.UTC(2026, 10, 24, 12);
const NOW_S = NOW / 1000;
const PATH = "/api/v1/qrcode";

async function signedUrl(
  params: Record<string, string> = { text: "hello", size: "200" },
  options: { expiresAt?: number; keyId?: string; secret?: string; method?: string; path?: string } = {},
): Promise<URL> {
  const signer = hmacUrlSigner(options.secret ?? SECRET);
  const query = await signer.sign({
    method: options.method ?? "GET",
    path: options.path ?? PATH,
    params: new URLSearchParams(params),
    keyId: options.keyId ?? "key_abc",
    expiresAt: options.expiresAt ?? NOW_S + 3600,
  });
  return new URL(`https://portico.test${PATH}?${query}`);
}

/** An independent HMAC-SHA256 with the same HKDF-derived key, computed here from WebCrypto's primitives. */
async function referenceSignature(secret: string, canonical: string): Promise<string> {
  const encoder = new TextEncoder();
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const keyBits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("portico"), info: encoder.encode("portico signed-url v1") },
    base,
    256,
  );
  const key = await crypto.subtle.importKey("raw", keyBits, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(canonical)));
  return btoa(String.fromCharCode(...mac))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

describe("signed URLs: the canonical form", () => {
  it("is the method, the path and the sorted, percent-encoded parameters, signature left out", () => {
    const params = new URLSearchParams("size=200&text=a b&key_id=key_1&expires=9&signature=zzz&as=json");
    expect(canonicalForm("GET", PATH, params)).toBe(`GET\n${PATH}\nas=json&expires=9&key_id=key_1&size=200&text=a%20b`);
  });

  it("does not depend on the order the parameters came in", () => {
    const a = new URLSearchParams("text=x&size=1&format=png");
    const b = new URLSearchParams("format=png&text=x&size=1");
    expect(canonicalForm("GET", PATH, a)).toBe(canonicalForm("GET", PATH, b));
  });

  it("keeps a repeated parameter, so adding a copy changes it", () => {
    const once = new URLSearchParams("text=x");
    const twice = new URLSearchParams("text=x&text=x");
    expect(canonicalForm("GET", PATH, once)).not.toBe(canonicalForm("GET", PATH, twice));
  });

  it("tells apart values that would run together without encoding", () => {
    const a = new URLSearchParams([["text", "a&b=c"]]);
    const b = new URLSearchParams([
      ["text", "a"],
      ["b", "c"],
    ]);
    expect(canonicalForm("GET", PATH, a)).not.toBe(canonicalForm("GET", PATH, b));
  });
});

describe("signed URLs: signing and verifying", () => {
  it("signs with HMAC-SHA256 under a key HKDF derives from the secret, as an independent computation does", async () => {
    const url = await signedUrl();
    const canonical = canonicalForm("GET", PATH, url.searchParams);
    expect(url.searchParams.get("signature")).toBe(await referenceSignature(SECRET, canonical));
    expect(url.searchParams.get("key_id")).toBe("key_abc");
    expect(url.searchParams.get("expires")).toBe(String(NOW_S + 3600));
  });

  it("accepts its own URL and names the key", async () => {
    const verdict = await hmacUrlSigner(SECRET).verify("GET", await signedUrl(), NOW);
    expect(verdict).toEqual({ ok: true, keyId: "key_abc", expiresAt: NOW_S + 3600 });
  });

  it.each([
    ["text", "hellO"],
    ["size", "201"],
    ["key_id", "key_abd"],
    ["expires", String(NOW_S + 3601)],
  ])("refuses the URL when %s is changed", async (name, value) => {
    const url = await signedUrl();
    url.searchParams.set(name, value);
    expect(await hmacUrlSigner(SECRET).verify("GET", url, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("refuses a changed signature, an added parameter and a removed one", async () => {
    const signer = hmacUrlSigner(SECRET);
    const tampered = await signedUrl();
    const signature = tampered.searchParams.get("signature") ?? "";
    // The first character: every bit of it is part of the MAC (the last one's low bits are padding).
    tampered.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
    expect(await signer.verify("GET", tampered, NOW)).toMatchObject({ ok: false, reason: "invalid" });

    const added = await signedUrl();
    added.searchParams.append("format", "svg");
    expect(await signer.verify("GET", added, NOW)).toMatchObject({ ok: false, reason: "invalid" });

    const removed = await signedUrl();
    removed.searchParams.delete("size");
    expect(await signer.verify("GET", removed, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("accepts only the issued spelling of the signature's last character, not the three that differ in its two unused bits", async () => {
    const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const signer = hmacUrlSigner(SECRET);
    const issued = await signedUrl();
    const signature = issued.searchParams.get("signature") ?? "";
    const last = BASE64URL.indexOf(signature.at(-1) ?? "");
    // 43 characters carry 258 bits for a 256-bit MAC: the last character's two low bits are spare.
    const spellings = [0, 1, 2, 3].map((spare) => signature.slice(0, -1) + BASE64URL[(last & ~3) | spare]);
    expect(spellings).toContain(signature);
    const verdicts = await Promise.all(
      spellings.map(async (spelling) => {
        const url = new URL(issued);
        url.searchParams.set("signature", spelling);
        return [spelling, (await signer.verify("GET", url, NOW)).ok] as const;
      }),
    );
    expect(verdicts).toEqual(spellings.map((spelling) => [spelling, spelling === signature]));
  });

  it("refuses a URL signed for another path or method", async () => {
    const signer = hmacUrlSigner(SECRET);
    expect(await signer.verify("GET", await signedUrl(undefined, { path: "/api/v1/colorconvert" }), NOW)).toMatchObject(
      {
        ok: false,
        reason: "invalid",
      },
    );
    expect(await signer.verify("GET", await signedUrl(undefined, { method: "POST" }), NOW)).toMatchObject({
      ok: false,
      reason: "invalid",
    });
  });

  it("refuses a URL signed under another secret", async () => {
    const url = await signedUrl(undefined, { secret: `${SECRET}-other` });
    expect(await hmacUrlSigner(SECRET).verify("GET", url, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("refuses an expired URL as expired, but only once its signature holds", async () => {
    const signer = hmacUrlSigner(SECRET);
    const expired = await signedUrl(undefined, { expiresAt: NOW_S - 1 });
    expect(await signer.verify("GET", expired, NOW)).toMatchObject({ ok: false, reason: "expired" });
    // Moving an expired URL's time forward breaks its signature: it is invalid, not renewed.
    expired.searchParams.set("expires", String(NOW_S + 60));
    expect(await signer.verify("GET", expired, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("refuses a lifetime longer than the maximum, even signed", async () => {
    const url = await signedUrl(undefined, { expiresAt: NOW_S + SIGNED_URL_MAX_LIFETIME_SECONDS + 3600 });
    expect(await hmacUrlSigner(SECRET).verify("GET", url, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it.each([
    ["no signature", (url: URL) => url.searchParams.delete("signature")],
    ["two signatures", (url: URL) => url.searchParams.append("signature", url.searchParams.get("signature") ?? "")],
    ["two key ids", (url: URL) => url.searchParams.append("key_id", "key_abc")],
    ["a non-numeric expiry", (url: URL) => url.searchParams.set("expires", "soon")],
    ["a signature that is not base64url", (url: URL) => url.searchParams.set("signature", "not/base64+=")],
  ])("refuses a URL with %s", async (_, spoil) => {
    const url = await signedUrl();
    spoil(url);
    expect(await hmacUrlSigner(SECRET).verify("GET", url, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });
});

describe("timingSafeEqualBytes", () => {
  it("is true only for the same bytes of the same length", () => {
    expect(timingSafeEqualBytes(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3))).toBe(true);
    expect(timingSafeEqualBytes(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 4))).toBe(false);
    expect(timingSafeEqualBytes(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2))).toBe(false);
    expect(timingSafeEqualBytes(Uint8Array.of(), Uint8Array.of())).toBe(true);
  });
});
