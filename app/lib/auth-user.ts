/**
 * The signed-in user's non-secret record in local storage under `auth_user`
 * (docs/product.md#auth-user and #session-expiry).
 * The session itself is an httpOnly cookie; this record only lets the page show who is
 * signed in and sign itself out when the token's lifetime has passed.
 */
export const AUTH_USER_KEY = "auth_user";

export interface AuthUser {
  username?: string;
  email?: string;
  avatar?: string;
  /** Epoch ms when the token was issued. */
  tokenCreatedAt?: number;
  /** Token lifetime in ms. */
  expiresIn?: number;
  [field: string]: unknown;
}

/** True while the record's token is still within its lifetime (docs/product.md#session-expiry). */
export function isAuthUserCurrent(user: AuthUser | null, now: number = Date.now()): boolean {
  if (!user) return false;
  const { tokenCreatedAt, expiresIn } = user;
  if (typeof tokenCreatedAt !== "number" || typeof expiresIn !== "number") return false;
  return tokenCreatedAt + expiresIn >= now;
}

export function readAuthUser(): AuthUser | null {
  if (typeof localStorage === "undefined") return null;
  try {
    const raw = localStorage.getItem(AUTH_USER_KEY);
    const value: unknown = raw ? JSON.parse(raw) : null;
    return value && typeof value === "object" ? (value as AuthUser) : null;
  } catch {
    return null;
  }
}
