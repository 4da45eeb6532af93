import { describe, expect, it } from "vitest";
import { UrlInputError } from "~workers/hosted/definition";
import { fakeFetch, fakeResolver, type FakeRoutes } from "../../tests/fakes/network";
import { createDohResolver, fetchGuarded, isForbiddenAddress } from "./url-guard";

const PRIVATE = "That URL points at a private address.";

/** A fake fetch that records every URL it was asked for, so a test can prove a refused URL was never fetched. */
function recordingFetch(routes: FakeRoutes = {}) {
  const requested: string[] = [];
  const inner = fakeFetch(routes);
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requested.push(String(input));
    return inner(input, init);
  }) as typeof fetch;
  return { fetcher, requested };
}

async function expectRefused(promise: Promise<unknown>, message: string | RegExp = PRIVATE) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  // UrlInputError and its message, not merely "some error": a fake network's "no route" or a fake
  // DNS's "no record" would otherwise pass for a refusal.
  expect(error).toBeInstanceOf(UrlInputError);
  expect((error as Error).message).toMatch(message);
}

describe("isForbiddenAddress: IPv4 ranges", () => {
  // [range, first inside, last inside, just below, just above]; the neighbours are public, so
  // an off-by-one in the prefix length fails the test.
  const ranges: [string, string, string, string, string][] = [
    ["0.0.0.0/8", "0.0.0.0", "0.255.255.255", "", "1.0.0.0"],
    ["10.0.0.0/8", "10.0.0.0", "10.255.255.255", "9.255.255.255", "11.0.0.0"],
    ["100.64.0.0/10", "100.64.0.0", "100.127.255.255", "100.63.255.255", "100.128.0.0"],
    ["127.0.0.0/8", "127.0.0.0", "127.255.255.255", "126.255.255.255", "128.0.0.0"],
    ["169.254.0.0/16", "169.254.0.0", "169.254.255.255", "169.253.255.255", "169.255.0.0"],
    ["172.16.0.0/12", "172.16.0.0", "172.31.255.255", "172.15.255.255", "172.32.0.0"],
    ["192.0.0.0/24", "192.0.0.0", "192.0.0.255", "191.255.255.255", "192.0.1.0"],
    ["192.0.2.0/24", "192.0.2.0", "192.0.2.255", "192.0.1.255", "192.0.3.0"],
    ["192.168.0.0/16", "192.168.0.0", "192.168.255.255", "192.167.255.255", "192.169.0.0"],
    ["198.18.0.0/15", "198.18.0.0", "198.19.255.255", "198.17.255.255", "198.20.0.0"],
    ["198.51.100.0/24", "198.51.100.0", "198.51.100.255", "198.51.99.255", "198.51.101.0"],
    ["203.0.113.0/24", "203.0.113.0", "203.0.113.255", "203.0.112.255", "203.0.114.0"],
    ["224.0.0.0/4", "224.0.0.0", "239.255.255.255", "223.255.255.255", ""],
    ["240.0.0.0/4", "240.0.0.0", "255.255.255.254", "", ""],
  ];
  it.each(ranges)("%s: refuses %s and %s, allows the neighbours", (_range, first, last, below, above) => {
    expect(isForbiddenAddress(first)).toBe(true);
    expect(isForbiddenAddress(last)).toBe(true);
    if (below) expect(isForbiddenAddress(below)).toBe(false);
    if (above) expect(isForbiddenAddress(above)).toBe(false);
  });

  it("refuses the broadcast address and the cloud metadata address", () => {
    expect(isForbiddenAddress("255.255.255.255")).toBe(true);
    expect(isForbiddenAddress("169.254.169.254")).toBe(true);
  });

  it("allows public addresses", () => {
    for (const address of ["93.184.216.34", "1.1.1.1", "8.8.8.8", "192.0.1.1", "172.217.16.14"]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it("refuses IPv4 texts it cannot read unambiguously, even when they look public", () => {
    // Each would be public if read loosely; "034" is octal 28 to some parsers and decimal 34 to others.
    for (const text of [
      "93.184.216.034",
      "93.184.216",
      "93.184.216.34.1",
      "93.184.216.256",
      " 93.184.216.34",
      "93.184.216.34 ",
      "0x5d.184.216.34",
      "",
    ]) {
      expect(isForbiddenAddress(text), JSON.stringify(text)).toBe(true);
    }
  });
});

describe("isForbiddenAddress: IPv6 ranges", () => {
  // [range, first inside, last inside, public neighbours]. Some ranges (fc00::/7, fe80::/10, ...)
  // sit outside 2000::/3, where everything is refused, so they have no public neighbour to test.
  const ranges: [string, string, string, string[]][] = [
    ["::/128 unspecified", "::", "0:0:0:0:0:0:0:0", []],
    ["::1/128 loopback", "::1", "0000:0000:0000:0000:0000:0000:0000:0001", []],
    ["64:ff9b:1::/48 local NAT64", "64:ff9b:1::", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff", []],
    ["100::/64 discard", "100::", "100::ffff:ffff:ffff:ffff", []],
    [
      "2001::/32 Teredo",
      "2001::",
      "2001:0:ffff:ffff:ffff:ffff:ffff:ffff",
      ["2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:1::"],
    ],
    [
      "2001:2::/48 benchmarking",
      "2001:2::",
      "2001:2:0:ffff:ffff:ffff:ffff:ffff",
      ["2001:1:ffff:ffff:ffff:ffff:ffff:ffff", "2001:2:1::"],
    ],
    [
      "2001:db8::/32 documentation",
      "2001:db8::",
      "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
      ["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::"],
    ],
    [
      "3fff::/20 documentation",
      "3fff::",
      "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff",
      ["3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::"],
    ],
    ["fc00::/7 unique local", "fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []],
    ["fe80::/10 link-local", "fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []],
    ["fec0::/10 site-local", "fec0::", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []],
    ["ff00::/8 multicast", "ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []],
  ];
  it.each(ranges)("%s: refuses %s and %s", (_range, first, last, neighbours) => {
    expect(isForbiddenAddress(first)).toBe(true);
    expect(isForbiddenAddress(last)).toBe(true);
    for (const address of neighbours) expect(isForbiddenAddress(address), address).toBe(false);
  });

  it("refuses everything outside 2000::/3 that does not embed a public IPv4 address", () => {
    // No public unicast exists there; this also catches ::ffff:0:0:0/96 (IPv4-translated) and 5f00::/16.
    for (const address of [
      "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "4000::1",
      "5f00::1",
      "::ffff:0:808:808",
      "1::",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    expect(isForbiddenAddress("2000::1")).toBe(false);
    expect(isForbiddenAddress("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")).toBe(false);
  });

  // [prefix, an address embedding a forbidden IPv4, one embedding a public IPv4]
  const embeddings: [string, string[], string[]][] = [
    [
      "::ffff:0:0/96 IPv4-mapped",
      ["::ffff:7f00:1", "::ffff:127.0.0.1", "::ffff:a9fe:a9fe", "::ffff:0:0", "::ffff:ffff:ffff", "::ffff:c0a8:101"],
      ["::ffff:5db8:d822", "::ffff:93.184.216.34", "::ffff:808:808"],
    ],
    [
      "::/96 IPv4-compatible",
      ["::7f00:1", "::127.0.0.1", "::a9fe:a9fe", "::a00:1", "::2"],
      ["::5db8:d822", "::93.184.216.34"],
    ],
    [
      "64:ff9b::/96 NAT64",
      ["64:ff9b::7f00:1", "64:ff9b::169.254.169.254", "64:ff9b::a00:1", "64:ff9b::"],
      ["64:ff9b::5db8:d822", "64:ff9b::93.184.216.34"],
    ],
    [
      "2002::/16 6to4",
      ["2002:7f00:1::", "2002:a9fe:a9fe::1", "2002:c000:201::1", "2002:a00:1:ffff:ffff:ffff:ffff:ffff", "2002::"],
      ["2002:5db8:d822::1", "2002:808:808:1:2:3:4:5"],
    ],
  ];
  it.each(embeddings)("%s: judges the embedded IPv4 address", (_prefix, forbidden, allowed) => {
    for (const address of forbidden) expect(isForbiddenAddress(address), address).toBe(true);
    for (const address of allowed) expect(isForbiddenAddress(address), address).toBe(false);
  });

  it("refuses the hex forms WHATWG URL produces for mapped and compatible loopback and metadata", () => {
    // The reported bypass: the old pattern only knew "::ffff:127.0.0.1".
    for (const address of [
      "[::ffff:7f00:1]",
      "[::ffff:a9fe:a9fe]",
      "[::7f00:1]",
      "::FFFF:7F00:1",
      "0:0:0:0:0:ffff:7f00:0001",
      "0000:0000:0000:0000:0000:FFFF:7F00:0001",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });

  it("allows public IPv6 addresses however they are written", () => {
    for (const address of [
      "2606:2800:220:1:248:1893:25c8:1946",
      "[2606:2800:220:1:248:1893:25c8:1946]",
      "2606:2800:0220:0001:0248:1893:25C8:1946",
      "2606:2800:220:1::1",
      "2a00:1450:4001:82b::200e",
      "2606:4700:4700::1111",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it("refuses zone ids, even on a public address: a scoped address only means something on one link", () => {
    expect(isForbiddenAddress("fe80::1%eth0")).toBe(true);
    expect(isForbiddenAddress("2606:2800:220:1:248:1893:25c8:1946%1")).toBe(true);
    expect(isForbiddenAddress("[2606:2800:220:1:248:1893:25c8:1946%25eth0]")).toBe(true);
  });

  it("refuses IPv6 texts it cannot read, even when they look public", () => {
    for (const text of [
      "2606:2800:220:1:248:1893:25c8:1946:1", // nine groups
      "2606:2800:220:1:248:1893:25c8", // seven groups, no ::
      "2606::220::1", // two ::
      "2606:2800:220:1:248:1893:25c8::1946", // :: standing for no group
      "2606:28000::1", // group too long
      "2606:2800:220:g::1",
      ":2606:2800:220:1:248:1893:25c8:1946",
      "2606:2800:220:1:248:1893:25c8:1946:",
      "[2606:2800:220:1::1",
      "2606:2800:220:1::1]",
      "::ffff:93.184.216", // short IPv4 tail
      "::ffff:93.184.216.034", // leading zero in the IPv4 tail
      "::93.184.216.34:1", // IPv4 tail not last
      ":::",
    ]) {
      expect(isForbiddenAddress(text), text).toBe(true);
    }
  });
});

describe("WHATWG URL normalisation the guard relies on", () => {
  // The guard only parses dotted-decimal IPv4 and bracketed IPv6; these prove workerd's URL
  // turns every other numeric spelling into those before checkHost sees it.
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://017700000001/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://127.0.0.1./", "127.0.0.1"],
    ["http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254"],
    ["http://0/", "0.0.0.0"],
    ["http://1572395042/", "93.184.216.34"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["http://[0:0:0:0:0:ffff:169.254.169.254]/", "[::ffff:a9fe:a9fe]"],
    ["http://[::127.0.0.1]/", "[::7f00:1]"],
    ["http://[2606:2800:0220:0001:0248:1893:25C8:1946]/", "[2606:2800:220:1:248:1893:25c8:1946]"],
    ["http://LOCALHOST/", "localhost"],
  ])("%s has hostname %s", (input, hostname) => {
    expect(new URL(input).hostname).toBe(hostname);
  });

  it("rejects zone ids and malformed numeric hosts outright", () => {
    for (const input of [
      "http://[fe80::1%25eth0]/",
      "http://[fe80::1%eth0]/",
      "http://1.2.3.4.5/",
      "http://4294967296/",
      "http://0x100.0.0.1/",
    ]) {
      expect(() => new URL(input), input).toThrow();
    }
  });
});

describe("fetchGuarded: literal addresses", () => {
  it.each([
    "http://127.0.0.1/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://0/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xa9fea9fe/",
    "http://10.0.0.1:8080/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[::7f00:1]/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:7f00:1::1]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
  ])("refuses %s without resolving or fetching it", async (input) => {
    const { fetcher, requested } = recordingFetch();
    // An empty fake DNS throws a plain Error if asked, which expectRefused would not accept.
    await expectRefused(fetchGuarded(input, { resolver: fakeResolver({}), fetcher }));
    expect(requested).toEqual([]);
  });

  it("refuses a zone id as an invalid URL", async () => {
    const { fetcher, requested } = recordingFetch();
    await expectRefused(
      fetchGuarded("http://[fe80::1%25eth0]/", { resolver: fakeResolver({}), fetcher }),
      "That is not a valid URL.",
    );
    expect(requested).toEqual([]);
  });

  it.each([
    ["http://93.184.216.34/", "http://93.184.216.34/"],
    ["http://1572395042/", "http://93.184.216.34/"],
    ["http://[2606:2800:220:1:248:1893:25c8:1946]/", "http://[2606:2800:220:1:248:1893:25c8:1946]/"],
    ["http://[::ffff:93.184.216.34]/", "http://[::ffff:5db8:d822]/"],
  ])("fetches the public address %s", async (input, fetched) => {
    const { fetcher, requested } = recordingFetch({
      [fetched]: () => new Response("hello", { headers: { "content-type": "text/plain" } }),
    });
    const result = await fetchGuarded(input, { resolver: fakeResolver({}), fetcher });
    expect(new TextDecoder().decode(result.bytes)).toBe("hello");
    expect(result.finalUrl).toBe(fetched);
    expect(requested).toEqual([fetched]);
  });
});

describe("fetchGuarded: names", () => {
  it.each([
    "http://localhost/",
    "http://LOCALHOST./",
    "http://localhost./",
    "http://api.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
  ])("refuses %s before asking DNS", async (input) => {
    const { fetcher, requested } = recordingFetch();
    await expectRefused(fetchGuarded(input, { resolver: fakeResolver({}), fetcher }));
    expect(requested).toEqual([]);
  });

  it.each([
    [["127.0.0.1"]],
    [["::ffff:7f00:1"]],
    [["::ffff:127.0.0.1"]],
    [["::ffff:a9fe:a9fe"]],
    [["::7f00:1"]],
    [["64:ff9b::a9fe:a9fe"]],
    [["2002:a9fe:a9fe::"]],
    [["fe80::1%eth0"]],
    [["not an address"]],
    // One bad answer is enough: the fetch could land on any of them.
    [["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "0:0:0:0:0:ffff:7f00:0001"]],
  ])("refuses a name whose DNS answers are %j", async (answers) => {
    const { fetcher, requested } = recordingFetch();
    await expectRefused(
      fetchGuarded("https://rebind.example/", { resolver: fakeResolver({ "rebind.example": answers }), fetcher }),
    );
    expect(requested).toEqual([]);
  });

  it("refuses a name with no addresses", async () => {
    const { fetcher } = recordingFetch();
    await expectRefused(
      fetchGuarded("https://empty.example/", { resolver: fakeResolver({ "empty.example": [] }), fetcher }),
      "empty.example does not resolve to any address.",
    );
  });

  it("fetches a name whose answers are all public", async () => {
    const { fetcher, requested } = recordingFetch({ "https://example.com/": () => new Response("ok") });
    const resolver = fakeResolver({ "example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"] });
    const result = await fetchGuarded("https://example.com/", { resolver, fetcher });
    expect(new TextDecoder().decode(result.bytes)).toBe("ok");
    expect(requested).toEqual(["https://example.com/"]);
  });

  it("refuses a mapped AAAA answer coming through the real DoH resolver", async () => {
    // The DoH JSON shape end to end: an A record that is public and an AAAA record that is loopback in hex.
    const doh = "https://dns.test/dns-query";
    const answer = (type: number, data: string) => () =>
      Response.json({ Status: 0, Answer: [{ name: "rebind.example", type, TTL: 60, data }] });
    const resolver = createDohResolver(
      doh,
      fakeFetch({
        [`${doh}?name=rebind.example&type=A`]: answer(1, "93.184.216.34"),
        [`${doh}?name=rebind.example&type=AAAA`]: answer(28, "::ffff:7f00:1"),
      }),
    );
    const { fetcher, requested } = recordingFetch();
    await expectRefused(fetchGuarded("https://rebind.example/", { resolver, fetcher }));
    expect(requested).toEqual([]);
  });
});

describe("fetchGuarded: redirects", () => {
  const redirect = (location: string) => () => new Response(null, { status: 302, headers: { location } });

  it.each([
    "http://[::ffff:7f00:1]/",
    "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
    "http://2130706433/",
    "http://localhost/",
  ])("refuses a redirect to %s and does not follow it", async (location) => {
    const { fetcher, requested } = recordingFetch({ "https://example.com/": redirect(location) });
    await expectRefused(
      fetchGuarded("https://example.com/", { resolver: fakeResolver({ "example.com": ["93.184.216.34"] }), fetcher }),
    );
    expect(requested).toEqual(["https://example.com/"]);
  });

  it("refuses a redirect to a name that resolves to a mapped private address", async () => {
    const { fetcher, requested } = recordingFetch({ "https://example.com/": redirect("https://rebind.example/") });
    const resolver = fakeResolver({ "example.com": ["93.184.216.34"], "rebind.example": ["::ffff:c0a8:101"] });
    await expectRefused(fetchGuarded("https://example.com/", { resolver, fetcher }));
    expect(requested).toEqual(["https://example.com/"]);
  });

  it("follows a relative redirect on a public host", async () => {
    const { fetcher, requested } = recordingFetch({
      "https://example.com/": redirect("/next"),
      "https://example.com/next": () => new Response("there"),
    });
    const result = await fetchGuarded("https://example.com/", {
      resolver: fakeResolver({ "example.com": ["93.184.216.34"] }),
      fetcher,
    });
    expect(new TextDecoder().decode(result.bytes)).toBe("there");
    expect(result.finalUrl).toBe("https://example.com/next");
    expect(requested).toEqual(["https://example.com/", "https://example.com/next"]);
  });

  it("reports a malformed Location as a URL input error", async () => {
    const { fetcher } = recordingFetch({ "https://example.com/": redirect("http://[::1/") });
    await expectRefused(
      fetchGuarded("https://example.com/", { resolver: fakeResolver({ "example.com": ["93.184.216.34"] }), fetcher }),
      "The URL redirected to an invalid address.",
    );
  });
});

describe("fetchGuarded: slow and broken bodies", () => {
  const resolver = fakeResolver({ "example.com": ["93.184.216.34"] });

  it("reports a body still arriving at the time limit as too slow", async () => {
    // Headers at once, then a body that never ends; like fetch, the stream fails when the signal fires.
    const fetcher = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array([1, 2, 3]));
          init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
        },
      });
      return new Response(body);
    }) as typeof fetch;
    await expectRefused(
      fetchGuarded("https://example.com/", { resolver, fetcher, timeoutMs: 50 }),
      "The URL took too long to answer.",
    );
  });

  it("reports a body that breaks off as a URL input error", async () => {
    const fetcher = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new Uint8Array([1]));
            controller.error(new Error("connection reset"));
          },
        }),
      )) as typeof fetch;
    await expectRefused(
      fetchGuarded("https://example.com/", { resolver, fetcher }),
      "The URL's answer broke off before its end.",
    );
  });
});

describe("fetchGuarded: its time limit", () => {
  it("counts a slow name lookup against the limit, and fetches nothing", async () => {
    const stalling = {
      resolve: (_hostname: string, signal?: AbortSignal) =>
        new Promise<string[]>((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
    };
    const { fetcher, requested } = recordingFetch();
    await expect(fetchGuarded("https://example.com/", { resolver: stalling, fetcher, timeoutMs: 50 })).rejects.toThrow(
      "took too long",
    );
    expect(requested).toEqual([]);
  }, 5_000);

  it("disarms its timer when the fetch ends, so a request can make any number of them", async () => {
    // workerd refuses a request's 10,001st armed timer. Were the limit's timer left running after
    // each fetch (as AbortSignal.timeout leaves it), the last of these calls would be refused.
    const resolver = fakeResolver({ "example.com": ["93.184.216.34"] });
    const fetcher = fakeFetch({ "https://example.com/": () => new Response("ok") });
    let fetched = 0;
    for (let call = 0; call < 10_001; call++) {
      const { bytes } = await fetchGuarded("https://example.com/", { resolver, fetcher, timeoutMs: 3_600_000 });
      fetched += bytes.length;
    }
    expect(fetched).toBe(2 * 10_001);
  });
});
