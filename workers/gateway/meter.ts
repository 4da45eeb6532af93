/**
 * The Meter: one Durable Object per account that enforces its limits exactly.
 *
 * - A per-second token bucket the size of the plan (Free 2, Standard 5, Premium 8), refilled
 *   one whole token every 1000/size ms, so calls in the same instant get exactly `size` tokens.
 * - The monthly quota for the current period, plus the one-time referral bonus once the quota
 *   is spent, and the Free plan's cap on freemium calls.
 *
 * `take` counts a call when it lets it through (so concurrent calls can never overshoot), and
 * the gateway `refund`s it when the call turns out not to count (decision 013: refused before
 * the handler ran, or failed on our side; taking first and refunding after is decision 012).
 *
 * A call has a weight (decision 048): an operation declares what it costs in calls (a batch of
 * n addresses costs n), and `take` takes all of it or nothing, from the bucket and the month
 * alike, so a batch can never be half-counted or overshoot a quota. A weight larger than the
 * bucket needs a full bucket and leaves it in debt, repaid at the plan's rate: the plan's calls
 * a second then hold on average for batches too, and a batch is never refused for ever.
 * The common case costs one round trip to the object. Everything lives in the object's
 * storage, so a restart loses nothing. The caller passes `now`: the object has no clock of its
 * own, and tests need no sleeping.
 *
 * The Meter is also the gateway's authority on whether a cached key record is still true.
 * Every call reaches it, and it is strongly consistent, unlike KV and the isolates' memory. The
 * use cases that revoke a key or change a plan tell it (`revokeKey`, `recordPlanVersion`) once
 * D1 holds the change, and `take`/`peek` answer "stale" to a record that names a revoked key
 * or an older plan version, so the gateway reloads it from D1 on the very next call. D1 stays
 * the truth: a Meter that never heard of a key accepts it.
 *
 * Why not KV counters: KV has no atomic increment and allows one write a second per key.
 */
import { DurableObject } from "cloudflare:workers";

export interface MeterPolicy {
  now: number;
  /** Bucket size and refill rate, calls a second. */
  perSecond: number;
  monthlyQuota: number;
  /** The current period (free: the UTC calendar month; paid: from the purchase day). */
  periodStart: number;
  periodEnd: number;
  /** Counts against the freemium cap (freemium API on the Free plan); null when no cap applies. */
  freemiumCap: number | null;
  /** Bonus calls the account has been granted in all (referral); spent after the quota. */
  bonusGranted: number;
}

export type LimitKind = "burst" | "monthly" | "freemium";

export interface MeterCounts {
  burstLimit: number;
  burstRemaining: number;
  /** Seconds until the bucket holds a token again: 0 while it has one (a batch's debt can take longer). */
  burstResetSeconds: number;
  monthlyLimit: number;
  monthlyRemaining: number;
  /** Seconds until the monthly period resets. */
  monthlyResetSeconds: number;
}

/** What the gateway's cached key record claims about the caller, for the Meter to judge. */
export interface CallerRecord {
  keyId: string;
  /** The account's plan version when the record was read from D1 (`users.plan_version`). */
  planVersion: number;
}

/** Why a cached key record may no longer be believed: reload it from D1. */
export type StaleReason = "key-revoked" | "plan-changed";

export type TakeResult =
  | ({
      ok: true;
      /** The calls this call counted as (its weight). */
      weight: number;
      countsFreemium: boolean;
      /** How many of them were the account's bonus calls (spent once the month's quota is). */
      bonusSpent: number;
      stale?: undefined;
    } & MeterCounts)
  | ({
      ok: false;
      limit: LimitKind;
      retryAfterSeconds: number;
      /** Freemium calls left this period, when the cap applies: the monthly count says nothing of them. */
      freemiumRemaining?: number;
      stale?: undefined;
    } & MeterCounts)
  /** Nothing was counted: the record is out of date. */
  | { ok: false; stale: StaleReason; limit?: undefined };

export type Standing = MeterCounts & { used: number; freemiumUsed: number; stale?: StaleReason };

