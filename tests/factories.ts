import { env, SELF } from "cloudflare:test";
import { expect } from "vitest";
import { generateApiKey } from "~workers/platform/api-keys";
import { sha256Hex } from "~workers/platform/ids";
import { currentPlanPeriod, FREE_PLAN_FREEMIUM_CAP, PLANS } from "~workers/platform/plans";

/** Test data with random parts, so tests sharing a file's storage never collide. */
export function randomSuffix(): string {
  return crypto.randomUUID().slice(0, 8);
}

export function randomEmail(prefix = "dev"): string {
  return `${prefix}-${randomSuffix()}@example.com`;
}

/**
 * A client address of its own for each test, so per-address throttles start from zero: 24
 * random bits, since thousands of requests in a run share one D1, and with 16 bits two tests
 * met at the same address often enough to fail a throttle test now and then.
 */
export function randomClientAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return `203.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
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

/** The newest link of `kind` mailed to `email` in the development outbox (mail goes out after the response). */
export async function linkTokenFromOutbox(
  email: string,
  kind: "verify-email" | "change/password" | "newsletter/confirm",
  /** Only mail sent at or after this time (epoch ms): a test that just asked waits for its own mail. */
  since = 0,
): Promise<string> {
  const pattern = new RegExp(`/${kind}/([A-Za-z0-9_-]+)`);
  const mail = await eventually(
    () =>
      env.DB.prepare(
        `SELECT text_body FROM mail_outbox WHERE to_address = ? AND created_at >= ? ORDER BY created_at DESC, rowid DESC LIMIT 5`,
      )
        .bind(email, since)
        .all<{ text_body: string }>(),
    (rows) => rows.results.some((row) => pattern.test(row.text_body)),
  );
  const token = mail.results.map((row) => row.text_body.match(pattern)?.[1]).find(Boolean);
  if (!token) throw new Error(`no ${kind} link for ${email} in the outbox`);
  return token;
}

export interface SignedUp {
  email: string;
  cookie: string;
  token: string;
  body: Record<string, unknown>;
}

/**
 * Signs up by password and opens the confirmation link from the outbox, as a person would:
 * the answer is the signed-in one of `POST /api/users/email/verify`.
 */
export async function signUpVerified(
  fetcher: Fetcher,
  fields: { email?: string; password?: string; name?: string; referralCode?: string; ip?: string } = {},
): Promise<SignedUp> {
  const email = (fields.email ?? randomEmail("acct")).trim().toLowerCase();
  const since = Date.now();
  const signup = await callApi(fetcher, "POST", "/api/users/signup", {
    body: { password: STRONG_PASSWORD, ...fields, email: fields.email ?? email },
    ip: fields.ip,
  });
  if (signup.status !== 202) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const token = await linkTokenFromOutbox(email, "verify-email", since);
  const verified = await callApi(fetcher, "POST", "/api/users/email/verify", { body: { token } });
  if (verified.status !== 200) throw new Error(`verification answered ${verified.status}: ${await verified.text()}`);
  const body = await verified.json<Record<string, unknown>>();
  return { email, cookie: cookieFrom(verified), token: String(body.auth_token), body };
}

/** Signs up by password and logs in without opening the confirmation link. */
export async function signUpUnverified(fetcher: Fetcher, email = randomEmail("unproven")): Promise<SignedUp> {
  const signup = await callApi(fetcher, "POST", "/api/users/signup", { body: { email, password: STRONG_PASSWORD } });
  if (signup.status !== 202) throw new Error(`sign-up answered ${signup.status}`);
  await eventually(
    () => env.DB.prepare(`SELECT id FROM users WHERE email = ?`).bind(email).first(),
    (row) => row !== null,
  );
  const login = await callApi(fetcher, "POST", "/api/users/login", { body: { email, password: STRONG_PASSWORD } });
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  const body = await login.json<Record<string, unknown>>();
  return { email, cookie: cookieFrom(login), token: String(body.auth_token), body };
}

type Fetcher = { fetch: (input: string, init?: RequestInit) => Promise<Response> };

/**
 * A session cookie for `email`, with the address confirmed: logs in when the account exists
 * (the test files share one database, so a fixed address such as ADMIN_EMAIL may exist
 * already), else signs up and opens the link.
 */
export async function sessionCookieFor(fetcher: Fetcher, email: string): Promise<string> {
  const login = await callApi(fetcher, "POST", "/api/users/login", { body: { email, password: STRONG_PASSWORD } });
  if (login.status === 200) return cookieFrom(login);
  return (await signUpVerified(fetcher, { email })).cookie;
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
        `INSERT INTO users (id, email, name, referral_code, plan_id, plan_expires_at, email_verified_at, created_at, updated_at)
         VALUES (?, ?, '', ?, ?, ?, ?, ?, ?)`,
      )
      .bind(userId, email, `R${randomSuffix()}`.toUpperCase(), planId, expires, now, now, now),
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

function getPage(path: string, cookie?: string): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
}

/** Plays the browser through the fake provider: start, authorize (auto-approve), callback. */
export async function signInWithFakeProvider(
  email: string,
  options: { emailVerified?: boolean; tamper?: (callback: URL) => void } = {},
): Promise<Response> {
  const start = await getPage("/api/auth/oidc/start");
  expect(start.status).toBe(302);
  const pendingCookie = cookieFrom(start);
  const authorize = new URL(start.headers.get("location") ?? "");
  expect(authorize.pathname).toBe("/dev/oidc/authorize");
  expect(authorize.searchParams.get("scope")).toBe("openid profile email");
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  authorize.searchParams.set("auto", "1");
  authorize.searchParams.set("login_hint", email);
  if (options.emailVerified === false) authorize.searchParams.set("email_verified", "false");
  const approved = await getPage(authorize.pathname + authorize.search);
  expect(approved.status).toBe(302);
  const callback = new URL(approved.headers.get("location") ?? "");
  options.tamper?.(callback);
  return getPage(callback.pathname + callback.search, pendingCookie);
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

/** Checks an answer is the RFC 9457 problem of `type` with `status`, and returns its body. */
export async function expectProblem(
  response: Response,
  status: number,
  type: string,
): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<Record<string, unknown>>();
  expect(body.type).toBe(`https://portico.dev/problems/${type}`);
  return body;
}

