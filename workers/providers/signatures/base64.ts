/**
 * Standard base64 (RFC 4648 §4, with padding), the encoding both PayPal
 * (`paypal-transmission-sig`) and Cashfree (`x-webhook-signature`) use for signatures.
 */

// `atob` also accepts ASCII whitespace and missing padding. A signature header is attacker
// input, so only the canonical padded shape is decoded; anything else is a bad signature.
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  // A loop rather than `String.fromCharCode(...bytes)`: spreading a large array overflows the stack.
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The decoded bytes, or null when the text is not canonical padded base64 (or is empty). */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length === 0 || !CANONICAL_BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // The shape alone still lets the last character before padding vary in its spare low bits (2 of
  // them before "=", 4 before "=="), which atob ignores: one signature would verify in 4 or 16
  // spellings. Only the text that encodes back exactly is canonical. Not a secret, so `===` is fine.
  return encodeBase64(bytes) === text ? bytes : null;
}