/** What `refund` needs to undo one counted call: what `take` answered about it. */
export interface Refund {
  periodStart: number;
  /** The bucket's size when the call was taken: the tokens given back never overfill it. */
  perSecond: number;
  weight: number;
  countsFreemium: boolean;
  bonusSpent: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

interface PeriodCounts {
  start: number;
  used: number;
  freemiumUsed: number;
}

interface Bonus {
  used: number;
}

/** Everything the Meter keeps, stored under one key so a call costs one write. */
interface MeterState {
  bucket?: Bucket;
  period?: PeriodCounts;
  bonusUsed: number;
  /** The newest plan version heard of (from a plan change, or a record fresh from D1). */
  planVersion?: number;
}

/**
 * Revoked key ids, with when they were revoked, under a key of their own: they change only on
 * a revoke, so the per-call write stays small.
 */
type RevokedKeys = Record<string, number>;

/**
 * How long a revoked key id is remembered. A stale live copy of a revoked key can outlive the
 * revoke by KV's 5 minutes after the last write of it, and a lookup that read D1 just before
 * the revoke can write one a little later; a day is far past both, and keeps the list short.
 */
export const REVOKED_KEY_MEMORY_MS = 24 * 60 * 60 * 1000;

export class Meter extends DurableObject<Env> {
  /**
   * The stored state, read once per object instance: the object is the only writer, so memory
   * and storage cannot disagree, and a call needs no storage read (a restart reads it again).
   */
  private state: MeterState | undefined;
  private revoked: RevokedKeys | undefined;

  private load(): MeterState {
    if (!this.state) {
      const kv = this.ctx.storage.kv;
      // Objects written before the single key keep their counts.
      this.state = kv.get<MeterState>("state") ?? {
        bucket: kv.get<Bucket>("bucket"),
        period: kv.get<PeriodCounts>("period"),
        bonusUsed: kv.get<Bonus>("bonus")?.used ?? 0,
      };
    }
    return this.state;
  }

  private save(changes: Partial<MeterState>): void {
    this.state = { ...this.load(), ...changes };
    this.ctx.storage.kv.put("state", this.state);
  }

  private revokedKeys(): RevokedKeys {
    this.revoked ??= this.ctx.storage.kv.get<RevokedKeys>("revoked") ?? {};
    return this.revoked;
  }

  /**
   * Whether the caller's record is out of date. A record fresher than anything heard of
   * teaches the Meter its plan version, so a plan change whose notice never arrived still
   * reaches the other isolates once any of them reads D1 again.
   */
  private judge(caller: CallerRecord | undefined): StaleReason | null {
    if (!caller) return null;
    if (this.revokedKeys()[caller.keyId] !== undefined) return "key-revoked";
    const known = this.load().planVersion;
    if (known !== undefined && caller.planVersion < known) return "plan-changed";
    if (known === undefined || caller.planVersion > known) this.save({ planVersion: caller.planVersion });
    return null;
  }

  /** A key was revoked in D1: refuse records that still call it live. */
  revokeKey(revocation: { keyId: string; at: number }): void {
    const kept = Object.entries(this.revokedKeys()).filter(([, at]) => at > revocation.at - REVOKED_KEY_MEMORY_MS);
    this.revoked = { ...Object.fromEntries(kept), [revocation.keyId]: revocation.at };
    this.ctx.storage.kv.put("revoked", this.revoked);
  }

  /** The account's plan changed in D1 to this version: refuse records of older versions. */
  recordPlanVersion(version: number): void {
    // Notices can arrive out of order; versions only grow.
    const known = this.load().planVersion;
    if (known === undefined || version > known) this.save({ planVersion: version });
  }

  private refill(policy: MeterPolicy): Bucket {
    const stored = this.load().bucket;
    // A full bucket earns nothing more: its clock starts again with the next call.
    if (!stored || stored.tokens >= policy.perSecond) return { tokens: policy.perSecond, updatedAt: policy.now };
    const interval = 1000 / policy.perSecond;
    const earned = Math.floor(Math.max(0, policy.now - stored.updatedAt) / interval);
    const tokens = Math.min(policy.perSecond, stored.tokens + earned);
    // Advance by whole intervals only, so progress toward the next token is kept.
    return { tokens, updatedAt: tokens >= policy.perSecond ? policy.now : stored.updatedAt + earned * interval };
  }

  private period(policy: MeterPolicy): PeriodCounts {
    const stored = this.load().period;
    if (stored && stored.start === policy.periodStart) return stored;
    return { start: policy.periodStart, used: 0, freemiumUsed: 0 };
  }

  private bonusUsed(): number {
    return this.load().bonusUsed;
  }

  private counts(policy: MeterPolicy, bucket: Bucket, period: PeriodCounts): MeterCounts {
    const bonusLeft = Math.max(0, policy.bonusGranted - this.bonusUsed());
    const beyondQuota = Math.max(0, period.used - policy.monthlyQuota);
    const monthlyLimit = policy.monthlyQuota + beyondQuota + bonusLeft;
    return {
      burstLimit: policy.perSecond,
      burstRemaining: Math.max(0, bucket.tokens),
      burstResetSeconds: bucket.tokens > 0 ? 0 : this.secondsUntilTokens(policy, bucket, 1),
      monthlyLimit,
      monthlyRemaining: Math.max(0, monthlyLimit - period.used),
      monthlyResetSeconds: Math.max(0, Math.ceil((policy.periodEnd - policy.now) / 1000)),
    };
  }

