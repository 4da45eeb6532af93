/**
 * An OperationContext for calling a hosted API's handler directly in tests, with a real env
 * (D1, KV) and the network edge faked: `fetchUrl` runs the real SSRF guard over a fake DNS
 * and a fake fetch.
 */
import { env } from "cloudflare:test";
import { readConfig } from "~workers/config";
import { fetchGuarded } from "~workers/gateway/url-guard";
import type { OperationContext } from "~workers/hosted/definition";
import type { PlanId } from "~workers/platform/plans";
import { fakeFetch, fakeResolver, type FakeRoutes } from "./fakes/network";

export function createTestContext(
  options: {
    planId?: PlanId;
    routes?: FakeRoutes;
    dns?: Record<string, string[]>;
    origin?: string;
    request?: Request;
  } = {},
): OperationContext & { pending: Promise<unknown>[] } {
  const pending: Promise<unknown>[] = [];
  const origin = options.origin ?? "https://portico.test";
  return {
    env,
    config: readConfig(env),
    request: options.request ?? new Request(`${origin}/api/v1/test`),
    requestId: crypto.randomUUID(),
    account: {
      userId: `usr_test_${crypto.randomUUID().slice(0, 8)}`,
      keyId: "key_test",
      planId: options.planId ?? "premium",
    },
    origin,
    waitUntil: (promise) => pending.push(promise),
    pending,
    fetchUrl: (url, fetchOptions) =>
      fetchGuarded(url, {
        resolver: fakeResolver(options.dns ?? {}),
        fetcher: fakeFetch(options.routes ?? {}),
        maxBytes: fetchOptions?.maxBytes,
        accept: fetchOptions?.accept,
      }),
  };
}
