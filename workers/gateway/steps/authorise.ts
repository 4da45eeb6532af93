/**
 * Step 2: what the account's plan allows. The plan in force (`effectivePlan`: an expired paid
 * plan is Free) gives the Meter's policy for this call; a revoked key, or an API outside the
 * plan's groups, is refused here. The refusal has no rate-limit headers yet: the Meter step
 * adds where the account stands, and may find the record stale first.
 */
import type { HostedApi } from "~workers/hosted/registry";
import { PLANS, plansIncludingGroup, type PlanId } from "~workers/platform/plans";
import type { KeyRecord } from "../api-key-auth";
import type { MeterPolicy } from "../meter";
import { meterPolicy } from "../meter-policy";
import type { Refusal } from "./refusal";

export interface Authorisation {
  planId: PlanId;
  policy: MeterPolicy;
  /** The monthly period's length, for the rate-limit headers. */
  windowSeconds: number;
  /** Why the call may not go on; absent when the plan allows it. */
  refusal?: Refusal;
}

export const REVOKED_KEY: Refusal = {
  type: "revoked-api-key",
  detail: "This API key was revoked. Create a new one on your API Key page.",
};

export function authorise(record: KeyRecord, api: Pick<HostedApi, "name" | "group">, now: number): Authorisation {
  const { planId, policy } = meterPolicy(record, api.group, now);
  const windowSeconds = Math.round((policy.periodEnd - policy.periodStart) / 1000);
  if (record.revoked) return { planId, policy, windowSeconds, refusal: REVOKED_KEY };
  const allowed = plansIncludingGroup(api.group);
  if (allowed.includes(planId)) return { planId, policy, windowSeconds };
  const names = allowed.map((id) => PLANS[id].name);
  return {
    planId,
    policy,
    windowSeconds,
    refusal: {
      type: "plan-required",
      detail: `${api.name} is included in the ${names.join(" and ")} plans; yours is ${PLANS[planId].name}.`,
      extensions: { plans: allowed },
    },
  };
}