  /** Whole seconds (at least 1) until the bucket holds `tokens`, refilling from where it stands. */
  private secondsUntilTokens(policy: MeterPolicy, bucket: Bucket, tokens: number): number {
    const interval = 1000 / policy.perSecond;
    return Math.max(1, Math.ceil((bucket.updatedAt + (tokens - bucket.tokens) * interval - policy.now) / 1000));
  }

  /**
   * Counts a call of `weight` calls, all of them or none: or says which limit stops it and for
   * how long, or that the caller's record is stale (nothing counted). Without `caller` no
   * record is judged.
   */
  take(policy: MeterPolicy, caller?: CallerRecord, weight = 1): TakeResult {
    // A weight comes from our own operation definitions; anything else is a bug, not a caller's.
    if (!Number.isSafeInteger(weight) || weight < 1)
      throw new RangeError(`a call's weight must be a whole number >= 1, not ${weight}`);
    const stale = this.judge(caller);
    if (stale) return { ok: false, stale };
    const bucket = this.refill(policy);
    const period = this.period(policy);
    const before = this.counts(policy, bucket, period);
    // A call heavier than the bucket needs it full, and leaves it in debt (decision 048).
    const needed = Math.min(weight, policy.perSecond);
    if (bucket.tokens < needed) {
      this.save({ bucket });
      return {
        ok: false,
        limit: "burst",
        retryAfterSeconds: this.secondsUntilTokens(policy, bucket, needed),
        ...before,
      };
    }
    if (before.monthlyRemaining < weight) {
      return { ok: false, limit: "monthly", retryAfterSeconds: before.monthlyResetSeconds, ...before };
    }
    const countsFreemium = policy.freemiumCap !== null;
    if (policy.freemiumCap !== null && period.freemiumUsed + weight > policy.freemiumCap) {
      return {
        ok: false,
        limit: "freemium",
        retryAfterSeconds: before.monthlyResetSeconds,
        freemiumRemaining: Math.max(0, policy.freemiumCap - period.freemiumUsed),
        ...before,
      };
    }
    const nextBucket = { tokens: bucket.tokens - weight, updatedAt: bucket.updatedAt };
    const nextPeriod = {
      ...period,
      used: period.used + weight,
      freemiumUsed: period.freemiumUsed + (countsFreemium ? weight : 0),
    };
    // Past the month's quota, each call spends one of the account's bonus calls.
    const bonusSpent =
      Math.max(0, nextPeriod.used - policy.monthlyQuota) - Math.max(0, period.used - policy.monthlyQuota);
    this.save({ bucket: nextBucket, period: nextPeriod, bonusUsed: this.bonusUsed() + bonusSpent });
    return { ok: true, weight, countsFreemium, bonusSpent, ...this.counts(policy, nextBucket, nextPeriod) };
  }

  /**
   * Gives back a counted call that turned out not to count: its weight to the month and to the
   * bucket (decision 048), so a failed batch leaves no debt locking the account out of every
   * API. The bucket gets the whole weight back but is never filled past its size: a refund is
   * not a way to store up tokens. A call from an earlier period just lapses from the month.
   */
  refund(refund: Refund): void {
    const { bucket, period } = this.load();
    const refilled = bucket && {
      tokens: Math.min(Math.max(bucket.tokens, refund.perSecond), bucket.tokens + refund.weight),
      updatedAt: bucket.updatedAt,
    };
    if (!period || period.start !== refund.periodStart) {
      if (refilled) this.save({ bucket: refilled });
      return;
    }
    this.save({
      ...(refilled && { bucket: refilled }),
      period: {
        ...period,
        used: Math.max(0, period.used - refund.weight),
        freemiumUsed: Math.max(0, period.freemiumUsed - (refund.countsFreemium ? refund.weight : 0)),
      },
      bonusUsed: Math.max(0, this.bonusUsed() - refund.bonusSpent),
    });
  }

  /** What the headers show without counting a call, and whether the caller's record is stale. */
  peek(policy: MeterPolicy, caller?: CallerRecord): Standing {
    const period = this.period(policy);
    const stale = this.judge(caller);
    return {
      ...this.counts(policy, this.refill(policy), period),
      used: period.used,
      freemiumUsed: period.freemiumUsed,
      ...(stale && { stale }),
    };
  }
}
