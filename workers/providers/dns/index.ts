/**
 * The mail resolver the configuration chooses: DNS-over-HTTPS at DNS_RESOLVER_URL
 * (`MX_PROVIDER=doh`, production) or the local fake's fixture table (`fake`, development and
 * tests), whose module is loaded only through `loadFakes()` so a production build does not
 * hold it. Answers are kept in the CACHE namespace either way.
 */
import type { Config } from "~workers/config";
import { lazyFetch } from "../fakes";
import { createMailResolver, type MailResolver } from "./mail";

/**
 * The host the local fake resolver answers as: a name only, never fetched (a `.invalid` name
 * cannot resolve). It sits here rather than beside the fake so a production build, which
 * names it, holds no module of the fakes (the build's size report refuses one).
 */
export const FAKE_DOH_ENDPOINT = "https://dns.fake.invalid/dns-query";

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
