/**
 * Step 1: which key the call presents, and whose it is. A call without a key, or with one that
 * is not ours, goes no further; the record of a known key carries the account and its plan, so
 * no other lookup is needed on the way in.
 *
 * A key comes in a header, or, for an operation that accepts them, as a signed URL naming the
 * key by its id (decision 043). The signature is verified before anything else in the URL is
 * believed; the key it names is then judged exactly as a header key is (revocation and plan
 * in authorise, staleness by the Meter).
 */
import { presentedKey, type KeyRecord, type KeyStore } from "../api-key-auth";
import { hasSignedUrlParams, type UrlSigner } from "../signed-url";
import type { Refusal } from "./refusal";

/** What the call authenticated with: a key from a header, or a signed URL naming a key by id. */
export type Credential = { key: string } | { keyId: string; expiresAt: number };

export type Authentication = { ok: true; credential: Credential; record: KeyRecord } | { ok: false; refusal: Refusal };

/** Whether this operation takes signed URLs, and the signer that checks them. */
export interface SignedUrlPolicy {
  accepted: boolean;
  signer: UrlSigner;
}

const MISSING_KEY: Refusal = {
  type: "missing-api-key",
  detail: "Send your API key in the x-api-key header (or Authorization: Bearer <key>).",
  headers: { "WWW-Authenticate": 'ApiKey realm="portico", header="x-api-key"' },
};

const UNKNOWN_KEY: Refusal = {
  type: "invalid-api-key",
  detail: "This API key is not one of ours. Copy it again from your API Key page.",
  headers: { "WWW-Authenticate": 'ApiKey realm="portico", error="invalid_key"' },
};

const GONE_SIGNING_KEY: Refusal = {
  type: "invalid-api-key",
  detail: "The key this URL was signed with is not one of ours any more. Sign a new URL with a current key.",
  headers: { "WWW-Authenticate": 'ApiKey realm="portico", error="invalid_key"' },
};

// A refused signed URL must not be kept by a browser: a new URL, not a retry, is the remedy,
// and an image tag should not show a cached refusal after the cause is fixed.
const NO_STORE = { "Cache-Control": "no-store" };

const GONE_SIGNING_URL_KEY: Refusal = { ...GONE_SIGNING_KEY, headers: { ...GONE_SIGNING_KEY.headers, ...NO_STORE } };

const NOT_ACCEPTED: Refusal = {
  type: "invalid-signed-url",
  detail: "This call does not take signed URLs (key_id, expires, signature); send your key in the x-api-key header.",
  headers: { ...NO_STORE, "WWW-Authenticate": 'ApiKey realm="portico", header="x-api-key"' },
};

export async function authenticate(
  request: Request,
  keys: KeyStore,
  now: number,
  signedUrls?: SignedUrlPolicy,
): Promise<Authentication> {
  const url = new URL(request.url);
  if (hasSignedUrlParams(url)) {
    if (!signedUrls?.accepted) return { ok: false, refusal: NOT_ACCEPTED };
    // The router answers HEAD with the GET route (without the body), so a HEAD of a signed GET
    // URL, as link checkers and mail clients send before fetching, is judged as that GET.
    const method = request.method === "HEAD" ? "GET" : request.method;
    const verdict = await signedUrls.signer.verify(method, url, now);
    if (!verdict.ok) {
      return {
        ok: false,
        refusal: {
          type: verdict.reason === "expired" ? "expired-signed-url" : "invalid-signed-url",
          detail: verdict.detail,
          headers: {
            ...NO_STORE,
            "WWW-Authenticate": `ApiKey realm="portico", error="${verdict.reason === "expired" ? "expired_url" : "invalid_signature"}"`,
          },
        },
      };
    }
    const record = await keys.resolveId(verdict.keyId, now);
    if (!record) return { ok: false, refusal: GONE_SIGNING_URL_KEY };
    return { ok: true, credential: { keyId: verdict.keyId, expiresAt: verdict.expiresAt }, record };
  }
  const key = presentedKey(request);
  if (!key) return { ok: false, refusal: MISSING_KEY };
  const record = await keys.resolve(key, now);
  return record ? { ok: true, credential: { key }, record } : { ok: false, refusal: UNKNOWN_KEY };
}

/**
 * The same credential judged again on its record from the source of truth, for when the Meter
 * said the cached record is stale (a revoked key, a newer plan). A key deleted since is unknown now.
 */
export async function reauthenticate(credential: Credential, keys: KeyStore, now: number): Promise<Authentication> {
  if ("key" in credential) {
    const record = await keys.reload(credential.key, now);
    return record ? { ok: true, credential, record } : { ok: false, refusal: UNKNOWN_KEY };
  }
  // Whoever holds a signed URL may hold no key at all (an <img> in a mail): the remedy is a new URL.
  const record = await keys.reloadId(credential.keyId, now);
  return record ? { ok: true, credential, record } : { ok: false, refusal: GONE_SIGNING_URL_KEY };
}
