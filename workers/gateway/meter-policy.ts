/**
 * Which Meter counts an account, and the policy it counts by. The gateway asks it per call;
 * the dashboard asks it too, so the page shows the same numbers as the `X-RateLimit-*` headers.
 */
import type { MeterCounts, MeterPolicy } from "./meter";
import type { HostedApi } from "~workers/hosted/registry";
import { currentPlanPeriod, effectivePlan, FREE_PLAN_FREEMIUM_CAP, PLANS, type PlanId } from "~workers/platform/plans";

/** What the policy depends on: the account's plan and the referral bonus it was granted. */
export interface MeteredAccount {
  userId: string;
  planId: PlanId;
  planExpiresAt: number | null;
  bonusCalls: number;
}

/**
 * Meter ids by account, for the isolate's life: an id is a plain value (a hash of the name),
 * unlike a stub, which belongs to one request and is made fresh each time.
 */
const meterIds = new Map<string, DurableObjectId>();
const MAX_METER_IDS = 10_000;

export function meterFor(env: Env, userId: string) {
  let id = meterIds.get(userId);
  if (!id) {
    id = env.METER.idFromName(userId);
    if (meterIds.size >= MAX_METER_IDS) meterIds.clear();
    meterIds.set(userId, id);
  }
  return env.METER.get(id);
}

/** The plan in force and the Meter policy for a call to an API of `group` at `now`. */
export function meterPolicy(
  account: MeteredAccount,
  group: HostedApi["group"],
  now: number,
): { planId: PlanId; policy: MeterPolicy } {
  const planId = effectivePlan(account, now);
  const plan = PLANS[planId];
  const period = currentPlanPeriod({ planId, planExpiresAt: account.planExpiresAt }, now);
  return {
    planId,
    policy: {
      now,
      perSecond: plan.perSecond,
      monthlyQuota: plan.monthlyQuota,
      periodStart: period.start,
      periodEnd: period.resetsAt,
      freemiumCap: planId === "free" && group === "freemium" ? FREE_PLAN_FREEMIUM_CAP : null,
      bonusGranted: account.bonusCalls,
    },
  };
}

/** Where the account stands this period, exactly as the Meter counts it (nothing is counted). */
export async function meterStanding(
  env: Env,
  account: MeteredAccount,
  now: number,
): Promise<MeterCounts & { used: number; freemiumUsed: number }> {
  const { policy } = meterPolicy(account, "free", now);
  return meterFor(env, account.userId).peek(policy);
}
