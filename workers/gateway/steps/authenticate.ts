/**
 * Step 1: which key the call presents, and whose it is. A call without a key, or with one that
 * is not ours, goes no further; the record of a known key carries the account and its plan, so
 * no other lookup is needed on the way in.
 */
import { presentedKey, type KeyRecord } from "../api-key-auth";
import type { KeyStore } from "../services";
import type { Refusal } from "./refusal";

export type Authentication = { ok: true; key: string; record: KeyRecord } | { ok: false; refusal: Refusal };

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

export async function authenticate(request: Request, keys: KeyStore, now: number): Promise<Authentication> {
  const key = presentedKey(request);
  if (!key) return { ok: false, refusal: MISSING_KEY };
  return recognised(key, await keys.resolve(key, now));
}

/**
 * The same key judged again on its record from the source of truth, for when the Meter said
 * the cached record is stale (a revoked key, a newer plan). A key deleted since is unknown now.
 */
export async function reauthenticate(key: string, keys: KeyStore, now: number): Promise<Authentication> {
  return recognised(key, await keys.reload(key, now));
}

function recognised(key: string, record: KeyRecord | null): Authentication {
  return record ? { ok: true, key, record } : { ok: false, refusal: UNKNOWN_KEY };
}
