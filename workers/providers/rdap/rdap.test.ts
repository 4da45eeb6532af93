import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  bootstrapSnapshot,
  BOOTSTRAP_KV_KEY,
  readBootstrap,
  refreshBootstrap,
  routeFor,
  type Bootstrap,
} from "./bootstrap";
import {
  FAKE_REGISTRY_ADDRESS,
  fakeDomainRegistry,
  fakeRdapFetch,
  fakeRegistryResolver,
  fakeWhoisTransport,
} from "./fake";
import { createDomainRegistry } from "./lookup";
import { parseRdapDomain, RdapDomainSchema } from "./rdap-parse";
import { isoDate, type LookupOutcome, type RegistrationRecord } from "./record";
import { MARKMONITOR_GOOGLE_COM, VERISIGN_GOOGLE_COM } from "./recorded";
import { DohError } from "~workers/providers/dns/doh";

// The shipped snapshot, as the lookups read it when KV holds no copy.
const SNAPSHOT = bootstrapSnapshot();

const never = new AbortController().signal;

/** Each test its own KV key space would be nicer, but the bootstrap has one key: tests reset it. */
async function withoutKvBootstrap() {
  await env.CACHE.delete(BOOTSTRAP_KV_KEY);
}

function recordOf(outcome: LookupOutcome): RegistrationRecord {
  if (!outcome.ok) throw new Error(`expected a record, got ${JSON.stringify(outcome)}`);
  return outcome.record;
}

const registry = () => fakeDomainRegistry(env.CACHE);

describe("bootstrap routing", () => {
  it("sends .com to Verisign and .org to PIR from IANA's file", () => {
    expect(routeFor("google.com", SNAPSHOT)).toEqual({
      kind: "rdap",
      tld: "com",
      base: "https://rdap.verisign.com/com/v1/",
    });
    expect(routeFor("wikipedia.org", SNAPSHOT)).toMatchObject({ kind: "rdap", tld: "org" });
  });

  it("takes the longest listed suffix and an https URL over http", () => {
    const bootstrap: Bootstrap = {
      services: [
        [["uk"], ["https://rdap.nominet.uk/uk/"]],
        [["co.uk"], ["http://plain.example/", "https://secure.example/rdap"]],
      ],
    };
    expect(routeFor("bbc.co.uk", bootstrap)).toEqual({
      kind: "rdap",
      tld: "co.uk",
      base: "https://secure.example/rdap/",
    });
    expect(routeFor("nominet.uk", bootstrap)).toEqual({ kind: "rdap", tld: "uk", base: "https://rdap.nominet.uk/uk/" });
  });

  it("never routes to a plain-http RDAP base: such a TLD goes to its port-43 server, or to none", () => {
    const plain: Bootstrap = {
      services: [
        [["it"], ["http://rdap.example-it.test/"]],
        [["kg"], ["http://rdap.cctld.kg/"]],
      ],
    };
    expect(routeFor("google.it", plain)).toEqual({ kind: "whois", tld: "it", host: "whois.nic.it" });
    expect(routeFor("x.kg", plain)).toEqual({ kind: "none", tld: "kg" });
    for (const [names, urls] of SNAPSHOT.services) {
      if (urls.some((url) => url.startsWith("https://"))) continue;
      for (const name of names) expect(routeFor(`x.${name}`, SNAPSHOT).kind, name).not.toBe("rdap");
    }
  });

  it("fills IANA's gaps from the override map, but IANA's own entry wins", () => {
    expect(routeFor("denic.de", SNAPSHOT)).toEqual({ kind: "rdap", tld: "de", base: "https://rdap.denic.de/" });
    expect(routeFor("nic.io", SNAPSHOT)).toMatchObject({ base: "https://rdap.identitydigital.services/rdap/" });
    const listed: Bootstrap = { services: [[["de"], ["https://rdap.example-denic.test/"]]] };
    expect(routeFor("denic.de", listed)).toMatchObject({ base: "https://rdap.example-denic.test/" });
  });

  it("falls back to the port-43 server where no RDAP serves, and to nothing for an unknown TLD", () => {
    expect(routeFor("google.it", SNAPSHOT)).toEqual({ kind: "whois", tld: "it", host: "whois.nic.it" });
    expect(routeFor("google.jp", SNAPSHOT)).toEqual({ kind: "whois", tld: "jp", host: "whois.jprs.jp" });
    expect(routeFor("example.notatld", SNAPSHOT)).toEqual({ kind: "none", tld: "notatld" });
    // Object's own keys are not TLDs.
    expect(routeFor("x.constructor", SNAPSHOT)).toEqual({ kind: "none", tld: "constructor" });
  });

  it("ships a snapshot covering the gTLDs and ccTLDs with RDAP", () => {
    const tlds = SNAPSHOT.services.flatMap(([names]) => names);
    expect(tlds.length).toBeGreaterThan(1100);
    for (const tld of ["com", "net", "org", "fr", "uk", "br", "xn--p1acf"]) expect(tlds).toContain(tld);
  });
});

