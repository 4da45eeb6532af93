import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { assignRequestId, type ApiEnv } from "~workers/http/env";
import { MEMORY_TTL_MS, resolveApiKey } from "~workers/gateway/api-key-auth";
import { runOperation } from "~workers/gateway/gateway";
import { loadDefinitions } from "~workers/hosted/definitions";
import { findHostedApi, HOSTED_APIS, type HostedApi } from "~workers/hosted/registry";
import { FREE_PLAN_FREEMIUM_CAP, PLANS } from "~workers/platform/plans";
import { callHosted, createAccountWithKey, eventually, randomSuffix, spendFreemiumCalls } from "../factories";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();
const findDefinition = (slug: string) => HOSTED_DEFINITIONS.find((definition) => definition.slug === slug);

const CREATE = "/api/v1/urlshortener";

function createLink(key: string | undefined, body: unknown = { url: "https://example.com/a" }, keyHeader?: string) {
  return callHosted(SELF, "POST", CREATE, { key, body, keyHeader });
}

async function problemOf(response: Response) {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return response.json<{
    type: string;
    status: number;
    detail: string;
    message: string;
    requestId: string;
    errors?: Record<string, string>;
  }>();
}

describe("gateway: keys", () => {
  it("answers 401 with WWW-Authenticate when no key is sent", async () => {
    const response = await createLink(undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/ApiKey/);
    expect((await problemOf(response)).type).toMatch(/missing-api-key$/);
  });

  it("answers 401 for a key that is not ours", async () => {
    const response = await createLink("pk_live_notarealkeyatall1234567890");
    expect(response.status).toBe(401);
    expect((await problemOf(response)).type).toMatch(/invalid-api-key$/);
  });

  it("answers 403 for a revoked key", async () => {
    const { key, keyId } = await createAccountWithKey(env.DB);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), keyId).run();
    const response = await createLink(key);
    expect(response.status).toBe(403);
    expect((await problemOf(response)).type).toMatch(/revoked-api-key$/);
  });

  it("notices a revocation once the isolate's few seconds of memory have passed", async () => {
    const { key, keyId } = await createAccountWithKey(env.DB);
    const now = Date.now();
    expect((await resolveApiKey(env, key, now))?.revoked).toBe(false);
    // Revoking deletes the KV copy (the API does it; here by hand).
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(now, keyId).run();
    const { apiKeyCacheName } = await import("~workers/platform/api-keys");
    const { sha256Hex } = await import("~workers/platform/ids");
    await env.CACHE.delete(apiKeyCacheName(await sha256Hex(key)));
    expect((await resolveApiKey(env, key, now + MEMORY_TTL_MS + 1))?.revoked).toBe(true);
  });

  it.each(["x-api-key", "authorization", "x-avatar-key"])("accepts the key in %s", async (header) => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callHosted(SELF, "POST", CREATE, {
      key: header === "authorization" ? `Bearer ${key}` : key,
      keyHeader: header,
      body: { url: "https://example.com/b" },
    });
    expect(response.status).toBe(201);
  });
});

describe("gateway: input and answers", () => {
  it("answers 422 problem+json with field errors, and counts nothing against the month", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await createLink(key, { url: "javascript:alert(1)", alias: "a b" });
    expect(response.status).toBe(422);
    const body = await problemOf(response);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(["alias", "url"]);
    expect(body.message).toBe(body.detail);
    const ok = await createLink(key);
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("199");
  });

  it("answers 400 for a body that is not JSON and 413 for one that is too large", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const malformed = await callHosted(SELF, "POST", CREATE, {
      key,
      rawBody: "{nope",
      contentType: "application/json",
    });
    expect(malformed.status).toBe(400);
    expect((await problemOf(malformed)).type).toMatch(/malformed-body$/);
    const huge = await callHosted(SELF, "POST", CREATE, {
      key,
      rawBody: JSON.stringify({ url: `https://example.com/${"x".repeat(70_000)}` }),
      contentType: "application/json",
    });
    expect(huge.status).toBe(413);
  });

  it("carries the rate-limit headers, agreeing with the counts", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "standard" });
    const first = await createLink(key);
    expect(first.status).toBe(201);
    expect(first.headers.get("ratelimit-policy")).toMatch(/^"burst";q=5;w=1, "monthly";q=20000;w=\d+$/);
    expect(first.headers.get("ratelimit")).toMatch(/^"burst";r=4;t=0, "monthly";r=19999;t=\d+$/);
    expect(first.headers.get("x-ratelimit-limit")).toBe("20000");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("19999");
    const reset = Number(first.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(31 * 24 * 3600);
  });

  it("records the call in the daily rollups and the key's last use", async () => {
    const { key, userId, keyId } = await createAccountWithKey(env.DB);
    await createLink(key);
    await createLink(key, { url: "not a url" });
    const row = await eventually(
      () =>
        env.DB.prepare("SELECT calls, errors FROM usage_daily WHERE user_id = ? AND api_slug = 'urlshortener'")
          .bind(userId)
          .first<{ calls: number; errors: number }>(),
      (value) => value?.calls === 1 && value.errors === 1,
    );
    expect(row).toEqual({ calls: 1, errors: 1 });
    const keyRow = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?")
      .bind(keyId)
      .first<{ last_used_at: number | null }>();
    expect(keyRow?.last_used_at).toEqual(expect.any(Number));
  });

  it("answers an API that does not exist with a 404 problem", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const response = await callHosted(SELF, "GET", "/api/v1/nonexistent/x", { key });
    expect(response.status).toBe(404);
    expect((await problemOf(response)).detail).toContain("There is no API called nonexistent");
  });
});

