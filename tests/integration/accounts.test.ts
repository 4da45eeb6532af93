import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~workers/platform/ids";
import { LOGIN_FAILURES_PER_EMAIL } from "~workers/platform/sign-in";
import {
  callApi,
  cookieFrom,
  linkTokenFromOutbox,
  randomClientAddress,
  randomEmail,
  signUpVerified,
  STRONG_PASSWORD,
  type SignedUp,
} from "../factories";

type SignedIn = SignedUp;

async function signUp(overrides: { email?: string; name?: string; referralCode?: string } = {}): Promise<SignedIn> {
  return signUpVerified(SELF, { name: "Ada", ...overrides });
}

describe("sign-up", () => {
  it("creates the account, and its confirmation link starts a session answering the auth_user fields", async () => {
    const { email, cookie, body } = await signUp();
    expect(body).toMatchObject({
      success: 1,
      username: "Ada",
      email,
      tokenCreatedAt: expect.any(Number),
      expiresIn: expect.any(Number),
    });
    expect(cookie).toMatch(/^portico_session=/);
    const me = await callApi(SELF, "GET", "/api/users/me", { cookie });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email, plan: "free" });
  });

  it("normalises the email and refuses a second account for it", async () => {
    const email = randomEmail("dup");
    await signUp({ email: `  ${email.toUpperCase()}  ` });
    const row = await env.DB.prepare("SELECT email FROM users WHERE email = ?").bind(email).first();
    expect(row).toEqual({ email });
    const again = await callApi(SELF, "POST", "/api/users/signup", { body: { email, password: STRONG_PASSWORD } });
    // The same answer as a new address (see "enumeration" below), and still one account.
    expect(again.status).toBe(202);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(email).first();
    expect(count).toEqual({ n: 1 });
  });

  it.each([
    ["short", "Use at least 10 characters"],
    ["1234567890", "too common"],
    ["qwertyuiop", "too common"],
  ])("refuses the weak password %s", async (password, message) => {
    const response = await callApi(SELF, "POST", "/api/users/signup", { body: { email: randomEmail(), password } });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as { errors: { password: string } }).errors.password).toContain(message);
  });

  it("stores the password hashed with PBKDF2-SHA256 at 100,000 iterations", async () => {
    const { email } = await signUp();
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE email = ?")
      .bind(email)
      .first<{ password_hash: string }>();
    const [scheme, iterations, salt, hash] = row?.password_hash.split("$") ?? [];
    expect(scheme).toBe("pbkdf2-sha256");
    // Production Workers refuse more than 100,000 iterations; local workerd would not notice.
    expect(iterations).toBe("100000");
    expect(atob(salt ?? "")).toHaveLength(16);
    expect(atob(hash ?? "")).toHaveLength(32);
    expect(row?.password_hash).not.toContain(STRONG_PASSWORD);
  });

  it("records the referral of a sign-up that came with a code", async () => {
    const referrer = await signUp();
    const code = String(referrer.body.referralCode);
    const referred = await signUp({ referralCode: code.toLowerCase() });
    const row = await env.DB.prepare(
      `SELECT r.code FROM referrals r JOIN users u ON u.id = r.referred_user_id WHERE u.email = ?`,
    )
      .bind(referred.email)
      .first();
    expect(row).toEqual({ code });
  });
});

