/**
 * Lookups kept in KV for an hour: registrations change rarely, registries rate-limit (Verisign
 * and several ccTLDs answer 429 past a few queries a second per address), and a repeated lookup
 * should not cost them a query. Answers and "not registered" are kept; failures never are, so a
 * registry that was down is asked again on the next call. A value that does not parse is a miss.
 */
import { z } from "zod";
import type { DomainRegistry } from "./lookup";
import type { LookupOutcome } from "./record";

export const WHOIS_CACHE_TTL_SECONDS = 60 * 60;
export const whoisCacheKey = (domain: string) => `whois:v1:${domain}`;

const text = z.string().nullable();
const RecordSchema = z.object({
  registrar: z.object({ name: text, ianaId: text, url: text, abuseEmail: text, abusePhone: text }),
  status: z.array(z.string()),
  created: text,
  updated: text,
  expires: text,
  nameservers: z.array(z.string()),
  dnssec: z.object({
    signed: z.boolean(),
    ds: z.array(z.object({ keyTag: z.number(), algorithm: z.number(), digestType: z.number(), digest: z.string() })),
  }),
  registrant: z
    .object({
      name: text,
      organization: text,
      email: text,
      phone: text,
      street: z.array(z.string()),
      city: text,
      region: text,
      postalCode: text,
      country: text,
      redacted: z.array(z.string()),
    })
    .nullable(),
  source: z.enum(["rdap", "whois"]),
  rdapUrl: text,
  registrarRdapUrl: text,
  whoisServer: text,
});

const CachedSchema = z.union([
  z.object({ ok: z.literal(true), record: RecordSchema }),
  z.object({ ok: z.literal(false), code: z.literal("not-registered"), host: z.string() }),
]);

export function cachedRegistry(registry: DomainRegistry, kv: KVNamespace): DomainRegistry {
  return {
    async lookup(domain, signal) {
      const key = whoisCacheKey(domain);
      const stored = CachedSchema.safeParse(await kv.get(key, "json").catch(() => null));
      if (stored.success) return stored.data satisfies LookupOutcome;
      const outcome = await registry.lookup(domain, signal);
      if (outcome.ok || outcome.code === "not-registered") {
        // A failed write costs only the next call a lookup.
        await kv.put(key, JSON.stringify(outcome), { expirationTtl: WHOIS_CACHE_TTL_SECONDS }).catch(() => undefined);
      }
      return outcome;
    },
  };
}
