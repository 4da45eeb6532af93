/**
 * Moving a payment to what its provider says about it (payments issue, docs/product.md#payment-lifecycle), from any
 * of the four places that learn something: the capture call after the buyer approves, a
 * provider webhook, the status page, and the reconciliation cron.
 *
 * Every path ends in `settlePayment`, which writes the event row (when a webhook caused it),
 * the payment's new status and the plan change in one D1 batch. Status only moves forward:
 *
 *   created → pending → paid → refunded
 *      └────────┴──→ failed ──→ paid          (a failed attempt can be followed by a good one)
 *
 * Two guards make the batch safe against duplicates and races without reading first:
 * - the event row's `claim_id`: of N concurrent copies of one webhook only the copy whose
 *   insert won changes anything;
 * - the payment's `activation_id`: only the statement that actually moved the payment to paid
 *   (or from paid to refunded) moves the plan, so a capture call and a webhook arriving
 *   together activate once.
 *
 * A plan move adds one to the account's `plan_version` in the same statement, and the gateway
 * hears of the new version (`GatewayNotices`: the account's Meter and the key caches), so its
 * next call stops believing a cached key record with the old plan (a refund's downgrade applies
 * at once, from every location). Every path that settles comes through here, so none of the
 * capture call, the webhooks, the status page or the cron has to tell the gateway itself.
 */
import type { GatewayNotices } from "./gateway-notices";
import { applyPurchase, applyRefund, type PaidPlanId } from "./plan-periods";
import type { PlanId } from "./plans";

export type PaymentStatus = "created" | "pending" | "paid" | "failed" | "refunded";

/** The states the status page stops polling at. `failed` may still become `paid` later. */
export const FINAL_STATUSES: readonly PaymentStatus[] = ["paid", "failed", "refunded"];

/** What the provider says, read fresh from it: never taken from a webhook's body. */
export type Verdict =
  | { kind: "paid" }
  /** `awaitingProvider`: the money is on its way (a pending capture); never abandon it. */
  | { kind: "pending"; awaitingProvider?: boolean }
  | { kind: "failed"; detail: string }
  | { kind: "refunded" }
  /** Money moved, but not the amount, currency or payment we asked for: never activates. */
  | { kind: "mismatch"; detail: string };

