import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { flushUsage, recordCall, type CallRecord } from "~workers/gateway/usage-recorder";
import {
  callApi,
  cookieFrom,
  createAccountWithKey,
  randomClientAddress,
  randomEmail,
  randomSuffix,
  sessionCookieFor,
  signUpVerified,
  STRONG_PASSWORD,
} from "../factories";

const BASE = "https://portico.test";
const HOUR_MS = 60 * 60 * 1000;

// React Router's single fetch runs only the loaders named in `_routes`: the admin layout's
// loader is skipped, so each admin route has to check the admin on its own.
const USER_API_CALLS_DATA = "/user-api-calls.data?_routes=routes/user-api-calls/route";
const BENCHMARKING_DATA = "/benchmarking.data?_routes=routes/benchmarking/route";
const PROMPT_TO_IMAGE_DATA = "/ai/prompt-to-image.data?_routes=routes/ai-prompt-to-image/route";

const adminCookie = () => sessionCookieFor(SELF, env.ADMIN_EMAIL);

async function signedInUserCookie(): Promise<string> {
  return (await signUpVerified(SELF, { email: randomEmail("member") })).cookie;
}

function getPage(path: string, cookie?: string): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, {
    headers: cookie ? { cookie, "cf-connecting-ip": randomClientAddress() } : {},
    redirect: "manual",
  });
}

