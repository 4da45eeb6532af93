/**
 * A domain's registration as the WHOIS Lookup answers it, whichever protocol it came from:
 * RDAP (RFC 9083) or a port-43 WHOIS text. Fields a registry does not give are null (or empty
 * lists); nothing is guessed.
 */
export interface RegistrarRecord {
  name: string | null;
  /** The IANA Registrar ID (publicIds "IANA Registrar ID"), for gTLD registrars; null elsewhere. */
  ianaId: string | null;
  url: string | null;
  abuseEmail: string | null;
  abusePhone: string | null;
}

export interface DsRecord {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

/**
 * The registrant as the registry (or the registrar it refers to) gives it. Under GDPR most
 * answers redact it: `redacted` lists what the answer says it withheld (RFC 9537 names, or
 * fields whose value is the registry's "REDACTED…" text), and those fields are null.
 */
export interface RegistrantRecord {
  name: string | null;
  organization: string | null;
  email: string | null;
  phone: string | null;
  street: string[];
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  redacted: string[];
}

export interface RegistrationRecord {
  registrar: RegistrarRecord;
  status: string[];
  /** ISO 8601 instants, as the registry gave them, normalised to UTC. */
  created: string | null;
  updated: string | null;
  expires: string | null;
  /** Lower-case host names. */
  nameservers: string[];
  dnssec: { signed: boolean; ds: DsRecord[] };
  registrant: RegistrantRecord | null;
  source: "rdap" | "whois";
  /** The RDAP URL the record was read from (the registry's); null for a port-43 answer. */
  rdapUrl: string | null;
  /** The registrar's own RDAP URL when the registry referred to it and it answered. */
  registrarRdapUrl: string | null;
  /** The port-43 server that answered; null for RDAP. */
  whoisServer: string | null;
}

/** Why a lookup has no record: expected outcomes, answered as problems by the API. */
export type LookupFailure =
  | { ok: false; code: "not-registered"; host: string }
  | { ok: false; code: "unsupported-tld"; tld: string }
  | { ok: false; code: "upstream"; host: string; reason: "timeout" | "refused" | "unusable" }
  /** Our DNS-over-HTTPS resolver failed checking the registry's address, so no registry was asked. */
  | { ok: false; code: "resolver"; resolver: string };

export type LookupOutcome = { ok: true; record: RegistrationRecord } | LookupFailure;

export const emptyRegistrar = (): RegistrarRecord => ({
  name: null,
  ianaId: null,
  url: null,
  abuseEmail: null,
  abusePhone: null,
});

/** Dates as ISO 8601 in UTC; what does not parse as a date is dropped rather than passed on. */
export function isoDate(value: string | null | undefined): string | null {
  if (!value) return null;
  let trimmed = value.trim();
  // JPRS prints Japan's time with its zone's name ("2025/06/01 01:05:04 (JST)"): UTC+9.
  const jst = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}(?::\d{2})?) \(JST\)$/.exec(trimmed);
  if (jst) trimmed = `${jst[1]}-${jst[2]}-${jst[3]}T${jst[4]}+09:00`;
  // Bare dates (2031-08-13) and WHOIS's "2024-01-02 03:04:05" read as UTC, which is what the
  // registries that print them mean (.it, .jp print local time with no zone; UTC is the honest reading).
  const normalised = /^\d{4}-\d{2}-\d{2}$/.test(trimmed)
    ? `${trimmed}T00:00:00Z`
    : /^\d{4}[-/.]\d{2}[-/.]\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(trimmed)
      ? `${trimmed.slice(0, 10).replace(/[/.]/g, "-")}T${trimmed.slice(11)}Z`
      : /^\d{4}\/\d{2}\/\d{2}$/.test(trimmed) || /^\d{4}\.\d{2}\.\d{2}$/.test(trimmed)
        ? `${trimmed.replace(/[/.]/g, "-")}T00:00:00Z`
        : trimmed;
  const time = Date.parse(normalised);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
