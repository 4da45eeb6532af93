import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigSchema, type Config } from "~workers/config";
import { utcDay } from "~workers/platform/usage";
import { callHosted, createAccountWithKey, randomSuffix } from "../../../tests/factories";
import { createTestContext, expectProblem, jsonBody } from "../../../tests/hosted-context";
import { expectNeverThrows, findOperation } from "../_data/operation-test-helpers";
import type { HandlerResult, Operation, OperationContext } from "../definition";
import { MAX_URL_LENGTH } from "./destination";
import { definition } from "./index";
import { recordClick } from "./links";
import { shortLinkRedirects } from "./redirect";
import { ShortLinkListSchema, ShortLinkSchema, ShortLinkStatsSchema } from "./schema";

const ORIGIN = "https://portico.test";
const DAY_MS = 24 * 60 * 60 * 1000;

const createShortLink = findOperation(definition, "createShortLink");
const listShortLinks = findOperation(definition, "listShortLinks");
const getShortLinkStats = findOperation(definition, "getShortLinkStats");
const deleteShortLink = findOperation(definition, "deleteShortLink");

/**
 * PUBLIC_HOSTS in the form production's wrangler.toml gives it, written loosely (case, spaces, a
 * trailing dot) so the real parser's normalising is part of what the tests rely on.
 */
const PRODUCTION_PUBLIC_HOSTS = " Portico.DEV , www.portico.dev., acct-subdomain.workers.dev";

/** PUBLIC_HOSTS as `workers/config.ts` reads it from the env. */
function publicHostsOf(value: string): Config["PUBLIC_HOSTS"] {
  const parsed = ConfigSchema.safeParse({ ...env, PUBLIC_HOSTS: value });
  if (!parsed.success) throw new Error(`PUBLIC_HOSTS did not parse: ${parsed.error.message}`);
  return parsed.data.PUBLIC_HOSTS;
}

/**
 * A context for a real account: short links reference `users`, so the owner must exist in D1.
 * `publicHosts` replaces the configured PUBLIC_HOSTS (the local wrangler.toml value otherwise).
 */
async function ownerContext(options: { origin?: string; publicHosts?: string } = {}): Promise<OperationContext> {
  const { userId, keyId } = await createAccountWithKey(env.DB);
  return createTestContext({
    origin: options.origin ?? ORIGIN,
    account: { userId, keyId, planId: "free" },
    publicHosts: options.publicHosts === undefined ? undefined : publicHostsOf(options.publicHosts),
  });
}

function parseInput(operation: Operation, raw: unknown) {
  const parsed = operation.input.safeParse(raw);
  if (!parsed.success) throw new Error(`input did not parse: ${parsed.error.message}`);
  return parsed.data;
}

function run(operation: Operation, raw: unknown, ctx: OperationContext): Promise<HandlerResult> {
  return operation.handler(parseInput(operation, raw), ctx);
}

async function create(raw: Record<string, unknown>, ctx: OperationContext) {
  const result = await run(createShortLink, raw, ctx);
  expect(result).toMatchObject({ kind: "json", status: 201 });
  return jsonBody(result, ShortLinkSchema);
}

async function stats(alias: string, ctx: OperationContext) {
  return jsonBody(await run(getShortLinkStats, { alias }, ctx), ShortLinkStatsSchema);
}

/** What `GET /s/<alias>` answers (the redirect is not followed), once the click it counts is written. */
async function visit(alias: string, headers: Record<string, string> = {}): Promise<Response> {
  const executionCtx = createExecutionContext();
  const response = await shortLinkRedirects.fetch(
    new Request(`${ORIGIN}/s/${alias}`, { headers, redirect: "manual" }),
    env,
    executionCtx,
  );
  await waitOnExecutionContext(executionCtx);
  return response;
}

/** The refusal message zod gives for `url`, or undefined when the URL is accepted. */
function urlRefusal(url: string): string | undefined {
  const parsed = createShortLink.input.safeParse({ url });
  if (parsed.success) return undefined;
  return parsed.error.issues.find((issue) => issue.path.join(".") === "url")?.message ?? "refused elsewhere";
}

