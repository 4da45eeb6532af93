import { describe, expect, it } from "vitest";
import { signCashfreeWebhook, verifyCashfreeSignature, type VerifyCashfreeSignatureInput } from "./cashfree";

const SECRET = "cfsk_ma_test_0f3c1d7b6a2e4f58";
const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);
const MINUTE = 60_000;

// The shape Cashfree posts, with the amount written as Cashfree writes it: two decimals.
const RAW_BODY =
  '{"data":{"order":{"order_id":"pay_7Qm2","order_amount":170.00,"order_currency":"INR"},' +
  '"payment":{"cf_payment_id":5114910292386,"payment_status":"SUCCESS","payment_amount":170.00}},' +
  '"event_time":"2026-11-15T17:30:00+05:30","type":"PAYMENT_SUCCESS_WEBHOOK"}';

/** A webhook exactly as Cashfree would send it at `sentAt`, ready to verify at NOW. */
async function signed(sentAt = NOW, body = RAW_BODY): Promise<VerifyCashfreeSignatureInput> {
  const timestamp = String(sentAt);
  return {
    rawBody: body,
    timestamp,
    signature: await signCashfreeWebhook(body, timestamp, SECRET),
    secret: SECRET,
    now: NOW,
  };
}

describe("verifyCashfreeSignature", () => {
  it("accepts a correctly signed webhook", async () => {
    const input = await signed();
    expect(input.signature).toMatch(/^[A-Za-z0-9+/]{43}=$/); // base64 of a 32-byte HMAC-SHA256
    expect(await verifyCashfreeSignature(input)).toEqual({ ok: true });
  });

  it("accepts only the issued last character of the signature, not the three that differ in its two unused bits", async () => {
    const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const input = await signed();
    const signature = input.signature ?? "";
    // 43 characters and "=" carry 258 bits for a 256-bit MAC: a decoder ignores the 43rd's two low bits.
    const verdicts = await Promise.all(
      [...BASE64].map(async (last) => {
        const spelling = `${signature.slice(0, 42)}${last}=`;
        return [spelling, (await verifyCashfreeSignature({ ...input, signature: spelling })).ok] as const;
      }),
    );
    expect(verdicts.filter(([, ok]) => ok).map(([spelling]) => spelling)).toEqual([signature]);
  });

  it("matches an HMAC computed independently over timestamp + body", async () => {
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(SECRET),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const timestamp = String(NOW);
    const mac = new Uint8Array(
      await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}${RAW_BODY}`)),
    );
    const signature = btoa(String.fromCharCode(...mac));
    expect(await signCashfreeWebhook(RAW_BODY, timestamp, SECRET)).toBe(signature);
    expect(
      await verifyCashfreeSignature({ rawBody: RAW_BODY, timestamp, signature, secret: SECRET, now: NOW }),
    ).toEqual({
      ok: true,
    });
  });

  it("rejects a changed body", async () => {
    const input = await signed();
    const rawBody = input.rawBody.replace('"payment_amount":170.00', '"payment_amount":1.00');
    expect(rawBody).not.toBe(input.rawBody);
    expect(await verifyCashfreeSignature({ ...input, rawBody })).toEqual({ ok: false, reason: "bad-signature" });
  });

  it("rejects a changed timestamp that is still fresh (the timestamp is signed)", async () => {
    const input = await signed();
    expect(await verifyCashfreeSignature({ ...input, timestamp: String(NOW - 1000) })).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("rejects a signature made with another secret", async () => {
    const input = await signed();
    expect(await verifyCashfreeSignature({ ...input, secret: `${SECRET}x` })).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it.each<[string, (good: string) => string]>([
    ["not base64 at all", () => "not-base64!!"],
    ["unpadded", (good) => good.replace(/=+$/, "")],
    ["truncated", (good) => good.slice(0, 24)],
    ["with whitespace atob would forgive", (good) => `${good.slice(0, 20)} ${good.slice(20)}`],
    ["in the base64url alphabet", (good) => good.replace(/\+/g, "-").replace(/\//g, "_")],
  ])("rejects a malformed signature (%s)", async (_kind, malform) => {
    const input = await signed();
    const good = input.signature ?? "";
    const signature = malform(good);
    expect(signature).not.toBe(good);
    expect(await verifyCashfreeSignature({ ...input, signature })).toEqual({ ok: false, reason: "bad-signature" });
  });

  it.each([
    ["timestamp", { timestamp: null }],
    ["signature", { signature: null }],
    ["empty timestamp", { timestamp: "" }],
    ["empty signature", { signature: "" }],
  ] as const)("rejects a missing %s header", async (_name, override) => {
    const input = await signed();
    expect(await verifyCashfreeSignature({ ...input, ...override })).toEqual({ ok: false, reason: "missing-headers" });
  });

  it("rejects a correctly signed webhook older or newer than the tolerance", async () => {
    expect(await verifyCashfreeSignature(await signed(NOW - 5 * MINUTE - 1))).toEqual({ ok: false, reason: "stale" });
    expect(await verifyCashfreeSignature(await signed(NOW + 5 * MINUTE + 1))).toEqual({ ok: false, reason: "stale" });
    // Just inside the default 5 minutes either way is still accepted.
    expect(await verifyCashfreeSignature(await signed(NOW - 5 * MINUTE))).toEqual({ ok: true });
    expect(await verifyCashfreeSignature(await signed(NOW + 5 * MINUTE))).toEqual({ ok: true });
  });

  it("honours a custom tolerance", async () => {
    const input = await signed(NOW - 2 * MINUTE);
    expect(await verifyCashfreeSignature(input)).toEqual({ ok: true });
    expect(await verifyCashfreeSignature({ ...input, toleranceMs: MINUTE })).toEqual({ ok: false, reason: "stale" });
  });

  it("reads a timestamp in seconds as seconds", async () => {
    const timestamp = String(Math.floor(NOW / 1000) - 30);
    const signature = await signCashfreeWebhook(RAW_BODY, timestamp, SECRET);
    expect(
      await verifyCashfreeSignature({ rawBody: RAW_BODY, timestamp, signature, secret: SECRET, now: NOW }),
    ).toEqual({
      ok: true,
    });
    const old = String(Math.floor(NOW / 1000) - 6 * 60);
    const oldSignature = await signCashfreeWebhook(RAW_BODY, old, SECRET);
    expect(
      await verifyCashfreeSignature({
        rawBody: RAW_BODY,
        timestamp: old,
        signature: oldSignature,
        secret: SECRET,
        now: NOW,
      }),
    ).toEqual({ ok: false, reason: "stale" });
  });

  it.each(["1.7e12", " 1763208000000", "0x19A8B0C5A00", "soon"])(
    "refuses an unreadable timestamp %j as stale, even when signed",
    async (timestamp) => {
      const signature = await signCashfreeWebhook(RAW_BODY, timestamp, SECRET);
      expect(
        await verifyCashfreeSignature({ rawBody: RAW_BODY, timestamp, signature, secret: SECRET, now: NOW }),
      ).toEqual({ ok: false, reason: "stale" });
    },
  );

  it("fails on a re-serialised body, which is why verification uses the raw text", async () => {
    const input = await signed();
    const reserialised = JSON.stringify(JSON.parse(input.rawBody));
    // JSON.parse reads 170.00 as the number 170, and stringify writes it back as 170.
    expect(reserialised).toContain('"order_amount":170,');
    expect(input.rawBody).toContain('"order_amount":170.00,');
    expect(await verifyCashfreeSignature({ ...input, rawBody: reserialised })).toEqual({
      ok: false,
      reason: "bad-signature",
    });
    expect(await verifyCashfreeSignature(input)).toEqual({ ok: true });
  });
});
