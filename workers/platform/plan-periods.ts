/**
 * What a confirmed purchase does to an account's plan (payments issue, docs/product.md#plan-changes):
 *
 * - On Free, or after a paid plan has ended: the plan runs one month from the payment.
 * - The same plan again: one more month after the current end.
 * - A different paid plan while one runs: the new plan starts now, and the days left on the
 *   old one become days of the new one at the ratio of their prices (in the currency paid),
 *   so no paid day is lost in either direction.
 *
 * Months are calendar months in UTC (31 Jan + 1 month = 28/29 Feb), as the Meter's periods.
 */
import { addUtcMonths, effectivePlan, PLANS, type PlanId, type StoredPlan } from "./plans";

export type PaidPlanId = Exclude<PlanId, "free">;

function priceOf(planId: PaidPlanId, currency: "USD" | "INR"): number {
  return currency === "INR" ? PLANS[planId].price.inrPaise : PLANS[planId].price.usdCents;
}

export function applyPurchase(
  current: StoredPlan,
  purchase: { planId: PaidPlanId; currency: "USD" | "INR"; at: number },
): { planId: PaidPlanId; planExpiresAt: number } {
  const running = effectivePlan(current, purchase.at);
  if (running === "free" || current.planExpiresAt === null) {
    return { planId: purchase.planId, planExpiresAt: addUtcMonths(purchase.at, 1) };
  }
  if (running === purchase.planId) {
    return { planId: purchase.planId, planExpiresAt: addUtcMonths(current.planExpiresAt, 1) };
  }
  const leftMs = current.planExpiresAt - purchase.at;
  const ratio = priceOf(running, purchase.currency) / priceOf(purchase.planId, purchase.currency);
  return { planId: purchase.planId, planExpiresAt: addUtcMonths(purchase.at, 1) + Math.floor(leftMs * ratio) };
}

/** A refund or reversal ends the paid plan at once. */
export function applyRefund(): StoredPlan {
  return { planId: "free", planExpiresAt: null };
}
