import { generateApiKey } from "~workers/platform/api-keys";
import { sha256Hex } from "~workers/platform/ids";

/** Test data with random parts, so tests sharing a file's storage never collide. */
export function randomSuffix(): string {
  return crypto.randomUUID().slice(0, 8);
}

export function randomEmail(prefix = "dev"): string {
  return `${prefix}-${randomSuffix()}@example.com`;
}

/** A client address of its own for each test, so per-address throttles start from zero. */
export function randomClientAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return `203.0.${bytes[0]}.${bytes[1]}`;
}

export const STRONG_PASSWORD = "correct horse battery staple 42";

const BASE = "https://portico.test";

/** Calls the platform JSON API of the Worker under test. */
export async function callApi(
  fetcher: { fetch: (input: string, init?: RequestInit) => Promise<Response> },
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; token?: string; ip?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": options.ip ?? randomClientAddress() };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.cookie) headers.cookie = options.cookie;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return fetcher.fetch(`${BASE}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: "manual",
  });
}

/** The `name=value` part of a response's Set-Cookie, to send back. */
export function cookieFrom(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0] ?? "";
}

/**
 * A session cookie for `email`: signs the account up on first use and logs in after that (the
 * test files share one database, so a fixed address such as ADMIN_EMAIL may exist already).
 */
export async function sessionCookieFor(
  fetcher: { fetch: (input: string, init?: RequestInit) => Promise<Response> },
  email: string,
): Promise<string> {
  const signup = await callApi(fetcher, "POST", "/api/users/signup", { body: { email, password: STRONG_PASSWORD } });
  if (signup.status === 201) return cookieFrom(signup);
  return cookieFrom(await callApi(fetcher, "POST", "/api/users/login", { body: { email, password: STRONG_PASSWORD } }));
}

/**
 * An account with a plan and an API key, written straight to D1 (faster than the sign-up
 * flow, which has tests of its own). Returns the key as a caller would hold it.
 */
export async function createAccountWithKey(
  db: D1Database,
  options: { planId?: "free" | "standard" | "premium"; planExpiresAt?: number | null; referred?: boolean } = {},
): Promise<{ userId: string; keyId: string; key: string; email: string }> {
  const userId = `usr_${randomSuffix()}${randomSuffix()}`;
  const keyId = `key_${randomSuffix()}${randomSuffix()}`;
  const email = randomEmail("caller");
  const key = generateApiKey();
  const planId = options.planId ?? "free";
  const expires = planId === "free" ? null : (options.planExpiresAt ?? Date.now() + 20 * 24 * 60 * 60 * 1000);
  const now = Date.now();
  const statements = [
    db
      .prepare(
        `INSERT INTO users (id, email, name, referral_code, plan_id, plan_expires_at, created_at, updated_at) VALUES (?, ?, '', ?, ?, ?, ?, ?)`,
      )
      .bind(userId, email, `R${randomSuffix()}`.toUpperCase(), planId, expires, now, now),
    db
      .prepare(`INSERT INTO api_keys (id, user_id, name, prefix, hash, created_at) VALUES (?, ?, 'test', ?, ?, ?)`)
      .bind(keyId, userId, key.slice(0, 14), await sha256Hex(key), now),
  ];
  if (options.referred) {
    statements.push(
      db
        .prepare(
          `INSERT INTO referrals (referred_user_id, referrer_user_id, code, created_at) VALUES (?, NULL, 'TESTCODE', ?)`,
        )
        .bind(userId, now),
    );
  }
  await db.batch(statements);
  return { userId, keyId, key, email };
}

/** Calls a hosted API through the Worker under test. */
export function callHosted(
  fetcher: { fetch: (input: string, init?: RequestInit) => Promise<Response> },
  method: string,
  path: string,
  options: { key?: string; keyHeader?: string; body?: unknown; rawBody?: BodyInit; contentType?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.key) headers[options.keyHeader ?? "x-api-key"] = options.key;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  if (options.contentType) headers["content-type"] = options.contentType;
  return fetcher.fetch(`https://portico.test${path}`, { method, headers, body, redirect: "manual" });
}

/** Waits for work a response left running (`waitUntil`) to show in D1. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 3_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  return value;
}
