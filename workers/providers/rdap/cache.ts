/**
 * Lookups kept in KV for an hour: registrations change rarely, registries rate-limit (Verisign
 * and several ccTLDs answer 429 past a few queries a second per address), and a repeated lookup
 * should not cost them a query. Answers and "not registered" are kept; failures never are, so a
 * registry that was down is asked again on the next call. A value that does not parse is a miss;
 * it is read with the record's one schema (workers/hosted/registration-record.ts), the one the
 * API's answer is built on.
 */
import { z } from "zod";
import { RegistrationRecordSchema } from "~workers/hosted/registration-record";
import type { DomainRegistry } from "./lookup";
import type { LookupOutcome } from "./record";

export const WHOIS_CACHE_TTL_SECONDS = 60 * 60;
export const whoisCacheKey = (domain: string) => `whois:v1:${domain}`;

const CachedSchema = z.union([
  z.object({ ok: z.literal(true), record: RegistrationRecordSchema }),
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
