/**
 * Which server answers for a domain: IANA's RDAP bootstrap file for DNS (RFC 9224), an override
 * map for registries that serve RDAP without being listed in it, and a port-43 WHOIS table for
 * the TLDs with no RDAP at all.
 *
 * - `dns.json` is a snapshot of https://data.iana.org/rdap/dns.json: its `services` array as
 *   the npm package freewhois 1.2.6 (MIT, published 2026-05-24) ships it in `tlds.json`, written
 *   there verbatim by the package's own `update-tlds.js` from IANA's URL. No network reaches
 *   IANA from here, so that was the newest copy to be had; the weekly cron
 *   (`refreshBootstrap`, scheduled in workers/app.ts) replaces it with IANA's current file in
 *   KV, and the lookups read KV first.
 * - `RDAP_OVERRIDES` is meeb/whoisit's `whoisit/overrides.py` (the 2025-11 version: .co moved
 *   to rdap.registry.co), registries seen serving RDAP that IANA does not list.
 * - `whois-servers.json` is the "WHOIS Server" of each TLD's page in IANA's root zone database,
 *   as the npm package whoisserver-world 1.0.31 (ISC) collects them, kept only for TLDs that
 *   neither the snapshot nor the overrides serve over RDAP (docs/decisions/050-whois-over-rdap.md).
 */
import { z } from "zod";
import snapshot from "./dns.json";
import whoisServers from "./whois-servers.json";

export const IANA_BOOTSTRAP_URL = "https://data.iana.org/rdap/dns.json";
export const BOOTSTRAP_KV_KEY = "rdap:bootstrap:dns";

export const BootstrapSchema = z.object({
  publication: z.string().optional(),
  services: z.array(z.tuple([z.array(z.string()), z.array(z.string())])),
});
export type Bootstrap = z.infer<typeof BootstrapSchema>;

/** A fetched file this much smaller than the snapshot is a broken answer, not IANA's file. */
const MIN_TLDS = 900;

let parsedSnapshot: Bootstrap | undefined;

/**
 * The shipped snapshot, parsed on first use: some 1,200 entries through the schema cost every
 * cold isolate ~4 ms of startup CPU when parsed at import, for the WHOIS lookups alone (decision 064).
 */
export function bootstrapSnapshot(): Bootstrap {
  return (parsedSnapshot ??= BootstrapSchema.parse(snapshot));
}

export const RDAP_OVERRIDES: Readonly<Record<string, string>> = {
  de: "https://rdap.denic.de/",
  ch: "https://rdap.nic.ch/",
  li: "https://rdap.nic.li/",
  gl: "https://rdap.centralnic.com/gl/",
  nl: "https://rdap.sidn.nl/",
  ac: "https://rdap.identitydigital.services/rdap/",
  ag: "https://rdap.identitydigital.services/rdap/",
  bz: "https://rdap.identitydigital.services/rdap/",
  io: "https://rdap.identitydigital.services/rdap/",
  lc: "https://rdap.identitydigital.services/rdap/",
  me: "https://rdap.identitydigital.services/rdap/",
  mn: "https://rdap.identitydigital.services/rdap/",
  pr: "https://rdap.identitydigital.services/rdap/",
  sc: "https://rdap.identitydigital.services/rdap/",
  sh: "https://rdap.identitydigital.services/rdap/",
  vc: "https://rdap.identitydigital.services/rdap/",
  co: "https://rdap.registry.co/co/",
};

export const WHOIS_SERVERS: Readonly<Record<string, string>> = whoisServers;

export type Route =
  | { kind: "rdap"; tld: string; base: string }
  | { kind: "whois"; tld: string; host: string }
  | { kind: "none"; tld: string };

/**
 * Where to ask about `domain` (an A-label name, lower case). The longest listed suffix wins
 * (RFC 9224 §4: a file may list "co.uk" beside "uk"); among a service's URLs, only https ones
 * count, so a TLD listed with http alone (.kg, .music, .cpa, .msd, .merckmsd, .tattoo in the
 * snapshot) falls through to port 43 where our table has its server, else to none.
 * IANA's file is authoritative where it lists a TLD, so an override only fills a gap.
 */
