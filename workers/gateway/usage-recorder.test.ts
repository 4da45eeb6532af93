import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apiUsageSinceHour, usageSince, utcHourStart } from "~workers/platform/usage";
import { createAccountWithKey } from "../../tests/factories";
import { flushUsage, recordCall } from "./usage-recorder";

describe("usage recorder: a call's weight (decision 048)", () => {
  it("counts a batch as its weight in the account's rollup, and as one request in the API's hourly one", async () => {
    const account = await createAccountWithKey(env.DB);
    const slug = `weighed-${crypto.randomUUID().slice(0, 8)}`;
    const at = Date.now();
    // The timed flush is not awaited here: the test flushes itself.
    const ignore = (promise: Promise<unknown>) => void promise.catch(() => undefined);
    const call = { userId: account.userId, keyId: account.keyId, apiSlug: slug, latencyMs: 30, at };
    recordCall(env.DB, ignore, { ...call, success: true, weight: 3 });
    recordCall(env.DB, ignore, { ...call, success: true });
    recordCall(env.DB, ignore, { ...call, success: false, weight: 2 });
    await flushUsage(env.DB);
    const month = await usageSince(env.DB, account.userId, at - 60_000);
    expect(month.byApi).toEqual([{ apiSlug: slug, calls: 4, errors: 2 }]);
    const hourly = (await apiUsageSinceHour(env.DB, utcHourStart(at))).find((row) => row.apiSlug === slug);
    expect(hourly).toMatchObject({ calls: 2, errors: 1, totalLatencyMs: 90 });
    // usage_daily's latency is per request, as its comment says: three requests of 30 ms, not
    // six calls' worth. Dividing it by `calls` would not give a mean; nothing does.
    const daily = await env.DB.prepare(
      "SELECT calls, errors, total_latency_ms, max_latency_ms FROM usage_daily WHERE key_id = ? AND api_slug = ?",
    )
      .bind(account.keyId, slug)
      .first();
    expect(daily).toEqual({ calls: 4, errors: 2, total_latency_ms: 90, max_latency_ms: 30 });
  });
});

describe("usage recorder: D1 writes per flush", () => {
  const ignore = (promise: Promise<unknown>) => void promise.catch(() => undefined);
  const lastUsedOf = (keyId: string) =>
    env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?").bind(keyId).first<number>("last_used_at");

  it("writes a key's last use once a minute, whatever the flushes in between", async () => {
    const account = await createAccountWithKey(env.DB);
    const call = { userId: account.userId, keyId: account.keyId, apiSlug: "lastused", latencyMs: 5, success: true };
    const first = Date.now();
    recordCall(env.DB, ignore, { ...call, at: first });
    await flushUsage(env.DB);
    expect(await lastUsedOf(account.keyId)).toBe(first);
    recordCall(env.DB, ignore, { ...call, at: first + 5_000 });
    await flushUsage(env.DB);
    // The day's rollup has both calls; the key's last use waits for its minute.
    expect(await lastUsedOf(account.keyId)).toBe(first);
    const daily = await env.DB.prepare("SELECT calls FROM usage_daily WHERE key_id = ? AND api_slug = 'lastused'")
      .bind(account.keyId)
      .first<number>("calls");
    expect(daily).toBe(2);
  });

  it("flushes after the window it is given, not before", async () => {
    const account = await createAccountWithKey(env.DB);
    const slug = `windowed-${crypto.randomUUID().slice(0, 8)}`;
    let timedFlush: Promise<unknown> | undefined;
    const started = Date.now();
    recordCall(
      env.DB,
      (promise) => (timedFlush = promise),
      { userId: account.userId, keyId: account.keyId, apiSlug: slug, latencyMs: 5, success: true, at: started },
      300,
    );
    const calls = () =>
      env.DB.prepare("SELECT calls FROM usage_daily WHERE key_id = ? AND api_slug = ?")
        .bind(account.keyId, slug)
        .first<number>("calls");
    expect(await calls()).toBeNull();
    await timedFlush;
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(await calls()).toBe(1);
  });
});
