/**
 * In-memory parts for the gateway's `Services` (workers/gateway/services.ts), so a step or a
 * handler is tested with only the piece it exercises being real. The network is the fake DNS
 * and fetch of ./network.ts; short links and cities stay on the test's own D1 (Miniflare, real
 * migrations), as every table does in these tests.
 */
import { env } from "cloudflare:test";
import { readConfig } from "~workers/config";
import type { KeyRecord, KeyStore } from "~workers/gateway/api-key-auth";
import type { Refund, Standing, TakeResult } from "~workers/gateway/meter";
import type { GatewayNotices } from "~workers/gateway/meter-notices";
import { hmacUrlSigner } from "~workers/gateway/signed-url";
import {
  mediaEnginesFor,
  rpcDocumentEngines,
  type AccountMeter,
  type HostedServices,
  type Services,
  type UsageSink,
} from "~workers/gateway/services";
import type { CallRecord } from "~workers/gateway/usage-recorder";
import type { MediaEngines } from "~workers/hosted/capabilities";
import { d1Cities } from "~workers/hosted/location/cities";
import { createFakeDohFetch, FAKE_DOH_ENDPOINT } from "~workers/providers/dns/fake";
import { createMailResolver } from "~workers/providers/dns/mail";
import { ecbExchangeRates } from "~workers/providers/ecb/exchange-rates";
import { createFakeEcbFetch } from "~workers/providers/ecb/fake";
import { FAKE_ECB_BASE_URL, httpEcbFeed } from "~workers/providers/ecb/feed";
import { d1ShortLinks } from "~workers/hosted/urlshortener/links";
import { fakeDomainRegistry } from "~workers/providers/rdap/fake";
import { socialMediaFor } from "~workers/providers/social";
import { hmacTunnelTokens } from "~workers/gateway/tunnel";
import { fakeFetch, fakeResolver, type FakeRoutes } from "./network";

/** A key store holding fixed records; `reload` reads `fresh` (what D1 would say now) when given. */
export function memoryKeyStore(
  records: Record<string, KeyRecord>,
  fresh: Record<string, KeyRecord | null> = {},
): KeyStore & { reloads: string[] } {
  const reloads: string[] = [];
  return {
    reloads,
    resolve: async (key) => records[key] ?? null,
    reload: async (key) => {
      reloads.push(key);
      return key in fresh ? (fresh[key] ?? null) : (records[key] ?? null);
    },
    // Signed URLs name a key by its id: the same records, found by the id they hold.
    resolveId: async (keyId) => Object.values(records).find((record) => record.keyId === keyId) ?? null,
    reloadId: async (keyId) => {
      reloads.push(keyId);
      const key = Object.keys(records).find((candidate) => records[candidate]?.keyId === keyId);
      if (key === undefined) return null;
      return key in fresh ? (fresh[key] ?? null) : (records[key] ?? null);
    },
  };
}

/**
 * A Meter that answers what the test scripts, in order, and records what it was asked. It
 * does not count: the counting is the Meter's own, tested in meter.test.ts; an unscripted
 * question fails the test rather than inventing an answer.
 */
export function scriptedMeter(script: { take?: TakeResult[]; peek?: Standing[] } = {}) {
  const takes = [...(script.take ?? [])];
  const peeks = [...(script.peek ?? [])];
  const asked = { take: 0, peek: 0, refunds: [] as Refund[], callers: [] as unknown[] };
  const meter: AccountMeter = {
    async take(_policy, caller) {
      asked.take += 1;
      asked.callers.push(caller);
      const next = takes.shift();
      if (!next) throw new Error("the scripted Meter has no answer left for take");
      return next;
    },
    async peek(_policy, caller) {
      asked.peek += 1;
      asked.callers.push(caller);
      const next = peeks.shift();
      if (!next) throw new Error("the scripted Meter has no answer left for peek");
      return next;
    },
    async refund(refund) {
      asked.refunds.push(refund);
    },
  };
  return { meter, asked };
}

/** A usage sink that keeps the calls. */
export function memoryUsage(): UsageSink & { calls: CallRecord[] } {
  const calls: CallRecord[] = [];
  return { calls, record: (call) => calls.push(call) };
}

/** What handlers use: the fake network (nothing answers unless listed) and the test's D1. */
export function testHostedServices(
  options: { dns?: Record<string, string[]>; routes?: FakeRoutes; media?: MediaEngines } = {},
): HostedServices {
  return {
    dns: fakeResolver(options.dns ?? {}),
    upstream: fakeFetch(options.routes ?? {}),
    shortLinks: d1ShortLinks(env.DB),
    cities: d1Cities(env.DB),
    // Email Exists' lookups answered by the fake resolver's fixture table; nothing kept in KV.
    mail: createMailResolver({ endpoint: FAKE_DOH_ENDPOINT, fetcher: createFakeDohFetch(), timeoutMs: 200 }),
    // The test's D1 and KV, filled when empty from the fake ECB feed (the fixture's days).
    rates: ecbExchangeRates(env.DB, env.CACHE, httpEcbFeed(createFakeEcbFetch(), FAKE_ECB_BASE_URL)),
    // Signing is local computation: the real signer, under the test environment's secret.
    urlSigner: hmacUrlSigner(readConfig(env).SESSION_SECRET),
    // The downloader's media-tunnel tokens, local computation too.
    tunnels: hmacTunnelTokens(readConfig(env).SESSION_SECRET),
    // The recorded registries of the WHOIS Lookup, over the test's KV.
    registry: fakeDomainRegistry(env.CACHE),
    // The recorded platforms (SOCIAL_PROVIDER=fake in the test environment), over the test's KV.
    social: socialMediaFor(readConfig(env), env.CACHE),
    // The engine Worker itself, run by the tests as a second Worker (tests/setup/engine-worker.ts).
    documents: rpcDocumentEngines(env.ENGINES),
    // The engine Worker's embedded media engines (no AI or IMAGES binding in tests); a test of
    // the Workers AI or Images path passes its fake binding through `media`.
    media: options.media ?? mediaEnginesFor(env),
  };
}

/** A whole `Services`: in-memory keys and usage, one scripted Meter for every account. */
export function testServices(
  parts: { keys?: KeyStore; meter?: AccountMeter; dns?: Record<string, string[]>; routes?: FakeRoutes } = {},
): Services & { usage: ReturnType<typeof memoryUsage> } {
  const meter = parts.meter ?? scriptedMeter().meter;
  return {
    ...testHostedServices(parts),
    keys: parts.keys ?? memoryKeyStore({}),
    meters: { of: () => meter },
    usage: memoryUsage(),
  };
}

/** Gateway notices that only remember what they were told (the real ones are in meter-notices.ts). */
export function recordingNotices(): GatewayNotices & {
  revoked: { userId: string; keyId: string; hash: string; at: number }[];
  planVersions: { userId: string; version: number }[];
} {
  const revoked: { userId: string; keyId: string; hash: string; at: number }[] = [];
  const planVersions: { userId: string; version: number }[] = [];
  return {
    revoked,
    planVersions,
    keyRevoked: async (userId, key, at) => {
      revoked.push({ userId, keyId: key.id, hash: key.hash, at });
    },
    planChanged: async (userId, version) => {
      planVersions.push({ userId, version });
    },
  };
}
