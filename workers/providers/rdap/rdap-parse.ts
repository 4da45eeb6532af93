/**
 * Reading an RDAP domain answer (RFC 9083) into a `RegistrationRecord`. Registries differ in
 * what they fill, so everything is optional: the answer is parsed with a permissive zod schema
 * (unknown members kept out, wrong types dropped member by member) and each field is read where
 * RFC 9083 and the ICANN gTLD RDAP profile put it:
 *
 * - dates in `events` (eventAction "registration", "last changed", "expiration");
 * - the registrar as the entity with role "registrar": name from its jCard (RFC 7095) `fn`,
 *   IANA id from `publicIds` ("IANA Registrar ID"), URL from its `links` or jCard `url`, and the
 *   abuse contact as its own nested entity with role "abuse";
 * - the registrant as the entity with role "registrant", with RFC 9537 `redacted` entries and
 *   the registries' "REDACTED FOR PRIVACY" texts both read as redaction;
 * - `status`, `nameservers[].ldhName`, and `secureDNS` (`delegationSigned`, `dsData`).
 */
import { z } from "zod";
import {
  emptyRegistrar,
  isoDate,
  type DsRecord,
  type RegistrantRecord,
  type RegistrarRecord,
  type RegistrationRecord,
} from "./record";

const loose = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const LinkSchema = z.object({
  href: loose(z.string()),
  rel: loose(z.string()),
  type: loose(z.string()),
});

interface Entity {
  roles?: string[];
  vcardArray?: unknown;
  publicIds?: { type?: string; identifier?: string }[];
  links?: z.infer<typeof LinkSchema>[];
  entities?: Entity[];
}

const EntitySchema: z.ZodType<Entity> = z.lazy(() =>
  z.object({
    roles: loose(z.array(z.string())),
    vcardArray: z.unknown().optional(),
    publicIds: loose(z.array(z.object({ type: loose(z.string()), identifier: loose(z.string()) }))),
    links: loose(z.array(LinkSchema)),
    entities: loose(z.array(EntitySchema)),
  }),
);

export const RdapDomainSchema = z.object({
  objectClassName: loose(z.string()),
  ldhName: loose(z.string()),
  unicodeName: loose(z.string()),
  status: loose(z.array(z.string())),
  events: loose(z.array(z.object({ eventAction: loose(z.string()), eventDate: loose(z.string()) }))),
  entities: loose(z.array(EntitySchema)),
  nameservers: loose(z.array(z.object({ ldhName: loose(z.string()) }))),
  secureDNS: loose(
    z.object({
      delegationSigned: loose(z.boolean()),
      dsData: loose(
        z.array(
          z.object({
            keyTag: loose(z.number()),
            algorithm: loose(z.number()),
            digestType: loose(z.number()),
            digest: loose(z.string()),
          }),
        ),
      ),
    }),
  ),
  links: loose(z.array(LinkSchema)),
  redacted: loose(
    z.array(
      z.object({
        name: loose(z.object({ type: loose(z.string()), description: loose(z.string()) })),
      }),
    ),
  ),
});
export type RdapDomain = z.infer<typeof RdapDomainSchema>;

/** One jCard property: [name, params, type, value…]. */
type JCardProperty = [string, Record<string, unknown>, string, ...unknown[]];

function jcardProperties(vcardArray: unknown): JCardProperty[] {
  if (!Array.isArray(vcardArray) || vcardArray[0] !== "vcard" || !Array.isArray(vcardArray[1])) return [];
  return (vcardArray[1] as unknown[]).filter(
    (property): property is JCardProperty =>
      Array.isArray(property) &&
      typeof property[0] === "string" &&
      typeof property[1] === "object" &&
      property[1] !== null &&
      typeof property[2] === "string",
  );
}

