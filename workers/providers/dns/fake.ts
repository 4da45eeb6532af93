/**
 * The local fake of a DNS-over-HTTPS resolver: it answers the JSON API (`?name=&type=`, as
 * Cloudflare's does) from a fixture table, so the real client (./doh.ts, ./mail.ts) is what
 * development and tests exercise. Every case Email Exists must handle has a domain here; any
 * other name does not exist (NXDOMAIN), as most misspelt domains do not.
 */
import { RCODE, RR } from "./doh";

export { FAKE_DOH_ENDPOINT } from "./index";

type Fixture =
  | { kind: "records"; mx?: string[]; a?: string[]; aaaa?: string[]; ttl?: number }
  | { kind: "nxdomain" }
  | { kind: "servfail" }
  /** Never answers: the client's time limit ends the wait. */
  | { kind: "timeout" }
  /** The resolver itself fails (HTTP 503). */
  | { kind: "http-error" };

/** The fixture table: each domain stands for one case (the docs' samples use them too). */
export const FAKE_DNS: Record<string, Fixture> = {
  // Several MX with priorities (Gmail's real set).
  "gmail.com": {
    kind: "records",
    mx: [
      "20 alt2.gmail-smtp-in.l.google.com.",
      "5 gmail-smtp-in.l.google.com.",
      "10 alt1.gmail-smtp-in.l.google.com.",
      "40 alt4.gmail-smtp-in.l.google.com.",
      "30 alt3.gmail-smtp-in.l.google.com.",
    ],
    ttl: 3600,
  },
  // A normal single MX.
  "outlook.com": { kind: "records", mx: ["5 outlook-com.olc.protection.outlook.com."], ttl: 3600 },
  "acme.dev": { kind: "records", mx: ["10 mx.acme.dev."], a: ["203.0.113.7"], ttl: 300 },
  // A real domain one edit from me.com that takes mail: not a typo to "correct".
  "mx.com": { kind: "records", mx: ["10 mx1.mx.com.", "20 mx2.mx.com."], ttl: 3600 },
  // A disposable provider that does take mail.
  "mailinator.com": { kind: "records", mx: ["1 mail.mailinator.com."], ttl: 600 },
  // Null MX (RFC 7505): example.com publishes exactly this.
  "example.com": { kind: "records", mx: ["0 ."], a: ["93.184.215.14"], ttl: 86_400 },
  // No MX, but an address: the implicit MX.
  "legacy-host.test": { kind: "records", a: ["192.0.2.25"], aaaa: ["2001:db8::25"], ttl: 120 },
  // The name exists but has neither MX nor address.
  "no-mail.test": { kind: "records" },
  "nxdomain.test": { kind: "nxdomain" },
  "servfail.test": { kind: "servfail" },
  "timeout.test": { kind: "timeout" },
  "resolver-down.test": { kind: "http-error" },
};

const SOA = (zone: string) => ({
  name: `${zone}.`,
  type: RR.SOA,
  TTL: 900,
  data: `ns1.${zone}. hostmaster.${zone}. 2026112401 7200 3600 1209600 300`,
});

function answer(name: string, type: string): Response | null {
  const fixture = FAKE_DNS[name] ?? { kind: "nxdomain" };
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { "content-type": "application/dns-json" } });
  const question = [{ name: `${name}.`, type: RR[type as keyof typeof RR] ?? 0 }];
  switch (fixture.kind) {
    case "timeout":
      return null;
    case "http-error":
      return new Response("upstream unavailable", { status: 503 });
    case "servfail":
      return json({ Status: RCODE.SERVFAIL, Question: question });
    case "nxdomain":
      return json({
        Status: RCODE.NXDOMAIN,
        Question: question,
        Authority: [SOA(name.split(".").slice(-1)[0] ?? name)],
      });
    case "records": {
      const data = type === "MX" ? fixture.mx : type === "A" ? fixture.a : type === "AAAA" ? fixture.aaaa : undefined;
      const ttl = fixture.ttl ?? 300;
      const records = (data ?? []).map((value) => ({
        name: `${name}.`,
        type: RR[type as keyof typeof RR],
        TTL: ttl,
        data: value,
      }));
      return json({
        Status: RCODE.NOERROR,
        Question: question,
        ...(records.length > 0 ? { Answer: records } : { Authority: [SOA(name)] }),
      });
    }
  }
}

/** A `fetch` that is the fake resolver; `asked` lists each question, for tests counting lookups. */
export function createFakeDohFetch(): typeof fetch & { asked: string[] } {
  const asked: string[] = [];
  const fakeFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const name = (url.searchParams.get("name") ?? "").replace(/\.$/, "").toLowerCase();
    const type = (url.searchParams.get("type") ?? "A").toUpperCase();
    asked.push(`${name} ${type}`);
    const response = answer(name, type);
    if (response) return response;
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    return new Promise<Response>((_, reject) => {
      if (!signal) return;
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  };
  return Object.assign(fakeFetch, { asked }) as typeof fetch & { asked: string[] };
}
