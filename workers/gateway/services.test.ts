import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "~workers/config";
import { utcDay } from "~workers/platform/usage";
import { createAccountWithKey } from "../../tests/factories";
import { fakeFetch, fakeResolver } from "../../tests/fakes/network";
import { testHostedServices } from "../../tests/fakes/services";
import { meterPolicy } from "./meter-policy";
import { createServices, trackNetwork } from "./services";
import { flushUsage } from "./usage-recorder";

describe("createServices: the real services over the bindings", () => {
  it("finds a key's record, reaches the account's Meter and writes usage to D1", async () => {
    const pending: Promise<unknown>[] = [];
    const services = createServices(env, readConfig(env), (promise) => pending.push(promise));
    const { key, keyId, userId } = await createAccountWithKey(env.DB);
    const now = Date.now();

    const record = await services.keys.resolve(key, now);
    expect(record).toMatchObject({ keyId, userId, revoked: false, planId: "free" });
    expect(await services.keys.resolve(`${key}x`, now)).toBeNull();
    expect((await services.keys.reload(key, now))?.keyId).toBe(keyId);
    // By id, as a signed URL names its key.
    expect(await services.keys.resolveId(keyId, now)).toMatchObject({ keyId, userId, revoked: false });
    expect(await services.keys.resolveId(`${keyId}x`, now)).toBeNull();
    expect((await services.keys.reloadId(keyId, now))?.userId).toBe(userId);

    const { policy } = meterPolicy({ userId, planId: "free", planExpiresAt: null, bonusCalls: 0 }, "free", now);
    const taken = await services.meters.of(userId).take(policy);
    expect(taken).toMatchObject({ ok: true, monthlyRemaining: policy.monthlyQuota - 1 });
    expect((await services.meters.of(userId).peek(policy)).used).toBe(1);

    services.usage.record({ userId, keyId, apiSlug: "colorconvert", success: true, latencyMs: 3, at: now });
    await flushUsage(env.DB);
    const row = await env.DB.prepare("SELECT calls FROM usage_daily WHERE user_id = ? AND key_id = ? AND day = ?")
      .bind(userId, keyId, utcDay(now))
      .first<{ calls: number }>();
    expect(row?.calls).toBe(1);
  });
});

describe("trackNetwork", () => {
  it("says whether anything was looked up or fetched through the services it wraps", async () => {
    const base = {
      ...testHostedServices(),
      dns: fakeResolver({ "a.example": ["93.184.215.14"] }),
      upstream: fakeFetch({ "https://a.example/": () => new Response("ok") }),
    };
    const looked = trackNetwork(base);
    expect(looked.reachedOut()).toBe(false);
    await looked.services.dns.resolve("a.example");
    expect(looked.reachedOut()).toBe(true);

    const fetched = trackNetwork(base);
    await fetched.services.upstream("https://a.example/");
    expect(fetched.reachedOut()).toBe(true);
    // Each tracker watches its own call only.
    expect(trackNetwork(base).reachedOut()).toBe(false);
  });
});
