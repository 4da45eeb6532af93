import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CONTACT_BODY_LIMIT, CONTACT_THROTTLE, NEWSLETTER_THROTTLE } from "~workers/api/public";
import { linkTokenFromOutbox, randomClientAddress, randomEmail } from "../factories";

const BASE = "https://portico.test";

function postContact(body: unknown, ip = randomClientAddress()) {
  return SELF.fetch(`${BASE}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * The failure is RFC 9457 problem+json of `type`, with the members the site's client reads
 * (`success`, `message`, `is_exist`, `errors`) beside the standard ones.
 */
async function expectProblem(response: Response, status: number, type: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<Record<string, unknown>>();
  expect(body).toMatchObject({ type: `https://portico.dev/problems/${type}`, status, title: expect.any(String) });
  expect(body.requestId).toBe(response.headers.get("x-request-id"));
  return body;
}

function subscribe(email: string, ip = randomClientAddress()) {
  return SELF.fetch(`${BASE}/api/subscribe/newsletter?email=${encodeURIComponent(email)}`, {
    headers: { "cf-connecting-ip": ip },
  });
}

describe("GET /api/admin/sidemenus/", () => {
  it("answers the menu list under `message`, Home first", async () => {
    const response = await SELF.fetch(`${BASE}/api/admin/sidemenus/`);
    expect(response.status).toBe(200);
    const body = await response.json<{ message: { _id: string; name: string; endpoint: string }[] }>();
    expect(body.message[0]).toMatchObject({ name: "Home", endpoint: "/" });
    expect(body.message.find((item) => item.name === "QR Code Generator")?.endpoint).toBe("/docs/api/qrcode");
  });
});

describe("POST /api/contact", () => {
  it("stores a valid report in D1 and answers success 1", async () => {
    const email = randomEmail("reporter");
    const response = await postContact({ username: "Ada", email, message: "The QR docs sample has a typo." });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: 1, message: expect.stringContaining("get back to you") });
    const row = await env.DB.prepare("SELECT username, message FROM contact_messages WHERE email = ?")
      .bind(email)
      .first();
    expect(row).toEqual({ username: "Ada", message: "The QR docs sample has a typo." });
  });

  it.each([
    [{ email: "", message: "hi" }, "email", "Email is required"],
    [{ email: "not-an-email", message: "hi" }, "email", "Enter a valid email address"],
    [{ email: "a@b", message: "   " }, "message", "Message is required"],
  ])("refuses %j with the form's message", async (body, field, text) => {
    const response = await postContact(body);
    expect(response.status).toBe(422);
    const answer = (await expectProblem(response, 422, "invalid-input")) as {
      success: number;
      message: string;
      detail: string;
      errors: Record<string, string>;
    };
    expect(answer.success).toBe(0);
    expect(answer.errors[field]).toBe(text);
    // The form shows `message`: the first field's words, not a code.
    expect(answer.message).toBe(Object.values(answer.errors)[0]);
    expect(answer.detail).toBe(answer.message);
  });

  it("answers a malformed body with the required-field messages, not a 500", async () => {
    const response = await postContact("{not json");
    expect(response.status).toBe(422);
    expect(await expectProblem(response, 422, "invalid-input")).toMatchObject({
      success: 0,
      message: "Email is required",
    });
  });

  it("names a body that is not an object `body`, not `undefined`", async () => {
    const answer = (await expectProblem(await postContact("[1, 2]"), 422, "invalid-input")) as {
      errors: Record<string, string>;
    };
    expect(Object.keys(answer.errors)).toEqual(["body"]);
  });

  it("refuses an oversized body with 413 and stores nothing", async () => {
    const email = randomEmail("big");
    const response = await postContact({ email, message: "x".repeat(CONTACT_BODY_LIMIT + 1) });
    expect(response.status).toBe(413);
    expect(await expectProblem(response, 413, "body-too-large")).toMatchObject({
      success: 0,
      message: "The message is too long.",
    });
    const row = await env.DB.prepare("SELECT id FROM contact_messages WHERE email = ?").bind(email).first();
    expect(row).toBeNull();
  });

  it("refuses a message over 5,000 characters", async () => {
    const response = await postContact({ email: randomEmail(), message: "y".repeat(5001) });
    expect(response.status).toBe(422);
  });

  it("throttles one address after the limit, with Retry-After, and not another", async () => {
    const ip = randomClientAddress();
    for (let i = 0; i < CONTACT_THROTTLE.limit; i++) {
      expect((await postContact({ email: randomEmail(), message: `report ${i}` }, ip)).status).toBe(200);
    }
    const refused = await postContact({ email: randomEmail(), message: "one too many" }, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await expectProblem(refused, 429, "too-many-requests")).toMatchObject({
      success: 0,
      message: expect.stringContaining("Too many reports"),
    });
    expect((await postContact({ email: randomEmail(), message: "someone else" })).status).toBe(200);
  });
});

describe("GET /api/subscribe/newsletter", () => {
  it("records a new address once, normalised, and confirms it only through the mailed link (double opt-in)", async () => {
    const email = randomEmail("news");
    const first = await subscribe(`  ${email.toUpperCase()} `);
    expect(await first.json()).toMatchObject({ is_exist: true });
    const token = await linkTokenFromOutbox(email, "newsletter/confirm");
    const pending = await env.DB.prepare("SELECT email, confirmed_at FROM newsletter_subscriptions WHERE email = ?")
      .bind(email)
      .all();
    expect(pending.results).toEqual([{ email, confirmed_at: null }]);

    const page = await SELF.fetch(`${BASE}/newsletter/confirm/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("You are subscribed");
    const confirmed = await env.DB.prepare("SELECT confirmed_at FROM newsletter_subscriptions WHERE email = ?")
      .bind(email)
      .first<{ confirmed_at: number | null }>();
    expect(confirmed?.confirmed_at).toEqual(expect.any(Number));
    // Asking again answers the same (accepted) and tells nobody the address is subscribed.
    expect(await (await subscribe(email)).json()).toMatchObject({ is_exist: true });
    expect(await (await SELF.fetch(`${BASE}/newsletter/confirm/not-a-token`)).text()).toContain("does not work");
  });

  it("refuses what is not an email address", async () => {
    const response = await subscribe("nobody-at-example");
    expect(response.status).toBe(422);
    expect(await expectProblem(response, 422, "invalid-input")).toMatchObject({
      is_exist: false,
      message: "That does not look like an email address.",
    });
  });

  it("throttles one address after the limit", async () => {
    const ip = randomClientAddress();
    for (let i = 0; i < NEWSLETTER_THROTTLE.limit; i++) await subscribe(randomEmail(), ip);
    const refused = await subscribe(randomEmail(), ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await expectProblem(refused, 429, "too-many-requests")).toMatchObject({
      is_exist: false,
      message: "Too many attempts. Please try again later.",
    });
  });
});

describe("unknown API paths", () => {
  it("answer problem+json 404 with a request id", async () => {
    const response = await SELF.fetch(`${BASE}/api/nothing/here`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = await response.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: 404, title: "Not found", type: expect.stringMatching(/not-found$/) });
    expect(body.requestId).toBe(response.headers.get("x-request-id"));
  });
});