describe("urlshortener: creating links", () => {
  it("makes a random 7-character alias when none is given, owned by the caller", async () => {
    const ctx = await ownerContext();
    const before = Date.now();
    const link = await create({ url: "https://example.com/landing?x=1#top" }, ctx);
    expect(link.alias).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(link).toMatchObject({
      shortUrl: `${ORIGIN}/s/${link.alias}`,
      url: "https://example.com/landing?x=1#top",
      expiresAt: null,
      clicks: 0,
    });
    expect(Date.parse(link.createdAt)).toBeGreaterThanOrEqual(before);
    const row = await env.DB.prepare("SELECT user_id, url FROM short_links WHERE alias = ?")
      .bind(link.alias)
      .first<{ user_id: string; url: string }>();
    expect(row).toEqual({ user_id: ctx.account.userId, url: "https://example.com/landing?x=1#top" });
    expect((await create({ url: "https://example.com/landing?x=1#top" }, ctx)).alias).not.toBe(link.alias);
  });

  it("takes a custom alias, case-sensitively", async () => {
    const ctx = await ownerContext();
    const alias = `Docs-${randomSuffix()}`;
    expect((await create({ url: "https://example.com/upper", alias }, ctx)).shortUrl).toBe(`${ORIGIN}/s/${alias}`);
    expect((await create({ url: "https://example.com/lower", alias: alias.toLowerCase() }, ctx)).alias).toBe(
      alias.toLowerCase(),
    );
  });

  it("answers a taken alias with a conflict and leaves the first link as it was", async () => {
    const first = await ownerContext();
    const second = await ownerContext();
    const alias = `taken_${randomSuffix()}`;
    await create({ url: "https://example.com/first", alias }, first);
    const result = await run(createShortLink, { url: "https://example.com/second", alias }, second);
    expectProblem(result, "conflict", new RegExp(`alias ${alias} is taken`));
    expect(result).toMatchObject({ extensions: { errors: { alias: "taken" } } });
    expect((await visit(alias)).headers.get("location")).toBe("https://example.com/first");
  });

  it.each([
    ["an alias too short", { alias: "ab" }],
    ["an alias too long", { alias: "a".repeat(31) }],
    ["an alias with a slash", { alias: "a/b/c" }],
    ["an alias with a space", { alias: "a b c" }],
    ["an alias with non-ASCII letters", { alias: "café" }],
    ["expiresAt and expiresIn together", { expiresAt: "2099-01-01T00:00:00Z", expiresIn: 3600 }],
    ["expiresIn under a minute", { expiresIn: 59 }],
    ["expiresIn over ten years", { expiresIn: 11 * 365 * 24 * 3600 }],
    ["expiresAt that is not a date", { expiresAt: "next tuesday" }],
  ])("the schema refuses %s", (_, fields) => {
    expect(createShortLink.input.safeParse({ url: "https://example.com", ...fields }).success).toBe(false);
  });
});

describe("urlshortener: expiry", () => {
  it("sets expiresAt from expiresIn seconds", async () => {
    const link = await create({ url: "https://example.com/soon", expiresIn: 3600 }, await ownerContext());
    expect(Date.parse(link.expiresAt ?? "") - Date.parse(link.createdAt)).toBe(3_600_000);
  });

  it("takes expiresAt as an ISO date-time with an offset, or as epoch milliseconds", async () => {
    const ctx = await ownerContext();
    const nextYear = new Date().getUTCFullYear() + 1;
    expect(
      (await create({ url: "https://example.com/iso", expiresAt: `${nextYear}-06-01T12:00:00+05:30` }, ctx)).expiresAt,
    ).toBe(`${nextYear}-06-01T06:30:00.000Z`);
    const inAWeek = Date.now() + 7 * DAY_MS;
    expect((await create({ url: "https://example.com/ms", expiresAt: inAWeek }, ctx)).expiresAt).toBe(
      new Date(inAWeek).toISOString(),
    );
  });

  it("refuses an expiry in the past, hinting at seconds given for milliseconds", async () => {
    const ctx = await ownerContext();
    const inAWeekInSeconds = Math.floor((Date.now() + 7 * DAY_MS) / 1000);
    expectProblem(
      await run(createShortLink, { url: "https://example.com", expiresAt: inAWeekInSeconds }, ctx),
      "invalid-input",
      /in the past \(epoch milliseconds, not seconds\)/,
    );
    expectProblem(
      await run(createShortLink, { url: "https://example.com", expiresAt: "2020-01-01T00:00:00Z" }, ctx),
      "invalid-input",
      /^expiresAt is in the past\.$/,
    );
  });

  it("refuses an expiresAt more than ten years away instead of storing a date it cannot print", async () => {
    const ctx = await ownerContext();
    for (const expiresAt of ["9999-12-31T23:59:59Z", Number.MAX_SAFE_INTEGER]) {
      expectProblem(
        await run(createShortLink, { url: "https://example.com", expiresAt }, ctx),
        "invalid-input",
        /ten years/,
      );
    }
  });
});