/**
 * A multipart/form-data body written by hand: FormData refuses to send some hostile field names
 * (one ending in a backslash), and the server must cope with whatever arrives. Quotes and line
 * breaks in names are escaped as browsers do (HTML's form encoding), everything else is sent.
 */
export function multipartOf(
  fields: Record<string, string>,
  file?: { name: string; filename: string; type: string; bytes: Uint8Array },
): { rawBody: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----portico-test-${crypto.randomUUID()}`;
  const escapeName = (name: string) =>
    name.toWellFormed().replaceAll('"', "%22").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value.toWellFormed()}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(file.name)}"; filename="${escapeName(file.filename)}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      encoder.encode("\r\n"),
    );
  }
  parts.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  return { rawBody: body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * `count` freemium calls of a Free account's current month, taken from its Meter as if made
 * over the last minute, half a second apart: through HTTP they would wait out the plan's
 * per-second limit (25 s for 49 calls). The Meter is the gateway's: same account, same period.
 */
export async function spendFreemiumCalls(userId: string, count: number): Promise<void> {
  const now = Date.now();
  const period = currentPlanPeriod({ planId: "free", planExpiresAt: null }, now);
  const meter = env.METER.get(env.METER.idFromName(userId));
  for (let i = 0; i < count; i++) {
    const earlier = await meter.take({
      now: Math.max(period.start, now - 60_000) + i * 500,
      perSecond: PLANS.free.perSecond,
      monthlyQuota: PLANS.free.monthlyQuota,
      periodStart: period.start,
      periodEnd: period.resetsAt,
      freemiumCap: FREE_PLAN_FREEMIUM_CAP,
      bonusGranted: 0,
    });
    expect(earlier.ok).toBe(true);
  }
}
