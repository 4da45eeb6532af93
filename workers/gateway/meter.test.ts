import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REVOKED_KEY_MEMORY_MS, type MeterPolicy } from "./meter";

const MONTH_START = Date.UTC(2026, 10, 1);
const MONTH_END = Date.UTC(2026, 11, 1);
const NOW = Date.UTC(2026, 10, 15, 12);

function meter() {
  return env.METER.get(env.METER.idFromName(`usr_${crypto.randomUUID()}`));
}

function policy(overrides: Partial<MeterPolicy> = {}): MeterPolicy {
  return {
    now: NOW,
    perSecond: 8,
    monthlyQuota: 50_000,
    periodStart: MONTH_START,
    periodEnd: MONTH_END,
    freemiumCap: null,
    bonusGranted: 0,
    ...overrides,
  };
}

describe("Meter", () => {
  it("lets exactly 8 of 20 simultaneous Premium calls through", async () => {
    const stub = meter();
    const results = await Promise.all(Array.from({ length: 20 }, () => stub.take(policy())));
    expect(results.filter((r) => r.ok)).toHaveLength(8);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(12);
    expect(refused.every((r) => !r.ok && r.limit === "burst" && r.retryAfterSeconds === 1)).toBe(true);
  });

  it("refills one token per 1/size of a second, never above the size", async () => {
    const stub = meter();
    for (let i = 0; i < 2; i++) await stub.take(policy({ perSecond: 2 }));
    expect((await stub.take(policy({ perSecond: 2 }))).ok).toBe(false);
    expect((await stub.take(policy({ perSecond: 2, now: NOW + 499 }))).ok).toBe(false);
    expect((await stub.take(policy({ perSecond: 2, now: NOW + 500 }))).ok).toBe(true);
    const later = await stub.peek(policy({ perSecond: 2, now: NOW + 60_000 }));
    expect(later.burstRemaining).toBe(2);
  });

  it("counts a call when it lets it through, and gives back a refunded failure", async () => {
    const stub = meter();
    const p = policy({ monthlyQuota: 3 });
    for (const success of [true, false, true]) {
      const taken = await stub.take({ ...p, now: p.now + 1_000 * (success ? 1 : 2) });
      expect(taken.ok).toBe(true);
      if (!success && taken.ok) {
        await stub.refund({
          periodStart: MONTH_START,
          perSecond: p.perSecond,
          weight: taken.weight,
          countsFreemium: taken.countsFreemium,
          bonusSpent: taken.bonusSpent,
        });
      }
    }
    const counts = await stub.peek({ ...p, now: NOW + 10_000 });
    expect(counts.used).toBe(2);
    expect(counts.monthlyRemaining).toBe(1);
  });

  it("allows exactly 50 freemium calls a month on Free, then refuses with the freemium limit", async () => {
    const stub = meter();
    let succeeded = 0;
    for (let i = 0; i < 51; i++) {
      const taken = await stub.take(policy({ perSecond: 2, monthlyQuota: 200, freemiumCap: 50, now: NOW + i * 1_000 }));
      if (taken.ok) {
        succeeded++;
      } else {
        expect(taken).toMatchObject({
          limit: "freemium",
          retryAfterSeconds: Math.ceil((MONTH_END - (NOW + i * 1_000)) / 1000),
        });
      }
    }
    expect(succeeded).toBe(50);
    // Free APIs still work: the cap is on freemium calls only.
    expect((await stub.take(policy({ perSecond: 2, monthlyQuota: 200, now: NOW + 60_000 }))).ok).toBe(true);
  });

  it("refuses the call after the monthly quota, and starts again next period", async () => {
    const stub = meter();
    const p = (now: number, periodStart = MONTH_START, periodEnd = MONTH_END) =>
      policy({ perSecond: 2, monthlyQuota: 3, now, periodStart, periodEnd });
    for (let i = 0; i < 3; i++) {
      expect((await stub.take(p(NOW + i * 1_000))).ok).toBe(true);
    }
    const refused = await stub.take(p(NOW + 10_000));
    expect(refused).toMatchObject({ ok: false, limit: "monthly", monthlyRemaining: 0 });
    const nextMonth = await stub.take(p(MONTH_END + 1_000, MONTH_END, Date.UTC(2027, 0, 1)));
    expect(nextMonth).toMatchObject({ ok: true, monthlyRemaining: 2 });
  });

  it("spends the referral bonus after the quota, once", async () => {
    const stub = meter();
    const p = (i: number) => policy({ perSecond: 2, monthlyQuota: 2, bonusGranted: 2, now: NOW + i * 1_000 });
    let succeeded = 0;
    for (let i = 0; i < 6; i++) {
      const taken = await stub.take(p(i));
      if (!taken.ok) break;
      succeeded++;
      expect(taken.bonusSpent).toBe(i >= 2 ? 1 : 0);
    }
    expect(succeeded).toBe(4);
    // A refunded bonus call is a bonus call again.
    await stub.refund({ periodStart: MONTH_START, perSecond: 2, weight: 1, countsFreemium: false, bonusSpent: 1 });
    expect((await stub.peek(p(10))).monthlyRemaining).toBe(1);
    // Next month: the quota again, plus the one bonus call that was given back.
    const next = await stub.peek(
      policy({
        perSecond: 2,
        monthlyQuota: 2,
        bonusGranted: 2,
        now: MONTH_END + 1,
        periodStart: MONTH_END,
        periodEnd: Date.UTC(2027, 0, 1),
      }),
    );
    expect(next.monthlyLimit).toBe(3);
  });

  it("keeps its counts across a restart of the object", async () => {
    const id = `usr_${crypto.randomUUID()}`;
    const stub = env.METER.get(env.METER.idFromName(id));
    for (let i = 0; i < 3; i++) {
      await stub.take(policy({ now: NOW + i * 1_000 }));
    }
    await abortAllDurableObjects();
    const again = env.METER.get(env.METER.idFromName(id));
    const counts = await again.peek(policy({ now: NOW + 5_000 }));
    expect(counts.used).toBe(3);
    expect(counts.monthlyRemaining).toBe(49_997);
  });
});

