/**
 * Where a domain's mail goes, as RFC 5321 §5.1 says a sender finds it: its MX records, ordered
 * by preference; a single MX of "." (null MX, RFC 7505) says the domain accepts no mail; no MX
 * at all falls back to the domain's own A/AAAA address (the implicit MX); a name that does
 * not exist (NXDOMAIN) or has neither takes no mail.
 *
 * Answers are kept in KV per domain for the DNS answer's own TTL, bounded below by KV's
 * minimum (60 s) and above by a day, so a popular domain costs one lookup a TTL and a domain
 * that changes its MX is seen again within a day at worst. A failure (the resolver down, the
 * time limit, the domain's servers failing: SERVFAIL) is never kept.
 */
import { z } from "zod";
import type { MailLookup, MailResolver, MailRoute, MxRecord } from "~workers/hosted/capabilities";
import { DohError, queryDoh, RCODE, RR, type DohAnswer, type DohOptions } from "./doh";

// The mail capability's types are declared on the API's side (workers/hosted/capabilities.ts);
// this module implements them.
export type { MailLookup, MailResolver, MailRoute, MxRecord } from "~workers/hosted/capabilities";

/** KV keeps nothing for less than 60 s; a day bounds how long a changed MX goes unseen. */
export const MIN_CACHE_TTL_SECONDS = 60;
export const MAX_CACHE_TTL_SECONDS = 24 * 60 * 60;
/** A negative answer without an SOA to say how long it holds (RFC 2308 §5): five minutes. */
const DEFAULT_NEGATIVE_TTL_SECONDS = 300;

const boundTtl = (ttl: number) => Math.min(MAX_CACHE_TTL_SECONDS, Math.max(MIN_CACHE_TTL_SECONDS, Math.floor(ttl)));

const CACHE_PREFIX = "mx:v1:";

const MxSchema = z.object({ exchange: z.string(), priority: z.number().int().min(0).max(65_535) });
const CachedSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("mx"), records: z.array(MxSchema).min(1), ttl: z.number() }),
  z.object({ kind: z.literal("null-mx"), ttl: z.number() }),
  z.object({ kind: z.literal("implicit"), records: z.array(MxSchema).min(1), ttl: z.number() }),
  z.object({ kind: z.literal("no-mail"), ttl: z.number() }),
  z.object({ kind: z.literal("nxdomain"), ttl: z.number() }),
]);

/** A name as DNS answers write it, without the root's dot, in lower case. */
const bareName = (name: string) => name.replace(/\.$/, "").toLowerCase();

/** "10 mx.example.com." → { priority: 10, exchange: "mx.example.com" }; "0 ." → exchange "". */
export function parseMx(data: string): MxRecord | null {
  const match = /^\s*(\d{1,5})\s+(\S+)\s*$/.exec(data);
  if (!match) return null;
  const priority = Number(match[1]);
  if (priority > 65_535) return null;
  return { priority, exchange: bareName(match[2] ?? "") };
}

/** The negative-answer TTL of RFC 2308: the SOA's own TTL, capped by its MINIMUM field. */
function negativeTtl(answer: DohAnswer): number {
  const soa = answer.authority.find((record) => record.type === RR.SOA);
  if (!soa) return DEFAULT_NEGATIVE_TTL_SECONDS;
  const minimum = Number(soa.data.trim().split(/\s+/).at(-1));
  const ttl = soa.TTL ?? DEFAULT_NEGATIVE_TTL_SECONDS;
  return Number.isFinite(minimum) ? Math.min(ttl, minimum) : ttl;
}

const minTtl = (records: { TTL?: number }[], fallback: number) =>
  records.reduce((least, record) => Math.min(least, record.TTL ?? fallback), Number.POSITIVE_INFINITY);

export interface MailResolverOptions extends Omit<DohOptions, "signal"> {
  /** The resolver's JSON endpoint (DNS_RESOLVER_URL). */
  endpoint: string;
  /** Where answers are kept; none, nothing is kept. */
  cache?: KVNamespace;
}

export function createMailResolver(options: MailResolverOptions): MailResolver {
  const { endpoint, cache } = options;
  const ask = (name: string, type: "MX" | "A" | "AAAA", signal?: AbortSignal) =>
    queryDoh(endpoint, name, type, { fetcher: options.fetcher, timeoutMs: options.timeoutMs, signal });

  async function route(domain: string, signal?: AbortSignal): Promise<MailRoute | "servfail"> {
    const mx = await ask(domain, "MX", signal);
    if (mx.status === RCODE.NXDOMAIN) return { kind: "nxdomain", ttl: negativeTtl(mx) };
    if (mx.status !== RCODE.NOERROR) return "servfail";
    // A CNAME chain comes first in the answer; only the MX records at its end are the domain's.
    const mxRecords = mx.answers.filter((record) => record.type === RR.MX);
    const parsed = mxRecords.map((record) => parseMx(record.data)).filter((record) => record !== null);
    if (parsed.length > 0) {
      const ttl = minTtl(mxRecords, DEFAULT_NEGATIVE_TTL_SECONDS);
      // RFC 7505: a lone "0 ." says no mail is accepted; "." beside real hosts is ignored.
      const real = parsed.filter((record) => record.exchange !== "");
      if (real.length === 0) return { kind: "null-mx", ttl };
      real.sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
      return { kind: "mx", records: real, ttl };
    }
    // No MX: the domain itself is the mail host if it has an address (RFC 5321 §5.1).
    const addresses = await Promise.all([ask(domain, "A", signal), ask(domain, "AAAA", signal)]);
    if (addresses.some((answer) => answer.status === RCODE.SERVFAIL)) return "servfail";
    const found = addresses.flatMap((answer) =>
      answer.answers.filter((record) => record.type === RR.A || record.type === RR.AAAA),
    );
    if (found.length > 0) {
      return { kind: "implicit", records: [{ exchange: domain, priority: 0 }], ttl: minTtl(found, 300) };
    }
    return { kind: "no-mail", ttl: negativeTtl(mx) };
  }

  return {
    async lookup(domain, signal) {
      const name = bareName(domain);
      const key = `${CACHE_PREFIX}${name}`;
      const kept = cache ? CachedSchema.safeParse(await cache.get(key, "json").catch(() => null)) : undefined;
      if (kept?.success) return { ok: true, cached: true, ...kept.data };
      let found: MailRoute | "servfail";
      try {
        found = await route(name, signal);
      } catch (error) {
        if (error instanceof DohError) return { ok: false, reason: error.kind, resolver: error.resolver };
        throw error;
      }
      if (found === "servfail") return { ok: false, reason: "servfail", resolver: new URL(endpoint).host };
      const ttl = boundTtl(found.ttl);
      const answer = { ...found, ttl };
      // The answer is served now; keeping it may finish after.
      await cache?.put(key, JSON.stringify(answer), { expirationTtl: ttl }).catch(() => undefined);
      return { ok: true, cached: false, ...answer };
    },
  };
}
