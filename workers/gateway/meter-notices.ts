/**
 * What the gateway must hear when a key or a plan changes, once D1 holds the change: the
 * account's Meter, so the next call from any isolate and location stops believing a cached key
 * record (meter.ts), and the key caches (isolate memory and KV), so that call need not find it
 * out and reload. The use cases that change keys and plans take a `GatewayNotices` and give
 * the notice themselves (`revokeApiKey`, `rotateApiKey`, `grantPlan`, `settlePayment` and all
 * that settle through it), so no page action, handler or webhook has to remember to.
 *
 * A notice that fails is logged, not thrown: D1 already holds the change, and the caller (a
 * person revoking a key, a provider's webhook) cannot make the notice again by retrying. The
 * caches then catch up as they did before the Meter judged them: within KV's 5 minutes.
 *
 * Only types come from meter.ts, so the webhook Worker, which binds the app's Meter class by
 * name, does not bundle the class itself.
 */
import { forgetAccountKeys, forgetApiKey } from "./api-key-auth";
import type { GatewayNotices } from "~workers/platform/gateway-notices";
import type { Meter } from "./meter";

export type { GatewayNotices } from "~workers/platform/gateway-notices";

/** The real notices, over the bindings both Workers have (the app's and the webhook Worker's). */
export function gatewayNotices(bindings: {
  DB: D1Database;
  CACHE: KVNamespace;
  METER: MeterNamespace;
}): GatewayNotices {
  return {
    async keyRevoked(userId, key, at) {
      await Promise.all([
        noticeRevokedKey(bindings.METER, userId, key.id, at),
        forgetApiKey(bindings.CACHE, key).catch((error: unknown) =>
          console.error(`cached copy of key ${key.id} not forgotten:`, error),
        ),
      ]);
    },
    async planChanged(userId, version) {
      await Promise.all([
        noticePlanVersion(bindings.METER, userId, version),
        forgetAccountKeys(bindings.DB, bindings.CACHE, userId).catch((error: unknown) =>
          console.error(`cached keys of ${userId} not forgotten:`, error),
        ),
      ]);
    },
  };
}

export type MeterNamespace = DurableObjectNamespace<Meter>;

function meterOf(meters: MeterNamespace, userId: string) {
  return meters.get(meters.idFromName(userId));
}

async function noticeRevokedKey(meters: MeterNamespace, userId: string, keyId: string, at: number): Promise<void> {
  try {
    await meterOf(meters, userId).revokeKey({ keyId, at });
  } catch (error) {
    console.error(`Meter of ${userId} did not hear that key ${keyId} was revoked:`, error);
  }
}

async function noticePlanVersion(meters: MeterNamespace, userId: string, version: number): Promise<void> {
  try {
    await meterOf(meters, userId).recordPlanVersion(version);
  } catch (error) {
    console.error(`Meter of ${userId} did not hear of plan version ${version}:`, error);
  }
}
