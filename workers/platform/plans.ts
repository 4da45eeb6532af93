/**
 * The plan table (spec §9). Prices live only here, on the server: the client never sends an
 * amount. Money is integer minor units (cents, paise).
 */
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

/** Free-plan calls a month that may go to freemium APIs (the rest of the quota is free APIs). */
export const FREE_PLAN_FREEMIUM_CAP = 50;

/** Bonus calls a referred user receives (spec §9). */
export const REFERRAL_BONUS_CALLS = 200;
/** Discount on every plan for a referred user, in percent (spec §9). */
export const REFERRAL_DISCOUNT_PERCENT = 5;

export const PLAN_GROUP_LABELS: Record<PlanGroup, string> = {
  free: "Free",
  freemium: "Freemium",
  premium: "Premium",
};

/** Which plans may call an API of this group. */
export function plansIncludingGroup(group: PlanGroup): PlanId[] {
  return group === "premium" ? ["standard", "premium"] : [...PLAN_IDS];
}