describe("urlshortener: destinations", () => {
  it.each([
    ["javascript:alert(document.cookie)", /javascript: links are refused/],
    ["JavaScript:alert(1)", /javascript: links are refused/],
    ["data:text/html,<script>alert(1)</script>", /data: links are refused/],
    ["file:///etc/passwd", /file: links are refused/],
    ["ftp://example.com/file", /ftp: links are refused/],
    ["//example.com/no-scheme", /absolute http/],
    ["example.com", /absolute http/],
    ["https://bank.example@evil.example/login", /without a user name or password/],
    ["https://user:secret@example.com/", /without a user name or password/],
  ])("refuses %s", (url, message) => {
    expect(urlRefusal(url)).toMatch(message);
  });

  it.each([
    "http://127.0.0.1/admin",
    "http://127.1/",
    "http://2130706433/",
    "http://0x7f.0.0.1/",
    "http://0.0.0.0:8080/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:192.168.1.1]/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/cgi-bin/reboot",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://localhost:3000/",
    "http://LOCALHOST./",
    "http://LOCALHOST../",
    "http://router../",
    "http://api.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
    "http://nas.home.arpa/",
    "http://router/",
  ])("refuses the local-network destination %s", (url) => {
    expect(urlRefusal(url)).toMatch(/public address/);
  });

  it.each([
    ["https://example.com", "https://example.com/"],
    ["HTTPS://Example.COM/Path?Q=1", "https://example.com/Path?Q=1"],
    ["http://93.184.215.14:8080/x", "http://93.184.215.14:8080/x"],
    ["https://[2606:4700:4700::1111]/dns", "https://[2606:4700:4700::1111]/dns"],
    ["https://bücher.example/straße", "https://xn--bcher-kva.example/stra%C3%9Fe"],
    ["  https://example.com/trimmed  ", "https://example.com/trimmed"],
  ])("accepts %s, stored as %s", (url, stored) => {
    expect(parseInput(createShortLink, { url })).toMatchObject({ url: stored });
  });

  it("stores the parser's form, so a newline or non-ASCII letter cannot break the Location header", async () => {
    const ctx = await ownerContext();
    const link = await create({ url: "https://example.com/a b\n/é?q=ü" }, ctx);
    expect(link.url).toBe("https://example.com/a%20b/%C3%A9?q=%C3%BC");
    const response = await visit(link.alias);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(link.url);
  });

  it("refuses a URL longer than the limit once encoded", () => {
    const path = "é".repeat(Math.ceil(MAX_URL_LENGTH / 6));
    expect(`https://example.com/${path}`.length).toBeLessThan(MAX_URL_LENGTH);
    expect(urlRefusal(`https://example.com/${path}`)).toBe(`at most ${MAX_URL_LENGTH} characters`);
  });
});

