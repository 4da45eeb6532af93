/**
 * Reading a port-43 WHOIS answer (RFC 3912 defines only the transport; each registry prints its
 * own text). The dialects met in the TLDs that have no RDAP, read into one list of
 * (key, value) pairs:
 *
 * - "Key: value" lines, ICANN's registry format and most ccTLDs' (.ru's "nserver:", "paid-till:");
 * - sections: a header line ("Registrar", "Registrar:", "Nameservers") followed by indented
 *   "Key: value" lines (keys become "registrar name") or bare indented values (.it, .eu, .be);
 * - "[Key] value" lines (JPRS's .jp).
 *
 * Then each field is found under the names registries use for it. A "not found" answer is
 * recognised by its registries' wordings before anything else.
 */
import { emptyRegistrar, isoDate, type RegistrantRecord, type RegistrationRecord } from "./record";

/** The wordings registries answer an unregistered name with (first lines of the answer). */
const NOT_FOUND = [
  /^no match\b/im,
  /^not found\b/im,
  /^%*\s*no entries found/im,
  /^no data found/im,
  /^no matching record/im,
  /^domain not found/im,
  /^status:\s*(available|free)\s*$/im,
  /\bis available for (registration|purchase)\b/i,
  /^the queried object does not exist/im,
  /^no information available about domain name/im,
  /^%*\s*no such domain/im,
  /^nothing found/im,
];

/** Answers that are refusals rather than records: rate limits and access denials. */
const REFUSED = [/limit exceeded/i, /too many (queries|requests)/i, /access denied/i, /try again later/i];

export type WhoisParse =
  { kind: "record"; record: RegistrationRecord } | { kind: "not-found" } | { kind: "refused" } | { kind: "unusable" };

type Pairs = [key: string, value: string][];

const normaliseKey = (key: string) => key.trim().toLowerCase().replace(/[_.]+/g, " ").replace(/\s+/g, " ");

export function toPairs(text: string): Pairs {
  const pairs: Pairs = [];
  let section: string | null = null;
  // The key an indented line without a key continues (.it's address lines under "Address:").
  let continues: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+$/, "");
    if (line.trim() === "") {
      section = null;
      continues = null;
      continue;
    }
    if (/^\s*(%|#|\*|>>>|--)/.test(line)) continue;
    const bracket = /^\s*\[([^\]]+)\]\s*(.*)$/.exec(line);
    if (bracket?.[1]) {
      if (bracket[2]) pairs.push([normaliseKey(bracket[1]), bracket[2].trim()]);
      continue;
    }
    const indented = /^\s/.test(line);
    const colon = /^\s*([^:]{1,60}?):\s*(.*)$/.exec(line);
    // A URL's scheme is not a key ("https://…" on its own line).
    const keyed = colon?.[1] && !/^\s*https?$/i.test(colon[1]) ? colon : null;
    if (!indented) {
      continues = null;
      if (keyed?.[1] && keyed[2]) {
        pairs.push([normaliseKey(keyed[1]), keyed[2].trim()]);
        section = null;
      } else {
        section = normaliseKey(keyed?.[1] ?? line);
      }
      continue;
    }
    if (keyed?.[1] && keyed[2]) {
      const key = section ? `${section} ${normaliseKey(keyed[1])}` : normaliseKey(keyed[1]);
      pairs.push([key, keyed[2].trim()]);
      continues = key;
    } else if (continues) {
      pairs.push([continues, line.trim()]);
    } else if (section) {
      pairs.push([section, line.trim()]);
    }
  }
  return pairs;
}

function first(pairs: Pairs, ...keys: string[]): string | null {
  for (const key of keys) {
    const found = pairs.find(([candidate, value]) => candidate === key && value !== "");
    if (found) return found[1];
  }
  return null;
}

function all(pairs: Pairs, ...keys: string[]): string[] {
  return pairs.filter(([key]) => keys.includes(key)).map(([, value]) => value);
}

const REDACTED_TEXT = /\bredacted\b|^not disclosed|^data protected|^withheld$|non-public data|^private person$/i;