export interface PaymentRow {
  id: string;
  user_id: string | null;
  provider: "paypal" | "cashfree";
  provider_order_id: string | null;
  plan_id: PaidPlanId;
  amount_minor: number;
  currency: "USD" | "INR";
  status: PaymentStatus;
  plan_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export const PAYMENT_COLUMNS = `id, user_id, provider, provider_order_id, plan_id, amount_minor, currency, status,
  plan_expires_at, created_at, updated_at`;

export function findPayment(db: D1Database, paymentId: string): Promise<PaymentRow | null> {
  return db.prepare(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = ?`).bind(paymentId).first<PaymentRow>();
}

export function findPaymentByOrder(
  db: D1Database,
  provider: PaymentRow["provider"],
  orderId: string,
): Promise<PaymentRow | null> {
  return db
    .prepare(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE provider = ? AND provider_order_id = ?`)
    .bind(provider, orderId)
    .first<PaymentRow>();
}

/** A webhook delivery, recorded once by (provider, key). */
export interface EventRecord {
  provider: PaymentRow["provider"];
  key: string;
  type: string;
}

export async function isEventRecorded(db: D1Database, event: Pick<EventRecord, "provider" | "key">) {
  const row = await db
    .prepare(`SELECT 1 AS found FROM payment_events WHERE provider = ? AND event_key = ?`)
    .bind(event.provider, event.key)
    .first<{ found: number }>();
  return row !== null;
}

/** Records an event that concerns no payment of ours, so the provider stops redelivering it. */
export async function recordUnmatchedEvent(db: D1Database, event: EventRecord, now: number) {
  await db
    .prepare(
      `INSERT INTO payment_events (provider, event_key, event_type, payment_id, claim_id, outcome, received_at)
       VALUES (?, ?, ?, NULL, ?, 'unmatched', ?) ON CONFLICT DO NOTHING`,
    )
    .bind(event.provider, event.key, event.type, crypto.randomUUID(), now)
    .run();
}

export interface SettleResult {
  /** The payment's status after the batch (whoever changed it). */
  status: PaymentStatus;
  /** This call moved the account's plan (activation or refund). */
  planChanged: boolean;
  /** This call's event was a copy of one already recorded: it changed nothing. */
  duplicate: boolean;
  planId: PlanId;
  planExpiresAt: number | null;
  /** The account's `plan_version` after the batch. */
  planVersion: number;
}

/** Statuses a payment may move to `target` from. */
const MOVES_TO: Record<Exclude<Verdict["kind"], "mismatch">, PaymentStatus[]> = {
  pending: ["created"],
  failed: ["created", "pending"],
  paid: ["created", "pending", "failed"],
  refunded: ["created", "pending", "failed", "paid"],
};

/** How often a purchase is retried when another one for the same account moved the plan first. */
const MAX_SETTLE_ATTEMPTS = 3;

export async function settlePayment(
  db: D1Database,
  notices: GatewayNotices,
  payment: PaymentRow,
  verdict: Verdict,
  now: number,
  event?: EventRecord,
): Promise<SettleResult> {
  // One claim for every attempt: a retry must still hold the event row the first one wrote.
  const claimId = crypto.randomUUID();
  let attempt = await settleOnce(db, payment, verdict, now, claimId, event);
  const duplicate = attempt.duplicate;
  for (let tries = 1; attempt.raced && tries < MAX_SETTLE_ATTEMPTS; tries += 1) {
    attempt = await settleOnce(db, payment, verdict, now, claimId, event);
  }
  const { raced, ...result } = attempt;
  if (raced) console.error(`payment ${payment.id}: its account kept changing; left ${result.status}`);
  if (result.planChanged && payment.user_id) await notices.planChanged(payment.user_id, result.planVersion);
  return { ...result, duplicate };
}

async function settleOnce(
  db: D1Database,
  payment: PaymentRow,
  verdict: Verdict,
  now: number,
  claimId: string,
  event: EventRecord | undefined,
): Promise<SettleResult & { raced: boolean }> {
  const statements: D1PreparedStatement[] = [];
  // Every change below applies only where this call's event claim stands (when there is one).
  let claimed = "1";
  const claimBinds: unknown[] = [];
  if (event) {
    statements.push(
      db
        .prepare(
          `INSERT INTO payment_events (provider, event_key, event_type, payment_id, claim_id, outcome, received_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .bind(event.provider, event.key, event.type, payment.id, claimId, verdict.kind, now),
    );
    claimed = `EXISTS (SELECT 1 FROM payment_events WHERE provider = ? AND event_key = ? AND claim_id = ?)`;
    claimBinds.push(event.provider, event.key, claimId);
  }

  const target: PaymentStatus = verdict.kind === "mismatch" ? "failed" : verdict.kind;
  const from = verdict.kind === "mismatch" ? MOVES_TO.failed : MOVES_TO[verdict.kind];
  const fromList = from.map((status) => `'${status}'`).join(", ");
  // The activation id marks "this statement moved the plan-bearing state": set on paid, and on
  // refunded only when the payment had been paid (a refund of an unpaid payment moves no plan).
  const activationId = crypto.randomUUID();

  if (verdict.kind === "paid") {
    const account = payment.user_id
      ? await db
          .prepare(`SELECT plan_id, plan_expires_at FROM users WHERE id = ?`)
          .bind(payment.user_id)
          .first<{ plan_id: PlanId; plan_expires_at: number | null }>()
      : null;
    const next = applyPurchase(
      { planId: account?.plan_id ?? "free", planExpiresAt: account?.plan_expires_at ?? null },
      { planId: payment.plan_id, currency: payment.currency, at: now },
    );
    // The new expiry was worked out from the plan just read: apply it only if the plan is still
    // that, so two purchases of one account settling together cannot both start from it.
    const unchanged = account
      ? `AND EXISTS (SELECT 1 FROM users WHERE id = ? AND plan_id = ? AND plan_expires_at IS ?)`
      : "";
    const unchangedBinds = account ? [payment.user_id, account.plan_id, account.plan_expires_at] : [];
    statements.push(
      db
        .prepare(
          `UPDATE payments SET status = 'paid', activation_id = ?, paid_at = ?, plan_expires_at = ?, updated_at = ?
           WHERE id = ? AND status IN (${fromList}) AND ${claimed} ${unchanged}`,
        )
        .bind(activationId, now, next.planExpiresAt, now, payment.id, ...claimBinds, ...unchangedBinds),
      db
        .prepare(
          `UPDATE users SET plan_id = ?, plan_expires_at = ?, plan_version = plan_version + 1, updated_at = ?
           WHERE id = ? AND EXISTS (SELECT 1 FROM payments WHERE id = ? AND activation_id = ?)`,
        )
        .bind(next.planId, next.planExpiresAt, now, payment.user_id, payment.id, activationId),
    );
  } else if (verdict.kind === "refunded") {
    const ended = applyRefund();
    statements.push(
      db
        .prepare(
          `UPDATE payments SET status = 'refunded', updated_at = ?,
             activation_id = CASE WHEN status = 'paid' THEN ? ELSE activation_id END
           WHERE id = ? AND status IN (${fromList}) AND ${claimed}`,
        )
        .bind(now, activationId, payment.id, ...claimBinds),
      db
        .prepare(
          `UPDATE users SET plan_id = ?, plan_expires_at = ?, plan_version = plan_version + 1, updated_at = ?
           WHERE id = ? AND EXISTS (SELECT 1 FROM payments WHERE id = ? AND activation_id = ?)`,
        )
        .bind(ended.planId, ended.planExpiresAt, now, payment.user_id, payment.id, activationId),
    );
  } else {
    if (verdict.kind !== "pending") console.error(`payment ${payment.id}: ${verdict.kind}: ${verdict.detail}`);
    statements.push(
      db
        .prepare(
          `UPDATE payments SET status = ?, updated_at = ? WHERE id = ? AND status IN (${fromList}) AND ${claimed}`,
        )
        .bind(target, now, payment.id, ...claimBinds),
    );
  }

  const results = await db.batch(statements);
  const eventInserted = event ? results[0]?.meta.changes === 1 : true;
  const paymentUpdate = results[event ? 1 : 0];
  const planUpdate = verdict.kind === "paid" || verdict.kind === "refunded" ? results.at(-1) : undefined;
  const [current, account, claim] = await db.batch([
    db.prepare(`SELECT status FROM payments WHERE id = ?`).bind(payment.id),
    db.prepare(`SELECT plan_id, plan_expires_at, plan_version FROM users WHERE id = ?`).bind(payment.user_id),
    db
      .prepare(`SELECT claim_id FROM payment_events WHERE provider = ? AND event_key = ?`)
      .bind(event?.provider ?? "", event?.key ?? ""),
  ]);
  const status = (current?.results[0] as { status: PaymentStatus } | undefined)?.status ?? payment.status;
  const plan = account?.results[0] as
    { plan_id: PlanId; plan_expires_at: number | null; plan_version: number } | undefined;
  const claimHeld = !event || (claim?.results[0] as { claim_id: string } | undefined)?.claim_id === claimId;
  return {
    status,
    planChanged: (planUpdate?.meta.changes ?? 0) === 1,
    duplicate: !eventInserted,
    planId: plan?.plan_id ?? "free",
    planExpiresAt: plan?.plan_expires_at ?? null,
    planVersion: plan?.plan_version ?? 0,
    // Nothing moved though the payment could and this call holds the event: the account's plan
    // changed between reading it and the batch.
    raced: verdict.kind === "paid" && paymentUpdate?.meta.changes === 0 && from.includes(status) && claimHeld,
  };
}