describe("the bootstrap in KV and its weekly refresh", () => {
  it("reads the snapshot until the cron has stored IANA's file, then the stored file", async () => {
    await withoutKvBootstrap();
    expect(await readBootstrap(env.CACHE)).toBe(SNAPSHOT);
    const refreshed = await refreshBootstrap(env.CACHE, fakeRdapFetch());
    expect(refreshed).toEqual({ ok: true, tlds: expect.any(Number), publication: "2026-05-24T00:00:00Z" });
    const read = await readBootstrap(env.CACHE);
    expect(read).not.toBe(SNAPSHOT);
    expect(read.publication).toBe("2026-05-24T00:00:00Z");
    await withoutKvBootstrap();
  });

  it("keeps what it had when IANA fails, answers garbage or a truncated file", async () => {
    await withoutKvBootstrap();
    const answering = (response: () => Response) => (async () => response()) as unknown as typeof fetch;
    expect(
      await refreshBootstrap(
        env.CACHE,
        answering(() => new Response("no", { status: 503 })),
      ),
    ).toEqual({
      ok: false,
      reason: "IANA answered 503",
    });
    expect(
      await refreshBootstrap(
        env.CACHE,
        answering(() => new Response("<html>")),
      ),
    ).toMatchObject({ ok: false });
    expect(
      await refreshBootstrap(
        env.CACHE,
        answering(() => Response.json({ services: [[["com"], ["https://x/"]]] })),
      ),
    ).toEqual({ ok: false, reason: "the file lists only 1 TLDs" });
    const failing = (async () => {
      throw new TypeError("Network connection lost.");
    }) as unknown as typeof fetch;
    expect(await refreshBootstrap(env.CACHE, failing)).toMatchObject({ ok: false });
    expect(await env.CACHE.get(BOOTSTRAP_KV_KEY)).toBeNull();
  });

  it("ignores a KV value that is not a bootstrap file", async () => {
    await env.CACHE.put(BOOTSTRAP_KV_KEY, "{not json");
    expect(await readBootstrap(env.CACHE)).toBe(SNAPSHOT);
    await env.CACHE.put(BOOTSTRAP_KV_KEY, JSON.stringify({ services: [[["com"], ["https://evil.example/"]]] }));
    expect(await readBootstrap(env.CACHE)).toBe(SNAPSHOT);
    await withoutKvBootstrap();
  });
});

