/**
 * The plan figures the pages print beside the prices (docs/product.md#plans,
 * docs/product.md#referral). This module ships to the browser; the plan table itself, with the
 * prices, lives on the server (workers/platform/plans.ts), which reads these from here.
 */

/** Free-plan calls a month that may go to freemium APIs (the rest of the quota is free APIs). */
export const FREE_PLAN_FREEMIUM_CAP = 50;

/** Bonus calls a referred user receives. */
export const REFERRAL_BONUS_CALLS = 200;
/** Discount on every plan for a referred user, in percent. */
export const REFERRAL_DISCOUNT_PERCENT = 5;
