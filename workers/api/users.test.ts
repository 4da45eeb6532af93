/**
 * `/api/users/*` through the Worker: the cases tests/integration/accounts.test.ts and
 * account-security.test.ts leave out — bodies that are not what the call takes, answers that
 * must hold no secrets, and one account reaching for another's records.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PASSWORD_MESSAGES } from "~workers/platform/passwords";
import {
  callApi,
  linkTokenFromOutbox,
  randomClientAddress,
  randomEmail,
  signUpUnverified,
  signUpVerified,
  STRONG_PASSWORD,
} from "../../tests/factories";

const BASE = "https://portico.test";

/** Posts `body` exactly as given, with a JSON content type. */
function postRaw(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": randomClientAddress(), ...headers },
    body,
  });
}

async function problemOf(response: Response, status: number, type: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<Record<string, unknown>>();
  expect(body.type).toBe(`https://portico.dev/problems/${type}`);
  return body;
}

describe("bodies the account calls do not take", () => {
  it.each([
    ["/api/users/signup", { email: "Email is required", password: "Password is required" }],
    ["/api/users/login", { email: "Email is required", password: "Password is required" }],
    ["/api/users/password/forgot", { email: "Email is required" }],
  ])("%s answers a body that is not JSON with each required field's message", async (path, errors) => {
    const body = await problemOf(await postRaw(path, "{not json"), 422, "invalid-input");
    expect(body).toMatchObject({ success: 0, errors });
  });

  it("keys a JSON body that is not an object under `body`", async () => {
    const body = await problemOf(await postRaw("/api/users/login", "[1, 2]"), 422, "invalid-input");
    expect(Object.keys(body.errors as object)).toEqual(["body"]);
  });

  it("refuses a body over 8 KiB with 413, and creates nothing", async () => {
    const email = randomEmail("big");
    const response = await postRaw(
      "/api/users/signup",
      JSON.stringify({ email, password: STRONG_PASSWORD, name: "n".repeat(9 * 1024) }),
    );
    await problemOf(response, 413, "body-too-large");
    expect(await env.DB.prepare(`SELECT id FROM users WHERE email = ?`).bind(email).first()).toBeNull();
  });
});

