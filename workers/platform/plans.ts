/**
 * The plan table (docs/product.md#plans). Prices live only here, on the server: the client never sends an
 * amount. Money is integer minor units (cents, paise).
 */
import { FREE_PLAN_FREEMIUM_CAP, REFERRAL_BONUS_CALLS, REFERRAL_DISCOUNT_PERCENT } from "~/lib/plans";

export type PlanId = "free" | "standard" | "premium";
export type PlanGroup = "free" | "freemium" | "premium";

export interface Plan {
  id: PlanId;
  name: string;
  /** Calls a month, all APIs combined. */
  monthlyQuota: number;
  /** Calls a second (the burst bucket's size). */
  perSecond: number;
  price: { usdCents: number; inrPaise: number };
  notes: readonly string[];
}

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: "free",
    name: "Free",
    monthlyQuota: 200,
    perSecond: 2,
    price: { usdCents: 0, inrPaise: 0 },
    notes: ["All APIs combined", "May be up to 10x slower at peak hours", "Lifetime access"],
  },
  standard: {
    id: "standard",
    name: "Standard",
    monthlyQuota: 20_000,
    perSecond: 5,
    price: { usdCents: 900, inrPaise: 2_100 },
    notes: ["Transaction charges included", "Fast at peak hours"],
  },
  premium: {
    id: "premium",
    name: "Premium",
    monthlyQuota: 50_000,
    perSecond: 8,
    price: { usdCents: 1_700, inrPaise: 4_600 },
    notes: ["Transaction charges included", "Highest priority"],
  },
};

export const PLAN_IDS = ["free", "standard", "premium"] as const satisfies readonly PlanId[];

// The freemium cap and the referral figures: the pages print them, so they live in a module
// that may ship to the browser.
export { FREE_PLAN_FREEMIUM_CAP, REFERRAL_BONUS_CALLS, REFERRAL_DISCOUNT_PERCENT };

export const PLAN_GROUP_LABELS: Record<PlanGroup, string> = {
  free: "Free",
  freemium: "Freemium",
  premium: "Premium",
};

/** Which plans may call an API of this group. */
export function plansIncludingGroup(group: PlanGroup): PlanId[] {
  return group === "premium" ? ["standard", "premium"] : [...PLAN_IDS];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Adds calendar months in UTC, clamping to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addUtcMonths(time: number, months: number): number {
  const date = new Date(time);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target.getTime() + (time % DAY_MS);
}

export interface PlanPeriod {
  planId: PlanId;
  /** When the current monthly period began and when the quota next resets. */
  start: number;
  resetsAt: number;
  /** When a paid plan ends unless renewed; null for Free. */
  expiresAt: number | null;
}

/** What an account's row says about its plan: the plan bought or granted, and when it ends. */
export interface StoredPlan {
  planId: PlanId;
  /** When a paid plan ends; null for Free (and for a paid plan without an end, which is not in force). */
  planExpiresAt: number | null;
}

/**
 * The plan in force at `now`: a paid plan until its expiry, Free before and after. This is the
 * one place that decides it; the gateway's policy, the plan periods, a purchase's start and the
 * pages all ask here, so none can think a plan runs that another thinks has ended.
 */
export function effectivePlan(account: StoredPlan, now: number): PlanId {
  if (account.planId === "free" || account.planExpiresAt === null) return "free";
  return account.planExpiresAt > now ? account.planId : "free";
}

/**
 * The monthly period a user's quota counts in. Free runs by calendar month (UTC); a paid plan
 * runs in months counted back from its expiry, so each period starts on the purchase's day.
 * An expired paid plan is Free again.
 */
export function currentPlanPeriod(user: StoredPlan, now: number): PlanPeriod {
  const planId = effectivePlan(user, now);
  if (planId !== "free" && user.planExpiresAt !== null) {
    let end = user.planExpiresAt;
    let start = addUtcMonths(end, -1);
    while (start > now) {
      end = start;
      start = addUtcMonths(end, -1);
    }
    return { planId, start, resetsAt: end, expiresAt: user.planExpiresAt };
  }
  const date = new Date(now);
  return {
    planId: "free",
    start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    resetsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
    expiresAt: null,
  };
}

/**
 * What a plan costs this buyer, in minor units of their currency: the table's price, less the
 * referral discount for a referred user, rounded to the nearest minor unit. The server is the
 * only place this is computed; the client never sends an amount.
 */
export function priceFor(planId: Exclude<PlanId, "free">, currency: "USD" | "INR", referred: boolean): number {
  const plan = PLANS[planId];
  const list = currency === "INR" ? plan.price.inrPaise : plan.price.usdCents;
  return referred ? Math.round((list * (100 - REFERRAL_DISCOUNT_PERCENT)) / 100) : list;
}
