import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { queryDoh } from "./doh";
import { createFakeDohFetch, FAKE_DNS, FAKE_DOH_ENDPOINT } from "./fake";
import { createMailResolver, MAX_CACHE_TTL_SECONDS, MIN_CACHE_TTL_SECONDS, parseMx } from "./mail";

/** A resolver over the fake, keeping answers in the test's KV under names no other test uses. */
function resolver(options: { cache?: boolean; timeoutMs?: number } = {}) {
  const fetcher = createFakeDohFetch();
  const mail = createMailResolver({
    endpoint: FAKE_DOH_ENDPOINT,
    fetcher,
    timeoutMs: options.timeoutMs ?? 200,
    ...(options.cache && { cache: env.CACHE }),
  });
  return { mail, asked: fetcher.asked };
}

describe("mail resolver over the fake resolver's fixture table", () => {
  it("answers several MX ordered by priority", async () => {
    const { mail } = resolver();
    expect(await mail.lookup("gmail.com")).toEqual({
      ok: true,
      cached: false,
      kind: "mx",
      ttl: 3600,
      records: [
        { exchange: "gmail-smtp-in.l.google.com", priority: 5 },
        { exchange: "alt1.gmail-smtp-in.l.google.com", priority: 10 },
        { exchange: "alt2.gmail-smtp-in.l.google.com", priority: 20 },
        { exchange: "alt3.gmail-smtp-in.l.google.com", priority: 30 },
        { exchange: "alt4.gmail-smtp-in.l.google.com", priority: 40 },
      ],
    });
  });

  it("answers a single MX, and asks nothing more", async () => {
    const { mail, asked } = resolver();
    expect(await mail.lookup("Outlook.COM.")).toMatchObject({
      ok: true,
      kind: "mx",
      records: [{ exchange: "outlook-com.olc.protection.outlook.com", priority: 5 }],
    });
    expect(asked).toEqual(["outlook.com MX"]);
  });

  it("reads a lone '0 .' as null MX (RFC 7505), though the domain has an address", async () => {
    const { mail, asked } = resolver();
    expect(await mail.lookup("example.com")).toMatchObject({ ok: true, kind: "null-mx" });
    expect(asked).toEqual(["example.com MX"]);
  });

  it("falls back to the domain's own A/AAAA address when it has no MX (implicit MX)", async () => {
    const { mail, asked } = resolver();
    expect(await mail.lookup("legacy-host.test")).toEqual({
      ok: true,
      cached: false,
      kind: "implicit",
      records: [{ exchange: "legacy-host.test", priority: 0 }],
      ttl: MIN_CACHE_TTL_SECONDS * 2,
    });
    expect(asked.sort()).toEqual(["legacy-host.test A", "legacy-host.test AAAA", "legacy-host.test MX"]);
  });

  it("says no mail for a name with neither MX nor address, with the SOA's negative TTL", async () => {
    const { mail } = resolver();
    // The fake's SOA: TTL 900, MINIMUM 300; RFC 2308 takes the smaller.
    expect(await mail.lookup("no-mail.test")).toMatchObject({ ok: true, kind: "no-mail", ttl: 300 });
  });

  it("says NXDOMAIN for a name that does not exist, including any not in the table", async () => {
    const { mail } = resolver();
    expect(await mail.lookup("nxdomain.test")).toMatchObject({ ok: true, kind: "nxdomain", ttl: 300 });
    expect(await mail.lookup("gmial.com")).toMatchObject({ ok: true, kind: "nxdomain" });
  });

  it("reports SERVFAIL as a failure naming the resolver", async () => {
    const { mail } = resolver();
    expect(await mail.lookup("servfail.test")).toEqual({ ok: false, reason: "servfail", resolver: "dns.fake.invalid" });
  });

  it("gives up on a resolver that does not answer in time", async () => {
    const { mail } = resolver({ timeoutMs: 50 });
    const started = Date.now();
    expect(await mail.lookup("timeout.test")).toEqual({ ok: false, reason: "timeout", resolver: "dns.fake.invalid" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("reports a resolver's HTTP error as unreachable", async () => {
    const { mail } = resolver();
    expect(await mail.lookup("resolver-down.test")).toEqual({
      ok: false,
      reason: "unreachable",
      resolver: "dns.fake.invalid",
    });
  });

  it("covers every case the issue names in its fixture table", () => {
    const kinds = Object.values(FAKE_DNS).map((fixture) => fixture.kind);
    expect(new Set(kinds)).toEqual(new Set(["records", "nxdomain", "servfail", "timeout", "http-error"]));
  });
});

describe("mail resolver: the cache", () => {
  it("keeps an answer per domain for its TTL and answers the next lookup from KV", async () => {
    await env.CACHE.delete("mx:v1:outlook.com");
    const { mail, asked } = resolver({ cache: true });
    expect(await mail.lookup("outlook.com")).toMatchObject({ ok: true, cached: false });
    expect(await mail.lookup("OUTLOOK.com")).toMatchObject({ ok: true, cached: true, kind: "mx", ttl: 3600 });
    expect(asked).toEqual(["outlook.com MX"]);
  });

  it("bounds the kept TTL: at least KV's minimum, at most a day", async () => {
    const endpoint = "https://dns.bounds.test/dns-query";
    const ttlOf = async (ttl: number) => {
      const domain = `ttl-${ttl}-${crypto.randomUUID().slice(0, 8)}.test`;
      const fetcher = (async () =>
        Response.json({
          Status: 0,
          Answer: [{ name: `${domain}.`, type: 15, TTL: ttl, data: `10 mx.${domain}.` }],
        })) as typeof fetch;
      const found = await createMailResolver({ endpoint, fetcher, cache: env.CACHE }).lookup(domain);
      return found.ok ? found.ttl : null;
    };
    expect(await ttlOf(5)).toBe(MIN_CACHE_TTL_SECONDS);
    expect(await ttlOf(1_000_000)).toBe(MAX_CACHE_TTL_SECONDS);
    expect(await ttlOf(900)).toBe(900);
  });

  it("never keeps a failure", async () => {
    await env.CACHE.delete("mx:v1:servfail.test");
    const { mail, asked } = resolver({ cache: true });
    await mail.lookup("servfail.test");
    await mail.lookup("servfail.test");
    expect(asked).toEqual(["servfail.test MX", "servfail.test MX"]);
    expect(await env.CACHE.get("mx:v1:servfail.test")).toBeNull();
  });

  it("ignores a kept value that is not an answer", async () => {
    await env.CACHE.put("mx:v1:acme.dev", JSON.stringify({ kind: "mx", records: [] }));
    const { mail } = resolver({ cache: true });
    expect(await mail.lookup("acme.dev")).toMatchObject({ ok: true, cached: false, kind: "mx" });
  });
});

describe("DNS-over-HTTPS answers", () => {
  const endpoint = "https://dns.parse.test/dns-query";

  it("follows a CNAME to the MX at its end", async () => {
    const fetcher = (async () =>
      Response.json({
        Status: 0,
        Answer: [
          { name: "mail.alias.test.", type: 5, TTL: 300, data: "real.test." },
          { name: "real.test.", type: 15, TTL: 120, data: "10 mx.real.test." },
        ],
      })) as typeof fetch;
    expect(await createMailResolver({ endpoint, fetcher }).lookup("mail.alias.test")).toMatchObject({
      kind: "mx",
      records: [{ exchange: "mx.real.test", priority: 10 }],
      ttl: 120,
    });
  });

  it.each([
    ["HTML", "<html>blocked</html>"],
    ["JSON of another shape", JSON.stringify({ answer: [] })],
  ])("refuses %s as malformed", async (_label, body) => {
    const fetcher = (async () => new Response(body)) as typeof fetch;
    expect(await createMailResolver({ endpoint, fetcher }).lookup("any.test")).toEqual({
      ok: false,
      reason: "malformed",
      resolver: "dns.parse.test",
    });
  });

  it("reports a network failure as unreachable, and passes the caller's own abort on", async () => {
    const failing = (async () => {
      throw new TypeError("network down");
    }) as typeof fetch;
    expect(await createMailResolver({ endpoint, fetcher: failing }).lookup("any.test")).toMatchObject({
      ok: false,
      reason: "unreachable",
    });
    const caller = new AbortController();
    caller.abort(new Error("the handler's time limit"));
    const fake = createFakeDohFetch();
    await expect(
      queryDoh(FAKE_DOH_ENDPOINT, "timeout.test", "MX", { fetcher: fake, signal: caller.signal }),
    ).rejects.toThrow("the handler's time limit");
  });

  it.each([
    ["10 mx.example.com.", { priority: 10, exchange: "mx.example.com" }],
    ["0 .", { priority: 0, exchange: "" }],
    ["  5   MX.Example.NET ", { priority: 5, exchange: "mx.example.net" }],
    ["70000 mx.example.com.", null],
    ["mx.example.com.", null],
    ["10 a b", null],
  ])("parses the MX data %j", (data, expected) => {
    expect(parseMx(data)).toEqual(expected);
  });
});
