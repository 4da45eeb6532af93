/**
 * Telling an account's Meter that one of its keys was revoked or its plan changed, so the
 * gateway's next call, from any isolate and location, stops believing a cached key record
 * (meter.ts). The use cases that change keys and plans call these once D1 holds the change:
 * `revokeApiKey`, `settlePayment`, `grantPlan`.
 *
 * A notice that fails is logged, not thrown: D1 already holds the change, and the caller (a
 * person revoking a key, a provider's webhook) cannot make the notice again by retrying. The
 * caches then catch up as they did before the Meter judged them: within KV's 5 minutes.
 *
 * Only types come from meter.ts, so the webhook Worker, which binds the app's Meter class by
 * name, does not bundle the class itself.
 */
import type { Meter } from "./meter";

export type MeterNamespace = DurableObjectNamespace<Meter>;

function meterOf(meters: MeterNamespace, userId: string) {
  return meters.get(meters.idFromName(userId));
}

export async function noticeRevokedKey(
  meters: MeterNamespace,
  userId: string,
  keyId: string,
  at: number,
): Promise<void> {
  try {
    await meterOf(meters, userId).revokeKey({ keyId, at });
  } catch (error) {
    console.error(`Meter of ${userId} did not hear that key ${keyId} was revoked:`, error);
  }
}

export async function noticePlanVersion(meters: MeterNamespace, userId: string, version: number): Promise<void> {
  try {
    await meterOf(meters, userId).recordPlanVersion(version);
  } catch (error) {
    console.error(`Meter of ${userId} did not hear of plan version ${version}:`, error);
  }
}