describe("urlshortener: no links to our own hosts, so no chain or loop of short links", () => {
  const OWN_HOST_RULE = /is one of this site's own hosts/;

  async function expectOwnHostRefused(url: string, ctx: OperationContext) {
    const result = await run(createShortLink, { url }, ctx);
    expectProblem(result, "invalid-input", OWN_HOST_RULE);
    expect(result).toMatchObject({ extensions: { errors: { url: expect.stringMatching(OWN_HOST_RULE) } } });
  }

  it.each([
    ["a short link, upper case, with the root's trailing dot", "HTTP://PORTICO.TEST./s/x"],
    ["the default port written out", "https://portico.test:443/s/x"],
    ["another port (the edge proxies several to the same Worker)", "http://portico.test:8080/s/x"],
    ["any page, not only /s/ (an open redirect elsewhere would lead back)", `${ORIGIN}/docs/api/urlshortener`],
    ["two trailing dots", "https://portico.test../s/x"],
    ["a percent-encoded letter", "https://portic%6F.test/s/x"],
    ["a percent-encoded trailing dot", "https://portico.test%2e/s/x"],
    [
      "full-width letters and an ideographic full stop, which IDNA maps to ASCII",
      "https://ｐｏｒｔｉｃｏ\u3002test/s/x",
    ],
    ["a subdomain of the request's host", "https://www.portico.test/s/x"],
  ])("refuses the request's own host: %s (%s)", async (_, url) => {
    await expectOwnHostRefused(url, await ownerContext());
  });

  it.each([
    "https://portico.dev/s/x",
    "https://WWW.Portico.Dev./s/x",
    "https://portico.dev:443/pricing",
    // Subdomains of a configured host: the webhook Worker's, and any added later.
    "https://hooks.portico.dev/",
    // The account's workers.dev subdomain: the production Worker, its preview URLs, the webhook Worker.
    "https://portico-production.acct-subdomain.workers.dev/s/x",
    "https://0a1b2c3d-portico-production.acct-subdomain.workers.dev/s/x",
    "https://portico-webhooks.ACCT-SUBDOMAIN.workers.dev./",
  ])("refuses %s with production's PUBLIC_HOSTS, whatever host the request came to", async (url) => {
    await expectOwnHostRefused(
      url,
      await ownerContext({ origin: "https://api-test.example", publicHosts: PRODUCTION_PUBLIC_HOSTS }),
    );
  });

  it("refuses the whole workers.dev account the request came through, so preview URLs of this Worker too", async () => {
    const ctx = await ownerContext({ origin: "https://portico.other-acct.workers.dev", publicHosts: "" });
    await expectOwnHostRefused("https://portico.other-acct.workers.dev./s/x", ctx);
    await expectOwnHostRefused("https://1a2b3c4d-portico.other-acct.workers.dev/s/x", ctx);
    // Someone else's Workers are not ours.
    await create({ url: "https://portico.someone-else.workers.dev/s/x" }, ctx);
  });

  it.each([
    "https://example.com/s/x",
    "https://notportico.dev/s/x",
    "https://portico.dev.example.com/s/x",
    "https://portico.test.example/s/x",
    "https://portico.another-acct.workers.dev/s/x",
  ])("still accepts %s, which only looks like ours", async (url) => {
    const ctx = await ownerContext({ publicHosts: PRODUCTION_PUBLIC_HOSTS });
    expect((await create({ url }, ctx)).url).toBe(url);
  });

  it("answers through the gateway with a 422 problem naming the rule", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callHosted(SELF, "POST", "/api/v1/urlshortener", {
      key,
      body: { url: "HTTP://PORTICO.TEST./s/abcdefg" },
    });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    const problem = await response.json<{ detail: string; errors: { url: string } }>();
    expect(problem.detail).toMatch(OWN_HOST_RULE);
    expect(problem.detail).toContain("portico.test");
    expect(problem.errors.url).toMatch(OWN_HOST_RULE);
  });
});

