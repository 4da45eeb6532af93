import { beforeAll, describe, expect, it } from "vitest";
import { encodeBase64 } from "./base64";
import { signPayPalWebhook, verifyPayPalSignature, type VerifyPayPalSignatureInput } from "./paypal";
import { createSelfSignedCertificate, generateRsaSigningKeyPair } from "./x509";

const WEBHOOK_ID = "8PT597110X687430LKGECATA"; // our subscription's id, as the dashboard shows it
const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);
const MINUTE = 60_000;

const RAW_BODY =
  '{"id":"WH-58D329510W468432D-8HN650336L201105X","event_type":"PAYMENT.CAPTURE.COMPLETED",' +
  '"create_time":"2026-11-15T12:00:00.000Z","resource_type":"capture",' +
  '"resource":{"id":"2GG279541U471931P","status":"COMPLETED","amount":{"currency_code":"USD","value":"170.00"},' +
  '"custom_id":"pay_7Qm2","note":"café ₹"}}';

let paypalKeys: CryptoKeyPair;
let certificatePem: string;

beforeAll(async () => {
  paypalKeys = await generateRsaSigningKeyPair();
  certificatePem = await createSelfSignedCertificate({
    keyPair: paypalKeys,
    commonName: "messageverificationcerts.sandbox.paypal.com",
    notBefore: new Date(NOW - 24 * 60 * MINUTE),
    notAfter: new Date(NOW + 365 * 24 * 60 * MINUTE),
  });
});

/**
 * The verifier caches keys by URL for the isolate, and test files share one runner, so every test
 * uses a certificate URL of its own; otherwise a key cached by one test would hide another's fetch.
 */
function uniqueCertUrl(): string {
  return `https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-${crypto.randomUUID()}`;
}

/** A fake certificate endpoint that counts its fetches. */
function certificateServer(pem = certificatePem) {
  const fetched: string[] = [];
  return {
    fetched,
    fetchCertificate: async (url: string) => {
      fetched.push(url);
      return pem;
    },
  };
}

interface Webhook {
  rawBody: string;
  headers: Record<string, string>;
}

/** A webhook exactly as PayPal would deliver it at `sentAt`. */
async function deliver(options: { sentAt?: number; certUrl?: string; privateKey?: CryptoKey } = {}): Promise<Webhook> {
  const transmissionId = crypto.randomUUID();
  const transmissionTime = new Date(options.sentAt ?? NOW).toISOString();
  const signature = await signPayPalWebhook({
    rawBody: RAW_BODY,
    transmissionId,
    transmissionTime,
    webhookId: WEBHOOK_ID,
    privateKey: options.privateKey ?? paypalKeys.privateKey,
  });
  return {
    rawBody: RAW_BODY,
    headers: {
      "paypal-transmission-id": transmissionId,
      "paypal-transmission-time": transmissionTime,
      "paypal-transmission-sig": signature,
      "paypal-cert-url": options.certUrl ?? uniqueCertUrl(),
      "paypal-auth-algo": "SHA256withRSA",
    },
  };
}

function verify(
  webhook: Webhook,
  fetchCertificate: VerifyPayPalSignatureInput["fetchCertificate"],
  overrides: Partial<VerifyPayPalSignatureInput> = {},
) {
  return verifyPayPalSignature({
    rawBody: webhook.rawBody,
    headers: new Headers(webhook.headers),
    webhookId: WEBHOOK_ID,
    now: NOW,
    fetchCertificate,
    ...overrides,
  });
}

