import { describe, expect, it } from "vitest";
import { currentPlanPeriod, FREE_PLAN_FREEMIUM_CAP, PLANS } from "~workers/platform/plans";
import type { KeyRecord } from "../api-key-auth";
import { authorise } from "./authorise";

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 24 * 60 * 60 * 1000;

function recordOn(plan: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId: "key_step",
    userId: "usr_step",
    revoked: false,
    planId: "free",
    planExpiresAt: null,
    planVersion: 0,
    bonusCalls: 0,
    ...plan,
  };
}

const qrcode = { name: "QR Code", group: "free" as const };
const freemium = { name: "Freemium API", group: "freemium" as const };
const premiumApi = { name: "Premium API", group: "premium" as const };

describe("gateway step: authorise", () => {
  it("lets a Free account call a free API, by the Free plan's policy for this calendar month", () => {
    const result = authorise(recordOn({ bonusCalls: 200 }), qrcode, NOW);
    const period = currentPlanPeriod({ planId: "free", planExpiresAt: null }, NOW);
    expect(result.refusal).toBeUndefined();
    expect(result.planId).toBe("free");
    expect(result.policy).toEqual({
      now: NOW,
      perSecond: PLANS.free.perSecond,
      monthlyQuota: PLANS.free.monthlyQuota,
      periodStart: period.start,
      periodEnd: period.resetsAt,
      freemiumCap: null,
      bonusGranted: 200,
    });
    expect(result.windowSeconds).toBe(Math.round((period.resetsAt - period.start) / 1000));
  });

  it("caps a Free account's freemium calls, and only those", () => {
    expect(authorise(recordOn(), freemium, NOW).policy.freemiumCap).toBe(FREE_PLAN_FREEMIUM_CAP);
    const paid = recordOn({ planId: "standard", planExpiresAt: NOW + 10 * DAY });
    expect(authorise(paid, freemium, NOW).policy.freemiumCap).toBeNull();
  });

  it("refuses a premium API to a Free account, naming the plans that include it", () => {
    const result = authorise(recordOn(), premiumApi, NOW);
    expect(result.refusal).toEqual({
      type: "plan-required",
      detail: "Premium API is included in the Standard and Premium plans; yours is Free.",
      extensions: { plans: ["standard", "premium"] },
    });
  });

  it("lets a running paid plan call a premium API", () => {
    const result = authorise(recordOn({ planId: "premium", planExpiresAt: NOW + DAY }), premiumApi, NOW);
    expect(result.refusal).toBeUndefined();
    expect(result.policy.perSecond).toBe(PLANS.premium.perSecond);
  });

  it("judges an expired paid plan as Free: no premium APIs, Free limits", () => {
    for (const planExpiresAt of [NOW - 1, NOW]) {
      const result = authorise(recordOn({ planId: "premium", planExpiresAt }), premiumApi, NOW);
      expect(result.planId).toBe("free");
      expect(result.refusal?.type).toBe("plan-required");
      expect(result.policy.monthlyQuota).toBe(PLANS.free.monthlyQuota);
    }
  });

  it("refuses a revoked key even where its plan would allow the call", () => {
    const result = authorise(recordOn({ revoked: true, planId: "premium", planExpiresAt: NOW + DAY }), qrcode, NOW);
    expect(result.refusal).toMatchObject({ type: "revoked-api-key" });
  });
});