describe("Meter: a call's weight (decision 048)", () => {
  it("refuses a batch of 50 whole with 40 calls left, counting nothing, then lets 40 through", async () => {
    const stub = meter();
    const p = (i: number) => policy({ monthlyQuota: 200, now: NOW + i * 60_000 });
    expect((await stub.take(p(0), undefined, 160)).ok).toBe(true);
    const refused = await stub.take(p(1), undefined, 50);
    expect(refused).toMatchObject({ ok: false, limit: "monthly", monthlyRemaining: 40, burstRemaining: 8 });
    const after = await stub.peek(p(2));
    expect(after).toMatchObject({ used: 160, monthlyRemaining: 40, burstRemaining: 8 });
    expect((await stub.take(p(3), undefined, 40)).ok).toBe(true);
    expect((await stub.peek(p(4))).monthlyRemaining).toBe(0);
  });

  it("takes a weight-3 call as 3 calls from the month and the bucket, and gives all 3 back", async () => {
    const stub = meter();
    const taken = await stub.take(policy({ monthlyQuota: 100 }), undefined, 3);
    expect(taken).toMatchObject({ ok: true, weight: 3, burstRemaining: 5, monthlyRemaining: 97, bonusSpent: 0 });
    expect((await stub.peek(policy({ monthlyQuota: 100 }))).used).toBe(3);
    await stub.refund({ periodStart: MONTH_START, perSecond: 8, weight: 3, countsFreemium: false, bonusSpent: 0 });
    expect((await stub.peek(policy({ monthlyQuota: 100 }))).used).toBe(0);
  });

  it("refuses a weight-3 call when the bucket holds 2, counting nothing", async () => {
    const stub = meter();
    await stub.take(policy(), undefined, 6);
    const refused = await stub.take(policy(), undefined, 3);
    // One token comes every 125 ms: the third is 125 ms away, so a whole second.
    expect(refused).toMatchObject({ ok: false, limit: "burst", retryAfterSeconds: 1, burstRemaining: 2 });
    expect((await stub.peek(policy())).used).toBe(6);
  });

  it("lets a batch heavier than the bucket through only when it is full, and repays its debt at the plan's rate", async () => {
    const stub = meter();
    const p = (at: number) => policy({ perSecond: 5, now: NOW + at });
    expect((await stub.take(p(0), undefined, 1)).ok).toBe(true);
    // Four tokens left: a batch of 50 waits for the fifth (200 ms away).
    expect(await stub.take(p(0), undefined, 50)).toMatchObject({ ok: false, limit: "burst", retryAfterSeconds: 1 });
    const batch = await stub.take(p(200), undefined, 50);
    // 5 - 50 = 45 tokens owed: the next token is 46 intervals of 200 ms away, 9.2 s.
    expect(batch).toMatchObject({ ok: true, burstRemaining: 0, burstResetSeconds: 10 });
    expect(await stub.take(p(9_000), undefined, 1)).toMatchObject({ ok: false, limit: "burst", retryAfterSeconds: 1 });
    expect((await stub.take(p(9_400), undefined, 1)).ok).toBe(true);
    expect((await stub.peek(p(9_400))).used).toBe(52);
  });

  it("gives a refunded call's tokens back to the bucket too, so a failed batch leaves no debt", async () => {
    const stub = meter();
    const p = policy({ perSecond: 5 });
    const batch = await stub.take(p, undefined, 50);
    expect(batch).toMatchObject({ ok: true, burstRemaining: 0 });
    await stub.refund({ periodStart: MONTH_START, perSecond: 5, weight: 50, countsFreemium: false, bonusSpent: 0 });
    // The whole weight comes back, but never more than a full bucket.
    expect(await stub.peek(p)).toMatchObject({ used: 0, burstRemaining: 5, burstResetSeconds: 0 });
    expect((await stub.take(p, undefined, 5)).ok).toBe(true);
    // One call refunded in a busy second gives back its one token.
    const single = meter();
    for (let i = 0; i < 5; i++) await single.take(p);
    await single.refund({ periodStart: MONTH_START, perSecond: 5, weight: 1, countsFreemium: false, bonusSpent: 0 });
    expect((await single.peek(p)).burstRemaining).toBe(1);
  });

  it("counts a batch's bonus calls one by one past the quota, and the freemium cap by weight", async () => {
    const stub = meter();
    const p = policy({ monthlyQuota: 10, bonusGranted: 5 });
    expect(await stub.take(p, undefined, 8)).toMatchObject({ ok: true, bonusSpent: 0 });
    expect(await stub.take({ ...p, now: NOW + 10_000 }, undefined, 5)).toMatchObject({
      ok: true,
      bonusSpent: 3,
      monthlyRemaining: 2,
    });
    const capped = meter();
    const f = policy({ perSecond: 2, monthlyQuota: 200, freemiumCap: 50 });
    expect((await capped.take(f, undefined, 2)).ok).toBe(true);
    const overCap = policy({ perSecond: 50, monthlyQuota: 200, freemiumCap: 50, now: NOW + 60_000 });
    expect(await capped.take(overCap, undefined, 49)).toMatchObject({ ok: false, limit: "freemium" });
    expect((await capped.peek(overCap)).freemiumUsed).toBe(2);
  });
});

