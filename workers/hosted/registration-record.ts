/**
 * A domain's registration as the WHOIS Lookup answers it, whichever protocol it came from:
 * RDAP (RFC 9083) or a port-43 WHOIS text. Fields a registry does not give are null (or empty
 * lists); nothing is guessed.
 *
 * Its shape is written once, here, as zod: the API's answer schema (whois-domain/schema.ts)
 * extends it and the RDAP provider's KV cache (providers/rdap/cache.ts) validates what it reads
 * back with it, so a field added to the record cannot be answered yet refused from the cache, or
 * the other way round. It sits in the hosted layer, beside capabilities.ts, which providers
 * import from; the descriptions are the OpenAPI document's.
 */
import { z } from "zod";

const nullableText = z.string().nullable();

export const RegistrarRecordSchema = z.object({
  name: nullableText,
  /** The IANA Registrar ID (publicIds "IANA Registrar ID"), for gTLD registrars; null elsewhere. */
  ianaId: nullableText.meta({ description: "The registrar's IANA id (gTLDs); null where the registry gives none." }),
  url: nullableText,
  abuseEmail: nullableText,
  abusePhone: nullableText,
});
export type RegistrarRecord = z.infer<typeof RegistrarRecordSchema>;

export const DsRecordSchema = z.object({
  keyTag: z.number(),
  algorithm: z.number(),
  digestType: z.number(),
  digest: z.string(),
});
export type DsRecord = z.infer<typeof DsRecordSchema>;

/**
 * The registrant as the registry (or the registrar it refers to) gives it. Under GDPR most
 * answers redact it: `redacted` lists what the answer says it withheld (RFC 9537 names, or
 * fields whose value is the registry's "REDACTED…" text), and those fields are null.
 */
export const RegistrantRecordSchema = z.object({
  name: nullableText,
  organization: nullableText,
  email: nullableText,
  phone: nullableText,
  street: z.array(z.string()),
  city: nullableText,
  region: nullableText,
  postalCode: nullableText,
  country: nullableText,
  redacted: z.array(z.string()).meta({ description: "What the registry says it withheld (RFC 9537 names)." }),
});
export type RegistrantRecord = z.infer<typeof RegistrantRecordSchema>;

export const RegistrationRecordSchema = z.object({
  registrar: RegistrarRecordSchema,
  status: z.array(z.string()).meta({ description: "EPP statuses as the registry words them." }),
  /** ISO 8601 instants, as the registry gave them, normalised to UTC. */
  created: nullableText.meta({ description: "ISO 8601, UTC." }),
  updated: nullableText,
  expires: nullableText,
  /** Lower-case host names. */
  nameservers: z.array(z.string()),
  dnssec: z.object({ signed: z.boolean(), ds: z.array(DsRecordSchema) }),
  registrant: RegistrantRecordSchema.nullable(),
  source: z.enum(["rdap", "whois"]),
  rdapUrl: nullableText.meta({ description: "The registry RDAP URL answered from; null for a port-43 answer." }),
  /** The registrar's own RDAP URL when the registry referred to it and it answered (not in the API's answer). */
  registrarRdapUrl: nullableText,
  /** The port-43 server that answered; null for RDAP (not in the API's answer). */
  whoisServer: nullableText,
});
export type RegistrationRecord = z.infer<typeof RegistrationRecordSchema>;
