import { describe, expect, it } from "vitest";
import type { KeyRecord } from "../api-key-auth";
import type { MeterCounts, Standing, TakeResult } from "../meter";
import { scriptedMeter } from "../../../tests/fakes/services";
import { authorise } from "./authorise";
import { meterCall } from "./meter-call";

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 24 * 60 * 60 * 1000;

const record: KeyRecord = {
  keyId: "key_step",
  userId: "usr_step",
  revoked: false,
  planId: "free",
  planExpiresAt: null,
  planVersion: 3,
  bonusCalls: 0,
};
const freeApi = { name: "Color Converter", group: "free" as const };
const premiumApi = { name: "Premium API", group: "premium" as const };

const counts: MeterCounts = {
  burstLimit: 2,
  burstRemaining: 1,
  burstResetSeconds: 0,
  monthlyLimit: 200,
  monthlyRemaining: 150,
  monthlyResetSeconds: 86_400,
};
const standing: Standing = { ...counts, used: 50, freemiumUsed: 0 };

describe("gateway step: meter", () => {
  it("counts an allowed call and shows the counts after it", async () => {
    const { meter, asked } = scriptedMeter({
      take: [{ ok: true, weight: 1, countsFreemium: false, bonusSpent: 0, ...counts }],
    });
    const result = await meterCall(meter, record, authorise(record, freeApi, NOW));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.headers["X-RateLimit-Remaining"]).toBe("150");
    expect(result.headers["X-RateLimit-Limit"]).toBe("200");
    expect(result.headers.RateLimit).toBe('"burst";r=1;t=0, "monthly";r=150;t=86400');
    // The Meter judges the record the call was let in on: its key and plan version.
    expect(asked.callers).toEqual([{ keyId: "key_step", planVersion: 3 }]);
  });

  it.each([
    ["burst", "rate-limited", 1],
    ["monthly", "monthly-quota-exceeded", 3600],
    ["freemium", "monthly-quota-exceeded", 3600],
  ] as const)("answers the %s limit as %s with Retry-After", async (limit, type, retryAfterSeconds) => {
    const refused: TakeResult = { ok: false, limit, retryAfterSeconds, ...counts, monthlyRemaining: 0 };
    const { meter } = scriptedMeter({ take: [refused] });
    const result = await meterCall(meter, record, authorise(record, freeApi, NOW));
    expect(result).toMatchObject({ ok: false, refusal: { type, extensions: { limit } } });
    if (result.ok) return;
    expect(result.stale).toBeUndefined();
    expect(result.refusal.headers?.["Retry-After"]).toBe(String(retryAfterSeconds));
    expect(result.refusal.headers?.["X-RateLimit-Remaining"]).toBe("0");
  });

  it("says the burst limit in the plan's own calls a second", async () => {
    const { meter } = scriptedMeter({ take: [{ ok: false, limit: "burst", retryAfterSeconds: 1, ...counts }] });
    const result = await meterCall(meter, record, authorise(record, freeApi, NOW));
    expect(!result.ok && result.refusal.detail).toMatch(/^Your plan allows 2 calls a second\./);
  });

  it("asks the Meter for the call's weight, and says it when a limit refuses it", async () => {
    const { meter } = scriptedMeter({
      take: [{ ok: false, limit: "burst", retryAfterSeconds: 4, ...counts, burstRemaining: 0 }],
    });
    const asked: number[] = [];
    const weighed = {
      ...meter,
      take: (...args: Parameters<typeof meter.take>) => (asked.push(args[2] ?? 1), meter.take(...args)),
    };
    const result = await meterCall(weighed, record, authorise(record, freeApi, NOW), 7);
    expect(asked).toEqual([7]);
    expect(result).toMatchObject({ ok: false, refusal: { extensions: { limit: "burst", weight: 7 } } });
    expect(!result.ok && result.refusal.detail).toMatch(/This call counts as 7 calls; none of it was counted\.$/);
    expect(!result.ok && result.refusal.headers?.["Retry-After"]).toBe("4");
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses to meter a weight of %s: it is a bug in a definition", async (weight) => {
    const { meter, asked } = scriptedMeter();
    await expect(meterCall(meter, record, authorise(record, freeApi, NOW), weight)).rejects.toThrow(RangeError);
    expect(asked.take).toBe(0);
  });

  it.each([
    ["key-revoked", "revoked-api-key"],
    ["plan-changed", "service-unavailable"],
  ] as const)("asks for the record again when the Meter says it is stale (%s)", async (stale, type) => {
    const { meter } = scriptedMeter({ take: [{ ok: false, stale }] });
    const result = await meterCall(meter, record, authorise(record, freeApi, NOW));
    expect(result).toMatchObject({ ok: false, stale, refusal: { type } });
  });

  it("does not count a call the plan refuses, but shows where the account stands", async () => {
    const { meter, asked } = scriptedMeter({ peek: [standing] });
    const result = await meterCall(meter, record, authorise(record, premiumApi, NOW));
    expect(asked.take).toBe(0);
    expect(result).toMatchObject({ ok: false, refusal: { type: "plan-required" } });
    if (result.ok) return;
    expect(result.stale).toBeUndefined();
    expect(result.refusal.headers?.["X-RateLimit-Remaining"]).toBe("150");
    // The plan refusal is judged on the record, which may be older than a purchase.
    expect(asked.callers).toEqual([{ keyId: "key_step", planVersion: 3 }]);
  });

  it("lets a plan refusal be judged again when the Meter knows of a newer plan", async () => {
    const { meter } = scriptedMeter({ peek: [{ ...standing, stale: "plan-changed" }] });
    const result = await meterCall(meter, record, authorise(record, premiumApi, NOW));
    expect(result).toMatchObject({ ok: false, stale: "plan-changed", refusal: { type: "plan-required" } });
  });

  it("never reopens a revoked key: its record is not put to the Meter", async () => {
    const revoked = { ...record, revoked: true, planId: "premium" as const, planExpiresAt: NOW + DAY };
    const { meter, asked } = scriptedMeter({ peek: [standing] });
    const result = await meterCall(meter, revoked, authorise(revoked, freeApi, NOW));
    expect(result).toMatchObject({ ok: false, refusal: { type: "revoked-api-key" } });
    expect(asked.callers).toEqual([undefined]);
    expect(asked.take).toBe(0);
  });
});
