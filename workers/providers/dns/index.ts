/**
 * The mail resolver the configuration chooses: DNS-over-HTTPS at DNS_RESOLVER_URL
 * (`MX_PROVIDER=doh`, production) or the local fake's fixture table (`fake`, development and
 * tests), whose module is loaded only through `loadFakes()` so a production build does not
 * hold it. Answers are kept in the CACHE namespace either way.
 */
import type { Config } from "~workers/config";
import { lazyFetch } from "../fakes";
import { FAKE_DOH_ENDPOINT } from "./fake-endpoint";
import { createMailResolver, type MailResolver } from "./mail";

export function mailResolverFor(
  config: Pick<Config, "MX_PROVIDER" | "DNS_RESOLVER_URL">,
  cache: KVNamespace,
): MailResolver {
  if (config.MX_PROVIDER === "fake") {
    return createMailResolver({
      endpoint: FAKE_DOH_ENDPOINT,
      fetcher: lazyFetch((fakes) => fakes.fakeDohFetch()),
      cache,
    });
  }
  return createMailResolver({ endpoint: config.DNS_RESOLVER_URL, fetcher: (input, init) => fetch(input, init), cache });
}
