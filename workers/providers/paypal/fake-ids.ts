/** Identifiers for the fake PayPal: uppercase alphanumerics, the alphabet PayPal's own ids use. */
const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Uppercase alphanumerics, without modulo bias. */
export function randomId(length: number): string {
  let id = "";
  while (id.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      // 252 is the largest multiple of 36 below 256: higher bytes would favour early letters.
      if (byte < 252 && id.length < length) id += ID_ALPHABET[byte % 36];
    }
  }
  return id;
}