describe("Meter: judging the gateway's cached key records", () => {
  const caller = (keyId: string, planVersion = 0) => ({ keyId, planVersion });

  it("refuses a record naming a revoked key, counting nothing, and passes every other key", async () => {
    const stub = meter();
    expect((await stub.take(policy(), caller("key_a"))).ok).toBe(true);
    await stub.revokeKey({ keyId: "key_a", at: NOW });
    expect(await stub.take(policy({ now: NOW + 1 }), caller("key_a"))).toEqual({ ok: false, stale: "key-revoked" });
    expect((await stub.peek(policy({ now: NOW + 2 }), caller("key_a"))).stale).toBe("key-revoked");
    // A key the Meter never heard of is D1's to judge: it passes.
    expect((await stub.take(policy({ now: NOW + 3 }), caller("key_b"))).ok).toBe(true);
    expect((await stub.peek(policy({ now: NOW + 4 }))).used).toBe(2);
  });

  it("refuses a record of an older plan version once told of a newer one, whatever order notices come in", async () => {
    const stub = meter();
    // Never told: any version passes.
    expect((await stub.take(policy(), caller("key_a", 0))).ok).toBe(true);
    await stub.recordPlanVersion(3);
    await stub.recordPlanVersion(2);
    expect(await stub.take(policy({ now: NOW + 1 }), caller("key_a", 2))).toEqual({ ok: false, stale: "plan-changed" });
    expect((await stub.peek(policy({ now: NOW + 2 }), caller("key_a", 2))).stale).toBe("plan-changed");
    expect((await stub.take(policy({ now: NOW + 3 }), caller("key_a", 3))).ok).toBe(true);
    expect((await stub.peek(policy({ now: NOW + 4 }), caller("key_a", 3))).stale).toBeUndefined();
  });

  it("learns a newer plan version from a record fresh from D1, and refuses the older records after it", async () => {
    const stub = meter();
    expect((await stub.take(policy(), caller("key_a", 1))).ok).toBe(true);
    expect((await stub.take(policy({ now: NOW + 1 }), caller("key_b", 2))).ok).toBe(true);
    expect(await stub.take(policy({ now: NOW + 2 }), caller("key_a", 1))).toEqual({ ok: false, stale: "plan-changed" });
  });

  it("keeps revocations and the plan version across a restart, and forgets a revocation after a day", async () => {
    const id = `usr_${crypto.randomUUID()}`;
    const stub = env.METER.get(env.METER.idFromName(id));
    await stub.revokeKey({ keyId: "key_old", at: NOW });
    await stub.recordPlanVersion(5);
    await abortAllDurableObjects();
    const again = env.METER.get(env.METER.idFromName(id));
    expect((await again.take(policy(), caller("key_old", 5))).stale).toBe("key-revoked");
    expect((await again.take(policy({ now: NOW + 1 }), caller("key_new", 4))).stale).toBe("plan-changed");
    // A day on, no cache can still hold the old key as live: the list does not grow for ever.
    await again.revokeKey({ keyId: "key_later", at: NOW + REVOKED_KEY_MEMORY_MS + 1 });
    expect((await again.take(policy({ now: NOW + 2 }), caller("key_old", 5))).ok).toBe(true);
    expect((await again.take(policy({ now: NOW + 3 }), caller("key_later", 5))).stale).toBe("key-revoked");
  });
});
