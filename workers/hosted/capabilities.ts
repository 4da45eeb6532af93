/**
 * The outbound capabilities hosted APIs reach through their `OperationContext`, declared on the
 * APIs' side: the providers implement them (workers/providers/dns/mail.ts, rdap/lookup.ts,
 * ecb/exchange-rates.ts) and import these declarations, never the other way round, so the
 * hosted layer does not depend on a provider's module (its socket client, its fakes loader, its
 * data files) and a provider can be swapped without touching an API.
 */
import type { FeedFailure } from "~workers/providers/ecb/feed";
import type { RateStore } from "~workers/providers/ecb/store";
import type { RegistrationRecord } from "./registration-record";

// ---- Mail (Email Exists) ----

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** What DNS says about a domain's mail. `ttl` is how long the answer may be kept, in seconds. */
export type MailRoute =
  | { kind: "mx"; records: MxRecord[]; ttl: number }
  | { kind: "null-mx"; ttl: number }
  | { kind: "implicit"; records: MxRecord[]; ttl: number }
  | { kind: "no-mail"; ttl: number }
  | { kind: "nxdomain"; ttl: number };

export type MailLookup =
  | ({ ok: true; cached: boolean } & MailRoute)
  /** No answer: `servfail` is the domain's servers failing, the others the resolver's. */
  | { ok: false; reason: "servfail" | "timeout" | "unreachable" | "malformed"; resolver: string };

/** Where a domain's mail goes (RFC 5321 §5.1, RFC 7505). */
export interface MailResolver {
  lookup(domain: string, signal?: AbortSignal): Promise<MailLookup>;
}

// ---- Domain registrations (WHOIS Lookup) ----

/**
 * A domain's registration (RDAP or port-43 WHOIS, read into one shape). Its zod schema, from
 * which these types derive, is in registration-record.ts: the API's answer and the provider's KV
 * cache both validate against it.
 */
export type { DsRecord, RegistrantRecord, RegistrarRecord, RegistrationRecord } from "./registration-record";

/** Why a lookup has no record: expected outcomes, answered as problems by the API. */
export type LookupFailure =
  | { ok: false; code: "not-registered"; host: string }
  | { ok: false; code: "unsupported-tld"; tld: string }
  | { ok: false; code: "upstream"; host: string; reason: "timeout" | "refused" | "unusable" }
  /** Our DNS-over-HTTPS resolver failed checking the registry's address, so no registry was asked. */
  | { ok: false; code: "resolver"; resolver: string };

export type LookupOutcome = { ok: true; record: RegistrationRecord } | LookupFailure;

/** A domain's registration, by its A-label name (lower case, no trailing dot). */
export interface DomainRegistry {
  lookup(domain: string, signal: AbortSignal): Promise<LookupOutcome>;
}

// ---- Exchange rates (Currency Converter) ----

/**
 * The store of ECB days (D1, KV, the bundled snapshot), a clock for `stale`, and a one-time fill
 * for a store that holds nothing at all. The store's own shape stays with the ECB provider,
 * which owns its tables (workers/providers/ecb/store.ts); only its type is named here.
 */
export interface ExchangeRates {
  store: RateStore;
  /** Reads the 90-day file into an empty store; the failure when the feed failed. */
  fillEmpty(signal?: AbortSignal): Promise<FeedFailure | null>;
  /** After a fill: the whole history, in the background (`waitUntil`); failures are left to the cron. */
  fillHistory(): Promise<unknown>;
  now(): number;
}
