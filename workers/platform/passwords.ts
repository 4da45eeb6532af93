/**
 * Password hashing with PBKDF2-SHA256 in WebCrypto. 100,000 iterations is the most
 * production Workers allow (more throws NotSupportedError there, while local workerd accepts
 * it: a test pins the number). Hashes describe themselves so a later scheme can be rolled
 * out on login.
 */
// The entries of ten characters or more (the shortest password accepted) from Mozilla's
// Firefox Accounts common-password list (fxa-common-password-list 0.0.4, MPL-2.0), lower-cased.
import COMMON_PASSWORDS from "./common-passwords.json";

export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

const common = new Set<string>(COMMON_PASSWORDS as string[]);

export type PasswordProblem = "too-short" | "too-long" | "too-common";

export const PASSWORD_MESSAGES: Record<PasswordProblem, string> = {
  "too-short": `Use at least ${PASSWORD_MIN_LENGTH} characters`,
  "too-long": `Use at most ${PASSWORD_MAX_LENGTH} characters`,
  "too-common": "This password is too common; choose one that is harder to guess",
};

export function checkPasswordStrength(password: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN_LENGTH) return "too-short";
  if (password.length > PASSWORD_MAX_LENGTH) return "too-long";
  if (common.has(password.toLowerCase())) return "too-common";
  return null;
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** Compares in constant time for equal lengths, so timing says nothing about the hash. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iterations || !salt || !hash) return false;
  const rounds = Number(iterations);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > PBKDF2_ITERATIONS) return false;
  const expected = fromBase64(hash);
  return timingSafeEqual(await derive(password, fromBase64(salt), rounds), expected);
}

/** Runs a hash anyway when there is no account, so a login's timing does not tell. */
export const DUMMY_PASSWORD_HASH =
  "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
