import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fakeDomainRegistry } from "./fake";
import type { LookupOutcome, RegistrationRecord } from "./record";
import { socketWhois, type SocketLike } from "./whois-client";
import { parseWhois } from "./whois-parse";

const never = new AbortController().signal;
const registry = () => fakeDomainRegistry(env.CACHE);

function recordOf(outcome: LookupOutcome): RegistrationRecord {
  if (!outcome.ok) throw new Error(`expected a record, got ${JSON.stringify(outcome)}`);
  return outcome.record;
}

describe("port-43 answers (recorded)", () => {
  it("reads .it's sectioned answer", async () => {
    const record = recordOf(await registry().lookup("google.it", never));
    expect(record).toEqual({
      registrar: {
        name: "MarkMonitor International Limited",
        ianaId: null,
        url: "https://www.markmonitor.com/",
        abuseEmail: null,
        abusePhone: null,
      },
      status: ["ok"],
      created: "1999-12-10T00:00:00.000Z",
      updated: "2025-05-23T00:54:13.000Z",
      expires: "2026-04-21T00:00:00.000Z",
      nameservers: ["ns1.google.com", "ns2.google.com", "ns3.google.com", "ns4.google.com"],
      dnssec: { signed: false, ds: [] },
      registrant: {
        name: null,
        organization: "Google Ireland Holdings Unlimited Company",
        email: null,
        phone: null,
        street: ["70 Sir John Rogerson's Quay", "Dublin", "2", "IE", "IE"],
        city: null,
        region: null,
        postalCode: null,
        country: null,
        redacted: [],
      },
      source: "whois",
      rdapUrl: null,
      registrarRdapUrl: null,
      whoisServer: "whois.nic.it",
    });
  });

  it("reads JPRS's [Key] value answer", async () => {
    const record = recordOf(await registry().lookup("google.jp", never));
    expect(record).toMatchObject({
      status: ["Active"],
      created: "2005-05-30T00:00:00.000Z",
      updated: "2025-05-31T16:05:04.000Z",
      expires: "2026-05-31T00:00:00.000Z",
      nameservers: ["ns1.google.com", "ns2.google.com", "ns3.google.com", "ns4.google.com"],
      registrant: { name: "Google LLC" },
      whoisServer: "whois.jprs.jp",
    });
  });

  it("reads .ru's key: value answer, its comma-separated states and addressed name servers", async () => {
    const record = recordOf(await registry().lookup("yandex.ru", never));
    expect(record).toMatchObject({
      registrar: { name: "RU-CENTER-RU" },
      status: ["REGISTERED", "DELEGATED", "VERIFIED"],
      created: "1997-09-23T09:45:07.000Z",
      expires: "2026-09-30T21:00:00.000Z",
      nameservers: ["ns1.yandex.ru", "ns2.yandex.ru"],
      registrant: { organization: "YANDEX, LLC." },
    });
  });

  it("recognises each server's wording for a name it does not hold", async () => {
    for (const [domain, host] of [
      ["not-there.it", "whois.nic.it"],
      ["not-there.jp", "whois.jprs.jp"],
      ["not-there.ru", "whois.tcinet.ru"],
      ["not-there.ad", "whois.nic.ad"],
    ]) {
      expect(await registry().lookup(domain as string, never)).toEqual({ ok: false, code: "not-registered", host });
    }
    for (const text of [
      "NOT FOUND\n",
      "No Data Found\n",
      "%% No entries found in the database\n",
      "Domain not found.\n",
      "The queried object does not exist: Domain name\n",
      "no matching record.\n",
    ]) {
      expect(parseWhois(text, "whois.example").kind, text).toBe("not-found");
    }
  });

  it("answers the failures a port-43 server can produce, naming it", async () => {
    expect(await registry().lookup("slow-registry.it", never)).toEqual({
      ok: false,
      code: "upstream",
      host: "whois.nic.it",
      reason: "timeout",
    });
    expect(await registry().lookup("down-registry.jp", never)).toMatchObject({
      reason: "refused",
      host: "whois.jprs.jp",
    });
    expect(await registry().lookup("busy-registry.ru", never)).toMatchObject({ reason: "refused" });
    expect(await registry().lookup("broken-registry.it", never)).toMatchObject({ reason: "unusable" });
  });

  it("reads ICANN's registry format and redaction texts", () => {
    const parsed = parseWhois(
      [
        "Domain Name: EXAMPLE.TEST",
        "Registrar: Example Registrar, LLC",
        "Registrar IANA ID: 9999",
        "Registrar URL: http://www.registrar.example",
        "Registrar Abuse Contact Email: abuse@registrar.example",
        "Registrar Abuse Contact Phone: +1.5555550100",
        "Creation Date: 2001-02-03T04:05:06Z",
        "Updated Date: 2024-02-03T04:05:06Z",
        "Registry Expiry Date: 2030-02-03T04:05:06Z",
        "Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited",
        "Registrant Name: REDACTED FOR PRIVACY",
        "Registrant Organization: Example Org",
        "Registrant Country: DE",
        "Name Server: NS1.EXAMPLE.TEST",
        "Name Server: NS2.EXAMPLE.TEST",
        "DNSSEC: signedDelegation",
        ">>> Last update of WHOIS database: 2026-11-23T00:00:00Z <<<",
      ].join("\r\n"),
      "whois.example",
    );
    expect(parsed).toEqual({
      kind: "record",
      record: {
        registrar: {
          name: "Example Registrar, LLC",
          ianaId: "9999",
          url: "http://www.registrar.example",
          abuseEmail: "abuse@registrar.example",
          abusePhone: "+1.5555550100",
        },
        status: ["clientTransferProhibited"],
        created: "2001-02-03T04:05:06.000Z",
        updated: "2024-02-03T04:05:06.000Z",
        expires: "2030-02-03T04:05:06.000Z",
        nameservers: ["ns1.example.test", "ns2.example.test"],
        dnssec: { signed: true, ds: [] },
        registrant: {
          name: null,
          organization: "Example Org",
          email: null,
          phone: null,
          street: [],
          city: null,
          region: null,
          postalCode: null,
          country: "DE",
          redacted: ["Registrant Name"],
        },
        source: "whois",
        rdapUrl: null,
        registrarRdapUrl: null,
        whoisServer: "whois.example",
      },
    });
  });
});

