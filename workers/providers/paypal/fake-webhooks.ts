/**
 * Signed webhooks from the fake PayPal, made the way PayPal makes them: the envelope
 * `{ id: "WH-…", event_version, create_time, resource_type, event_type, summary, resource }`,
 * the `paypal-*` headers, and an RSA SHA-256 signature whose certificate the fake serves. The
 * webhook Worker therefore verifies the fake's webhooks with the same code it uses for PayPal's.
 *
 * The signing key and its self-signed certificate are made once and kept in KV, so every
 * isolate of a dev server signs with the same key and serves the same certificate. The
 * certificate URL names a paypal.com host, because the verifier only fetches certificates from
 * there; `fakePayPalCertificateFetcher` answers such a URL from the fake itself, offline.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { decodeBase64, encodeBase64 } from "~workers/providers/signatures/base64";
import { signPayPalWebhook } from "~workers/providers/signatures/paypal";
import { createSelfSignedCertificate, generateRsaSigningKeyPair } from "~workers/providers/signatures/x509";
import type { DeliverWebhook } from "../cashfree/types";
import { randomId } from "./fake-ids";
import { describeError } from "../http";

export interface FakePayPalWebhook {
  /** Where PayPal would post: the URL of our webhook subscription (the webhook Worker). */
  url: string;
  /** The subscription's id, which PayPal signs into every message (PAYPAL_WEBHOOK_ID). */
  webhookId: string;
  deliver: DeliverWebhook;
}

export interface FakeWebhookSettings {
  webhook?: FakePayPalWebhook | undefined;
  /** When given, the delivery is handed over instead of awaited (`ctx.waitUntil`). */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

export interface FakeWebhookEvent {
  eventType: "CHECKOUT.ORDER.APPROVED" | "PAYMENT.CAPTURE.COMPLETED" | "PAYMENT.CAPTURE.REFUNDED";
  resourceType: "checkout-order" | "capture" | "refund";
  summary: string;
  resource: Record<string, unknown>;
}

/** One KV key for the pair, so racing isolates converge on whichever write KV keeps. */
const IDENTITY_KV_KEY = "fake-paypal:signing-identity";
const CERTIFICATE_KV_PREFIX = "fake-paypal:cert:";
/** A host the verifier's allow-list accepts (https, paypal.com), as PayPal's sandbox uses. */
const CERTIFICATE_ORIGIN = "https://api.sandbox.paypal.com";
export const CERTIFICATE_PATH = "/v1/notifications/certs/";
const CERTIFICATE_VALIDITY_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export const CertificateIdSchema = z.string().regex(/^CERT-FAKE-[A-Z0-9]{1,32}$/);

const StoredIdentitySchema = z.object({
  certId: CertificateIdSchema,
  /** PKCS #8, base64. */
  privateKey: z.string().min(1),
});
type StoredIdentity = z.infer<typeof StoredIdentitySchema>;

interface SigningIdentity {
  certUrl: string;
  privateKey: CryptoKey;
}

/** Imported private keys by certificate id: importing on every webhook would be wasted work. */
const importedKeys = new Map<string, Promise<CryptoKey>>();

/**
 * Signs and delivers one event. A failure (signing, KV, delivery) is logged and never thrown:
 * PayPal's own webhook trouble never breaks the API call that caused the event either.
 */
export async function sendFakeWebhook(
  kv: KVNamespace,
  settings: FakeWebhookSettings,
  event: FakeWebhookEvent,
): Promise<void> {
  const { webhook, waitUntil } = settings;
  if (!webhook) return;
  const envelope = {
    // PayPal's event ids look like WH-58D329510W468432D-8HN650336L201105X.
    id: `WH-${randomId(17)}-${randomId(17)}`,
    event_version: "1.0",
    create_time: new Date().toISOString(),
    resource_type: event.resourceType,
    resource_version: "2.0",
    event_type: event.eventType,
    summary: event.summary,
    resource: event.resource,
  };
  const delivery = signAndDeliver(kv, webhook, JSON.stringify(envelope)).catch((error: unknown) => {
    console.error(
      `Fake PayPal could not deliver ${envelope.event_type} ${envelope.id} to ${webhook.url}:`,
      describeError(error),
    );
  });
  if (waitUntil) waitUntil(delivery);
  else await delivery;
}

async function signAndDeliver(kv: KVNamespace, webhook: FakePayPalWebhook, body: string): Promise<void> {
  const identity = await loadSigningIdentity(kv);
  const transmissionId = crypto.randomUUID();
  const transmissionTime = new Date().toISOString();
  const signature = await signPayPalWebhook({
    rawBody: body,
    transmissionId,
    transmissionTime,
    webhookId: webhook.webhookId,
    privateKey: identity.privateKey,
  });
  await webhook.deliver(webhook.url, {
    headers: {
      "content-type": "application/json",
      "paypal-transmission-id": transmissionId,
      "paypal-transmission-time": transmissionTime,
      "paypal-transmission-sig": signature,
      "paypal-cert-url": identity.certUrl,
      "paypal-auth-algo": "SHA256withRSA",
    },
    body,
  });
}

/** The PEM the fake serves for `certId`, or null for an id it never made. */
export async function readFakeCertificate(kv: KVNamespace, certId: string): Promise<string | null> {
  // Checked before use as a key: a path segment must not reach other KV entries.
  if (!CertificateIdSchema.safeParse(certId).success) return null;
  return kv.get(`${CERTIFICATE_KV_PREFIX}${certId}`);
}

/**
 * The certificate id in a URL such as `https://api.sandbox.paypal.com/v1/notifications/certs/CERT-FAKE-…`,
 * or null when the URL is anything else: not https on paypal.com, credentials, a port, a query.
 */
export function certificateIdFromUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const onPayPal = url.hostname === "paypal.com" || url.hostname.endsWith(".paypal.com");
  if (url.protocol !== "https:" || !onPayPal || url.username || url.password || url.port || url.search) return null;
  if (!url.pathname.startsWith(CERTIFICATE_PATH)) return null;
  const certId = url.pathname.slice(CERTIFICATE_PATH.length);
  return CertificateIdSchema.safeParse(certId).success ? certId : null;
}

