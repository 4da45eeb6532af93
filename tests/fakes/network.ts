/**
 * The network edge in tests: a fake DNS resolver and a fake fetch serving fixed answers by
 * URL. Anything not listed fails the test, so no test reaches the real network.
 */
import type { AddressResolver } from "~workers/gateway/url-guard";

export function fakeResolver(records: Record<string, string[]>): AddressResolver {
  return {
    async resolve(hostname) {
      const addresses = records[hostname];
      if (!addresses) throw new Error(`fake DNS has no record for ${hostname}`);
      return addresses;
    },
  };
}

export type FakeRoutes = Record<string, () => Response | Promise<Response>>;

export function fakeFetch(routes: FakeRoutes): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    const route = routes[url];
    if (!route) throw new Error(`fake network has no route for ${url}`);
    return route();
  }) as typeof fetch;
}