/** A socket over in-memory streams: what the server "sends" is `answer`, split into chunks. */
function memorySocket(answer: { chunks?: string[]; stall?: boolean; failOpen?: boolean }) {
  const sent: string[] = [];
  let closed = false;
  const socket: SocketLike = {
    opened: answer.failOpen ? Promise.reject(new Error("connection refused")) : Promise.resolve({}),
    writable: new WritableStream<Uint8Array>({ write: (chunk) => void sent.push(new TextDecoder().decode(chunk)) }),
    readable: new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of answer.chunks ?? []) controller.enqueue(new TextEncoder().encode(chunk));
        if (!answer.stall) controller.close();
      },
    }),
    close: async () => {
      closed = true;
    },
  };
  socket.opened.catch(() => undefined);
  return { socket, sent, isClosed: () => closed };
}

describe("the port-43 socket client", () => {
  it("connects to port 43, sends the name with CRLF and reads to EOF", async () => {
    const { socket, sent, isClosed } = memorySocket({ chunks: ["Domain: x.it\n", "Status: ok\n"] });
    const addresses: unknown[] = [];
    const client = socketWhois((address) => {
      addresses.push(address);
      return socket;
    });
    expect(await client.query("whois.nic.it", "x.it", never)).toEqual({ ok: true, text: "Domain: x.it\nStatus: ok\n" });
    expect(addresses).toEqual([{ hostname: "whois.nic.it", port: 43 }]);
    expect(sent).toEqual(["x.it\r\n"]);
    expect(isClosed()).toBe(true);
  });

  it("stops at the size bound", async () => {
    const { socket } = memorySocket({ chunks: ["a".repeat(600), "b".repeat(600)] });
    expect(await socketWhois(() => socket, { maxBytes: 1000 }).query("h", "x.it", never)).toEqual({
      ok: false,
      reason: "too-large",
    });
  });

  it("stops at the time bound when the server never closes", async () => {
    const { socket, isClosed } = memorySocket({ chunks: ["Domain: x.it\n"], stall: true });
    expect(await socketWhois(() => socket, { timeoutMs: 50 }).query("h", "x.it", never)).toEqual({
      ok: false,
      reason: "timeout",
    });
    expect(isClosed()).toBe(true);
  });

  it("refuses at the transport a name that could smuggle a second query line, before connecting", async () => {
    let connected = 0;
    const client = socketWhois(() => {
      connected++;
      return memorySocket({ chunks: ["x"] }).socket;
    });
    for (const name of ["x.it\r\nevil.it", "x.it\n", "x it", "X.IT", `${"a".repeat(251)}.it`, ""]) {
      await expect(client.query("whois.nic.it", name, never), JSON.stringify(name)).rejects.toThrow(RangeError);
    }
    expect(connected).toBe(0);
  });

  it("answers a refused connection as refused", async () => {
    const { socket } = memorySocket({ failOpen: true });
    expect(await socketWhois(() => socket).query("h", "x.it", never)).toEqual({ ok: false, reason: "refused" });
    const throwing = socketWhois(() => {
      throw new Error("blocked port");
    });
    expect(await throwing.query("h", "x.it", never)).toEqual({ ok: false, reason: "refused" });
  });
});
