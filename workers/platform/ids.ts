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
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
