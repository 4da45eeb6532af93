/**
 * Browser sessions and API bearer tokens.
 *
 * The session cookie holds `<session id>.<user id>.<version>`, signed. Each request checks
 * it against D1: the session row must exist and carry the user's current session version, so
 * signing out deletes one row and 'sign out everywhere' or a password reset (a version bump)
 * ends them all. The session id is new at every login.
 *
 * Programs may instead send `Authorization: Bearer <auth_token>`: a short-lived JWT naming
 * the same session, so it dies with it.
 */
import { jwtVerify, SignJWT } from "jose";
import { readCookie, serializeCookie } from "./cookies";
import { createId } from "./ids";
import { fromBase64Url, signValue, unsignValue } from "./signing";
import { toUser, USER_COLUMNS, type User, type UserRow } from "./users";

export const SESSION_COOKIE = "portico_session";
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const AUTH_TOKEN_TTL_SECONDS = 60 * 60;

export interface Session {
  id: string;
  user: User;
  createdAt: number;
  expiresAt: number;
}

export async function createSession(
  db: D1Database,
  user: Pick<User, "id" | "sessionVersion">,
  now: number = Date.now(),
): Promise<{ id: string; createdAt: number; expiresAt: number }> {
  const id = createId("ses", 24);
  const expiresAt = now + SESSION_TTL_MS;
  await db
    .prepare(`INSERT INTO sessions (id, user_id, version, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`)
    .bind(id, user.id, user.sessionVersion, now, expiresAt)
    .run();
  return { id, createdAt: now, expiresAt };
}

interface SessionRow extends UserRow {
  session_id: string;
  session_created_at: number;
  session_expires_at: number;
}

async function loadSession(
  db: D1Database,
  sessionId: string,
  userId: string,
  version: number,
  now: number,
): Promise<Session | null> {
  const columns = USER_COLUMNS.split(", ")
    .map((column) => `u.${column}`)
    .join(", ");
  const row = await db
    .prepare(
      `SELECT ${columns}, s.id AS session_id, s.created_at AS session_created_at, s.expires_at AS session_expires_at
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id = ? AND s.user_id = ? AND s.version = ? AND u.session_version = s.version AND s.expires_at > ?`,
    )
    .bind(sessionId, userId, version, now)
    .first<SessionRow>();
  if (!row) return null;
  return {
    id: row.session_id,
    user: toUser(row),
    createdAt: row.session_created_at,
    expiresAt: row.session_expires_at,
  };
}

export async function sessionCookieValue(
  session: { id: string },
  user: Pick<User, "id" | "sessionVersion">,
  secret: string,
) {
  return signValue(`${session.id}.${user.id}.${user.sessionVersion}`, secret);
}

export function sessionCookieHeader(value: string, secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, value, { maxAgeSeconds: SESSION_TTL_MS / 1000, secure });
}

export function clearSessionCookieHeader(secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, "", { maxAgeSeconds: 0, secure });
}

function parseSessionValue(value: string): { sessionId: string; userId: string; version: number } | null {
  const [sessionId, userId, version] = value.split(".");
  const parsedVersion = Number(version);
  if (!sessionId || !userId || !Number.isInteger(parsedVersion)) return null;
  return { sessionId, userId, version: parsedVersion };
}

/** The session of a request, from its cookie or its bearer token, or null. */
export async function readSession(
  db: D1Database,
  secret: string,
  request: Request,
  now: number = Date.now(),
): Promise<Session | null> {
  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) return readAuthToken(db, secret, bearer, now);
  const cookie = readCookie(request, SESSION_COOKIE);
  if (!cookie) return null;
  const value = await unsignValue(cookie, secret);
  const parsed = value ? parseSessionValue(value) : null;
  return parsed ? loadSession(db, parsed.sessionId, parsed.userId, parsed.version, now) : null;
}

export async function endSession(db: D1Database, sessionId: string): Promise<void> {
  await db.prepare(`DELETE FROM sessions WHERE id = ?`).bind(sessionId).run();
}

/** Ends every session of the user, on every device. */
export async function endAllSessions(db: D1Database, userId: string, now: number = Date.now()): Promise<void> {
  await db.batch([
    db.prepare(`UPDATE users SET session_version = session_version + 1, updated_at = ? WHERE id = ?`).bind(now, userId),
    db.prepare(`DELETE FROM sessions WHERE user_id = ?`).bind(userId),
  ]);
}

/** Removes sessions past their expiry; run on the schedule, never on a request. */
export async function pruneExpiredSessions(db: D1Database, now: number = Date.now()): Promise<void> {
  await db.prepare(`DELETE FROM sessions WHERE expires_at <= ?`).bind(now).run();
}

function tokenKey(secret: string): Uint8Array {
  // A different key from the cookie's, derived by purpose, so one can never stand for the other.
  return new TextEncoder().encode(`auth-token:${secret}`);
}

export async function issueAuthToken(
  secret: string,
  session: { id: string },
  user: Pick<User, "id" | "sessionVersion">,
  now: number = Date.now(),
): Promise<{ token: string; expiresIn: number }> {
  const issuedAt = Math.floor(now / 1000);
  const token = await new SignJWT({ sid: session.id, ver: user.sessionVersion })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + AUTH_TOKEN_TTL_SECONDS)
    .setAudience("portico-platform")
    .sign(tokenKey(secret));
  return { token, expiresIn: AUTH_TOKEN_TTL_SECONDS * 1000 };
}

async function readAuthToken(db: D1Database, secret: string, token: string, now: number): Promise<Session | null> {
  // jose decodes the MAC leniently, ignoring the two spare bits of its 43rd character, so a token
  // would verify in four spellings; only the one we issued may. Header and payload need no such
  // check: the MAC covers their text as sent.
  const signature = token.split(".")[2];
  if (signature === undefined || fromBase64Url(signature) === null) return null;
  try {
    const { payload } = await jwtVerify(token, tokenKey(secret), {
      algorithms: ["HS256"],
      audience: "portico-platform",
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || typeof payload.ver !== "number")
      return null;
    return loadSession(db, payload.sid, payload.sub, payload.ver, now);
  } catch {
    return null;
  }
}
