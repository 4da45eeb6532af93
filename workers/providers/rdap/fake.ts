/**
 * The local fake registries, for `npm run dev` and the tests (RDAP_PROVIDER=fake): an RDAP
 * "network" answering the recorded responses of recorded.ts by URL (404 for any other name, as a
 * registry does), a resolver placing every registry host at a public address so the outbound
 * guard passes them, a port-43 transport answering the recorded WHOIS texts, and IANA's
 * bootstrap URL answering the shipped snapshot so the weekly refresh runs offline too.
 *
 * Port 43 is faked at the provider boundary (`WhoisTransport`), not by a socket server: tests
 * run inside workerd, which cannot reach a server started beside it. `socketWhois`'s own reading
 * is tested over in-memory streams (whois-client.test.ts).
 *
 * Names that script the failures a registry can produce, under any TLD the fake serves:
 * `slow-registry.<tld>` never answers (the time limit fires), `down-registry.<tld>` refuses the
 * connection, `busy-registry.<tld>` answers 503 (RDAP) or a rate-limit text (port 43), and
 * `broken-registry.<tld>` answers something that is not RDAP JSON / not a WHOIS record.
 */
import type { AddressResolver } from "~workers/gateway/url-guard";
import { bootstrapSnapshot, IANA_BOOTSTRAP_URL, readBootstrap } from "./bootstrap";
import { createDomainRegistry, type DomainRegistry } from "./lookup";
import { RDAP_NOT_FOUND, RECORDED_RDAP, RECORDED_WHOIS, WHOIS_NO_MATCH_GENERIC } from "./recorded";
import type { WhoisTransport } from "./whois-client";

/** Every fake registry host resolves here: a public address, as the real ones do. */
export const FAKE_REGISTRY_ADDRESS = "93.184.215.14";

/** The fake's time limit: its slow registry would otherwise hold a test for the real 8 s. */
export const FAKE_TIMEOUT_MS = 300;

type Script = "slow" | "down" | "busy" | "broken";

function scriptOf(name: string): Script | null {
  const first = name.split(".")[0] ?? "";
  const match = /^(slow|down|busy|broken)-registry$/.exec(first);
  return match ? (match[1] as Script) : null;
}

function hang(signal: AbortSignal | null | undefined): Promise<never> {
  return new Promise((_, reject) => {
    signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")), { once: true });
  });
}

const rdapJson = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/rdap+json" } });

export function fakeRdapFetch(): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    if (url === IANA_BOOTSTRAP_URL)
      return Response.json({ ...bootstrapSnapshot(), publication: "2026-05-24T00:00:00Z" });
    const name = decodeURIComponent(url.slice(url.lastIndexOf("/") + 1)).toLowerCase();
    switch (scriptOf(name)) {
      case "slow":
        return hang(init?.signal);
      case "down":
        throw new TypeError("Network connection lost.");
      case "busy":
        return new Response("Service Unavailable", { status: 503 });
      case "broken":
        return new Response("<html><body>Maintenance</body></html>", {
          status: 200,
          headers: { "content-type": "text/html" },
        });
      case null:
        break;
    }
    const recorded = RECORDED_RDAP[url.toLowerCase()];
    return recorded ? rdapJson(recorded) : rdapJson(RDAP_NOT_FOUND, 404);
  }) as typeof fetch;
}

export function fakeRegistryResolver(): AddressResolver {
  return { resolve: async () => [FAKE_REGISTRY_ADDRESS] };
}

export function fakeWhoisTransport(): WhoisTransport {
  return {
    async query(host, name, signal) {
      switch (scriptOf(name)) {
        case "slow":
          await hang(signal).catch(() => undefined);
          return { ok: false, reason: "timeout" };
        case "down":
          return { ok: false, reason: "refused" };
        case "busy":
          return { ok: true, text: "Query rate limit exceeded. Try again later.\n" };
        case "broken":
          return { ok: true, text: "\n\n" };
        case null:
          break;
      }
      const server = RECORDED_WHOIS[host];
      const text = server?.records[name] ?? (server?.notFound ?? WHOIS_NO_MATCH_GENERIC).replace("%NAME%", name);
      return { ok: true, text };
    },
  };
}

/** The whole registry over the fakes; the bootstrap as the Worker reads it (KV, else the snapshot). */
export function fakeDomainRegistry(kv: KVNamespace, timeoutMs = FAKE_TIMEOUT_MS): DomainRegistry {
  const whois = fakeWhoisTransport();
  // The fake port-43 transport has no timer of its own: the registry's deadline stands in.
  const timedWhois: WhoisTransport = {
    query: (host, name, signal) => whois.query(host, name, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])),
  };
  return createDomainRegistry({
    fetcher: fakeRdapFetch(),
    resolver: fakeRegistryResolver(),
    whois: timedWhois,
    bootstrap: () => readBootstrap(kv),
    timeoutMs,
  });
}