function registrantOf(pairs: Pairs): RegistrantRecord | null {
  const redacted: string[] = [];
  const field = (label: string, ...keys: string[]): string | null => {
    const value = first(pairs, ...keys);
    if (value !== null && REDACTED_TEXT.test(value)) {
      redacted.push(`Registrant ${label}`);
      return null;
    }
    return value;
  };
  const record: RegistrantRecord = {
    name: field("Name", "registrant name", "registrant", "person", "registrant contact name"),
    organization: field("Organization", "registrant organization", "registrant organisation", "org"),
    email: field("Email", "registrant email", "registrant e-mail"),
    phone: field("Phone", "registrant phone", "registrant phone number"),
    street: all(pairs, "registrant street", "registrant address").filter((line) => !REDACTED_TEXT.test(line)),
    city: field("City", "registrant city"),
    region: field("State/Province", "registrant state/province", "registrant state"),
    postalCode: field("Postal Code", "registrant postal code", "registrant postcode"),
    country: field("Country", "registrant country", "registrant country code"),
    redacted,
  };
  const given = Object.entries(record).some(([key, value]) =>
    key === "street" || key === "redacted" ? (value as string[]).length > 0 : value !== null,
  );
  return given ? record : null;
}

/** "clientTransferProhibited https://icann.org/epp#…" is the status and its explanation. */
function statusesOf(pairs: Pairs): string[] {
  const values = all(pairs, "domain status", "status", "state", "domain state");
  return [
    ...new Set(
      values
        .flatMap((value) => value.split(/,\s*/))
        .map((value) => value.replace(/\s*\(?https?:\/\/\S*\)?\s*$/, "").trim())
        .filter(Boolean),
    ),
  ];
}

function nameserversOf(pairs: Pairs): string[] {
  const values = all(
    pairs,
    "name server",
    "name servers",
    "nameserver",
    "nameservers",
    "nserver",
    "dns",
    "host name",
    "domain nameservers",
  );
  return [
    ...new Set(
      values
        .map((value) => (value.split(/\s+/)[0] ?? "").toLowerCase().replace(/\.$/, ""))
        .filter((name) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name)),
    ),
  ];
}

function dnssecOf(pairs: Pairs): boolean {
  const value = first(pairs, "dnssec", "signed", "registrar dnssec")?.toLowerCase() ?? "";
  return /^(yes|signed|signeddelegation|true)/.test(value);
}

export function parseWhois(text: string, server: string): WhoisParse {
  const head = text.slice(0, 4096);
  if (NOT_FOUND.some((pattern) => pattern.test(head))) return { kind: "not-found" };
  const pairs = toPairs(text);
  const registrarName = first(
    pairs,
    "registrar",
    "registrar organization",
    "registrar organisation",
    "registrar name",
    "sponsoring registrar",
  );
  const created = isoDate(
    first(
      pairs,
      "creation date",
      "created",
      "created on",
      "registered",
      "registration date",
      "registered on",
      "registration time",
      "domain record activated",
      "created date",
    ),
  );
  const expires = isoDate(
    first(
      pairs,
      "registry expiry date",
      "expiration date",
      "expire date",
      "expiry date",
      "expires on",
      "expires",
      "paid-till",
      "expiration time",
      "registrar registration expiration date",
    ),
  );
  const record: RegistrationRecord = {
    registrar: {
      ...emptyRegistrar(),
      name: registrarName,
      ianaId: first(pairs, "registrar iana id"),
      url: first(pairs, "registrar url", "registrar web", "registrar website", "registrar www", "referral url"),
      abuseEmail: first(pairs, "registrar abuse contact email", "abuse email", "abuse contact"),
      abusePhone: first(pairs, "registrar abuse contact phone", "abuse phone"),
    },
    status: statusesOf(pairs),
    created,
    updated: isoDate(
      first(pairs, "updated date", "last update", "last updated", "last modified", "changed", "modified"),
    ),
    expires,
    nameservers: nameserversOf(pairs),
    dnssec: { signed: dnssecOf(pairs), ds: [] },
    registrant: registrantOf(pairs),
    source: "whois",
    rdapUrl: null,
    registrarRdapUrl: null,
    whoisServer: server,
  };
  // A record with neither a date, a registrar nor a name server is a refusal or a banner.
  const usable = created !== null || expires !== null || registrarName !== null || record.nameservers.length > 0;
  if (usable) return { kind: "record", record };
  return REFUSED.some((pattern) => pattern.test(head)) ? { kind: "refused" } : { kind: "unusable" };
}