describe("verifyPayPalSignature", () => {
  it("accepts a correctly signed event, fetching the certificate from the header's URL", async () => {
    const webhook = await deliver();
    const server = certificateServer();
    expect(await verify(webhook, server.fetchCertificate)).toEqual({ ok: true });
    expect(server.fetched).toEqual([webhook.headers["paypal-cert-url"]]);
  });

  it("accepts a signature made independently over the documented message", async () => {
    // transmissionId|transmissionTime|webhookId|CRC-32 of the UTF-8 body in unsigned decimal,
    // with the CRC computed outside this code (Node's zlib.crc32) and written out literally. The
    // body has multi-byte characters and a CRC above 2^31, so UTF-16 or a signed CRC would not match.
    const body = '{"id":"WH-0","amount":{"currency_code":"INR","value":"170.00"},"note":"café ₹"}';
    const message = `9c1b6f50-c1a4-11f0-8de9-0242ac120002|2026-11-15T12:00:00Z|${WEBHOOK_ID}|3678206398`;
    const signature = await crypto.subtle.sign(
      "RSASSA-PKCS1-v1_5",
      paypalKeys.privateKey,
      new TextEncoder().encode(message),
    );
    const webhook: Webhook = {
      rawBody: body,
      headers: {
        "paypal-transmission-id": "9c1b6f50-c1a4-11f0-8de9-0242ac120002",
        "paypal-transmission-time": "2026-11-15T12:00:00Z",
        "paypal-transmission-sig": encodeBase64(new Uint8Array(signature)),
        "paypal-cert-url": uniqueCertUrl(),
        "paypal-auth-algo": "SHA256withRSA",
      },
    };
    expect(await verify(webhook, certificateServer().fetchCertificate)).toEqual({ ok: true });
  });

  it("accepts only the issued last character of the signature, not the fifteen that differ in its four unused bits", async () => {
    const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const webhook = await deliver();
    const signature = webhook.headers["paypal-transmission-sig"] ?? "";
    // A 2048-bit signature is 256 bytes: 342 characters and "==" carry 2052 bits, and a decoder
    // ignores the 342nd's four low bits. One certificate URL for all, so it is fetched once.
    expect(signature).toMatch(/^[A-Za-z0-9+/]{342}==$/);
    const server = certificateServer();
    const verdicts: (readonly [string, boolean])[] = [];
    for (const last of BASE64) {
      const spelling = `${signature.slice(0, 341)}${last}==`;
      const headers = { ...webhook.headers, "paypal-transmission-sig": spelling };
      verdicts.push([spelling, (await verify({ ...webhook, headers }, server.fetchCertificate)).ok]);
    }
    expect(verdicts.filter(([, ok]) => ok).map(([spelling]) => spelling)).toEqual([signature]);
  });

  it("rejects a tampered body", async () => {
    const webhook = await deliver();
    const rawBody = webhook.rawBody.replace('"value":"170.00"', '"value":"1.00"');
    expect(rawBody).not.toBe(webhook.rawBody);
    expect(await verify({ ...webhook, rawBody }, certificateServer().fetchCertificate)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("rejects an event signed for another webhook id", async () => {
    const webhook = await deliver();
    expect(await verify(webhook, certificateServer().fetchCertificate, { webhookId: "1JE4291016473214C" })).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("rejects a changed transmission id", async () => {
    const webhook = await deliver();
    const headers = { ...webhook.headers, "paypal-transmission-id": crypto.randomUUID() };
    expect(await verify({ ...webhook, headers }, certificateServer().fetchCertificate)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("rejects a changed transmission time that is still fresh (the time is signed)", async () => {
    const webhook = await deliver();
    const headers = { ...webhook.headers, "paypal-transmission-time": new Date(NOW - 1000).toISOString() };
    expect(await verify({ ...webhook, headers }, certificateServer().fetchCertificate)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("rejects a signature from a key other than the certificate's", async () => {
    const otherKeys = await generateRsaSigningKeyPair();
    const webhook = await deliver({ privateKey: otherKeys.privateKey });
    expect(await verify(webhook, certificateServer().fetchCertificate)).toEqual({ ok: false, reason: "bad-signature" });
  });

  it.each<[string, (good: string) => string]>([
    ["not base64", () => "%%%"],
    ["truncated", (good) => good.slice(0, 100)],
    ["unpadded", (good) => good.replace(/=+$/, "")],
  ])("rejects a malformed signature (%s)", async (_kind, malform) => {
    const webhook = await deliver();
    const sig = malform(webhook.headers["paypal-transmission-sig"] ?? "");
    expect(sig).not.toBe(webhook.headers["paypal-transmission-sig"]);
    const headers = { ...webhook.headers, "paypal-transmission-sig": sig };
    expect(await verify({ ...webhook, headers }, certificateServer().fetchCertificate)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it.each(["SHA512withRSA", "sha256withrsa", "SHA256withECDSA", "none"])(
    "rejects paypal-auth-algo %j without fetching",
    async (algorithm) => {
      const webhook = await deliver();
      const server = certificateServer();
      const headers = { ...webhook.headers, "paypal-auth-algo": algorithm };
      expect(await verify({ ...webhook, headers }, server.fetchCertificate)).toEqual({
        ok: false,
        reason: "unsupported-algorithm",
      });
      expect(server.fetched).toEqual([]);
    },
  );

  it.each([
    "https://evil.com/v1/notifications/certs/CERT-1",
    "http://api.paypal.com/v1/notifications/certs/CERT-1",
    "https://paypal.com.evil.com/v1/notifications/certs/CERT-1",
    "https://evilpaypal.com/v1/notifications/certs/CERT-1",
    "https://evil.com/?host=.paypal.com",
    "https://api.paypal.com@evil.com/v1/notifications/certs/CERT-1",
    "https://user:pass@api.paypal.com/v1/notifications/certs/CERT-1",
    "https://user@api.paypal.com/v1/notifications/certs/CERT-1",
    "https://:pass@api.paypal.com/v1/notifications/certs/CERT-1",
    "https://api.paypal.com:8443/v1/notifications/certs/CERT-1",
    "https://api.paypal.com./v1/notifications/certs/CERT-1",
    "file:///etc/paypal.com",
    "api.paypal.com/v1/notifications/certs/CERT-1",
  ])("rejects the certificate URL %s without fetching", async (certUrl) => {
    const webhook = await deliver({ certUrl });
    const server = certificateServer();
    expect(await verify(webhook, server.fetchCertificate)).toEqual({ ok: false, reason: "untrusted-cert-url" });
    expect(server.fetched).toEqual([]);
  });

  it.each([
    "https://paypal.com/v1/notifications/certs/",
    "https://API.PayPal.com:443/v1/notifications/certs/",
    "https://api.sandbox.paypal.com/v1/notifications/certs/",
  ])("trusts a certificate at %s", async (base) => {
    const certUrl = `${base}CERT-${crypto.randomUUID()}`;
    const webhook = await deliver({ certUrl });
    const server = certificateServer();
    expect(await verify(webhook, server.fetchCertificate)).toEqual({ ok: true });
    expect(server.fetched).toHaveLength(1);
  });

  it("rejects a correctly signed event older or newer than the tolerance, without fetching", async () => {
    const server = certificateServer();
    expect(await verify(await deliver({ sentAt: NOW - 10 * MINUTE - 1 }), server.fetchCertificate)).toEqual({
      ok: false,
      reason: "stale",
    });
    expect(await verify(await deliver({ sentAt: NOW + 10 * MINUTE + 1 }), server.fetchCertificate)).toEqual({
      ok: false,
      reason: "stale",
    });
    expect(server.fetched).toEqual([]);
    // Just inside the default 10 minutes either way is still accepted.
    expect(await verify(await deliver({ sentAt: NOW - 10 * MINUTE }), server.fetchCertificate)).toEqual({ ok: true });
    expect(await verify(await deliver({ sentAt: NOW + 10 * MINUTE }), server.fetchCertificate)).toEqual({ ok: true });
  });

  it("honours a custom tolerance", async () => {
    const webhook = await deliver({ sentAt: NOW - 3 * MINUTE });
    const server = certificateServer();
    expect(await verify(webhook, server.fetchCertificate, { toleranceMs: 2 * MINUTE })).toEqual({
      ok: false,
      reason: "stale",
    });
    expect(await verify(webhook, server.fetchCertificate)).toEqual({ ok: true });
  });

  it.each(["yesterday", "Sun, 15 Nov 2026 12:00:00 GMT", "2026-11-15 12:00:00", "2026-11-15T12:00:00"])(
    "refuses an unreadable transmission time %j as stale, even when signed",
    async (transmissionTime) => {
      const transmissionId = crypto.randomUUID();
      const signature = await signPayPalWebhook({
        rawBody: RAW_BODY,
        transmissionId,
        transmissionTime,
        webhookId: WEBHOOK_ID,
        privateKey: paypalKeys.privateKey,
      });
      const webhook: Webhook = {
        rawBody: RAW_BODY,
        headers: {
          "paypal-transmission-id": transmissionId,
          "paypal-transmission-time": transmissionTime,
          "paypal-transmission-sig": signature,
          "paypal-cert-url": uniqueCertUrl(),
          "paypal-auth-algo": "SHA256withRSA",
        },
      };
      expect(await verify(webhook, certificateServer().fetchCertificate)).toEqual({ ok: false, reason: "stale" });
    },
  );

  it.each([
    "paypal-transmission-id",
    "paypal-transmission-time",
    "paypal-transmission-sig",
    "paypal-cert-url",
    "paypal-auth-algo",
  ])("rejects an event without %s", async (name) => {
    const webhook = await deliver();
    const server = certificateServer();
    const headers = Object.fromEntries(Object.entries(webhook.headers).filter(([key]) => key !== name));
    expect(Object.keys(headers)).toHaveLength(4);
    expect(await verify({ ...webhook, headers }, server.fetchCertificate)).toEqual({
      ok: false,
      reason: "missing-headers",
    });
    expect(server.fetched).toEqual([]);
  });

  it("fetches a certificate once for two verifications with the same URL", async () => {
    const certUrl = uniqueCertUrl();
    const server = certificateServer();
    expect(await verify(await deliver({ certUrl }), server.fetchCertificate)).toEqual({ ok: true });
    expect(await verify(await deliver({ certUrl }), server.fetchCertificate)).toEqual({ ok: true });
    expect(server.fetched).toEqual([certUrl]);
  });

  it("forgets the oldest certificate once 16 others are cached, and fetches it again", async () => {
    const certUrl = uniqueCertUrl();
    const server = certificateServer();
    expect(await verify(await deliver({ certUrl }), server.fetchCertificate)).toEqual({ ok: true });
    // MAX_CACHED_CERTIFICATES in paypal.ts is 16.
    for (let i = 0; i < 16; i++) expect(await verify(await deliver(), server.fetchCertificate)).toEqual({ ok: true });
    expect(await verify(await deliver({ certUrl }), server.fetchCertificate)).toEqual({ ok: true });
    expect(server.fetched.filter((url) => url === certUrl)).toHaveLength(2);
    expect(server.fetched).toHaveLength(18);
  });

  it("shares one fetch between concurrent verifications with the same URL", async () => {
    const certUrl = uniqueCertUrl();
    const server = certificateServer();
    const [first, second] = await Promise.all([
      verify(await deliver({ certUrl }), server.fetchCertificate),
      verify(await deliver({ certUrl }), server.fetchCertificate),
    ]);
    expect([first, second]).toEqual([{ ok: true }, { ok: true }]);
    expect(server.fetched).toEqual([certUrl]);
  });

  it("fetches each distinct certificate URL", async () => {
    const server = certificateServer();
    expect(await verify(await deliver(), server.fetchCertificate)).toEqual({ ok: true });
    expect(await verify(await deliver(), server.fetchCertificate)).toEqual({ ok: true });
    expect(new Set(server.fetched).size).toBe(2);
  });

  it("answers cert-unavailable when the certificate cannot be fetched, and tries again next time", async () => {
    const certUrl = uniqueCertUrl();
    let attempts = 0;
    const flaky = async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("503 from api.paypal.com");
      return certificatePem;
    };
    expect(await verify(await deliver({ certUrl }), flaky)).toEqual({ ok: false, reason: "cert-unavailable" });
    // The failure is not cached: the next webhook fetches again and verifies.
    expect(await verify(await deliver({ certUrl }), flaky)).toEqual({ ok: true });
    expect(attempts).toBe(2);
  });

  it.each([
    ["not a certificate", "<html>Service Unavailable</html>"],
    [
      "a public key instead of a certificate",
      "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n",
    ],
  ])("answers cert-unavailable when the URL serves %s", async (_kind, pem) => {
    const webhook = await deliver();
    expect(await verify(webhook, certificateServer(pem).fetchCertificate)).toEqual({
      ok: false,
      reason: "cert-unavailable",
    });
  });

  it("answers cert-unavailable for a certificate whose key is not RSA", async () => {
    const ecdsa = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    // Build an RSA-signed certificate around an EC public key: jose must refuse it for RS256.
    const mixed = { publicKey: ecdsa.publicKey, privateKey: paypalKeys.privateKey };
    const pem = await createSelfSignedCertificate({
      keyPair: mixed,
      commonName: "messageverificationcerts.sandbox.paypal.com",
      notBefore: new Date(NOW - MINUTE),
      notAfter: new Date(NOW + MINUTE),
    });
    expect(await verify(await deliver(), certificateServer(pem).fetchCertificate)).toEqual({
      ok: false,
      reason: "cert-unavailable",
    });
  });
});