/** Records calls through the gateway's own recorder and writes them at once. */
async function recordCalls(calls: CallRecord[]): Promise<void> {
  // The recorder's timed flush finds nothing left to write after the explicit one.
  const ignoreTimedFlush = () => {};
  for (const call of calls) recordCall(env.DB, ignoreTimedFlush, call);
  await flushUsage(env.DB);
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'" };

/** The text of each cell of each row of the tables matched by `tableSelector`, header row included. */
async function readTableRows(html: string, tableSelector: string): Promise<string[][]> {
  const rows: string[][] = [];
  const cell = {
    element() {
      rows.at(-1)?.push("");
    },
    text(chunk: { text: string }) {
      const row = rows.at(-1);
      if (row && row.length > 0) row[row.length - 1] += chunk.text;
    },
  };
  await new HTMLRewriter()
    .on(`${tableSelector} tr`, {
      element() {
        rows.push([]);
      },
    })
    .on(`${tableSelector} th`, cell)
    .on(`${tableSelector} td`, cell)
    // List items inside a cell read as separate words.
    .on(`${tableSelector} li`, {
      element() {
        const row = rows.at(-1);
        if (row && row.length > 0) row[row.length - 1] += " ";
      },
    })
    .transform(new Response(html))
    .text();
  return rows.map((row) =>
    row.map((text) =>
      text
        .replace(/&(amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity] ?? entity)
        .replace(/\s+/g, " ")
        .trim(),
    ),
  );
}

/** Each body row as an object keyed by the header row's texts. */
function rowsByHeader(rows: string[][]): Record<string, string>[] {
  const [headers = [], ...body] = rows;
  return body.map((cells) => {
    expect(cells).toHaveLength(headers.length);
    return Object.fromEntries(headers.map((header, index) => [header, cells[index] ?? ""]));
  });
}

describe("admin pages: only the admin gets their data", () => {
  let callerEmail: string;
  let benchSlug: string;

  beforeAll(async () => {
    const caller = await createAccountWithKey(env.DB, { planId: "standard" });
    callerEmail = caller.email;
    benchSlug = `secret-api-${randomSuffix()}`;
    await recordCalls([
      { userId: caller.userId, keyId: caller.keyId, apiSlug: benchSlug, success: true, latencyMs: 12, at: Date.now() },
    ]);
  });

  const searchCaller = () => `&q=${encodeURIComponent(callerEmail)}`;

  it.each([
    ["an anonymous visitor", async () => undefined],
    ["a signed-in user who is not the admin", signedInUserCookie],
  ])("%s is redirected away from each admin loader run alone", async (_who, cookieOf) => {
    const cookie = await cookieOf();
    for (const path of [`${USER_API_CALLS_DATA}${searchCaller()}`, BENCHMARKING_DATA, PROMPT_TO_IMAGE_DATA]) {
      const response = await getPage(path, cookie);
      // Single fetch answers a loader's redirect with 202 and the target in the body.
      expect(response.status, path).toBe(202);
      const body = await response.text();
      expect(body).not.toContain(callerEmail);
      expect(body).not.toContain(benchSlug);
      expect(body).not.toContain("perMonth");
    }
  });

  it.each([
    ["an anonymous visitor", async () => undefined],
    ["a signed-in user who is not the admin", signedInUserCookie],
  ])("%s is sent to / from the full admin pages", async (_who, cookieOf) => {
    const cookie = await cookieOf();
    for (const path of [
      `/user-api-calls?q=${encodeURIComponent(callerEmail)}`,
      "/benchmarking",
      "/ai/prompt-to-image",
    ]) {
      const response = await getPage(path, cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location")).toBe("/");
      const body = await response.text();
      expect(body).not.toContain(callerEmail);
      expect(body).not.toContain(benchSlug);
    }
  });

  it("a signed-in user who is not the admin cannot grant a plan through the page's action", async () => {
    const target = await createAccountWithKey(env.DB);
    const response = await SELF.fetch(`${BASE}/user-api-calls.data`, {
      method: "POST",
      headers: { cookie: await signedInUserCookie(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ userId: target.userId, planId: "premium", days: "30" }),
      redirect: "manual",
    });
    expect(response.status).toBe(202);
    const row = await env.DB.prepare("SELECT plan_id FROM users WHERE id = ?")
      .bind(target.userId)
      .first<{ plan_id: string }>();
    expect(row?.plan_id).toBe("free");
  });

  it("the admin gets each loader's data, alone and in the full pages", async () => {
    const cookie = await adminCookie();
    for (const path of [
      `${USER_API_CALLS_DATA}${searchCaller()}`,
      `/user-api-calls?q=${encodeURIComponent(callerEmail)}`,
    ]) {
      const response = await getPage(path, cookie);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain(callerEmail);
    }
    for (const path of [BENCHMARKING_DATA, "/benchmarking"]) {
      const response = await getPage(path, cookie);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain(benchSlug);
    }
    const promptData = await getPage(PROMPT_TO_IMAGE_DATA, cookie);
    expect(promptData.status).toBe(200);
    expect(await promptData.text()).toContain("perMonth");
  });
});

describe("/user-api-calls", () => {
  it("lists a user's plan, calls this month per API, errors and last call under the right headers", async () => {
    const cookie = await adminCookie();
    const caller = await createAccountWithKey(env.DB, { planId: "premium" });
    const lastCallAt = Date.now() - 5 * 60 * 1000;
    const call = { userId: caller.userId, keyId: caller.keyId, latencyMs: 40 };
    await recordCalls([
      { ...call, apiSlug: "urlshortener", success: true, at: lastCallAt - 3_000 },
      { ...call, apiSlug: "urlshortener", success: true, at: lastCallAt - 2_000 },
      { ...call, apiSlug: "urlshortener", success: true, at: lastCallAt - 1_000 },
      { ...call, apiSlug: "qrcode", success: true, at: lastCallAt - 500 },
      { ...call, apiSlug: "qrcode", success: false, at: lastCallAt },
    ]);

    const response = await getPage(`/user-api-calls?q=${encodeURIComponent(caller.email)}`, cookie);
    expect(response.status).toBe(200);
    const users = rowsByHeader(await readTableRows(await response.text(), 'table[aria-label="Users"]'));
    expect(users).toHaveLength(1);
    const dateTime = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
    });
    expect(users[0]).toMatchObject({
      Email: caller.email,
      Plan: "premium",
      "Active keys": "1",
      "Calls this month": "4",
      "Calls by API": "urlshortener: 3 qrcode: 1 (1 error)",
      Errors: "1",
      "Last call": `${dateTime.format(lastCallAt)} UTC`,
    });
    expect(users[0]?.["Plan ends"]).toMatch(/\d{4}$/);
    expect(users[0]?.Joined).toMatch(/\d{4}$/);
  });

  it("filters by a part of the email address", async () => {
    const cookie = await adminCookie();
    const wanted = await createAccountWithKey(env.DB);
    const other = await createAccountWithKey(env.DB);
    // createAccountWithKey's addresses are caller-<random>@example.com: search by the random part.
    const wantedPart = wanted.email.split("@")[0]?.replace("caller-", "") ?? "";
    const response = await getPage(`/user-api-calls?q=${encodeURIComponent(wantedPart)}`, cookie);
    const emails = rowsByHeader(await readTableRows(await response.text(), 'table[aria-label="Users"]')).map(
      (user) => user.Email,
    );
    expect(emails).toEqual([wanted.email]);
    expect(emails).not.toContain(other.email);
  });

  it("grants a plan for a number of days from the page", async () => {
    const cookie = await adminCookie();
    const target = await createAccountWithKey(env.DB);
    const response = await SELF.fetch(`${BASE}/user-api-calls?q=${encodeURIComponent(target.email)}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ userId: target.userId, planId: "standard", days: "10" }),
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Plan set to standard for 10 days.");
    const row = await env.DB.prepare("SELECT plan_id, plan_expires_at FROM users WHERE id = ?")
      .bind(target.userId)
      .first<{ plan_id: string; plan_expires_at: number }>();
    expect(row?.plan_id).toBe("standard");
    expect(row?.plan_expires_at).toBeGreaterThan(Date.now() + 9.9 * 24 * HOUR_MS);
    expect(row?.plan_expires_at).toBeLessThanOrEqual(Date.now() + 10 * 24 * HOUR_MS);
  });
});

describe("/benchmarking", () => {
  it("counts calls from 30 hours ago in the last 7 days but not in the last 24 hours", async () => {
    const cookie = await adminCookie();
    const caller = await createAccountWithKey(env.DB);
    // An API name of its own, so calls other tests record do not change the figures.
    const apiSlug = `bench-${randomSuffix()}`;
    const now = Date.now();
    const call = { userId: caller.userId, keyId: caller.keyId, apiSlug };
    await recordCalls([
      { ...call, success: true, latencyMs: 20, at: now - HOUR_MS },
      { ...call, success: true, latencyMs: 20, at: now - HOUR_MS },
      { ...call, success: false, latencyMs: 3_000, at: now - 30 * HOUR_MS },
    ]);

    const html = await (await getPage("/benchmarking", cookie)).text();
    const rowOf = async (section: string) =>
      rowsByHeader(await readTableRows(html, `section[aria-label="${section}"] table`)).find(
        (row) => row.API === apiSlug,
      );
    expect(await rowOf("Last 24 hours")).toEqual({
      API: apiSlug,
      Calls: "2",
      Errors: "0",
      "Error rate": "0.0%",
      p50: "≤ 25 ms",
      p95: "≤ 25 ms",
      Mean: "20 ms",
      Max: "20 ms",
    });
    expect(await rowOf("Last 7 days")).toEqual({
      API: apiSlug,
      Calls: "2",
      Errors: "1",
      "Error rate": "33.3%",
      p50: "≤ 25 ms",
      p95: "≤ 5,000 ms",
      Mean: "1,013 ms",
      Max: "3,000 ms",
    });
  });
});
