import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loadDefinitions } from "~workers/hosted/definitions";
import { percentileFromBuckets } from "~workers/platform/admin";
import {
  callApi,
  callHosted,
  cookieFrom,
  createAccountWithKey,
  eventually,
  sessionCookieFor,
  signUpVerified,
  STRONG_PASSWORD,
} from "../factories";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();

const adminCookie = () => sessionCookieFor(SELF, env.ADMIN_EMAIL);

describe("OpenAPI document", () => {
  it("describes every operation of every mounted API, with problem responses", async () => {
    const response = await SELF.fetch("https://portico.test/openapi.json");
    expect(response.status).toBe(200);
    const document = await response.json<{
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    }>();
    expect(document.openapi).toBe("3.1.0");
    const operationIds = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    const expected = HOSTED_DEFINITIONS.flatMap((definition) => [
      ...definition.operations.map((op) => `${definition.slug}.${op.id}`),
      // Older paths appear as deprecated copies of the call they serve.
      ...(definition.legacyRoutes ?? []).map((legacy) => `${definition.slug}.${legacy.operationId}.legacy`),
    ]);
    // The media tunnel is gateway infrastructure, not an operation, described beside them (decision 052).
    expected.push("youtube-instagram-video-downloader.tunnel.get", "youtube-instagram-video-downloader.tunnel.head");
    expect(operationIds.sort()).toEqual(expected.sort());
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(document.paths["/api/v1/urlshortener/links/{alias}"]?.delete?.responses["422"]).toBeDefined();
  });

  it("documents each call's own problems and the ?as=json form of binary answers", async () => {
    const document = await (
      await SELF.fetch("https://portico.test/openapi.json")
    ).json<{
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: { name: string; in: string }[];
            responses: Record<string, { description: string; content?: Record<string, unknown> }>;
          }
        >
      >;
    }>();
    const create = document.paths["/api/v1/urlshortener"]?.post;
    expect(create?.responses["409"]?.description).toContain("alias you chose is taken");
    expect(create?.responses["503"]?.description).toMatch(/not available.*Or: No free random alias/);
    expect(document.paths["/api/v1/urlshortener/links/{alias}"]?.get?.responses["404"]).toBeDefined();
    const qr = document.paths["/api/v1/qrcode"]?.post;
    expect(qr?.parameters).toContainEqual(expect.objectContaining({ name: "as", in: "query" }));
    expect(Object.keys(qr?.responses["200"]?.content ?? {})).toEqual([
      "image/png",
      "image/svg+xml",
      "image/jpeg",
      "image/webp",
      "image/gif",
      "application/json",
    ]);
  });
});

describe("docs pages", () => {
  it("show each call's parameters, samples and a real example answer", async () => {
    const html = await (await SELF.fetch("https://portico.test/docs/api/urlshortener")).text();
    expect(html).toContain("/api/v1/urlshortener/links/:alias");
    expect(html).toContain("curl -X POST");
    expect(html).toContain("YOUR_API_KEY");
    expect(html).toContain("expiresIn");
    expect(html).toContain("https://portico.dev/s/docs-qr");
    expect(html).toContain("problem+json");
  });

  it("show the success status and a table of the answer's fields, nested ones dotted", async () => {
    const html = await (await SELF.fetch("https://portico.test/docs/api/colorconvert")).text();
    expect(html).toContain("Response (200)");
    expect(html).toContain("Response fields of");
    expect(html).not.toContain("9007199254740991");
    for (const field of ["hex", "rgb", "rgb.r", "hsl.h", "readableOn"]) {
      expect(html).toMatch(new RegExp(`<th scope="row"[^>]*>${field.replace(".", "\\.")}</th>`));
    }
  });

  it("list a call's own errors beside it", async () => {
    const html = await (await SELF.fetch("https://portico.test/docs/api/urlshortener")).text();
    expect(html).toContain("Errors of this call");
    expect(html).toMatch(/409<\/span>\s*<code[^>]*>conflict<\/code>/);
  });

  it("turn a description's Markdown links into links, and only web ones", async () => {
    // The avatar styles credit their creators and licences with [text](url) links.
    const html = await (await SELF.fetch("https://portico.test/docs/api/avatar")).text();
    expect(html).toContain('<a href="https://creativecommons.org/licenses/by/4.0/" rel="noreferrer" class="underline">');
    const page = html.slice(html.indexOf("<main"), html.indexOf("</main>")); // not the hydration data
    expect(page).not.toMatch(/\]\(https?:/);
  });

  it("has a live demo page for each mounted API", async () => {
    const response = await SELF.fetch("https://portico.test/urlshortener/live-demo");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("URL Shortener live demo");
    expect((await SELF.fetch("https://portico.test/teleporter/live-demo")).status).toBe(404);
  });
});

describe("admin", () => {
  it("grants a plan for a number of days, with an audit record, and the gateway applies it at once", async () => {
    const cookie = await adminCookie();
    const { userId, key } = await createAccountWithKey(env.DB);
    // Warm the key cache on the Free plan: 2 calls a second.
    const before = await callHosted(SELF, "GET", "/api/v1/urlshortener/links", { key });
    expect(before.headers.get("ratelimit-policy")).toMatch(/"burst";q=2/);

    const granted = await callApi(SELF, "POST", `/api/admin/users/${userId}/plan`, {
      cookie,
      body: { planId: "premium", days: 30, reason: "support ticket 42" },
    });
    expect(granted.status).toBe(200);
    const body = await granted.json<{ planExpiresAt: number }>();
    expect(body.planExpiresAt - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    const audit = await env.DB.prepare("SELECT action, detail FROM admin_audit WHERE target_user_id = ?")
      .bind(userId)
      .first<{ action: string; detail: string }>();
    expect(audit?.action).toBe("grant-plan");
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({
      from: { planId: "free" },
      to: { planId: "premium" },
      reason: "support ticket 42",
    });

    const after = await eventually(
      () =>
        callHosted(SELF, "GET", "/api/v1/urlshortener/links", { key }).then(
          (r) => r.headers.get("ratelimit-policy") ?? "",
        ),
      (policy) => policy.includes('"burst";q=8'),
      7_000,
    );
    expect(after).toMatch(/"monthly";q=50000/);
  });

  it("refuses the grant to anyone but the admin", async () => {
    const { userId } = await createAccountWithKey(env.DB);
    const { cookie } = await signUpVerified(SELF);
    const response = await callApi(SELF, "POST", `/api/admin/users/${userId}/plan`, {
      cookie,
      body: { planId: "premium", days: 30 },
    });
    expect(response.status).toBe(403);
  });

  it("reads percentiles from the latency histogram", () => {
    const buckets = [
      { upperMs: 10, calls: 50 },
      { upperMs: 50, calls: 45 },
      { upperMs: 500, calls: 5 },
    ];
    expect(percentileFromBuckets(buckets, 0.5)).toBe(10);
    expect(percentileFromBuckets(buckets, 0.95)).toBe(50);
    expect(percentileFromBuckets(buckets, 0.99)).toBe(500);
    expect(percentileFromBuckets([], 0.5)).toBeNull();
  });
});
