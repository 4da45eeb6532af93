import { describe, expect, it } from "vitest";
import { applyPurchase, applyRefund } from "./plan-periods";
import { addUtcMonths } from "./plans";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 22, 10);

describe("applyPurchase", () => {
  it("runs a first purchase one calendar month from the payment", () => {
    expect(
      applyPurchase({ planId: "free", planExpiresAt: null }, { planId: "standard", currency: "USD", at: NOW }),
    ).toEqual({
      planId: "standard",
      planExpiresAt: Date.UTC(2026, 11, 22, 10),
    });
  });

  it("treats an ended paid plan like Free", () => {
    const ended = { planId: "premium" as const, planExpiresAt: NOW - DAY };
    expect(applyPurchase(ended, { planId: "standard", currency: "USD", at: NOW }).planExpiresAt).toBe(
      Date.UTC(2026, 11, 22, 10),
    );
  });

  it("extends the same plan by a month after its current end", () => {
    const current = { planId: "standard" as const, planExpiresAt: Date.UTC(2026, 11, 5) };
    expect(applyPurchase(current, { planId: "standard", currency: "USD", at: NOW })).toEqual({
      planId: "standard",
      planExpiresAt: Date.UTC(2027, 0, 5),
    });
  });

  it("starts Premium now and turns the Standard days left into Premium days at the price ratio", () => {
    const current = { planId: "standard" as const, planExpiresAt: NOW + 17 * DAY };
    const upgraded = applyPurchase(current, { planId: "premium", currency: "USD", at: NOW });
    expect(upgraded.planId).toBe("premium");
    // 17 Standard days at $9 are worth 9 Premium days at $17.
    expect(upgraded.planExpiresAt - addUtcMonths(NOW, 1)).toBe(9 * DAY);
  });

  it("uses the ratio of the currency paid in", () => {
    const current = { planId: "standard" as const, planExpiresAt: NOW + 46 * DAY };
    const upgraded = applyPurchase(current, { planId: "premium", currency: "INR", at: NOW });
    // 46 days at ₹21 are worth 21 days at ₹46.
    expect(upgraded.planExpiresAt - addUtcMonths(NOW, 1)).toBe(21 * DAY);
  });

  it("keeps the value of Premium days when moving to Standard", () => {
    const current = { planId: "premium" as const, planExpiresAt: NOW + 9 * DAY };
    const moved = applyPurchase(current, { planId: "standard", currency: "USD", at: NOW });
    expect(moved.planExpiresAt - addUtcMonths(NOW, 1)).toBe(17 * DAY);
  });

  it("clamps month ends: bought on 31 January, a plan ends on the last day of February", () => {
    const at = Date.UTC(2027, 0, 31, 12);
    expect(
      applyPurchase({ planId: "free", planExpiresAt: null }, { planId: "standard", currency: "USD", at }).planExpiresAt,
    ).toBe(Date.UTC(2027, 1, 28, 12));
  });
});

describe("applyRefund", () => {
  it("ends the paid plan", () => {
    expect(applyRefund()).toEqual({ planId: "free", planExpiresAt: null });
  });
});
