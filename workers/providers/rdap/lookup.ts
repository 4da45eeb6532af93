/**
 * One domain's registration: RDAP from the registry the bootstrap names (following its referral
 * to the registrar's RDAP server where it gives one), or port-43 WHOIS where the TLD has no RDAP.
 *
 * Every RDAP URL, the registry's and the registrar's, goes through the outbound guard's host
 * check (workers/gateway/url-guard.ts) before it is fetched and on every redirect: the caller
 * chooses the TLD, and a referral is whatever a registry's answer says, so neither may lead us to
 * a private address. Port-43 hosts come only from our own table.
 */
import type { DomainRegistry } from "~workers/hosted/capabilities";
import { DohError } from "~workers/providers/dns/doh";
import { checkUrlHost, type AddressResolver } from "~workers/gateway/url-guard";
import { routeFor, type Bootstrap } from "./bootstrap";
import { mergeRegistrar, parseRdapDomain, RdapDomainSchema, registrarReferral, type RdapDomain } from "./rdap-parse";
import type { LookupOutcome, RegistrationRecord } from "./record";
import type { WhoisTransport } from "./whois-client";
import { parseWhois } from "./whois-parse";

export const RDAP_TIMEOUT_MS = 8_000;
export const RDAP_MAX_BYTES = 512 * 1024;
const MAX_REDIRECTS = 3;

export type { DomainRegistry } from "~workers/hosted/capabilities";

export interface RegistryDeps {
  fetcher: typeof fetch;
  resolver: AddressResolver;
  whois: WhoisTransport;
  bootstrap(): Promise<Bootstrap>;
  timeoutMs?: number;
}

type RdapFetch =
  | { kind: "json"; body: unknown; url: string }
  | { kind: "not-found" }
  | { kind: "failed"; host: string; reason: "timeout" | "refused" | "unusable" }
  /** Our own DNS resolver failed checking the host: no registry was asked. */
  | { kind: "resolver-failed"; resolver: string };

export function createDomainRegistry(deps: RegistryDeps): DomainRegistry {
  return {
    async lookup(domain, signal) {
      const route = routeFor(domain, await deps.bootstrap());
      if (route.kind === "none") return { ok: false, code: "unsupported-tld", tld: route.tld };
      if (route.kind === "whois") return lookupWhois(deps.whois, route.host, domain, signal);
      return lookupRdap(deps, `${route.base}domain/${domain}`, domain, signal);
    },
  };
}

async function lookupRdap(
  deps: RegistryDeps,
  url: string,
  domain: string,
  signal: AbortSignal,
): Promise<LookupOutcome> {
  const host = new URL(url).hostname;
  const answer = await fetchRdap(deps, url, signal);
  if (answer.kind === "not-found") return { ok: false, code: "not-registered", host };
  if (answer.kind === "failed") return { ok: false, code: "upstream", host: answer.host, reason: answer.reason };
  if (answer.kind === "resolver-failed") return { ok: false, code: "resolver", resolver: answer.resolver };
  const parsed = RdapDomainSchema.safeParse(answer.body);
  if (!parsed.success || !answersFor(parsed.data, domain)) {
    // Named by the server that answered: after a redirect that is not the registry first asked.
    return { ok: false, code: "upstream", host: new URL(answer.url).hostname, reason: "unusable" };
  }
  const record = parseRdapDomain(parsed.data, answer.url);
  const referral = registrarReferral(parsed.data, domain);
  if (!referral) return { ok: true, record };
  // The registrar's answer only completes the registry's: when it fails, the registry's stands.
  const registrar = await fetchRdap(deps, referral, signal);
  if (registrar.kind !== "json") return { ok: true, record };
  const registrarParsed = RdapDomainSchema.safeParse(registrar.body);
  if (!registrarParsed.success || !answersFor(registrarParsed.data, domain)) return { ok: true, record };
  const merged: RegistrationRecord = mergeRegistrar(record, parseRdapDomain(registrarParsed.data, referral), referral);
  return { ok: true, record: merged };
}

/**
 * Whether an RDAP answer is the asked domain's record. A redirect or a referral is whatever a
 * server says, so an answer about another name (ldhName differing, ignoring case and the root's
 * dot) would otherwise be answered, and cached for an hour, as the asked name's registration.
 * An answer without ldhName is taken as the one asked for: RFC 9083 does not require it.
 */
function answersFor(answer: RdapDomain, domain: string): boolean {
  if ((answer.objectClassName ?? "domain") !== "domain") return false;
  if (answer.ldhName === undefined) return true;
  return answer.ldhName.toLowerCase().replace(/\.$/, "") === domain;
}

async function fetchRdap(deps: RegistryDeps, start: string, outer: AbortSignal): Promise<RdapFetch> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deps.timeoutMs ?? RDAP_TIMEOUT_MS);
  const signal = AbortSignal.any([deadline.signal, outer]);
  let url = new URL(start);
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      try {
        await checkUrlHost(url, deps.resolver, signal);
      } catch (error) {
        if (signal.aborted) return { kind: "failed", host: url.hostname, reason: "timeout" };
        // Our resolver down is our failure, not the registry refusing: it was never asked.
        if (error instanceof DohError) return { kind: "resolver-failed", resolver: error.resolver };
        // A host that resolves to a private address, or not at all, is not a registry we reach.
        return { kind: "failed", host: url.hostname, reason: "refused" };
      }
      let response: Response;
      try {
        response = await deps.fetcher(url.toString(), {
          redirect: "manual",
          signal,
          headers: { accept: "application/rdap+json, application/json" },
        });
      } catch {
        return { kind: "failed", host: url.hostname, reason: signal.aborted ? "timeout" : "refused" };
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        try {
          url = new URL(location, url);
        } catch {
          return { kind: "failed", host: url.hostname, reason: "unusable" };
        }
        if (url.protocol !== "https:") return { kind: "failed", host: url.hostname, reason: "unusable" };
        continue;
      }
      if (response.status === 404) {
        await response.body?.cancel();
        return { kind: "not-found" };
      }
      if (!response.ok) {
        await response.body?.cancel();
        // 429 and 5xx: the registry would not answer now.
        return { kind: "failed", host: url.hostname, reason: "refused" };
      }
      const text = await readBounded(response, signal);
      if (text === null) return { kind: "failed", host: url.hostname, reason: signal.aborted ? "timeout" : "unusable" };
      try {
        return { kind: "json", body: JSON.parse(text), url: url.toString() };
      } catch {
        return { kind: "failed", host: url.hostname, reason: "unusable" };
      }
    }
    return { kind: "failed", host: url.hostname, reason: "unusable" };
  } finally {
    clearTimeout(timer);
  }
}

async function readBounded(response: Response, signal: AbortSignal): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (signal.aborted) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > RDAP_MAX_BYTES) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  } catch {
    return null;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

async function lookupWhois(
  whois: WhoisTransport,
  host: string,
  domain: string,
  signal: AbortSignal,
): Promise<LookupOutcome> {
  const answer = await whois.query(host, domain, signal);
  if (!answer.ok) {
    return { ok: false, code: "upstream", host, reason: answer.reason === "too-large" ? "unusable" : answer.reason };
  }
  const parsed = parseWhois(answer.text, host);
  switch (parsed.kind) {
    case "record":
      return { ok: true, record: parsed.record };
    case "not-found":
      return { ok: false, code: "not-registered", host };
    case "refused":
      return { ok: false, code: "upstream", host, reason: "refused" };
    case "unusable":
      return { ok: false, code: "upstream", host, reason: "unusable" };
  }
}
