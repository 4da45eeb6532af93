import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cachedRegistry, whoisCacheKey, WHOIS_CACHE_TTL_SECONDS } from "~workers/providers/rdap/cache";
import type { DomainRegistry } from "~workers/providers/rdap";
import type { LookupOutcome } from "~workers/providers/rdap/record";
import { currentPlanPeriod, FREE_PLAN_FREEMIUM_CAP, PLANS } from "~workers/platform/plans";
import {
  callHosted,
  createAccountWithKey,
  expectProblem as expectHttpProblem,
  randomSuffix,
} from "../../../tests/factories";
import { createTestContext, expectProblem, jsonBody } from "../../../tests/hosted-context";
import { callOperation, expectExampleIsReal, findOperation } from "../_data/operation-test-helpers";
import { decodePunycode, parseDomainName } from "./domain-name";
import { definition } from "./index";
import { WhoisInputSchema, WhoisRecordSchema } from "./schema";

const lookup = findOperation(definition, "lookupDomain");
const lookupJson = findOperation(definition, "lookupDomainJson");

/** A registry that answers `outcome` for every name and remembers what it was asked. */
function answeringRegistry(outcome: LookupOutcome): DomainRegistry & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (domain) => {
      asked.push(domain);
      return outcome;
    },
  };
}

const contextWith = (registry: DomainRegistry) => ({ ...createTestContext(), registry });

describe("WHOIS Lookup examples", () => {
  it("answers the documented examples exactly (GET google.com over Verisign's referral, POST afnic.fr)", async () => {
    await expectExampleIsReal(lookup);
    await expectExampleIsReal(lookupJson);
  });
});

describe("WHOIS Lookup docs text", () => {
  it("is plain sentences, since the docs page renders only code spans and links (no bold, lists or breaks)", () => {
    for (const operation of definition.operations) {
      expect(operation.description, operation.id).not.toMatch(/\*\*|\n/);
    }
  });
});