describe("GET /api/users/me", () => {
  it("answers 401 with a Bearer challenge without a session, and for a forged token", async () => {
    for (const headers of [{}, { authorization: "Bearer not.a.token" }, { cookie: "portico_session=forged" }] as Record<
      string,
      string
    >[]) {
      const response = await SELF.fetch(`${BASE}/api/users/me`, { headers });
      await problemOf(response, 401, "unauthenticated");
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="portico"');
    }
  });

  it("tells an ordinary account what it is, and nothing secret", async () => {
    const { cookie, email } = await signUpVerified(SELF);
    const me = await (await callApi(SELF, "GET", "/api/users/me", { cookie })).json<Record<string, unknown>>();
    expect(me).toMatchObject({ email, emailVerified: true, isAdmin: false, plan: "free" });
    const text = JSON.stringify(me);
    for (const secret of ["password", "hash", "session_version", "sessionVersion", "oidc"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("says an unproven account is unproven", async () => {
    const { cookie } = await signUpUnverified(SELF);
    expect(await (await callApi(SELF, "GET", "/api/users/me", { cookie })).json()).toMatchObject({
      emailVerified: false,
      isAdmin: false,
    });
  });
});

describe("POST /api/users/email/verify and /resend", () => {
  it("says a link opened twice has confirmed the address already", async () => {
    const email = randomEmail("twice");
    await callApi(SELF, "POST", "/api/users/signup", { body: { email, password: STRONG_PASSWORD } });
    const token = await linkTokenFromOutbox(email, "verify-email");
    expect((await callApi(SELF, "POST", "/api/users/email/verify", { body: { token } })).status).toBe(200);
    const again = await problemOf(
      await callApi(SELF, "POST", "/api/users/email/verify", { body: { token } }),
      422,
      "invalid-input",
    );
    expect(again).toMatchObject({ code: "already-verified", message: expect.stringContaining("Log in") });
  });

  it("names a missing token", async () => {
    const body = await problemOf(
      await callApi(SELF, "POST", "/api/users/email/verify", { body: {} }),
      422,
      "invalid-input",
    );
    expect(Object.keys(body.errors as object)).toEqual(["token"]);
  });

  it("sends no new link to a proven address (409), nor to nobody (401)", async () => {
    const { cookie } = await signUpVerified(SELF);
    await problemOf(await callApi(SELF, "POST", "/api/users/email/verify/resend", { cookie }), 409, "conflict");
    await problemOf(await callApi(SELF, "POST", "/api/users/email/verify/resend"), 401, "unauthenticated");
  });
});

describe("POST /api/users/password/forgot and /reset", () => {
  it("names an address that is not one, and mails nothing", async () => {
    const body = await problemOf(
      await callApi(SELF, "POST", "/api/users/password/forgot", { body: { email: "nobody-at-example" } }),
      422,
      "invalid-input",
    );
    expect(body.errors).toEqual({ email: "Enter a valid email address" });
  });

  it("refuses a weak new password with the rule's words, and the link still works after", async () => {
    const { email } = await signUpVerified(SELF);
    const since = Date.now();
    await callApi(SELF, "POST", "/api/users/password/forgot", { body: { email } });
    const token = await linkTokenFromOutbox(email, "change/password", since);
    const weak = await problemOf(
      await callApi(SELF, "POST", "/api/users/password/reset", { body: { token, password: "short" } }),
      422,
      "invalid-input",
    );
    expect(weak.message).toBe(PASSWORD_MESSAGES["too-short"]);
    // Named by field, as sign-up names it, so a form can show it beside the password.
    expect(weak.errors).toEqual({ password: PASSWORD_MESSAGES["too-short"] });
    const reset = await callApi(SELF, "POST", "/api/users/password/reset", {
      body: { token, password: "a brand new passphrase 7" },
    });
    expect(reset.status).toBe(200);
  });
});

describe("GET /api/users/fetch-transactions", () => {
  async function addPayment(email: string): Promise<string> {
    const id = `pay_${crypto.randomUUID()}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, provider, plan_id, amount_minor, currency, status, created_at, updated_at)
       SELECT ?, id, 'paypal', 'standard', 500, 'USD', 'paid', ?, ? FROM users WHERE email = ?`,
    )
      .bind(id, Date.now(), Date.now(), email)
      .run();
    return id;
  }

  it("lists the account's own payments only", async () => {
    const alice = await signUpVerified(SELF);
    const bob = await signUpVerified(SELF);
    const alices = await addPayment(alice.email);
    const list = async (cookie: string) =>
      (
        await (
          await callApi(SELF, "GET", "/api/users/fetch-transactions", { cookie })
        ).json<{
          data: { payments: { id: string }[] };
        }>()
      ).data.payments;
    expect((await list(alice.cookie)).map((payment) => payment.id)).toEqual([alices]);
    expect(await list(bob.cookie)).toEqual([]);
  });

  it.each(["page=0", "page=x", "limit=51", "limit=0", "page=1.5"])("refuses ?%s", async (query) => {
    const { cookie } = await signUpVerified(SELF);
    await problemOf(
      await callApi(SELF, "GET", `/api/users/fetch-transactions?${query}`, { cookie }),
      422,
      "invalid-input",
    );
  });

  it("names the query parameter a bad page or limit is about", async () => {
    const { cookie } = await signUpVerified(SELF);
    const answer = await problemOf(
      await callApi(SELF, "GET", "/api/users/fetch-transactions?page=0&limit=10", { cookie }),
      422,
      "invalid-input",
    );
    expect(Object.keys(answer.errors as Record<string, string>)).toEqual(["page"]);
  });

  it("needs a session", async () => {
    await problemOf(await callApi(SELF, "GET", "/api/users/fetch-transactions"), 401, "unauthenticated");
  });
});

describe("POST /api/users/logout", () => {
  it("answers a caller without a session too, and clears the cookie", async () => {
    const response = await callApi(SELF, "POST", "/api/users/logout");
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toMatch(/^portico_session=;.*Max-Age=0/i);
  });
});
