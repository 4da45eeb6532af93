/**
 * What every way of signing in shares: the password log-in with its throttle, and starting a session
 * (cookie for the browser, bearer token and the non-secret `auth_user` fields for the client).
 */
import { isSecureRequest } from "./cookies";
import { createSession, issueAuthToken, sessionCookieHeader, sessionCookieValue } from "./sessions";
import { logIn } from "./accounts";
import { clientAddress, hitThrottle, releaseThrottle, type ThrottleRule } from "./throttle";
import { displayName, normaliseEmail, type User } from "./users";

const FIFTEEN_MINUTES = 15 * 60 * 1000;
export const LOGIN_FAILURES_PER_EMAIL: ThrottleRule = { name: "login-email", limit: 10, windowMs: FIFTEEN_MINUTES };
export const LOGIN_FAILURES_PER_ADDRESS: ThrottleRule = { name: "login-address", limit: 10, windowMs: FIFTEEN_MINUTES };

/** The fields the browser keeps under `auth_user` (docs/product.md#auth-user): nothing secret. */
export interface AuthUserFields {
  username: string;
  email: string;
  avatar: string | null;
  tokenCreatedAt: number;
  expiresIn: number;
}

export function authUserFields(user: User, session: { createdAt: number; expiresAt: number }): AuthUserFields {
  return {
    username: displayName(user),
    email: user.email,
    avatar: user.avatarUrl,
    tokenCreatedAt: session.createdAt,
    expiresIn: session.expiresAt - session.createdAt,
  };
}

export type LogInAttempt =
  | { ok: true; user: User }
  | { ok: false; code: "throttled"; retryAfterSeconds: number }
  | { ok: false; code: "invalid-credentials" };

/**
 * One password log-in, for the page and the API alike. The attempt is reserved in both
 * throttles (per email, per client) before the password is checked, so a burst of concurrent
 * guesses gets no more checks than the limits allow; a successful log-in gives its reservation
 * back, so only failures count.
 */
export async function attemptPasswordLogIn(
  db: D1Database,
  request: Request,
  credentials: { email: string; password: string },
  now = Date.now(),
): Promise<LogInAttempt> {
  const email = normaliseEmail(credentials.email);
  const address = clientAddress(request);
  const reservations = await Promise.all([
    hitThrottle(db, LOGIN_FAILURES_PER_EMAIL, email, now),
    hitThrottle(db, LOGIN_FAILURES_PER_ADDRESS, address, now),
  ]);
  const waits = reservations.flatMap((result) => (result.ok ? [] : [result.retryAfterSeconds]));
  if (waits.length) return { ok: false, code: "throttled", retryAfterSeconds: Math.max(...waits) };
  const user = await logIn(db, email, credentials.password);
  if (!user) return { ok: false, code: "invalid-credentials" };
  await Promise.all([
    releaseThrottle(db, LOGIN_FAILURES_PER_EMAIL, email, now),
    releaseThrottle(db, LOGIN_FAILURES_PER_ADDRESS, address, now),
  ]);
  return { ok: true, user };
}

export interface StartedSession {
  setCookie: string;
  authUser: AuthUserFields;
  authToken: string;
  authTokenExpiresIn: number;
}

/** A new session (a new id: it rotates at every login) for a user who has just proved who they are. */
export async function startSession(
  db: D1Database,
  secret: string,
  request: Request,
  user: User,
  now: number = Date.now(),
): Promise<StartedSession> {
  const session = await createSession(db, user, now);
  const cookie = await sessionCookieValue(session, user, secret);
  const token = await issueAuthToken(secret, session, user, now);
  return {
    setCookie: sessionCookieHeader(cookie, isSecureRequest(request)),
    authUser: authUserFields(user, session),
    authToken: token.token,
    authTokenExpiresIn: token.expiresIn,
  };
}
