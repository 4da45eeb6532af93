import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callApi, callHosted, randomEmail, sessionCookieFor, signInWithFakeProvider, signUpVerified } from "../factories";

const BASE = "https://portico.test";

async function signUp(email = randomEmail("page")): Promise<{ email: string; cookie: string }> {
  const { cookie } = await signUpVerified(SELF, { email });
  return { email, cookie };
}

function get(path: string, cookie?: string): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
}

describe("route guards", () => {
  it.each(["/user/dashboard", "/user/apikey", "/user/settings", "/user/transactions"])(
    "sends a visitor without a session from %s to /",
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
    },
  );

  it("shows the private pages to a signed-in user", async () => {
    const { cookie, email } = await signUp();
    const dashboard = await get("/user/dashboard", cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(email);
  });

  it("sends a signed-in user away from the public-only sign-in page", async () => {
    const { cookie } = await signUp();
    expect((await get("/user/authenticate", cookie)).headers.get("location")).toBe("/");
    expect((await get("/user/authenticate")).status).toBe(200);
  });

  it.each(["/user-api-calls", "/benchmarking", "/ai/prompt-to-image"])(
    "lets only ADMIN_EMAIL into %s",
    async (path) => {
      const user = await signUp();
      expect((await get(path)).headers.get("location")).toBe("/");
      expect((await get(path, user.cookie)).headers.get("location")).toBe("/");
      const adminCookie = await sessionCookieFor(SELF, env.ADMIN_EMAIL);
      expect((await get(path, adminCookie)).status).toBe(200);
    },
  );

  it("keeps a referral code through /signup", async () => {
    const response = await get("/signup?ref=ABC123");
    expect(response.headers.get("location")).toBe("/user/authenticate?mode=signup&ref=ABC123");
  });
});

describe("signing in with the identity provider (the fake in tests)", () => {
  it("creates an account and a session on the first sign-in, and finds it the next time", async () => {
    const email = randomEmail("oidc");
    const first = await signInWithFakeProvider(email);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/user/dashboard");
    const session = first.headers.getSetCookie().find((cookie) => cookie.startsWith("portico_session="));
    expect(session).toBeDefined();
    const me = await callApi(SELF, "GET", "/api/users/me", { cookie: session?.split(";")[0] });
    expect(await me.json()).toMatchObject({ email });

    await signInWithFakeProvider(email);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(email).first();
    expect(rows).toEqual({ n: 1 });
  });

  it("links an existing password account only when the provider vouches for the email", async () => {
    const { email } = await signUp();
    const unverified = await signInWithFakeProvider(email, { emailVerified: false });
    expect(unverified.headers.get("location")).toBe("/user/authenticate?error=email-unverified-conflict");
    const row = await env.DB.prepare("SELECT oidc_subject FROM users WHERE email = ?").bind(email).first();
    expect(row).toEqual({ oidc_subject: null });

    const verified = await signInWithFakeProvider(email);
    expect(verified.headers.get("location")).toBe("/user/dashboard");
    const linked = await env.DB.prepare("SELECT oidc_subject FROM users WHERE email = ?")
      .bind(email)
      .first<{ oidc_subject: string }>();
    expect(linked?.oidc_subject).toMatch(/\/dev\/oidc fake-/);
  });

  it("refuses a callback whose state was changed", async () => {
    const response = await signInWithFakeProvider(randomEmail("csrf"), {
      tamper: (callback) => callback.searchParams.set("state", "forged"),
    });
    expect(response.headers.get("location")).toBe("/user/authenticate?error=failed");
  });

  it("refuses a callback without the pending sign-in cookie", async () => {
    const response = await get("/api/auth/oidc/callback?code=abc&state=def");
    expect(response.headers.get("location")).toBe("/user/authenticate?error=failed");
  });
});

describe("account deletion", () => {
  it("removes the user's keys, sessions and personal data, and keeps payments without them", async () => {
    const { email, cookie } = await signUp();
    const created = await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "doomed" } });
    const { key } = await created.json<{ key: string }>();
    // A call warms every cache of the key (this isolate's memory and KV).
    const avatar = (apiKey: string) => callHosted(SELF, "GET", "/api/v1/avatar?seed=doomed", { key: apiKey });
    expect((await avatar(key)).status).toBe(200);
    const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, provider, plan_id, amount_minor, currency, status, created_at, updated_at)
       VALUES (?, ?, 'paypal', 'standard', 900, 'USD', 'paid', ?, ?)`,
    )
      .bind(`pay_${crypto.randomUUID()}`, user?.id, Date.now(), Date.now())
      .run();

    const form = new FormData();
    form.set("intent", "delete");
    form.set("confirmation", email);
    const response = await SELF.fetch(`${BASE}/user/settings`, {
      method: "POST",
      body: form,
      headers: { cookie, origin: BASE },
      redirect: "manual",
    });
    expect([302, 204]).toContain(response.status);
    // The account's Meter heard of every key: the next call is refused, whatever the caches hold.
    expect([401, 403]).toContain((await avatar(key)).status);

    for (const table of ["api_keys", "sessions"]) {
      const left = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`).bind(user?.id).first();
      expect(left, table).toEqual({ n: 0 });
    }
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first()).toBeNull();
    const payment = await env.DB.prepare(
      "SELECT user_id, amount_minor FROM payments WHERE amount_minor = 900 AND user_id IS NULL",
    ).first();
    expect(payment).toEqual({ user_id: null, amount_minor: 900 });
    expect((await callApi(SELF, "GET", "/api/users/me", { cookie })).status).toBe(401);
  });

  it("refuses without the typed confirmation", async () => {
    const { email, cookie } = await signUp();
    const form = new FormData();
    form.set("intent", "delete");
    form.set("confirmation", "yes please");
    const response = await SELF.fetch(`${BASE}/user/settings`, {
      method: "POST",
      body: form,
      headers: { cookie, origin: BASE },
    });
    expect(response.status).toBe(400);
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first()).not.toBeNull();
  });
});

describe("payment history", () => {
  it("answers pages of ten with the total number of pages", async () => {
    const { email, cookie } = await signUp();
    const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
    const inserts = Array.from({ length: 12 }, (_, i) =>
      env.DB.prepare(
        `INSERT INTO payments (id, user_id, provider, plan_id, amount_minor, currency, status, created_at, updated_at)
         VALUES (?, ?, 'cashfree', 'premium', 4600, 'INR', 'paid', ?, ?)`,
      ).bind(`pay_${i}_${crypto.randomUUID()}`, user?.id, 1_700_000_000_000 + i, 1_700_000_000_000 + i),
    );
    await env.DB.batch(inserts);
    const first = await (
      await callApi(SELF, "GET", "/api/users/fetch-transactions?page=1&limit=10", { cookie })
    ).json<{
      success: boolean;
      data: { payments: { method: string; amount: number; currency: string }[]; totalPages: number };
    }>();
    expect(first.success).toBe(true);
    expect(first.data.totalPages).toBe(2);
    expect(first.data.payments).toHaveLength(10);
    expect(first.data.payments[0]).toMatchObject({ method: "Cashfree", amount: 4600, currency: "INR" });
    const second = await (
      await callApi(SELF, "GET", "/api/users/fetch-transactions?page=2&limit=10", { cookie })
    ).json<{
      data: { payments: unknown[] };
    }>();
    expect(second.data.payments).toHaveLength(2);
    expect((await callApi(SELF, "GET", "/api/users/fetch-transactions?page=0", { cookie })).status).toBe(422);
  });
});
