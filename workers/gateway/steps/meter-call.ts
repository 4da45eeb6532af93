/**
 * Step 3: the account's Meter counts the call, or says which limit stops it, or that the
 * record the call was judged on is stale. A call the plan already refused is not counted: the
 * Meter is only asked where the account stands, so even a refusal shows it in its headers.
 *
 * The Meter counts on the way in (decision 012): concurrent calls can never overshoot, and the
 * answer step gives back a call that turns out not to count.
 */
import { FREE_PLAN_FREEMIUM_CAP } from "~workers/platform/plans";
import type { KeyRecord } from "../api-key-auth";
import type { CallerRecord, LimitKind, MeterCounts, StaleReason } from "../meter";
import { rateLimitHeaders } from "../rate-limit-headers";
import type { AccountMeter } from "../services";
import { REVOKED_KEY, type Authorisation } from "./authorise";
import type { Refusal } from "./refusal";

/** A call the Meter let through and counted, as `weight` calls. */
export type Taken = MeterCounts & { weight: number; countsFreemium: boolean; bonusSpent: number };

export type Metering =
  | { ok: true; taken: Taken; headers: Record<string, string> }
  /**
   * `stale`: the Meter knows of a revoke or a plan change the record does not. Read the record
   * again and meter once more; `refusal` is the answer when that has already been done.
   */
  | { ok: false; refusal: Refusal; stale?: StaleReason };

const LIMITS: Record<LimitKind, { type: Refusal["type"]; detail: (perSecond: number) => string }> = {
  burst: {
    type: "rate-limited",
    detail: (perSecond) => `Your plan allows ${perSecond} calls a second. Retry after the Retry-After seconds.`,
  },
  monthly: {
    type: "monthly-quota-exceeded",
    detail: () => "This month's calls are used up. They reset at the period's end, or upgrade your plan.",
  },
  // The freemium cap is part of the Free plan's month, so it answers as the monthly limit
  // (decision 021); the problem's `limit` member says which one.
  freemium: {
    type: "monthly-quota-exceeded",
    detail: () =>
      `The Free plan includes ${FREE_PLAN_FREEMIUM_CAP} calls a month to freemium APIs, and this call would go past them. Upgrade to call it more.`,
  },
};

/**
 * D1 was just read again and still disagrees with the Meter, which only hears of changes D1 has
 * committed: a read that lagged. A revoke stands; a plan cannot be judged yet.
 */
const PLAN_CHANGING: Refusal = {
  type: "service-unavailable",
  detail: "Your account's plan is changing. Retry in a moment.",
  headers: { "Retry-After": "1" },
};

const callerOf = (record: KeyRecord): CallerRecord => ({ keyId: record.keyId, planVersion: record.planVersion });

/**
 * Why a call heavier than one is refused: what it costs beside what the limit allows. The
 * freemium cap has its own remainder: the month may hold far more calls than the cap has left.
 */
function weightNote(weight: number, limit: LimitKind, counts: MeterCounts & { freemiumRemaining?: number }): string {
  if (weight === 1) return "";
  const remaining = limit === "freemium" ? (counts.freemiumRemaining ?? 0) : counts.monthlyRemaining;
  const left = limit === "burst" ? "" : ` and ${remaining} are left this month`;
  return ` This call counts as ${weight} calls${left}; none of it was counted.`;
}

/** Meters a call that counts as `weight` calls (1 unless the operation declares more: decision 048). */
export async function meterCall(
  meter: AccountMeter,
  record: KeyRecord,
  authorisation: Authorisation,
  weight = 1,
): Promise<Metering> {
  // A weight comes from our own operation definitions: anything else is our bug, not the caller's.
  if (!Number.isSafeInteger(weight) || weight < 1) {
    throw new RangeError(`a call's weight must be a whole number >= 1, not ${weight}`);
  }
  const { policy, windowSeconds } = authorisation;
  if (authorisation.refusal) {
    // A revoke is final; a plan refusal is judged by the Meter, which may know of a newer plan.
    const standing = await meter.peek(policy, record.revoked ? undefined : callerOf(record));
    const refusal = { ...authorisation.refusal, headers: rateLimitHeaders(standing, windowSeconds) };
    return standing.stale ? { ok: false, refusal, stale: standing.stale } : { ok: false, refusal };
  }
  const taken = await meter.take(policy, callerOf(record), weight);
  if (taken.stale) {
    return { ok: false, stale: taken.stale, refusal: taken.stale === "key-revoked" ? REVOKED_KEY : PLAN_CHANGING };
  }
  const headers = rateLimitHeaders(taken, windowSeconds);
  if (!taken.ok) {
    const limit = LIMITS[taken.limit];
    return {
      ok: false,
      refusal: {
        type: limit.type,
        detail: limit.detail(policy.perSecond) + weightNote(weight, taken.limit, taken),
        extensions: weight === 1 ? { limit: taken.limit } : { limit: taken.limit, weight },
        headers: { ...headers, "Retry-After": String(taken.retryAfterSeconds) },
      },
    };
  }
  return { ok: true, taken, headers };
}
