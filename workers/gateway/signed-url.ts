/**
 * Signed URLs (decision 043): a call made with a key in a header may ask for a URL that makes
 * one `GET` of an operation that opts in (`acceptsSignedUrl`), with the caller's options in the
 * query string, usable where no header can be sent: an `<img src>`. The URL carries
 *
 *   key_id     the signing key's id (api_keys.id: not a secret, not the key)
 *   expires    epoch seconds, at most SIGNED_URL_MAX_LIFETIME_SECONDS after signing
 *   signature  base64url HMAC-SHA256 of the canonical form below
 *
 * The canonical form is the method, the path and every query parameter but `signature`, each
 * name and value percent-encoded and the pairs sorted, one per line:
 *
 *   GET\n/api/v1/qrcode\nexpires=1764000000&key_id=key_abc&size=200&text=hello
 *
 * so changing, adding, removing or repeating any parameter, or moving the URL to another path
 * or method, breaks the signature. The HMAC key is derived from SESSION_SECRET with HKDF under
 * its own label, so there is no new secret to manage, and a signature is no use as a session
 * token or the other way round. Rotating SESSION_SECRET ends every signed URL, as it ends
 * every session.
 */

export const SIGNED_URL_PARAMS = ["key_id", "expires", "signature"] as const;

/** A week, as S3's presigned URLs: long enough for a mail campaign, short enough that a leaked URL ends. */
export const SIGNED_URL_MAX_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
export const SIGNED_URL_DEFAULT_LIFETIME_SECONDS = 24 * 60 * 60;
/** Clock difference between the location that signed and the one that verifies. */
const CLOCK_SKEW_SECONDS = 60;

const HKDF_SALT = "portico";
const HKDF_INFO = "portico signed-url v1";
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES_PATTERN = /^\d{1,12}$/;

export type SignedUrlVerdict =
  { ok: true; keyId: string; expiresAt: number } | { ok: false; reason: "invalid" | "expired"; detail: string };

export interface SignRequest {
  method: string;
  /** The path the URL will be used on, e.g. `/api/v1/qrcode`. */
  path: string;
  /** The operation's own parameters; any `key_id`, `expires` or `signature` among them is replaced. */
  params: URLSearchParams;
  keyId: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export interface UrlSigner {
  /** The query string of the signed URL: `params` plus key_id, expires and signature. */
  sign(request: SignRequest): Promise<URLSearchParams>;
  /** Whether `url` is one this signer made for `method`, still within its lifetime. */
  verify(method: string, url: URL, now: number): Promise<SignedUrlVerdict>;
}

/** Whether the URL carries any of the signed-URL parameters (a caller trying to use one). */
export function hasSignedUrlParams(url: URL): boolean {
  return SIGNED_URL_PARAMS.some((name) => url.searchParams.has(name));
}

const encode = (value: string) =>
  // encodeURIComponent leaves !'()* alone; encoding them too gives one spelling per value.
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

export function canonicalForm(method: string, path: string, params: URLSearchParams): string {
  const pairs: string[] = [];
  for (const [name, value] of params) if (name !== "signature") pairs.push(`${encode(name)}=${encode(value)}`);
  // Code-unit order of the encoded pairs: plain ASCII, the same in every runtime.
  pairs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `${method.toUpperCase()}\n${path}\n${pairs.join("&")}`;
}

/** Compares every byte whatever the first difference, so the time taken says nothing about where it is. */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

const keys = new Map<string, Promise<CryptoKey>>();

/**
 * An HMAC-SHA256 key derived from `secret` with HKDF under `info`, once per isolate. Each use
 * of SESSION_SECRET (signed URLs here, the downloader's media tunnel) takes its own label, so
 * nothing one of them signs is any use to another.
 */
export function derivedHmacKey(secret: string, info: string): Promise<CryptoKey> {
  const id = `${info}\n${secret}`;
  let key = keys.get(id);
  if (!key) {
    const encoder = new TextEncoder();
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: encoder.encode(HKDF_SALT), info: encoder.encode(info) },
          base,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign"],
        ),
      );
    keys.set(id, key);
  }
  return key;
}

/** The HMAC key for signed URLs. */
const signingKey = (secret: string) => derivedHmacKey(secret, HKDF_INFO);

async function mac(secret: string, canonical: string): Promise<Uint8Array> {
  const key = await signingKey(secret);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(canonical)));
}

const invalid = (detail: string): SignedUrlVerdict => ({ ok: false, reason: "invalid", detail });

const TAMPERED =
  "The URL's signature does not match its method, path and parameters: it was changed after signing, or signed for another call. Ask for a new signed URL.";

export function hmacUrlSigner(secret: string): UrlSigner {
  return {
    async sign(request) {
      const params = new URLSearchParams(request.params);
      for (const name of SIGNED_URL_PARAMS) params.delete(name);
      params.set("key_id", request.keyId);
      params.set("expires", String(request.expiresAt));
      params.set("signature", toBase64Url(await mac(secret, canonicalForm(request.method, request.path, params))));
      return params;
    },

    async verify(method, url, now) {
      const [keyIds, expiries, signatures] = SIGNED_URL_PARAMS.map((name) => url.searchParams.getAll(name));
      if (keyIds?.length !== 1 || expiries?.length !== 1 || signatures?.length !== 1) {
        return invalid("A signed URL carries key_id, expires and signature, once each.");
      }
      const [keyId, expires, signature] = [keyIds[0] ?? "", expiries[0] ?? "", signatures[0] ?? ""];
      if (!EXPIRES_PATTERN.test(expires) || !SIGNATURE_PATTERN.test(signature)) return invalid(TAMPERED);
      // The signature is checked before anything the URL says is believed, its expiry included.
      const expected = await mac(secret, canonicalForm(method, url.pathname, url.searchParams));
      // Compared as text, the one spelling we issue: 43 characters carry 258 bits for a 256-bit
      // MAC, and a decoder ignores the last one's two spare bits, so comparing decoded bytes
      // would take four spellings of each signature. Both strings are 43 ASCII characters.
      const encoder = new TextEncoder();
      if (!timingSafeEqualBytes(encoder.encode(signature), encoder.encode(toBase64Url(expected)))) {
        return invalid(TAMPERED);
      }
      const expiresAt = Number(expires);
      const nowSeconds = Math.floor(now / 1000);
      if (nowSeconds > expiresAt) {
        return {
          ok: false,
          reason: "expired",
          detail: `This signed URL expired at ${new Date(expiresAt * 1000).toISOString()}. Ask for a new one.`,
        };
      }
      // Only a signer with another maximum (or a clock far off) makes these; none of ours does.
      if (expiresAt - nowSeconds > SIGNED_URL_MAX_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
        return invalid(
          `A signed URL lives at most ${SIGNED_URL_MAX_LIFETIME_SECONDS} seconds; this one claims longer.`,
        );
      }
      return { ok: true, keyId, expiresAt };
    },
  };
}
