/**
 * `/api/contact` and `/api/subscribe/newsletter` through the Worker: the cases
 * tests/integration/public-api.test.ts leaves out — the per-address mail limit, a request
 * without an address, a report from another site's page, and fields the form does not have.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CONTACT_ERRORS, CONTACT_LIMITS } from "~/lib/contact-rules";
import { NEWSLETTER_MAILS_PER_EMAIL } from "~workers/platform/newsletter";
import { expectProblem, randomClientAddress, randomEmail } from "../../tests/factories";

const BASE = "https://portico.test";

function postContact(body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": randomClientAddress(), ...headers },
    body: JSON.stringify(body),
  });
}

function subscribe(query: string) {
  return SELF.fetch(`${BASE}/api/subscribe/newsletter${query}`, {
    headers: { "cf-connecting-ip": randomClientAddress() },
  });
}

function reportsFrom(email: string) {
  return env.DB.prepare(`SELECT id, username, message FROM contact_messages WHERE email = ?`).bind(email).all();
}

describe("POST /api/contact", () => {
  it("names a name over the limit beside its field", async () => {
    const body = await expectProblem(
      await postContact({ username: "n".repeat(CONTACT_LIMITS.username + 1), email: randomEmail(), message: "hi" }),
      422,
      "invalid-input",
    );
    expect(body).toMatchObject({ success: 0, errors: { username: CONTACT_ERRORS.usernameTooLong } });
  });

  it("stores what the form has and nothing else the sender adds", async () => {
    const email = randomEmail("extra");
    const response = await postContact({ email, message: "hello", id: "msg_mine", created_at: 0, admin: true });
    expect(response.status).toBe(200);
    const rows = await reportsFrom(email);
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]).toMatchObject({ username: "", message: "hello" });
    expect(rows.results[0]?.id).not.toBe("msg_mine");
  });

  it("refuses a report another site's page sends through a visitor's browser, and stores nothing", async () => {
    const email = randomEmail("csrf");
    const response = await postContact({ email, message: "spam" }, { origin: "https://elsewhere.example" });
    await expectProblem(response, 403, "forbidden");
    expect((await reportsFrom(email)).results).toEqual([]);
  });
});

describe("GET /api/subscribe/newsletter", () => {
  it("mails one address at most the hourly number of confirmations, from however many clients", async () => {
    const email = randomEmail("target");
    const statuses: number[] = [];
    for (let i = 0; i <= NEWSLETTER_MAILS_PER_EMAIL.limit; i++) {
      statuses.push((await subscribe(`?email=${encodeURIComponent(email)}`)).status);
    }
    expect(statuses.slice(0, -1)).toEqual(Array(NEWSLETTER_MAILS_PER_EMAIL.limit).fill(200));
    expect(statuses.at(-1)).toBe(429);
    const last = await subscribe(`?email=${encodeURIComponent(email)}`);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await expectProblem(last, 429, "too-many-requests")).toMatchObject({ is_exist: false });
  });

  it.each(["", "?email=", "?email=%20%20", "?mail=ada%40example.com"])("refuses %j: no address", async (query) => {
    const body = await expectProblem(await subscribe(query), 422, "invalid-input");
    expect(body).toMatchObject({ is_exist: false, errors: { email: expect.any(String) } });
  });
});
