/**
 * PayPal webhook signatures, verified offline (no call to `verify-webhook-signature`) on the raw
 * body before anything parses it. PayPal signs
 * `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(rawBody)}` with RSASSA-PKCS1-v1_5
 * SHA-256 and publishes the certificate at `paypal-cert-url`.
 *
 * Trust in the certificate comes from where it is fetched (HTTPS from a paypal.com host, checked
 * here before any fetch), not from its chain: jose and WebCrypto cannot validate X.509 chains.
 */
import { importX509 } from "jose";
import { decodeBase64, encodeBase64 } from "./base64";
import { crc32 } from "./crc32";

export type PayPalVerification =
  | { ok: true }
  | {
      ok: false;
      reason:
        | "missing-headers"
        | "untrusted-cert-url"
        | "unsupported-algorithm"
        | "stale"
        | "bad-signature"
        | "cert-unavailable";
    };

export interface VerifyPayPalSignatureInput {
  /** The body exactly as received (`await request.text()`); the CRC is over its UTF-8 bytes. */
  rawBody: string;
  headers: Headers;
  /** Our webhook subscription's id (from the PayPal dashboard), not the event's `id`. */
  webhookId: string;
  /** Epoch milliseconds. */
  now: number;
  /**
   * The PEM at a URL that already passed the paypal.com check. The real one must refuse redirects
   * (`redirect: "error"`), or a redirect could lead away from paypal.com, and must throw on non-2xx.
   */
  fetchCertificate: (url: string) => Promise<string>;
  /** How far `paypal-transmission-time` may be from `now`, either way. */
  toleranceMs?: number;
}

export interface SignPayPalWebhookInput {
  rawBody: string;
  transmissionId: string;
  transmissionTime: string;
  webhookId: string;
  /** RSASSA-PKCS1-v1_5 SHA-256 private key whose certificate the fake serves. */
  privateKey: CryptoKey;
}

const DEFAULT_TOLERANCE_MS = 10 * 60 * 1000;
const SUPPORTED_ALGORITHM = "SHA256withRSA";

/**
 * PayPal sends e.g. `2026-11-15T12:00:00Z`. `Date.parse` alone also takes engine-specific
 * formats, so the ISO 8601 shape with an explicit zone is required first.
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Imported keys by certificate URL, for the life of the isolate, so a certificate is fetched once
 * rather than on every webhook. The promise is stored so concurrent webhooks share one fetch; a
 * failed fetch or import is removed so the next webhook tries again. The bound keeps a stream of
 * distinct (valid) paypal.com URLs from growing memory without limit; PayPal rotates rarely.
 */
const certificateKeys = new Map<string, Promise<CryptoKey>>();
const MAX_CACHED_CERTIFICATES = 16;

const encoder = new TextEncoder();

export async function verifyPayPalSignature(input: VerifyPayPalSignatureInput): Promise<PayPalVerification> {
  const { rawBody, headers, webhookId, now, fetchCertificate } = input;
  const toleranceMs = input.toleranceMs ?? DEFAULT_TOLERANCE_MS;

  const transmissionId = headers.get("paypal-transmission-id");
  const transmissionTime = headers.get("paypal-transmission-time");
  const transmissionSig = headers.get("paypal-transmission-sig");
  const certUrl = headers.get("paypal-cert-url");
  const authAlgo = headers.get("paypal-auth-algo");
  if (!transmissionId || !transmissionTime || !transmissionSig || !certUrl || !authAlgo) {
    return { ok: false, reason: "missing-headers" };
  }

  // Every check that needs no network comes before the fetch, so a forged request costs nothing
  // and cannot make the Worker fetch anything.
  if (authAlgo !== SUPPORTED_ALGORITHM) return { ok: false, reason: "unsupported-algorithm" };
  if (!isTrustedCertificateUrl(certUrl)) return { ok: false, reason: "untrusted-cert-url" };

  // A time we cannot read cannot be shown to be fresh, so it is refused as stale.
  const sentAt = ISO_TIME.test(transmissionTime) ? Date.parse(transmissionTime) : Number.NaN;
  if (Number.isNaN(sentAt) || Math.abs(now - sentAt) > toleranceMs) return { ok: false, reason: "stale" };

  const signature = decodeBase64(transmissionSig);
  if (!signature) return { ok: false, reason: "bad-signature" };

  let key: CryptoKey;
  try {
    key = await certificateKey(certUrl, fetchCertificate);
  } catch {
    return { ok: false, reason: "cert-unavailable" };
  }

  // The header values go into the message exactly as received: they are what PayPal signed.
  const message = encoder.encode(payPalSignedMessage(transmissionId, transmissionTime, webhookId, rawBody));
  const valid = await crypto.subtle.verify({ name: "RSASSA-PKCS1-v1_5" }, key, signature, message);
  return valid ? { ok: true } : { ok: false, reason: "bad-signature" };
}

/** The `paypal-transmission-sig` PayPal would send; for the local fake provider and tests. */
export async function signPayPalWebhook(input: SignPayPalWebhookInput): Promise<string> {
  const message = payPalSignedMessage(input.transmissionId, input.transmissionTime, input.webhookId, input.rawBody);
  const signature = await crypto.subtle.sign({ name: "RSASSA-PKCS1-v1_5" }, input.privateKey, encoder.encode(message));
  return encodeBase64(new Uint8Array(signature));
}

function payPalSignedMessage(transmissionId: string, transmissionTime: string, webhookId: string, rawBody: string) {
  // The CRC is of the UTF-8 bytes PayPal sent, printed as an unsigned decimal.
  return `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(encoder.encode(rawBody))}`;
}

/**
 * `https:` on paypal.com or a subdomain, with no credentials and the default port. Parsed with URL
 * rather than matched as text, so `https://paypal.com.evil.com`, `https://evil.com/?.paypal.com` and
 * `https://api.paypal.com@evil.com` are all seen for the hosts they really name.
 */
function isTrustedCertificateUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  // URL lower-cases the host and drops an explicit :443, so `port` is empty only for the default.
  return (
    url.protocol === "https:" &&
    url.username === "" &&
    url.password === "" &&
    url.port === "" &&
    (url.hostname === "paypal.com" || url.hostname.endsWith(".paypal.com"))
  );
}

function certificateKey(url: string, fetchCertificate: (url: string) => Promise<string>): Promise<CryptoKey> {
  const cached = certificateKeys.get(url);
  if (cached) return cached;

  const key = (async () => importX509(await fetchCertificate(url), "RS256"))();
  key.catch(() => {
    // Only forget this attempt, not a newer one stored after it.
    if (certificateKeys.get(url) === key) certificateKeys.delete(url);
  });
  if (certificateKeys.size >= MAX_CACHED_CERTIFICATES) {
    // Maps iterate in insertion order, so the first key is the oldest.
    const oldest = certificateKeys.keys().next();
    if (!oldest.done) certificateKeys.delete(oldest.value);
  }
  certificateKeys.set(url, key);
  return key;
}