describe("gateway: limits", () => {
  it("lets exactly 8 of 20 simultaneous Premium calls through, the rest 429 with Retry-After", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => callHosted(SELF, "GET", "/api/v1/urlshortener/links", { key })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(12);
    for (const response of limited) {
      expect(response.headers.get("retry-after")).toBe("1");
      expect((await problemOf(response)).type).toMatch(/rate-limited$/);
    }
  });

  it("answers the monthly problem when the Free quota is used up", async () => {
    const { key, userId } = await createAccountWithKey(env.DB);
    // Spend the month in the Meter directly (200 calls through HTTP would take minutes of burst waits).
    const meter = env.METER.get(env.METER.idFromName(userId));
    const now = Date.now();
    const start = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
    const end = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + 1, 1);
    for (let i = 0; i < 200; i++) {
      await meter.take({
        now: now - 600_000 + i * 1_000,
        perSecond: 2,
        monthlyQuota: 200,
        periodStart: start,
        periodEnd: end,
        freemiumCap: null,
        bonusGranted: 0,
      });
    }
    const response = await createLink(key);
    expect(response.status).toBe(429);
    expect((await problemOf(response)).type).toMatch(/monthly-quota-exceeded$/);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((end - now) / 1000));
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("lets a Free account make exactly 50 freemium calls a month; the 51st gets the monthly problem", async () => {
    // None of the first twelve APIs is freemium, so the test serves Color Converter as if it
    // were, through the real gateway and Meter; the free one beside it shows the cap binds only
    // freemium calls.
    const colorconvert = findHostedApi("colorconvert") as HostedApi;
    const freemium: HostedApi = { ...colorconvert, group: "freemium" };
    const convert = findDefinition("colorconvert")?.operations.find((operation) => operation.method === "GET");
    if (!convert) throw new Error("Color Converter has no GET operation");
    const app = new Hono<ApiEnv>()
      .use(assignRequestId)
      .get("/freemium", (c) => runOperation(c, freemium, convert))
      .get("/free", (c) => runOperation(c, colorconvert, convert));
    const callApp = async (path: string, key: string) => {
      const ctx = createExecutionContext();
      const response = await app.request(`${path}?hex=%23336699`, { headers: { "x-api-key": key } }, env, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };

    const { key, userId } = await createAccountWithKey(env.DB);
    // The first 49 freemium calls of the month, made earlier.
    await spendFreemiumCalls(userId, FREE_PLAN_FREEMIUM_CAP - 1);

    const fiftieth = await callApp("/freemium", key);
    expect(fiftieth.status).toBe(200);
    const fiftyFirst = await callApp("/freemium", key);
    expect(fiftyFirst.status).toBe(429);
    const problem = await problemOf(fiftyFirst);
    expect(problem.type).toMatch(/monthly-quota-exceeded$/);
    expect((problem as unknown as { limit: string }).limit).toBe("freemium");
    expect(problem.detail).toContain("50 calls a month to freemium APIs");
    expect(Number(fiftyFirst.headers.get("retry-after"))).toBeGreaterThan(0);
    // The month's own quota is not spent: free APIs still answer.
    const free = await callApp("/free", key);
    expect(free.status).toBe(200);
    expect(free.headers.get("x-ratelimit-remaining")).toBe(String(PLANS.free.monthlyQuota - 51));
  });
});