/**
 * A `fetchCertificate` for `verifyPayPalSignature` that answers the fake's paypal.com certificate
 * URLs from the fake's own route, in process, so the webhook Worker verifies offline in
 * development. Anything else, and any non-2xx answer, throws: it must never reach the network.
 */
export function fakePayPalCertificateFetcher(fake: Hono, baseUrl: string): (url: string) => Promise<string> {
  const base = baseUrl.replace(/\/+$/, "");
  return async (url) => {
    const certId = certificateIdFromUrl(url);
    if (certId === null) throw new Error(`The fake PayPal serves no certificate at ${url}`);
    const response = await fake.fetch(new Request(`${base}${CERTIFICATE_PATH}${certId}`));
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`The fake PayPal's certificate ${certId} answered ${response.status}`);
    }
    return response.text();
  };
}

async function loadSigningIdentity(kv: KVNamespace): Promise<SigningIdentity> {
  let stored = await readIdentity(kv);
  if (!stored) {
    const created = await createIdentity(kv);
    await kv.put(IDENTITY_KV_KEY, JSON.stringify(created));
    // Re-read rather than use our own: when two isolates race to create the pair, both then sign
    // with whichever KV kept. The loser's certificate stays served, so its webhooks verify too.
    stored = (await readIdentity(kv)) ?? created;
  }
  return { certUrl: `${CERTIFICATE_ORIGIN}${CERTIFICATE_PATH}${stored.certId}`, privateKey: await importKey(stored) };
}

async function readIdentity(kv: KVNamespace): Promise<StoredIdentity | null> {
  const parsed = StoredIdentitySchema.safeParse(await kv.get(IDENTITY_KV_KEY, "json"));
  return parsed.success ? parsed.data : null;
}

/** A fresh key pair; its certificate is stored (under its own id) before the pair is. */
async function createIdentity(kv: KVNamespace): Promise<StoredIdentity> {
  const keyPair = await generateRsaSigningKeyPair();
  const now = Date.now();
  const certificate = await createSelfSignedCertificate({
    keyPair,
    commonName: "messageverificationcerts.paypal.com",
    notBefore: new Date(now - 24 * 60 * 60 * 1000),
    notAfter: new Date(now + CERTIFICATE_VALIDITY_MS),
  });
  const certId = `CERT-FAKE-${randomId(12)}`;
  await kv.put(`${CERTIFICATE_KV_PREFIX}${certId}`, certificate);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keyPair.privateKey));
  return { certId, privateKey: encodeBase64(pkcs8) };
}

function importKey(identity: StoredIdentity): Promise<CryptoKey> {
  const cached = importedKeys.get(identity.certId);
  if (cached) return cached;
  const der = decodeBase64(identity.privateKey);
  if (!der) return Promise.reject(new Error("The fake PayPal's stored signing key is not base64"));
  const key = crypto.subtle.importKey("pkcs8", der, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
  key.catch(() => importedKeys.delete(identity.certId));
  importedKeys.set(identity.certId, key);
  return key;
}
