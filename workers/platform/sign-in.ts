/**
 * What every way of signing in shares: the failed-login throttle, and starting a session
 * (cookie for the browser, bearer token and the non-secret `auth_user` fields for the client).
 */
import { isSecureRequest } from "./cookies";
import { createSession, issueAuthToken, sessionCookieHeader, sessionCookieValue } from "./sessions";
import { clientAddress, hitThrottle, isThrottled, type ThrottleRule } from "./throttle";
import { displayName, type User } from "./users";

const FIFTEEN_MINUTES = 15 * 60 * 1000;
export const LOGIN_FAILURES_PER_EMAIL: ThrottleRule = { name: "login-email", limit: 10, windowMs: FIFTEEN_MINUTES };
export const LOGIN_FAILURES_PER_ADDRESS: ThrottleRule = { name: "login-address", limit: 10, windowMs: FIFTEEN_MINUTES };

/** The fields the browser keeps under `auth_user` (spec §3): nothing secret. */
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

/** Seconds to wait when either the email or the address has failed too often, else null. */
export async function loginRetryAfter(
  db: D1Database,
  email: string,
  request: Request,
  now = Date.now(),
): Promise<number | null> {
  const [byEmail, byAddress] = await Promise.all([
    isThrottled(db, LOGIN_FAILURES_PER_EMAIL, email, now),
    isThrottled(db, LOGIN_FAILURES_PER_ADDRESS, clientAddress(request), now),
  ]);
  const waits = [byEmail, byAddress].flatMap((result) => (result.ok ? [] : [result.retryAfterSeconds]));
  return waits.length ? Math.max(...waits) : null;
}

export async function recordLoginFailure(
  db: D1Database,
  email: string,
  request: Request,
  now = Date.now(),
): Promise<void> {
  await Promise.all([
    hitThrottle(db, LOGIN_FAILURES_PER_EMAIL, email, now),
    hitThrottle(db, LOGIN_FAILURES_PER_ADDRESS, clientAddress(request), now),
  ]);
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