describe("domain names", () => {
  it("accepts ASCII and Unicode names, any case, a trailing dot, and gives both forms", () => {
    expect(parseDomainName("Example.COM.")).toEqual({
      ok: true,
      name: { ascii: "example.com", unicode: "example.com" },
    });
    expect(parseDomainName("bücher.de")).toEqual({
      ok: true,
      name: { ascii: "xn--bcher-kva.de", unicode: "bücher.de" },
    });
    expect(parseDomainName("XN--BCHER-KVA.DE")).toEqual({
      ok: true,
      name: { ascii: "xn--bcher-kva.de", unicode: "bücher.de" },
    });
    // Full-width dots and letters are mapped the way browsers map them (UTS #46).
    expect(parseDomainName("ｅｘａｍｐｌｅ。ｃｏｍ")).toMatchObject({ ok: true, name: { ascii: "example.com" } });
    expect(parseDomainName("пример.рф")).toEqual({
      ok: true,
      name: { ascii: "xn--e1afmkfd.xn--p1ai", unicode: "пример.рф" },
    });
  });

  it("refuses what no registry could hold, with a reason", () => {
    for (const input of [
      "",
      "   ",
      "com",
      "localhost",
      "127.0.0.1",
      "[::1]",
      "https://example.com/",
      "user@example.com",
      "example.com:443",
      "exa mple.com",
      "-example.com",
      "example-.com",
      "a..com",
      "example.c0m1",
      "%65xample.com",
      `${"a".repeat(64)}.com`,
      `${"a.".repeat(127)}com`,
      "xn--zz.com",
      "example.com\u0000",
    ]) {
      const parsed = parseDomainName(input);
      expect(parsed.ok, JSON.stringify(input)).toBe(false);
      if (!parsed.ok) expect(parsed.message.length).toBeGreaterThan(10);
    }
  });

  it("decodes RFC 3492's sample strings", () => {
    // RFC 3492 §7.1 (A) Arabic (Egyptian), (L) 3<nen>B<gumi><kinpachi><sensei>, and a German IDN.
    expect(decodePunycode("egbpdaj6bu4bxfgehfvwxn")).toBe(
      "\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F",
    );
    expect(decodePunycode("3B-ww4c5e180e575a65lsy2b")).toBe("3\u5E74B\u7D44\u91D1\u516B\u5148\u751F");
    expect(decodePunycode("mnchen-3ya")).toBe("münchen");
    expect(decodePunycode("99999999999")).toBeNull();
    expect(decodePunycode("a!")).toBeNull();
  });

  it("decodes whatever the URL parser encodes back to the same name (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }), (label) => {
        let ascii: string;
        try {
          ascii = new URL(`http://${label}.de/`).hostname;
        } catch {
          return;
        }
        const parsed = parseDomainName(ascii);
        if (!parsed.ok) return;
        // The Unicode form, encoded again by the URL parser (an independent IDNA), is the same name.
        expect(new URL(`http://${parsed.name.unicode}/`).hostname).toBe(parsed.name.ascii);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on hostile input, and anything it accepts is a valid A-label name (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ unit: "grapheme", maxLength: 80 }),
          fc.stringMatching(/^[a-z0-9.-]{1,80}$/),
          fc.constantFrom("\uD800.com", "a\u200Db.com", "ß.de", "xn--.com", "xn--a.com", "1.2.3.4", "0x7f.1"),
        ),
        (input) => {
          const parsed = WhoisInputSchema.safeParse({ domain: input });
          if (!parsed.success) return;
          const { ascii } = parsed.data.domain;
          expect(ascii.length).toBeLessThanOrEqual(253);
          expect(ascii).toMatch(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]+)$/);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("WHOIS Lookup answers", () => {
  it("asks the registry by the A-label name and answers both forms for an IDN", async () => {
    const registry = answeringRegistry({ ok: false, code: "not-registered", host: "rdap.denic.de" });
    const result = await callOperation(lookup, { domain: "Bücher.de" }, contextWith(registry));
    expect(registry.asked).toEqual(["xn--bcher-kva.de"]);
    expect(result).toEqual({
      kind: "problem",
      type: "domain-not-registered",
      detail: "bücher.de is not registered: rdap.denic.de holds no such name.",
      extensions: { domain: "xn--bcher-kva.de", unicodeName: "bücher.de", registry: "rdap.denic.de" },
    });
  });

  it("answers a port-43 record in the same shape, with no RDAP URL", async () => {
    const body = jsonBody(await callOperation(lookupJson, { domain: "google.it" }), WhoisRecordSchema);
    expect(body).toMatchObject({
      domain: "google.it",
      unicodeName: "google.it",
      registered: true,
      source: "whois",
      rdapUrl: null,
      registrar: { name: "MarkMonitor International Limited" },
      expires: "2026-04-21T00:00:00.000Z",
    });
    expect(Object.keys(body).sort()).toEqual(
      [
        "domain",
        "unicodeName",
        "registered",
        "registrar",
        "status",
        "created",
        "updated",
        "expires",
        "nameservers",
        "dnssec",
        "registrant",
        "source",
        "rdapUrl",
      ].sort(),
    );
  });

  it("answers an unregistered name with 404 domain-not-registered, over RDAP and port 43", async () => {
    expectProblem(
      await callOperation(lookup, { domain: "never-registered-here.com" }),
      "domain-not-registered",
      /rdap\.verisign\.com/,
    );
    expectProblem(
      await callOperation(lookup, { domain: "never-registered-here.jp" }),
      "domain-not-registered",
      /whois\.jprs\.jp/,
    );
  });

  it("answers a TLD no registry serves with 422 naming the TLD", async () => {
    const result = await callOperation(lookup, { domain: "example.notatld" });
    expectProblem(result, "invalid-input", /\.notatld/);
    expect(result.kind === "problem" && result.extensions).toEqual({
      errors: { domain: "No registry serves .notatld over RDAP or WHOIS." },
    });
  });

  it("answers every upstream failure with 502 naming the registry host", async () => {
    for (const [domain, host, reason] of [
      ["slow-registry.com", "rdap.verisign.com", "timeout"],
      ["down-registry.org", "rdap.publicinterestregistry.org", "refused"],
      ["busy-registry.fr", "rdap.nic.fr", "refused"],
      ["broken-registry.de", "rdap.denic.de", "unusable"],
      ["slow-registry.it", "whois.nic.it", "timeout"],
      ["down-registry.jp", "whois.jprs.jp", "refused"],
      ["busy-registry.ru", "whois.tcinet.ru", "refused"],
      ["broken-registry.it", "whois.nic.it", "unusable"],
    ] as const) {
      const result = await callOperation(lookup, { domain });
      expectProblem(result, "upstream-failed", new RegExp(host.replaceAll(".", "\\.")));
      expect(result.kind === "problem" && result.extensions, domain).toEqual({ registry: host, reason });
    }
  });
});

describe("WHOIS Lookup when our own resolver fails", () => {
  it("answers 502 naming our resolver, not a registry that was never asked", async () => {
    const registry = answeringRegistry({ ok: false, code: "resolver", resolver: "cloudflare-dns.com" } as LookupOutcome);
    const result = await lookup.handler(lookup.input.parse({ domain: "google.com" }), contextWith(registry));
    expectProblem(result, "upstream-failed", /cloudflare-dns\.com/);
    expect(result.kind === "problem" && result.extensions).toEqual({ resolver: "cloudflare-dns.com" });
  });
});

