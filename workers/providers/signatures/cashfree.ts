/**
 * Cashfree PG webhook signatures, checked on the raw body before anything parses it:
 * `x-webhook-signature` = base64(HMAC-SHA256(key = client secret, message = x-webhook-timestamp + rawBody)).
 */
import { decodeBase64, encodeBase64 } from "./base64";

export type CashfreeVerification = { ok: true } | { ok: false; reason: "missing-headers" | "stale" | "bad-signature" };

export interface VerifyCashfreeSignatureInput {
  /** The body exactly as received (`await request.text()`), never a re-serialised parse. */
  rawBody: string;
  /** The `x-webhook-timestamp` header. */
  timestamp: string | null;
  /** The `x-webhook-signature` header. */
  signature: string | null;
  /** The Cashfree client secret (the same one that authenticates API calls). */
  secret: string;
  /** Epoch milliseconds. */
  now: number;
  /** How far the timestamp may be from `now`, either way. */
  toleranceMs?: number;
}

const DEFAULT_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Cashfree sends milliseconds. Below this the number can only be seconds: 1e11 ms is March 1973,
 * while 1e11 s is the year 5138, so a value under it read as milliseconds would be stale anyway.
 */
const SECONDS_BELOW = 1e11;

// Digits only: `Number()` would also accept " 1e12", "0x1F" or "", which are not Cashfree's format.
const TIMESTAMP_PATTERN = /^\d{1,16}$/;

const encoder = new TextEncoder();

function importHmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

export async function verifyCashfreeSignature(input: VerifyCashfreeSignatureInput): Promise<CashfreeVerification> {
  const { rawBody, timestamp, signature, secret, now } = input;
  const toleranceMs = input.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  if (!timestamp || !signature) return { ok: false, reason: "missing-headers" };

  // A timestamp we cannot read cannot be shown to be fresh, so it is refused as stale.
  if (!TIMESTAMP_PATTERN.test(timestamp)) return { ok: false, reason: "stale" };
  const value = Number(timestamp);
  const sentAt = value < SECONDS_BELOW ? value * 1000 : value;
  // Both directions: an old timestamp is a replay, a future one would stay "fresh" for longer than allowed.
  if (Math.abs(now - sentAt) > toleranceMs) return { ok: false, reason: "stale" };

  const signatureBytes = decodeBase64(signature);
  if (!signatureBytes) return { ok: false, reason: "bad-signature" };

  // The header text as received goes into the message, not the parsed number: Cashfree signed those
  // characters, and the timestamp being signed is what stops a replay with a fresh timestamp.
  const valid = await crypto.subtle.verify(
    "HMAC",
    await importHmacKey(secret, "verify"),
    signatureBytes,
    encoder.encode(timestamp + rawBody),
  );
  return valid ? { ok: true } : { ok: false, reason: "bad-signature" };
}

/** The `x-webhook-signature` Cashfree would send; for the local fake provider and tests. */
export async function signCashfreeWebhook(rawBody: string, timestamp: string, secret: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await importHmacKey(secret, "sign"),
    encoder.encode(timestamp + rawBody),
  );
  return encodeBase64(new Uint8Array(mac));
}