describe("urlshortener: GET /s/<alias>", () => {
  it("redirects 302 to the destination, uncached, and counts the click by day, referrer host and country", async () => {
    const ctx = await ownerContext();
    const link = await create({ url: "https://example.com/landing?x=1" }, ctx);
    const response = await visit(link.alias, {
      referer: "https://news.example.org/item?id=1&user=someone",
      "cf-ipcountry": "IN",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/landing?x=1");
    expect(response.headers.get("cache-control")).toBe("private, no-store");

    await visit(link.alias, { "cf-ipcountry": "XX-not-a-code" });
    const figures = await stats(link.alias, ctx);
    expect(figures.link.clicks).toBe(2);
    expect(figures.byDay).toEqual([{ day: utcDay(Date.now()), clicks: 2 }]);
    expect(figures.byReferrer).toEqual(
      expect.arrayContaining([
        { key: "news.example.org", clicks: 1 },
        { key: "", clicks: 1 },
      ]),
    );
    expect(figures.byReferrer).toHaveLength(2);
    expect(figures.byCountry).toEqual(
      expect.arrayContaining([
        { key: "IN", clicks: 1 },
        { key: "", clicks: 1 },
      ]),
    );
  });

  it("reports clicks by UTC day, oldest first, with referrers and countries summed over days", async () => {
    const ctx = await ownerContext();
    const link = await create({ url: "https://example.com/daily" }, ctx);
    const row = await env.DB.prepare("SELECT id FROM short_links WHERE alias = ?")
      .bind(link.alias)
      .first<{ id: string }>();
    const id = row?.id ?? "";
    // 23:59:59.999 and 00:00 of the next day are different days in UTC.
    const lastMoment = Date.UTC(2026, 10, 21, 23, 59, 59, 999);
    await recordClick(env.DB, id, { at: lastMoment, referrer: "a.example", country: "US" });
    await recordClick(env.DB, id, { at: lastMoment + 1, referrer: "a.example", country: "US" });
    await recordClick(env.DB, id, { at: lastMoment + 1 + DAY_MS, referrer: "b.example", country: "DE" });
    await recordClick(env.DB, id, { at: lastMoment + 2 + DAY_MS, referrer: "a.example", country: "US" });

    const figures = await stats(link.alias, ctx);
    expect(figures.byDay).toEqual([
      { day: "2026-11-21", clicks: 1 },
      { day: "2026-11-22", clicks: 1 },
      { day: "2026-11-23", clicks: 2 },
    ]);
    expect(figures.byReferrer).toEqual([
      { key: "a.example", clicks: 3 },
      { key: "b.example", clicks: 1 },
    ]);
    expect(figures.byCountry).toEqual([
      { key: "US", clicks: 3 },
      { key: "DE", clicks: 1 },
    ]);
    expect(figures.link.clicks).toBe(4);
  });

  it("sends an expired link to the expired page without counting a click", async () => {
    const ctx = await ownerContext();
    const link = await create({ url: "https://example.com/old", expiresIn: 60 }, ctx);
    expect((await visit(link.alias)).status).toBe(302);
    await env.DB.prepare("UPDATE short_links SET expires_at = ? WHERE alias = ?")
      .bind(Date.now() - 1, link.alias)
      .run();
    const response = await visit(link.alias);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/expired/redirect/error/${link.alias}`);
    expect((await stats(link.alias, ctx)).link.clicks).toBe(1);

    const page = await SELF.fetch(`${ORIGIN}/expired/redirect/error/${link.alias}`);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain("This link has expired");
    // React may split "/s/" and the alias into two text nodes.
    expect(html).toMatch(new RegExp(`/s/(<!-- -->)?${link.alias}<`));
  }, 90_000);

  it("sends an unknown or malformed alias to the missing page", async () => {
    const unknown = `never-${randomSuffix()}`;
    expect((await visit(unknown)).headers.get("location")).toBe(`/missing/redirect/error/${unknown}`);
    expect((await visit("%3Cscript%3E")).headers.get("location")).toBe(
      `/missing/redirect/error/${encodeURIComponent("<script>")}`,
    );
    const page = await SELF.fetch(`${ORIGIN}/missing/redirect/error/${unknown}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This link does not exist");
  }, 90_000);
});

describe("urlshortener: listing, stats and deleting", () => {
  it("lists only the caller's links, newest first, a page at a time", async () => {
    const ctx = await ownerContext();
    const other = await ownerContext();
    await create({ url: "https://example.com/not-mine" }, other);
    const aliases: string[] = [];
    for (const n of [1, 2, 3]) {
      aliases.push(
        (await create({ url: `https://example.com/${n}`, alias: `list-${n}-${randomSuffix()}` }, ctx)).alias,
      );
      // created_at orders the list; a millisecond apart keeps the order certain.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const first = jsonBody(await run(listShortLinks, { limit: "2" }, ctx), ShortLinkListSchema);
    expect(first.links.map((link) => link.alias)).toEqual([aliases[2], aliases[1]]);
    expect(first).toMatchObject({ page: 1, totalPages: 2 });
    const second = jsonBody(await run(listShortLinks, { limit: "2", page: "2" }, ctx), ShortLinkListSchema);
    expect(second.links.map((link) => link.alias)).toEqual([aliases[0]]);
  });

  it("answers stats and deletion of someone else's link as not found, and leaves it working", async () => {
    const owner = await ownerContext();
    const stranger = await ownerContext();
    const alias = `mine-${randomSuffix()}`;
    await create({ url: "https://example.com/mine", alias }, owner);
    expectProblem(await run(getShortLinkStats, { alias }, stranger), "not-found");
    expectProblem(await run(deleteShortLink, { alias }, stranger), "not-found");
    expect((await visit(alias)).headers.get("location")).toBe("https://example.com/mine");
  });

  it("deletes a link with its clicks; the alias stops redirecting and is free again", async () => {
    const owner = await ownerContext();
    const alias = `gone-${randomSuffix()}`;
    await create({ url: "https://example.com/gone", alias }, owner);
    await visit(alias);
    const row = await env.DB.prepare("SELECT id FROM short_links WHERE alias = ?").bind(alias).first<{ id: string }>();
    const countClickRows = async () =>
      (
        await env.DB.prepare("SELECT COUNT(*) AS n FROM short_link_clicks WHERE link_id = ?")
          .bind(row?.id ?? "")
          .first<{ n: number }>()
      )?.n;
    expect(await countClickRows()).toBe(1);
    // A clicked link: D1 also counts the cascaded click rows in `changes`.
    expect(await run(deleteShortLink, { alias }, owner)).toMatchObject({
      kind: "json",
      body: { deleted: true, alias },
    });
    expect((await visit(alias)).headers.get("location")).toBe(`/missing/redirect/error/${alias}`);
    expect(await countClickRows()).toBe(0);
    expectProblem(await run(deleteShortLink, { alias }, owner), "not-found");
    await create({ url: "https://example.com/reused", alias }, await ownerContext());
    expect((await visit(alias)).headers.get("location")).toBe("https://example.com/reused");
  });
});

describe("urlshortener: documented examples", () => {
  it("the create example (the live demo's default input) works for every caller, not just the first", async () => {
    expect(createShortLink.example).not.toHaveProperty("alias");
    // With production's hosts configured too: an example on portico.dev would be refused there.
    const answers = [
      await create(createShortLink.example as Record<string, unknown>, await ownerContext()),
      await create(
        createShortLink.example as Record<string, unknown>,
        await ownerContext({ publicHosts: PRODUCTION_PUBLIC_HOSTS }),
      ),
    ];
    for (const answer of answers) {
      expect(answer.url).toBe((createShortLink.example as { url: string }).url);
      expect(Date.parse(answer.expiresAt ?? "") - Date.parse(answer.createdAt)).toBe(30 * DAY_MS);
    }
    expect(answers[0]?.alias).not.toBe(answers[1]?.alias);
  });

  it("every example answer fits its schema, and the stats example adds up", () => {
    for (const operation of definition.operations) {
      if (operation.output.kind !== "json") throw new Error(`${operation.id} should answer JSON`);
      expect(operation.output.schema.safeParse(operation.output.example).success).toBe(true);
      expect(operation.input.safeParse(operation.example).success).toBe(true);
    }
    const example = ShortLinkStatsSchema.parse(
      getShortLinkStats.output.kind === "json" ? getShortLinkStats.output.example : undefined,
    );
    const total = example.link.clicks;
    for (const breakdown of [example.byDay, example.byReferrer, example.byCountry]) {
      expect(breakdown.reduce((sum, row) => sum + row.clicks, 0)).toBe(total);
    }
  });
});

describe("urlshortener: properties", () => {
  it("never throws on arbitrary or hostile input", async () => {
    await expectNeverThrows(
      createShortLink,
      {
        url: fc.oneof(
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.constantFrom("javascript:alert(1)", "http://[::1]/", "https://a@b.example/", "https://example.com/\u0000"),
          fc.string(),
        ),
        alias: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{3,30}$/), fc.string()),
        expiresIn: fc.oneof(fc.integer(), fc.double(), fc.string()),
        expiresAt: fc.oneof(
          fc.integer(),
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          fc.string(),
        ),
      },
      await ownerContext(),
    );
  });
});