export function routeFor(domain: string, bootstrap: Bootstrap): Route {
  const labels = domain.split(".");
  const tld = labels.at(-1) ?? "";
  for (let start = 1; start < labels.length; start++) {
    const suffix = labels.slice(start).join(".");
    // Own keys only: "constructor" is no TLD of ours, whatever Object.prototype holds.
    const base =
      listedBase(suffix, bootstrap) ?? (Object.hasOwn(RDAP_OVERRIDES, suffix) ? RDAP_OVERRIDES[suffix] : undefined);
    if (base) return { kind: "rdap", tld: suffix, base: base.endsWith("/") ? base : `${base}/` };
  }
  const host = Object.hasOwn(WHOIS_SERVERS, tld) ? WHOIS_SERVERS[tld] : undefined;
  return host ? { kind: "whois", tld, host } : { kind: "none", tld };
}

function listedBase(suffix: string, bootstrap: Bootstrap): string | undefined {
  for (const [names, urls] of bootstrap.services) {
    if (!names.includes(suffix)) continue;
    // A plain-http base is skipped, not used: its answer could be rewritten on the way, and would
    // then be cached an hour as the registry's. The TLD goes on to the port-43 table instead.
    return urls.find((url) => url.startsWith("https://"));
  }
  return undefined;
}

/**
 * The bootstrap file the lookups use: the cron's copy in KV when there is one that parses, else
 * the shipped snapshot. A KV value that does not parse is ignored rather than trusted.
 */
export async function readBootstrap(kv: KVNamespace): Promise<Bootstrap> {
  const text = await kv.get(BOOTSTRAP_KV_KEY, "text").catch(() => null);
  if (text === null) return bootstrapSnapshot();
  // Parsing 1,200 entries per call costs more than the lookup's own work: an isolate keeps the
  // last parse and redoes it only when KV holds another text.
  if (lastRead?.text === text) return lastRead.bootstrap;
  let bootstrap = bootstrapSnapshot();
  try {
    const parsed = BootstrapSchema.safeParse(JSON.parse(text));
    if (parsed.success && countTlds(parsed.data) >= MIN_TLDS) bootstrap = parsed.data;
  } catch {
    // Not JSON: the snapshot stands.
  }
  lastRead = { text, bootstrap };
  return bootstrap;
}

let lastRead: { text: string; bootstrap: Bootstrap } | undefined;

const countTlds = (bootstrap: Bootstrap) => bootstrap.services.reduce((sum, [names]) => sum + names.length, 0);

export type BootstrapRefreshOutcome = { ok: true; tlds: number; publication: string | null } | { ok: false; reason: string };

/**
 * The weekly cron: fetches IANA's current file and keeps it in KV (no expiry: an old copy is
 * still better than the snapshot). A file that does not parse, or lists far fewer TLDs than the
 * snapshot, is refused, so one bad answer cannot empty the table.
 */
export async function refreshBootstrap(
  kv: KVNamespace,
  fetcher: typeof fetch = fetch,
  url: string = IANA_BOOTSTRAP_URL,
): Promise<BootstrapRefreshOutcome> {
  let body: unknown;
  try {
    const response = await fetcher(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(20_000),
    });
    if (!response.ok) return { ok: false, reason: `IANA answered ${response.status}` };
    body = await response.json();
  } catch (error) {
    return { ok: false, reason: `IANA could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = BootstrapSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: "the file is not an RDAP bootstrap file" };
  const tlds = countTlds(parsed.data);
  if (tlds < MIN_TLDS) return { ok: false, reason: `the file lists only ${tlds} TLDs` };
  await kv.put(BOOTSTRAP_KV_KEY, JSON.stringify(parsed.data));
  return { ok: true, tlds, publication: parsed.data.publication ?? null };
}
