/**
 * The domain registry the WHOIS Lookup uses, real or fake by configuration (RDAP_PROVIDER):
 * "live" asks the registries (RDAP over fetch, port 43 over `connect()`), "fake" answers the
 * recorded responses of fake.ts, loaded only through `loadFakes()` so a production build does
 * not hold them (workers/providers/fakes.ts).
 */
import type { AddressResolver } from "~workers/gateway/url-guard";
import { loadFakes } from "../fakes";
import { readBootstrap } from "./bootstrap";
import { cachedRegistry } from "./cache";
import { createDomainRegistry, type DomainRegistry } from "./lookup";
import { socketWhois } from "./whois-client";

export type { DomainRegistry } from "./lookup";
export type { LookupOutcome, RegistrationRecord } from "./record";

export type RdapProvider = "fake" | "live";

/** The registry the Worker uses, real or recorded, with its answers kept in KV for an hour (cache.ts). */
export function domainRegistryFor(
  provider: RdapProvider,
  kv: KVNamespace,
  resolver: AddressResolver,
  fetcher: typeof fetch = fetch,
): DomainRegistry {
  return cachedRegistry(uncachedRegistry(provider, kv, resolver, fetcher), kv);
}

function uncachedRegistry(
  provider: RdapProvider,
  kv: KVNamespace,
  resolver: AddressResolver,
  fetcher: typeof fetch,
): DomainRegistry {
  if (provider === "live") {
    return createDomainRegistry({ fetcher, resolver, whois: socketWhois(), bootstrap: () => readBootstrap(kv) });
  }
  let made: Promise<DomainRegistry> | undefined;
  return {
    lookup: async (domain, signal) =>
      (await (made ??= loadFakes().then((fakes) => fakes.fakeDomainRegistry(kv)))).lookup(domain, signal),
  };
}

/** The fetch the weekly bootstrap refresh uses: IANA itself, or the fake serving the snapshot. */
export async function bootstrapFetcher(provider: RdapProvider): Promise<typeof fetch> {
  return provider === "live" ? fetch : (await loadFakes()).fakeRdapFetch();
}
