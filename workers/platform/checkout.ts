/**
 * Buying a plan through PayPal (payments issue, spec §4): the server creates the order at the
 * server's price and captures it after the buyer approves; the plan changes only when the
 * capture is COMPLETED for exactly that amount and currency and carries our payment id, and
 * only once however often the confirmation arrives.
 */
import type { PayPalClient, PayPalOrder } from "~workers/providers/paypal/types";
import { createId } from "./ids";
import { applyPurchase, type PaidPlanId } from "./plan-periods";
import { PLANS, priceFor, type PlanId } from "./plans";
import { referralSummary } from "./referrals";
import type { User } from "./users";

export type StartCheckoutResult =
  | { ok: true; paymentId: string; orderId: string; approveUrl: string | null }
  | { ok: false; code: "unavailable"; detail: string };

export async function startPayPalCheckout(
  db: D1Database,
  paypal: PayPalClient,
  user: Pick<User, "id">,
  planId: PaidPlanId,
  now: number = Date.now(),
): Promise<StartCheckoutResult> {
  const referred = (await referralSummary(db, user.id)).referredBy !== null;
  const amountMinor = priceFor(planId, "USD", referred);
  const paymentId = createId("pay");
  await db
    .prepare(
      `INSERT INTO payments (id, user_id, provider, plan_id, amount_minor, currency, status, created_at, updated_at)
       VALUES (?, ?, 'paypal', ?, ?, 'USD', 'created', ?, ?)`,
    )
    .bind(paymentId, user.id, planId, amountMinor, now, now)
    .run();
  const order = await paypal.createOrder({
    paymentId,
    amount: { currency: "USD", value: (amountMinor / 100).toFixed(2) },
    description: `Portico ${PLANS[planId].name}, one month`,
  });
  if (!order.ok) {
    await db
      .prepare(`UPDATE payments SET status = 'failed', updated_at = ? WHERE id = ? AND status = 'created'`)
      .bind(now, paymentId)
      .run();
    return { ok: false, code: "unavailable", detail: order.detail };
  }
  await db
    .prepare(
      `UPDATE payments SET provider_order_id = ?, status = 'pending', updated_at = ? WHERE id = ? AND status = 'created'`,
    )
    .bind(order.value.id, now, paymentId)
    .run();
  return { ok: true, paymentId, orderId: order.value.id, approveUrl: order.value.approveUrl };
}

interface PaymentRow {
  id: string;
  user_id: string | null;
  plan_id: string;
  amount_minor: number;
  currency: string;
  status: string;
}

export type CompleteCheckoutResult =
  | { ok: true; planId: PlanId; planExpiresAt: number | null; alreadyPaid: boolean }
  | { ok: false; code: "not-found" | "declined" | "mismatch" | "unavailable"; detail: string };

/** Whether a captured order pays exactly this payment. */
export function captureMatches(
  order: PayPalOrder,
  payment: Pick<PaymentRow, "id" | "amount_minor" | "currency">,
): boolean {
  const capture = order.capture;
  return (
    capture !== null &&
    capture.status === "COMPLETED" &&
    capture.amount.currency === payment.currency &&
    capture.amount.value === (payment.amount_minor / 100).toFixed(2) &&
    order.customId === payment.id
  );
}

/**
 * Marks the payment paid and moves the plan, in one batch; the plan moves only if this call
 * is the one that marked the payment (its activation id), so duplicates change nothing.
 */
export async function activatePayment(
  db: D1Database,
  payment: Pick<PaymentRow, "id" | "user_id" | "plan_id" | "currency">,
  now: number,
): Promise<{ activated: boolean; planId: PlanId; planExpiresAt: number | null }> {
  const user = await db
    .prepare(`SELECT plan_id, plan_expires_at FROM users WHERE id = ?`)
    .bind(payment.user_id)
    .first<{ plan_id: PlanId; plan_expires_at: number | null }>();
  const next = applyPurchase(
    { planId: user?.plan_id ?? "free", planExpiresAt: user?.plan_expires_at ?? null },
    { planId: payment.plan_id as PaidPlanId, currency: payment.currency === "INR" ? "INR" : "USD", at: now },
  );
  const activationId = crypto.randomUUID();
  const [marked] = await db.batch([
    db
      .prepare(
        `UPDATE payments SET status = 'paid', activation_id = ?, paid_at = ?, plan_expires_at = ?, updated_at = ?
         WHERE id = ? AND status IN ('created', 'pending')`,
      )
      .bind(activationId, now, next.planExpiresAt, now, payment.id),
    db
      .prepare(
        `UPDATE users SET plan_id = ?, plan_expires_at = ?, updated_at = ?
         WHERE id = ? AND EXISTS (SELECT 1 FROM payments WHERE id = ? AND activation_id = ?)`,
      )
      .bind(next.planId, next.planExpiresAt, now, payment.user_id, payment.id, activationId),
  ]);
  const current = await db
    .prepare(`SELECT plan_id, plan_expires_at FROM users WHERE id = ?`)
    .bind(payment.user_id)
    .first<{ plan_id: PlanId; plan_expires_at: number | null }>();
  return {
    activated: marked?.meta.changes === 1,
    planId: current?.plan_id ?? "free",
    planExpiresAt: current?.plan_expires_at ?? null,
  };
}

export async function completePayPalCheckout(
  db: D1Database,
  paypal: PayPalClient,
  user: Pick<User, "id">,
  orderId: string,
  now: number = Date.now(),
): Promise<CompleteCheckoutResult> {
  const payment = await db
    .prepare(
      `SELECT id, user_id, plan_id, amount_minor, currency, status FROM payments
       WHERE provider = 'paypal' AND provider_order_id = ? AND user_id = ?`,
    )
    .bind(orderId, user.id)
    .first<PaymentRow>();
  if (!payment) return { ok: false, code: "not-found", detail: "No payment of yours has this order id." };

  let captured = await paypal.captureOrder({ orderId, requestId: `${payment.id}-capture` });
  // Captured already (a retry, or the webhook's safety net): read what PayPal holds.
  if (!captured.ok && captured.code === "already-captured") captured = await paypal.getOrder(orderId);
  if (!captured.ok) {
    return captured.code === "instrument-declined"
      ? { ok: false, code: "declined", detail: "The card was declined. Choose another way to pay." }
      : { ok: false, code: "unavailable", detail: captured.detail };
  }
  if (!captureMatches(captured.value, payment)) {
    console.error(`payment ${payment.id}: capture does not match (order ${orderId})`);
    return {
      ok: false,
      code: "mismatch",
      detail: "The payment does not match the order. Nothing was charged to your plan; contact support.",
    };
  }
  const result = await activatePayment(db, payment, now);
  return { ok: true, planId: result.planId, planExpiresAt: result.planExpiresAt, alreadyPaid: !result.activated };
}