describe("URL shortener", () => {
  it("creates a link with a custom alias that redirects, counts clicks, and reports stats", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const alias = `ok-${randomSuffix()}`;
    const created = await createLink(key, { url: "https://example.com/landing?x=1", alias });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      alias,
      shortUrl: `https://portico.test/s/${alias}`,
      url: "https://example.com/landing?x=1",
      expiresAt: null,
    });

    const click = await SELF.fetch(`https://portico.test/s/${alias}`, {
      redirect: "manual",
      headers: { referer: "https://news.example.org/item?id=1", "cf-ipcountry": "IN" },
    });
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://example.com/landing?x=1");

    const stats = await eventually(
      async () =>
        (await callHosted(SELF, "GET", `/api/v1/urlshortener/links/${alias}`, { key })).json<{
          link: { clicks: number };
          byReferrer: unknown[];
          byCountry: unknown[];
        }>(),
      (value) => value.link.clicks === 1,
    );
    expect(stats.byReferrer).toEqual([{ key: "news.example.org", clicks: 1 }]);
    expect(stats.byCountry).toEqual([{ key: "IN", clicks: 1 }]);
  });

  it("refuses a taken alias with 409", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const alias = `dup-${randomSuffix()}`;
    expect((await createLink(key, { url: "https://example.com", alias })).status).toBe(201);
    expect((await createLink(key, { url: "https://example.com", alias })).status).toBe(409);
  });

  it("sends unknown and expired aliases to the redirect-error page", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const alias = `exp-${randomSuffix()}`;
    await createLink(key, { url: "https://example.com", alias, expiresIn: 60 });
    await env.DB.prepare("UPDATE short_links SET expires_at = ? WHERE alias = ?")
      .bind(Date.now() - 1, alias)
      .run();
    const expired = await SELF.fetch(`https://portico.test/s/${alias}`, { redirect: "manual" });
    expect(expired.headers.get("location")).toBe(`/expired/redirect/error/${alias}`);
    const missing = await SELF.fetch("https://portico.test/s/never-made-xyz", { redirect: "manual" });
    expect(missing.headers.get("location")).toBe("/missing/redirect/error/never-made-xyz");
    const page = await SELF.fetch(`https://portico.test/expired/redirect/error/${alias}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("This link has expired");
  }, 90_000);

  it("lists and deletes only the caller's own links", async () => {
    const alice = await createAccountWithKey(env.DB, { planId: "premium" });
    const bob = await createAccountWithKey(env.DB, { planId: "premium" });
    const alias = `own-${randomSuffix()}`;
    await createLink(alice.key, { url: "https://example.com", alias });
    const list = await (
      await callHosted(SELF, "GET", "/api/v1/urlshortener/links", { key: alice.key })
    ).json<{ links: { alias: string }[] }>();
    expect(list.links.map((link) => link.alias)).toEqual([alias]);
    expect((await callHosted(SELF, "DELETE", `/api/v1/urlshortener/links/${alias}`, { key: bob.key })).status).toBe(
      404,
    );
    expect((await callHosted(SELF, "DELETE", `/api/v1/urlshortener/links/${alias}`, { key: alice.key })).status).toBe(
      200,
    );
    expect(
      (await SELF.fetch(`https://portico.test/s/${alias}`, { redirect: "manual" })).headers.get("location"),
    ).toMatch(/missing/);
  });

  it("answers under the specification's spelling too", async () => {
    const { key } = await createAccountWithKey(env.DB);
    expect(
      (await callHosted(SELF, "POST", "/api/v1/urlshortner", { key, body: { url: "https://example.com" } })).status,
    ).toBe(201);
  });
});

describe("gateway: plans and inputs of other APIs", () => {
  it("refuses a premium API on the Free plan, naming the plans that include it", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callHosted(SELF, "POST", "/api/v1/qrcode", { key, body: { text: "hello" } });
    expect(response.status).toBe(403);
    const body = await problemOf(response);
    expect(body.type).toMatch(/plan-required$/);
    expect(body.detail).toContain("Standard and Premium");
  });

  it.each([
    "http://127.0.0.1/logo.png",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/x.png",
    "http://localhost/x.png",
  ])("refuses an image URL pointing at %s", async (url) => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callHosted(SELF, "POST", "/api/v1/image-to-base64", { key, body: { url } });
    expect(response.status).toBe(422);
    expect((await problemOf(response)).detail).toMatch(/private address|not accepted/);
  });

  it("refuses an upload over the API's size limit with 413", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const form = new FormData();
    form.append("image", new File([new Uint8Array(15 * 1024 * 1024)], "huge.png", { type: "image/png" }));
    const response = await SELF.fetch("https://portico.test/api/v1/image-to-base64", {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    expect(response.status).toBe(413);
  });

  it("answers an API whose engine is not served here with 503, and a wrong method with 405", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    // The registry's rows without a folder yet (none once every API has landed).
    for (const api of HOSTED_APIS.filter((row) => !findDefinition(row.slug))) {
      const unserved = await callHosted(SELF, "POST", `/api/v1/${api.slug}`, { key, body: {} });
      expect(unserved.status).toBe(503);
      expect((await problemOf(unserved)).type).toMatch(/engine-unavailable$/);
    }
    // Remove Background is served (#16): a call without its image is the caller's to fix.
    const removebg = await callHosted(SELF, "POST", "/api/v1/removebg", { key, body: {} });
    expect(removebg.status).toBe(422);
    expect(JSON.stringify(await problemOf(removebg))).toMatch(/image_file/);
    expect((await callHosted(SELF, "DELETE", "/api/v1/qrcode", { key })).status).toBe(405);
  });

  it("serves older clients: X-Avatar-Key, POST /api/polyline with { success: 1, data }, and message in errors", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callHosted(SELF, "POST", "/api/polyline", {
      key,
      keyHeader: "x-avatar-key",
      body: { input: "_p~iF~ps|U_ulLnnqC_mqNvxq`@", type: "decode" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: 1,
      data: [
        [38.5, -120.2],
        [40.7, -120.95],
        [43.252, -126.453],
      ],
    });
    const bad = await callHosted(SELF, "POST", "/api/polyline", {
      key,
      keyHeader: "x-avatar-key",
      body: { input: 5, type: "sideways" },
    });
    expect(bad.status).toBe(422);
    expect((await bad.json<{ message: string }>()).message).toEqual(expect.any(String));
  });
});