describe("WHOIS Lookup on generated names (property)", () => {
  it("answers a record, 404 or 422 for any name the schema accepts, over every kind of route", async () => {
    const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/);
    const tld = fc.constantFrom("com", "org", "fr", "de", "io", "it", "jp", "ru", "ad", "notatld", "xn--p1ai");
    // The fake's scripted failures are names of their own; any other name is a real question.
    const scripted = /^(slow|down|busy|broken)-registry$/;
    await fc.assert(
      fc.asyncProperty(fc.array(label, { minLength: 1, maxLength: 3 }), tld, async (labels, top) => {
        fc.pre(!scripted.test(labels[0] ?? ""));
        const parsed = lookup.input.safeParse({ domain: `${labels.join(".")}.${top}` });
        if (!parsed.success) return;
        const result = await lookup.handler(parsed.data, createTestContext());
        if (result.kind === "json") {
          WhoisRecordSchema.parse(result.body);
          return;
        }
        expect(result.kind).toBe("problem");
        expect(["domain-not-registered", "invalid-input"]).toContain(result.kind === "problem" ? result.type : "");
      }),
      { numRuns: 150 },
    );
  });
});

describe("the hour's cache", () => {
  it("keeps records and 404s for an hour, and asks again after a failure", async () => {
    const name = `cached-${randomSuffix()}.com`.toLowerCase();
    const found = answeringRegistry({ ok: false, code: "not-registered", host: "rdap.verisign.com" });
    const cached = cachedRegistry(found, env.CACHE);
    const signal = new AbortController().signal;
    expect(await cached.lookup(name, signal)).toMatchObject({ code: "not-registered" });
    expect(await cached.lookup(name, signal)).toMatchObject({ code: "not-registered" });
    expect(found.asked).toEqual([name]);
    const listed = await env.CACHE.list({ prefix: whoisCacheKey(name) });
    const expiration = listed.keys[0]?.expiration ?? 0;
    expect(expiration - Date.now() / 1000).toBeGreaterThan(WHOIS_CACHE_TTL_SECONDS - 60);
    expect(expiration - Date.now() / 1000).toBeLessThanOrEqual(WHOIS_CACHE_TTL_SECONDS + 1);

    const failing = answeringRegistry({ ok: false, code: "upstream", host: "rdap.verisign.com", reason: "timeout" });
    const other = `failing-${randomSuffix()}.com`.toLowerCase();
    await cachedRegistry(failing, env.CACHE).lookup(other, signal);
    await cachedRegistry(failing, env.CACHE).lookup(other, signal);
    expect(failing.asked).toEqual([other, other]);
    expect(await env.CACHE.get(whoisCacheKey(other))).toBeNull();
  });

  it("treats a cached value that does not parse as a miss", async () => {
    const name = `garbled-${randomSuffix()}.com`.toLowerCase();
    await env.CACHE.put(whoisCacheKey(name), JSON.stringify({ ok: true, record: { registrar: "x" } }));
    const registry = answeringRegistry({ ok: false, code: "not-registered", host: "rdap.verisign.com" });
    expect(await cachedRegistry(registry, env.CACHE).lookup(name, new AbortController().signal)).toMatchObject({
      code: "not-registered",
    });
    expect(registry.asked).toEqual([name]);
  });
});