// The registries' placeholders for withheld data ("REDACTED FOR PRIVACY", "Data Protected",
// "Not Disclosed", "Non-Public Data"). A privacy proxy's own name ("Withheld for Privacy ehf")
// is real data about who holds the domain and is kept.
const REDACTED_TEXT = /\bredacted\b|^not disclosed|^data protected|^withheld$|non-public data/i;

/** A jCard text value, null when empty. */
function textValue(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

function propertyText(properties: JCardProperty[], name: string): string | null {
  for (const property of properties) if (property[0] === name) return textValue(property[3]);
  return null;
}

/** tel values are `tel:` URIs ("tel:+1.2083895740") or plain text. */
function phoneOf(properties: JCardProperty[]): string | null {
  const tel = properties.find(
    (property) =>
      property[0] === "tel" &&
      !String((property[1] as { type?: unknown }).type ?? "")
        .toLowerCase()
        .includes("fax"),
  );
  const text = textValue(tel?.[3]);
  return text === null ? null : text.replace(/^tel:/i, "");
}

function hasRole(entity: Entity, role: string): boolean {
  return entity.roles?.some((candidate) => candidate.toLowerCase() === role) ?? false;
}

/** Entities may nest (the registrar's abuse contact sits inside the registrar). */
function findEntity(entities: Entity[] | undefined, role: string): Entity | undefined {
  for (const entity of entities ?? []) {
    if (hasRole(entity, role)) return entity;
  }
  for (const entity of entities ?? []) {
    const nested = findEntity(entity.entities, role);
    if (nested) return nested;
  }
  return undefined;
}

function registrarOf(domain: RdapDomain): RegistrarRecord {
  const entity = findEntity(domain.entities, "registrar");
  if (!entity) return emptyRegistrar();
  const card = jcardProperties(entity.vcardArray);
  const abuse = findEntity(entity.entities, "abuse") ?? findEntity(domain.entities, "abuse");
  const abuseCard = abuse ? jcardProperties(abuse.vcardArray) : [];
  const ianaId =
    entity.publicIds?.find((id) => id.type?.toLowerCase() === "iana registrar id")?.identifier?.trim() || null;
  const url =
    entity.links?.find((link) => link.rel === "about" && link.href?.startsWith("http"))?.href ??
    propertyText(card, "url");
  return {
    name: propertyText(card, "fn") ?? propertyText(card, "org"),
    ianaId,
    url: url ?? null,
    abuseEmail: propertyText(abuseCard, "email"),
    abusePhone: phoneOf(abuseCard),
  };
}

function registrantOf(domain: RdapDomain): RegistrantRecord | null {
  const entity = findEntity(domain.entities, "registrant");
  const redactedNames = (domain.redacted ?? [])
    .map((entry) => entry.name?.type ?? entry.name?.description)
    .filter((name): name is string => typeof name === "string" && /registrant/i.test(name));
  if (!entity && redactedNames.length === 0) return null;
  const card = entity ? jcardProperties(entity.vcardArray) : [];
  const redacted = new Set(redactedNames);
  // A field whose value is the registry's placeholder is withheld, whatever the value says.
  const field = (label: string, value: string | null): string | null => {
    if (value !== null && REDACTED_TEXT.test(value)) {
      redacted.add(`Registrant ${label}`);
      return null;
    }
    return value;
  };
  const adr = card.find((property) => property[0] === "adr");
  const parts = Array.isArray(adr?.[3]) ? (adr[3] as unknown[]) : [];
  const part = (index: number) => {
    const value = parts[index];
    return textValue(Array.isArray(value) ? value.filter((item) => typeof item === "string").join(", ") : value);
  };
  const streetValue = parts[2];
  const street = (Array.isArray(streetValue) ? streetValue : [streetValue])
    .map(textValue)
    .filter((line): line is string => line !== null && !REDACTED_TEXT.test(line));
  // jCard adr may carry the country as the `cc` parameter (RFC 8605) rather than the 7th part.
  const cc = (adr?.[1] as { cc?: unknown } | undefined)?.cc;
  return {
    name: field("Name", propertyText(card, "fn")),
    organization: field("Organization", propertyText(card, "org")),
    email: field("Email", propertyText(card, "email")),
    phone: field("Phone", phoneOf(card)),
    street,
    city: field("City", part(3)),
    region: field("State/Province", part(4)),
    postalCode: field("Postal Code", part(5)),
    country: field("Country", typeof cc === "string" ? cc.toUpperCase() : part(6)),
    redacted: [...redacted],
  };
}

function eventDate(domain: RdapDomain, action: string): string | null {
  const event = domain.events?.find((candidate) => candidate.eventAction?.toLowerCase() === action);
  return isoDate(event?.eventDate);
}

function dsOf(domain: RdapDomain): DsRecord[] {
  return (domain.secureDNS?.dsData ?? []).flatMap((ds) =>
    ds.keyTag !== undefined && ds.algorithm !== undefined && ds.digestType !== undefined && ds.digest
      ? [{ keyTag: ds.keyTag, algorithm: ds.algorithm, digestType: ds.digestType, digest: ds.digest.toUpperCase() }]
      : [],
  );
}

export function parseRdapDomain(domain: RdapDomain, rdapUrl: string): RegistrationRecord {
  const ds = dsOf(domain);
  return {
    registrar: registrarOf(domain),
    status: [...new Set((domain.status ?? []).map((status) => status.trim()).filter(Boolean))],
    created: eventDate(domain, "registration"),
    updated: eventDate(domain, "last changed"),
    expires: eventDate(domain, "expiration"),
    nameservers: [
      ...new Set(
        (domain.nameservers ?? [])
          .map((ns) => ns.ldhName?.trim().toLowerCase().replace(/\.$/, ""))
          .filter((name): name is string => Boolean(name)),
      ),
    ],
    dnssec: { signed: domain.secureDNS?.delegationSigned ?? ds.length > 0, ds },
    registrant: registrantOf(domain),
    source: "rdap",
    rdapUrl,
    registrarRdapUrl: null,
    whoisServer: null,
  };
}

/**
 * The registrar's own RDAP record of the domain, where a thin registry (Verisign for .com and
 * .net) refers to it: a link with rel "related" and type application/rdap+json whose path names
 * the domain (RFC 9083 §4.2, ICANN's RDAP profile 2.10).
 */
export function registrarReferral(domain: RdapDomain, ldhName: string): string | null {
  for (const link of domain.links ?? []) {
    if (link.rel !== "related" || !link.href) continue;
    if (link.type && !link.type.toLowerCase().includes("rdap+json")) continue;
    let url: URL;
    try {
      url = new URL(link.href);
    } catch {
      continue;
    }
    if (url.protocol !== "https:") continue;
    if (!url.pathname.toLowerCase().endsWith(`/domain/${ldhName}`)) continue;
    return url.toString();
  }
  return null;
}

/**
 * The registry's record completed from the registrar's: contacts (registrant, abuse, the
 * registrar's URL) come from the registrar where the thin registry has none; status, dates,
 * name servers and DNSSEC stay the registry's, which is authoritative for them.
 */
export function mergeRegistrar(registry: RegistrationRecord, registrar: RegistrationRecord, url: string) {
  return {
    ...registry,
    registrar: {
      name: registry.registrar.name ?? registrar.registrar.name,
      ianaId: registry.registrar.ianaId ?? registrar.registrar.ianaId,
      url: registry.registrar.url ?? registrar.registrar.url,
      abuseEmail: registry.registrar.abuseEmail ?? registrar.registrar.abuseEmail,
      abusePhone: registry.registrar.abusePhone ?? registrar.registrar.abusePhone,
    },
    registrant: registrar.registrant ?? registry.registrant,
    registrarRdapUrl: url,
  } satisfies RegistrationRecord;
}
