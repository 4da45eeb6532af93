import { describe, expect, it } from "vitest";
import { currentPlanPeriod, effectivePlan } from "./plans";

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 24 * 60 * 60 * 1000;

describe("effectivePlan: the one answer to 'which plan is in force'", () => {
  it.each([
    ["Free", { planId: "free", planExpiresAt: null }, "free"],
    ["Free with a stray end date", { planId: "free", planExpiresAt: NOW + DAY }, "free"],
    ["a paid plan before its end", { planId: "premium", planExpiresAt: NOW + 1 }, "premium"],
    ["a paid plan at its end", { planId: "standard", planExpiresAt: NOW }, "free"],
    ["a paid plan after its end", { planId: "standard", planExpiresAt: NOW - DAY }, "free"],
    ["a paid plan without an end", { planId: "premium", planExpiresAt: null }, "free"],
  ] as const)("%s is %s", (_label, account, expected) => {
    expect(effectivePlan(account, NOW)).toBe(expected);
  });

  it("agrees with the plan period the Meter counts in", () => {
    for (const account of [
      { planId: "premium" as const, planExpiresAt: NOW + 40 * DAY },
      { planId: "premium" as const, planExpiresAt: NOW },
      { planId: "standard" as const, planExpiresAt: null },
      { planId: "free" as const, planExpiresAt: null },
    ]) {
      expect(currentPlanPeriod(account, NOW).planId).toBe(effectivePlan(account, NOW));
    }
  });

  it("counts a running paid plan's periods back from its end, and Free's by calendar month", () => {
    const end = Date.UTC(2027, 0, 5, 9);
    expect(currentPlanPeriod({ planId: "standard", planExpiresAt: end }, NOW)).toEqual({
      planId: "standard",
      start: Date.UTC(2026, 10, 5, 9),
      resetsAt: Date.UTC(2026, 11, 5, 9),
      expiresAt: end,
    });
    expect(currentPlanPeriod({ planId: "standard", planExpiresAt: NOW - 1 }, NOW)).toEqual({
      planId: "free",
      start: Date.UTC(2026, 10, 1),
      resetsAt: Date.UTC(2026, 11, 1),
      expiresAt: null,
    });
  });
});