describe("WHOIS Lookup through the gateway", () => {
  const path = "/api/v1/whois-domain";

  it("answers GET ?domain= and POST {domain} on every plan, the free one included", async () => {
    for (const planId of ["free", "standard", "premium"] as const) {
      const { key } = await createAccountWithKey(env.DB, { planId });
      const get = await callHosted(SELF, "GET", `${path}?domain=google.com`, { key });
      expect(get.status, planId).toBe(200);
      expect(await get.json()).toEqual(lookup.output.kind === "json" ? lookup.output.example : null);
      const post = await callHosted(SELF, "POST", path, { key, body: { domain: "wikipedia.org" } });
      expect(post.status).toBe(200);
      expect(await post.json()).toMatchObject({
        domain: "wikipedia.org",
        registrant: { organization: "Wikimedia Foundation, Inc." },
      });
    }
  });

  it("refuses calls without a key, and bad input with 422", async () => {
    await expectHttpProblem(await callHosted(SELF, "GET", `${path}?domain=google.com`), 401, "missing-api-key");
    // A paid plan's per-second bucket holds these calls in a row; the Free plan's would 429.
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const bad = await expectHttpProblem(
      await callHosted(SELF, "GET", `${path}?domain=http://10.0.0.1/`, { key }),
      422,
      "invalid-input",
    );
    expect(bad.errors).toEqual({ domain: "Give a bare domain name (example.com), not a URL or an address." });
    await expectHttpProblem(await callHosted(SELF, "POST", path, { key, body: { domain: 42 } }), 422, "invalid-input");
    await expectHttpProblem(await callHosted(SELF, "GET", path, { key }), 422, "invalid-input");
  });

  it("refuses a revoked key, and the Free plan's third call within a second", async () => {
    const revoked = await createAccountWithKey(env.DB, { planId: "premium" });
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), revoked.keyId).run();
    await expectHttpProblem(
      await callHosted(SELF, "GET", `${path}?domain=google.com`, { key: revoked.key }),
      403,
      "revoked-api-key",
    );
    const free = await createAccountWithKey(env.DB, { planId: "free" });
    const statuses: number[] = [];
    for (let call = 0; call < 3; call++) {
      statuses.push((await callHosted(SELF, "GET", `${path}?domain=google.com`, { key: free.key })).status);
    }
    expect(statuses).toContain(429);
  });

  it("is free: a Free account past its freemium cap still looks up, until its month's calls are spent", async () => {
    const { key, userId } = await createAccountWithKey(env.DB, { planId: "free" });
    const now = Date.now();
    const period = currentPlanPeriod({ planId: "free", planExpiresAt: null }, now);
    const meter = env.METER.get(env.METER.idFromName(userId));
    const start = Math.max(period.start, now - 150_000);
    // Spaced so the per-second bucket refills between them: only the monthly count adds up.
    const take = (i: number, freemium: boolean) =>
      meter.take({
        now: start + i * 600,
        perSecond: PLANS.free.perSecond,
        monthlyQuota: PLANS.free.monthlyQuota,
        periodStart: period.start,
        periodEnd: period.resetsAt,
        freemiumCap: freemium ? FREE_PLAN_FREEMIUM_CAP : null,
        bonusGranted: 0,
      });
    for (let i = 0; i < PLANS.free.monthlyQuota - 1; i++) {
      expect((await take(i, i < FREE_PLAN_FREEMIUM_CAP)).ok).toBe(true);
    }
    const last = await callHosted(SELF, "GET", `${path}?domain=google.com`, { key });
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    const refused = await expectHttpProblem(
      await callHosted(SELF, "GET", `${path}?domain=google.com`, { key }),
      429,
      "monthly-quota-exceeded",
    );
    expect(refused.limit).toBe("monthly");
  });

  it("takes a Unicode name and answers its A-label and Unicode forms", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const missing = await expectHttpProblem(
      await callHosted(SELF, "POST", path, { key, body: { domain: "Bücher.DE" } }),
      404,
      "domain-not-registered",
    );
    expect(missing).toMatchObject({ domain: "xn--bcher-kva.de", unicodeName: "bücher.de", registry: "rdap.denic.de" });
  });

  it("has a docs page with the comparison's links and a live demo", async () => {
    const html = await (await SELF.fetch("https://portico.test/docs/api/whois-domain")).text();
    expect(html).toContain('href="https://whois.whoisxmlapi.com/documentation/making-requests"');
    expect(html).toContain('href="https://lookup.icann.org/"');
    expect(html).toContain("domain-not-registered");
    expect(html).not.toContain("not served in this environment");
    const demo = await SELF.fetch("https://portico.test/whois-domain/live-demo");
    expect(demo.status).toBe(200);
    expect(await demo.text()).toContain("WHOIS Lookup live demo");
  });

  it("answers 404 and 502 as problems naming the registry", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const missing = await expectHttpProblem(
      await callHosted(SELF, "GET", `${path}?domain=no-such-${randomSuffix()}.com`, { key }),
      404,
      "domain-not-registered",
    );
    expect(missing.registry).toBe("rdap.verisign.com");
    const failed = await expectHttpProblem(
      await callHosted(SELF, "POST", path, { key, body: { domain: "down-registry.com" } }),
      502,
      "upstream-failed",
    );
    expect(failed).toMatchObject({
      registry: "rdap.verisign.com",
      detail: expect.stringContaining("rdap.verisign.com"),
    });
  });

  it("counts a lookup the registry answered, 404 included, and gives back refused input", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const remaining = (response: Response) => Number(response.headers.get("x-ratelimit-remaining"));
    const first = await callHosted(SELF, "GET", `${path}?domain=google.com`, { key });
    const refused = await callHosted(SELF, "GET", `${path}?domain=not a domain`, { key });
    expect(refused.status).toBe(422);
    // No registry serves the TLD: refused from our own tables, nobody asked.
    const unserved = await callHosted(SELF, "GET", `${path}?domain=example.notatld`, { key });
    expect(unserved.status).toBe(422);
    const notFound = await callHosted(SELF, "GET", `${path}?domain=no-such-${randomSuffix()}.org`, { key });
    expect(notFound.status).toBe(404);
    const after = await callHosted(SELF, "GET", `${path}?domain=google.com`, { key });
    // google.com, then the 404; both 422s were given back before the last call was counted.
    expect(remaining(first) - remaining(after)).toBe(2);
  });
});