describe("login and logout", () => {
  it("logs in with the right password, with a new session id each time", async () => {
    const { email, cookie: first } = await signUp();
    const response = await callApi(SELF, "POST", "/api/users/login", { body: { email, password: STRONG_PASSWORD } });
    expect(response.status).toBe(200);
    const second = cookieFrom(response);
    expect(second).not.toBe(first);
    expect(second.split(".")[0]).not.toBe(first.split(".")[0]);
  });

  it("answers the same for a wrong password and an unknown email", async () => {
    const { email } = await signUp();
    const wrong = await callApi(SELF, "POST", "/api/users/login", {
      body: { email, password: "not the password at all" },
    });
    const unknown = await callApi(SELF, "POST", "/api/users/login", {
      body: { email: randomEmail(), password: "whatever it is" },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(strip(await wrong.json())).toEqual(strip(await unknown.json()));
  });

  it("throttles failed logins per email, with Retry-After, even from other addresses", async () => {
    const { email } = await signUp();
    for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL.limit; i++) {
      await callApi(SELF, "POST", "/api/users/login", {
        body: { email, password: `wrong password ${i}` },
        ip: randomClientAddress(),
      });
    }
    const blocked = await callApi(SELF, "POST", "/api/users/login", { body: { email, password: STRONG_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("throttles failed logins per client address", async () => {
    const ip = randomClientAddress();
    for (let i = 0; i < 10; i++) {
      await callApi(SELF, "POST", "/api/users/login", {
        body: { email: randomEmail(), password: "wrong password" },
        ip,
      });
    }
    const { email } = await signUp();
    const blocked = await callApi(SELF, "POST", "/api/users/login", { body: { email, password: STRONG_PASSWORD }, ip });
    expect(blocked.status).toBe(429);
  });

  it("ends the session at logout", async () => {
    const { cookie } = await signUp();
    const out = await callApi(SELF, "POST", "/api/users/logout", { cookie });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect((await callApi(SELF, "GET", "/api/users/me", { cookie })).status).toBe(401);
  });

  it("accepts the bearer auth_token, and refuses a forged cookie", async () => {
    const { token, cookie } = await signUp();
    expect((await callApi(SELF, "GET", "/api/users/me", { token })).status).toBe(200);
    const forged = cookie.replace(/\.[^.]+$/, ".AAAA");
    expect((await callApi(SELF, "GET", "/api/users/me", { cookie: forged })).status).toBe(401);
    expect((await callApi(SELF, "GET", "/api/users/me", { token: `${token}x` })).status).toBe(401);
  });

  it("ends every session when the session version moves", async () => {
    const { email, cookie, token } = await signUp();
    await env.DB.prepare("UPDATE users SET session_version = session_version + 1 WHERE email = ?").bind(email).run();
    expect((await callApi(SELF, "GET", "/api/users/me", { cookie })).status).toBe(401);
    expect((await callApi(SELF, "GET", "/api/users/me", { token })).status).toBe(401);
  });
});

describe("password reset", () => {
  async function resetLinkFor(email: string): Promise<string> {
    const since = Date.now();
    const response = await callApi(SELF, "POST", "/api/users/password/forgot", { body: { email } });
    expect(response.status).toBe(202);
    return linkTokenFromOutbox(email, "change/password", since);
  }

  it("answers the same for an unknown address and sends nothing", async () => {
    const ghost = randomEmail("ghost");
    const { email } = await signUp();
    const unknown = await callApi(SELF, "POST", "/api/users/password/forgot", { body: { email: ghost } });
    const known = await callApi(SELF, "POST", "/api/users/password/forgot", { body: { email } });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(strip(await unknown.json())).toEqual(strip(await known.json()));
    // Mail goes out after the answer: once the known address has its link, the unknown has none.
    await linkTokenFromOutbox(email, "change/password");
    expect(await env.DB.prepare("SELECT id FROM mail_outbox WHERE to_address = ?").bind(ghost).first()).toBeNull();
  });

  it("stores only the token's hash, works once, and ends every session", async () => {
    const { email, cookie } = await signUp();
    const token = await resetLinkFor(email);
    expect(await env.DB.prepare("SELECT 1 FROM password_resets WHERE token_hash = ?").bind(token).first()).toBeNull();
    expect(
      await env.DB.prepare("SELECT 1 FROM password_resets WHERE token_hash = ?")
        .bind(await sha256Hex(token))
        .first(),
    ).not.toBeNull();

    const newPassword = "a brand new passphrase 7";
    const reset = await callApi(SELF, "POST", "/api/users/password/reset", { body: { token, password: newPassword } });
    expect(reset.status).toBe(200);
    expect((await callApi(SELF, "GET", "/api/users/me", { cookie })).status).toBe(401);
    expect((await callApi(SELF, "POST", "/api/users/login", { body: { email, password: newPassword } })).status).toBe(
      200,
    );

    const again = await callApi(SELF, "POST", "/api/users/password/reset", {
      body: { token, password: "yet another passphrase 9" },
    });
    expect(again.status).toBe(422);
  });

  it("refuses an expired token", async () => {
    const { email } = await signUp();
    const token = await resetLinkFor(email);
    await env.DB.prepare("UPDATE password_resets SET expires_at = ? WHERE token_hash = ?")
      .bind(Date.now() - 1, await sha256Hex(token))
      .run();
    const response = await callApi(SELF, "POST", "/api/users/password/reset", {
      body: { token, password: "a brand new passphrase 7" },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ message: expect.stringContaining("expired") });
  });
});

describe("API keys", () => {
  it("creates a key shown once, stores only its hash and prefix, and lists it", async () => {
    const { cookie } = await signUp();
    const created = await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "CI" } });
    expect(created.status).toBe(201);
    const { key, id, prefix } = await created.json<{ key: string; id: string; prefix: string }>();
    expect(key).toMatch(/^pk_live_[1-9A-HJ-NP-Za-km-z]{40,}$/);
    expect(key.startsWith(prefix)).toBe(true);
    const row = await env.DB.prepare("SELECT hash, prefix FROM api_keys WHERE id = ?")
      .bind(id)
      .first<{ hash: string; prefix: string }>();
    expect(row).toEqual({ hash: await sha256Hex(key), prefix });
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE hash = ? OR prefix = ?")
      .bind(key, key)
      .first();
    expect(stored).toEqual({ n: 0 });

    const list = await (
      await callApi(SELF, "GET", "/api/user/keys", { cookie })
    ).json<{ keys: Record<string, unknown>[] }>();
    expect(list.keys).toEqual([expect.objectContaining({ id, name: "CI", prefix, revokedAt: null })]);
    expect(JSON.stringify(list)).not.toContain(key);
  });

  it("revokes a key and drops the gateway's cached copy", async () => {
    const { cookie } = await signUp();
    const { id, key } = await (
      await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "old" } })
    ).json<{ id: string; key: string }>();
    const cacheName = `apikey:${await sha256Hex(key)}`;
    await env.CACHE.put(cacheName, "{}");
    expect((await callApi(SELF, "DELETE", `/api/user/keys/${id}`, { cookie })).status).toBe(204);
    expect(await env.CACHE.get(cacheName)).toBeNull();
    expect((await callApi(SELF, "DELETE", `/api/user/keys/${id}`, { cookie })).status).toBe(404);
  });

  it("rotates a key: a new one with the same name, the old one revoked", async () => {
    const { cookie } = await signUp();
    const first = await (
      await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "prod" } })
    ).json<{ id: string; key: string }>();
    const rotated = await callApi(SELF, "POST", `/api/user/keys/${first.id}/rotate`, { cookie });
    expect(rotated.status).toBe(201);
    const second = await rotated.json<{ id: string; key: string; name: string }>();
    expect(second).toMatchObject({ name: "prod" });
    expect(second.key).not.toBe(first.key);
    const rows = await env.DB.prepare("SELECT id, revoked_at FROM api_keys WHERE id IN (?, ?)")
      .bind(first.id, second.id)
      .all<{ id: string; revoked_at: number | null }>();
    expect(rows.results.find((r) => r.id === first.id)?.revoked_at).toEqual(expect.any(Number));
    expect(rows.results.find((r) => r.id === second.id)?.revoked_at).toBeNull();
  });

  it("keeps one user away from another's keys", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const { id } = await (
      await callApi(SELF, "POST", "/api/user/keys", { cookie: alice.cookie, body: { name: "mine" } })
    ).json<{ id: string }>();
    expect((await callApi(SELF, "DELETE", `/api/user/keys/${id}`, { cookie: bob.cookie })).status).toBe(404);
    expect((await callApi(SELF, "GET", "/api/user/keys", {})).status).toBe(401);
  });

  it("refuses a nameless key with the field's message", async () => {
    const { cookie } = await signUp();
    const response = await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "  " } });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ errors: { name: "Name the key" } });
  });
});

describe("referral code", () => {
  it("answers the signed-in user's code, and 401 without a session", async () => {
    const { cookie, body } = await signUp();
    const response = await callApi(SELF, "GET", "/api/user/referral-code", { cookie });
    expect(await response.json()).toEqual({ referralCode: body.referralCode });
    expect((await callApi(SELF, "GET", "/api/user/referral-code")).status).toBe(401);
  });
});