describe("RDAP answers (recorded)", () => {
  it("reads Verisign's thin .com record and completes it from the registrar it refers to", async () => {
    await withoutKvBootstrap();
    const record = recordOf(await registry().lookup("google.com", never));
    expect(record).toEqual({
      registrar: {
        name: "MarkMonitor Inc.",
        ianaId: "292",
        url: "http://www.markmonitor.com",
        abuseEmail: "abusecomplaints@markmonitor.com",
        abusePhone: "+1.2086851750",
      },
      status: [
        "client delete prohibited",
        "client transfer prohibited",
        "client update prohibited",
        "server delete prohibited",
        "server transfer prohibited",
        "server update prohibited",
      ],
      created: "1997-09-15T04:00:00.000Z",
      updated: "2019-09-09T15:39:04.000Z",
      expires: "2028-09-14T04:00:00.000Z",
      nameservers: ["ns1.google.com", "ns2.google.com", "ns3.google.com", "ns4.google.com"],
      dnssec: { signed: false, ds: [] },
      registrant: {
        name: null,
        organization: "Google LLC",
        email: null,
        phone: null,
        street: [],
        city: null,
        region: "CA",
        postalCode: null,
        country: "US",
        redacted: expect.arrayContaining([
          "Registrant Name",
          "Registrant Street",
          "Registrant City",
          "Registrant Postal Code",
          "Registrant Phone",
          "Registrant Email",
        ]),
      },
      source: "rdap",
      rdapUrl: "https://rdap.verisign.com/com/v1/domain/google.com",
      registrarRdapUrl: "https://rdap.markmonitor.com/rdap/domain/GOOGLE.COM",
      whoisServer: null,
    });
  });

  it("reads a GDPR-redacted registrant as the registry gives it: the organisation kept, the person withheld", async () => {
    const record = recordOf(await registry().lookup("wikipedia.org", never));
    expect(record.registrant).toEqual({
      name: null,
      organization: "Wikimedia Foundation, Inc.",
      email: null,
      phone: null,
      street: [],
      city: null,
      region: "CA",
      postalCode: null,
      country: "US",
      redacted: [
        "Registrant Name",
        "Registrant Street",
        "Registrant City",
        "Registrant Postal Code",
        "Registrant Email",
        "Registrant Phone",
      ],
    });
    expect(record.registrar).toMatchObject({ name: "MarkMonitor Inc.", ianaId: "292", abusePhone: "+1.2083895740" });
    expect(record.registrarRdapUrl).toBeNull();
  });

  it("reads a ccTLD's record: DS records, a registrar with no IANA id, a registrant in the clear", async () => {
    const record = recordOf(await registry().lookup("afnic.fr", never));
    expect(record.dnssec).toEqual({
      signed: true,
      ds: [
        {
          keyTag: 12345,
          algorithm: 13,
          digestType: 2,
          digest: "3F8B2E4C7D1A9E6B5C0F2A8D4E7B1C3A9F6E2D8B5C4A7E1F0D3B6C9A2E5F8B1D",
        },
      ],
    });
    expect(record.registrar).toEqual({
      name: "AFNIC registry",
      ianaId: null,
      url: "https://www.afnic.fr",
      abuseEmail: null,
      abusePhone: null,
    });
    expect(record.registrant).toMatchObject({
      name: "AFNIC",
      email: "support@afnic.fr",
      phone: "+33.139308300",
      street: ["1, rue Stephenson"],
      city: "Montigny-Le-Bretonneux",
      postalCode: "78180",
      country: "FR",
      redacted: [],
    });
    expect(record.updated).toBe("2025-10-06T09:12:44.532Z");
  });

  it("asks DENIC through the override map and reads its sparse answer", async () => {
    const record = recordOf(await registry().lookup("denic.de", never));
    expect(record).toMatchObject({
      registrar: { name: null, ianaId: null },
      registrant: null,
      created: null,
      updated: "2025-04-10T07:45:26.000Z",
      nameservers: ["ns1.denic.de", "ns2.denic.org", "ns3.denic.de"],
      dnssec: { signed: true, ds: [expect.objectContaining({ keyTag: 26155 })] },
      rdapUrl: "https://rdap.denic.de/domain/denic.de",
    });
  });

  it("answers a registry's 404 as not registered, naming the registry", async () => {
    expect(await registry().lookup("no-such-name-here.com", never)).toEqual({
      ok: false,
      code: "not-registered",
      host: "rdap.verisign.com",
    });
  });

  it("names the registry host for every failure the fake can produce", async () => {
    expect(await registry().lookup("slow-registry.com", never)).toEqual({
      ok: false,
      code: "upstream",
      host: "rdap.verisign.com",
      reason: "timeout",
    });
    expect(await registry().lookup("down-registry.org", never)).toEqual({
      ok: false,
      code: "upstream",
      host: "rdap.publicinterestregistry.org",
      reason: "refused",
    });
    expect(await registry().lookup("busy-registry.fr", never)).toMatchObject({
      reason: "refused",
      host: "rdap.nic.fr",
    });
    expect(await registry().lookup("broken-registry.de", never)).toMatchObject({
      reason: "unusable",
      host: "rdap.denic.de",
    });
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const slow = createDomainRegistry({
      fetcher: fakeRdapFetch(),
      resolver: fakeRegistryResolver(),
      whois: fakeWhoisTransport(),
      bootstrap: async () => SNAPSHOT,
      timeoutMs: 60_000,
    });
    const pending = slow.lookup("slow-registry.com", controller.signal);
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ code: "upstream", reason: "timeout" });
  });

  it("keeps the registry's record when the registrar's referral points at a private address", async () => {
    const base = { fetcher: fakeRdapFetch(), whois: fakeWhoisTransport(), bootstrap: async () => SNAPSHOT };
    const privateMarkMonitor = {
      resolve: async (host: string) => (host === "rdap.markmonitor.com" ? ["10.0.0.7"] : [FAKE_REGISTRY_ADDRESS]),
    };
    const fetched: string[] = [];
    const record = recordOf(
      await createDomainRegistry({
        ...base,
        resolver: privateMarkMonitor,
        fetcher: (async (input: RequestInfo | URL, init?: RequestInit) => {
          fetched.push(String(input));
          return fakeRdapFetch()(input, init);
        }) as typeof fetch,
      }).lookup("google.com", never),
    );
    expect(fetched).toEqual(["https://rdap.verisign.com/com/v1/domain/google.com"]);
    expect(record.registrarRdapUrl).toBeNull();
    expect(record.registrant).toBeNull();
    expect(record.registrar.name).toBe("MarkMonitor Inc.");
  });

  it("keeps the registry's record when the registrar's server fails", async () => {
    const registrarDown = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).startsWith("https://rdap.markmonitor.com/")) throw new TypeError("Network connection lost.");
      return fakeRdapFetch()(input, init);
    }) as typeof fetch;
    const record = recordOf(
      await createDomainRegistry({
        fetcher: registrarDown,
        resolver: fakeRegistryResolver(),
        whois: fakeWhoisTransport(),
        bootstrap: async () => SNAPSHOT,
      }).lookup("google.com", never),
    );
    expect(record).toMatchObject({ registrarRdapUrl: null, registrant: null, expires: "2028-09-14T04:00:00.000Z" });
  });

  it("refuses a registry host that resolves to a private address", async () => {
    const rebound = createDomainRegistry({
      fetcher: fakeRdapFetch(),
      whois: fakeWhoisTransport(),
      bootstrap: async () => SNAPSHOT,
      resolver: { resolve: async () => ["127.0.0.1"] },
    });
    expect(await rebound.lookup("google.com", never)).toEqual({
      ok: false,
      code: "upstream",
      host: "rdap.verisign.com",
      reason: "refused",
    });
  });

  it("follows a registry's https redirect through the guard, and refuses one to http", async () => {
    const redirecting = (location: string) =>
      (async (input: RequestInfo | URL) =>
        String(input).startsWith("https://rdap.verisign.com/")
          ? new Response(null, { status: 301, headers: { location } })
          : fakeRdapFetch()(input)) as typeof fetch;
    const deps = { whois: fakeWhoisTransport(), bootstrap: async () => SNAPSHOT, resolver: fakeRegistryResolver() };
    const moved = createDomainRegistry({
      ...deps,
      fetcher: redirecting("https://rdap.markmonitor.com/rdap/domain/google.com"),
    });
    expect(recordOf(await moved.lookup("google.com", never)).rdapUrl).toBe(
      "https://rdap.markmonitor.com/rdap/domain/google.com",
    );
    const downgraded = createDomainRegistry({ ...deps, fetcher: redirecting("http://rdap.verisign.com/x") });
    expect(await downgraded.lookup("google.com", never)).toMatchObject({ code: "upstream", reason: "unusable" });
  });

  it("refuses a redirect to another domain's record rather than answer (and cache) it as the asked name's", async () => {
    const elsewhere = (async (input: RequestInfo | URL) =>
      String(input).startsWith("https://rdap.verisign.com/")
        ? new Response(null, {
            status: 301,
            headers: { location: "https://rdap.publicinterestregistry.org/rdap/domain/wikipedia.org" },
          })
        : fakeRdapFetch()(input)) as typeof fetch;
    const moved = createDomainRegistry({
      fetcher: elsewhere,
      whois: fakeWhoisTransport(),
      bootstrap: async () => SNAPSHOT,
      resolver: fakeRegistryResolver(),
    });
    expect(await moved.lookup("google.com", never)).toEqual({
      ok: false,
      code: "upstream",
      host: "rdap.publicinterestregistry.org",
      reason: "unusable",
    });
  });

  it("refuses a registry answer naming another domain, and accepts its own name in any case with a root dot", async () => {
    const answering = (body: unknown) =>
      createDomainRegistry({
        fetcher: (async () =>
          new Response(JSON.stringify(body), { headers: { "content-type": "application/rdap+json" } })) as typeof fetch,
        whois: fakeWhoisTransport(),
        bootstrap: async () => SNAPSHOT,
        resolver: fakeRegistryResolver(),
      });
    const withoutReferral = { ...VERISIGN_GOOGLE_COM, links: [] };
    expect(await answering({ ...withoutReferral, ldhName: "WIKIPEDIA.ORG" }).lookup("google.com", never)).toEqual({
      ok: false,
      code: "upstream",
      host: "rdap.verisign.com",
      reason: "unusable",
    });
    expect(recordOf(await answering({ ...withoutReferral, ldhName: "GOOGLE.COM." }).lookup("google.com", never)).expires).toBe(
      "2028-09-14T04:00:00.000Z",
    );
  });

  it("keeps the registry's record alone when the registrar's answer names another domain", async () => {
    const registrarElsewhere = (async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).startsWith("https://rdap.markmonitor.com/")
        ? new Response(JSON.stringify({ ...MARKMONITOR_GOOGLE_COM, ldhName: "evil.com" }), {
            headers: { "content-type": "application/rdap+json" },
          })
        : fakeRdapFetch()(input, init)) as typeof fetch;
    const record = recordOf(
      await createDomainRegistry({
        fetcher: registrarElsewhere,
        resolver: fakeRegistryResolver(),
        whois: fakeWhoisTransport(),
        bootstrap: async () => SNAPSHOT,
      }).lookup("google.com", never),
    );
    expect(record).toMatchObject({ registrarRdapUrl: null, registrant: null });
  });

  it("reports our own resolver failing as our upstream, not as the registry refusing", async () => {
    const resolverDown = createDomainRegistry({
      fetcher: fakeRdapFetch(),
      whois: fakeWhoisTransport(),
      bootstrap: async () => SNAPSHOT,
      resolver: {
        resolve: async () => {
          throw new DohError("unreachable", "cloudflare-dns.com", "cloudflare-dns.com could not be reached");
        },
      },
    });
    expect(await resolverDown.lookup("google.com", never)).toEqual({
      ok: false,
      code: "resolver",
      resolver: "cloudflare-dns.com",
    });
  });

  it("parses a record whose members have the wrong types by dropping them, not failing", () => {
    const mangled = {
      ...VERISIGN_GOOGLE_COM,
      status: "active",
      events: [{ eventAction: "registration", eventDate: "not a date" }, { eventAction: 7 }],
      nameservers: [{ ldhName: 42 }, { ldhName: "NS9.EXAMPLE.COM." }],
      secureDNS: { delegationSigned: "yes", dsData: [{ keyTag: "x" }] },
    };
    const record = parseRdapDomain(RdapDomainSchema.parse(mangled), "https://rdap.example/domain/x");
    expect(record.status).toEqual([]);
    expect(record.created).toBeNull();
    expect(record.nameservers).toEqual(["ns9.example.com"]);
    expect(record.dnssec).toEqual({ signed: false, ds: [] });
  });
});

describe("dates", () => {
  it("normalises the forms registries print to UTC instants", () => {
    expect(isoDate("2026-04-21")).toBe("2026-04-21T00:00:00.000Z");
    expect(isoDate("1999-12-10 00:00:00")).toBe("1999-12-10T00:00:00.000Z");
    expect(isoDate("2005/05/30")).toBe("2005-05-30T00:00:00.000Z");
    expect(isoDate("2025-04-10T09:45:26+02:00")).toBe("2025-04-10T07:45:26.000Z");
    expect(isoDate("yesterday")).toBeNull();
    expect(isoDate("")).toBeNull();
  });
});
