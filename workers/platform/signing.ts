/**
 * HMAC-SHA256 signatures for values kept in cookies (the session, the pending OIDC sign-in):
 * `<value>.<base64url signature>`. Verification is WebCrypto's, which compares in constant time.
 * A signature verifies only in the one spelling `toBase64Url` writes (see `fromBase64Url`).
 */
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

export function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * The bytes, or null unless the text is exactly what `toBase64Url` writes for them. `atob` ignores
 * the spare low bits of the last character (two of them in a 43-character MAC), padding and ASCII
 * whitespace, so without the round trip one signature would verify in several spellings.
 */
export function fromBase64Url(text: string): Uint8Array | null {
  let bytes: Uint8Array;
  try {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    bytes = Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  // Not a secret: both sides are the caller's own text, so an ordinary comparison is fine.
  return toBase64Url(bytes) === text ? bytes : null;
}

export async function signValue(value: string, secret: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(value));
  return `${value}.${toBase64Url(new Uint8Array(signature))}`;
}

/** The value when the signature is ours, else null. */
export async function unsignValue(signed: string, secret: string): Promise<string | null> {
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  const signature = fromBase64Url(signed.slice(dot + 1));
  if (!signature) return null;
  const valid = await crypto.subtle.verify(
    "HMAC",
    await hmacKey(secret),
    signature as BufferSource,
    new TextEncoder().encode(value),
  );
  return valid ? value : null;
}
