/** Prefixed random ids (`usr_…`, `msg_…`): readable in logs, unguessable, sortable by nothing. */
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

export function createId(prefix: string, length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = "";
  // 256 is not a multiple of 36; the bias (a few parts in a thousand) does not matter for ids.
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

export async function sha256Hex(text: string): Promise<string> {
  return hexOf(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/**
 * Bytes as lowercase hex. A table and a loop: every gateway call hashes its key, and mapping the
 * bytes through toString and padStart was most of the hash's CPU (#17).
 */
export function hexOf(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX_BYTES[byte];
  return hex;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
