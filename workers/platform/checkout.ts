/**
 * Starting and finishing a purchase (payments issue, docs/product.md#buying): the server creates the
 * provider's order at the server's price (the client names only the plan), and a plan changes
 * only through `settlement.ts`, once the provider itself confirms the money.
 *
 * PayPal (USD): the buyer approves in PayPal's window, then our capture call captures on the
 * server. Cashfree (INR): the buyer pays on Cashfree's checkout and comes back to
 * /status/payment/:paymentId; the webhook, the status page or the cron settles the payment.
 */
import type { GatewayNotices } from "./gateway-notices";
import type { CashfreeClient } from "~workers/providers/cashfree/types";
import type { PayPalClient } from "~workers/providers/paypal/types";
import { createId } from "./ids";
import { captureRequestId, payPalVerdict } from "./payment-sync";
import type { PaidPlanId } from "./plan-periods";
import { PLANS, priceFor, type PlanId } from "./plans";
import { referralSummary } from "./referrals";
import { EMAIL_UNVERIFIED_MESSAGE, hasVerifiedEmail } from "./roles";
import { findPaymentByOrder, settlePayment } from "./settlement";
import type { User } from "./users";

export type StartCheckoutResult<T> =
  | ({ ok: true; paymentId: string } & T)
  | { ok: false; code: "provider-failed"; detail: string }
  /** Plans are sold to accounts whose address is proven (`roles.ts`). */
  | { ok: false; code: "email-unverified"; detail: string };

const UNVERIFIED = { ok: false, code: "email-unverified", detail: EMAIL_UNVERIFIED_MESSAGE } as const;

/** Writes the payment row at the server's price for this buyer, before the provider hears of it. */
async function createPayment(
  db: D1Database,
  user: Pick<User, "id">,
  provider: "paypal" | "cashfree",
  planId: PaidPlanId,
  currency: "USD" | "INR",
  now: number,
) {
  const referred = (await referralSummary(db, user.id)).referredBy !== null;
  const amountMinor = priceFor(planId, currency, referred);
  const paymentId = createId("pay");
  await db
    .prepare(
      `INSERT INTO payments (id, user_id, provider, plan_id, amount_minor, currency, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'created', ?, ?)`,
    )
    .bind(paymentId, user.id, provider, planId, amountMinor, currency, now, now)
    .run();
  return { paymentId, amountMinor };
}

async function markOrdered(db: D1Database, paymentId: string, orderId: string, now: number) {
  await db
    .prepare(
      `UPDATE payments SET provider_order_id = ?, status = 'pending', updated_at = ? WHERE id = ? AND status = 'created'`,
    )
    .bind(orderId, now, paymentId)
    .run();
}

async function markNotOrdered(db: D1Database, paymentId: string, now: number) {
  await db
    .prepare(`UPDATE payments SET status = 'failed', updated_at = ? WHERE id = ? AND status = 'created'`)
    .bind(now, paymentId)
    .run();
}

export async function startPayPalCheckout(
  db: D1Database,
  paypal: PayPalClient,
  user: Pick<User, "id" | "emailVerifiedAt">,
  planId: PaidPlanId,
  now: number = Date.now(),
): Promise<StartCheckoutResult<{ orderId: string; approveUrl: string | null }>> {
  if (!hasVerifiedEmail(user)) return UNVERIFIED;
  const { paymentId, amountMinor } = await createPayment(db, user, "paypal", planId, "USD", now);
  const order = await paypal.createOrder({
    paymentId,
    amount: { currency: "USD", value: (amountMinor / 100).toFixed(2) },
    description: `Portico ${PLANS[planId].name}, one month`,
  });
  if (!order.ok) {
    await markNotOrdered(db, paymentId, now);
    return { ok: false, code: "provider-failed", detail: order.detail };
  }
  await markOrdered(db, paymentId, order.value.id, now);
  return { ok: true, paymentId, orderId: order.value.id, approveUrl: order.value.approveUrl };
}

export async function startCashfreeCheckout(
  db: D1Database,
  cashfree: CashfreeClient,
  user: Pick<User, "id" | "email" | "name" | "emailVerifiedAt">,
  input: { planId: PaidPlanId; phone: string; customerName?: string; appOrigin: string; webhookBaseUrl: string },
  now: number = Date.now(),
): Promise<StartCheckoutResult<{ paymentSessionId: string }>> {
  if (!hasVerifiedEmail(user)) return UNVERIFIED;
  const { paymentId, amountMinor } = await createPayment(db, user, "cashfree", input.planId, "INR", now);
  const order = await cashfree.createOrder({
    // Our payment id is the Cashfree order id, so every Cashfree event names our payment.
    orderId: paymentId,
    amountMinor,
    customer: {
      id: user.id,
      email: user.email,
      name: input.customerName?.trim() || user.name || user.email,
      phone: input.phone,
    },
    returnUrl: `${input.appOrigin}/status/payment/${paymentId}`,
    notifyUrl: `${input.webhookBaseUrl.replace(/\/+$/, "")}/cashfree`,
    note: `Portico ${PLANS[input.planId].name}, one month`,
  });
  if (!order.ok || !order.value.paymentSessionId) {
    await markNotOrdered(db, paymentId, now);
    return {
      ok: false,
      code: "provider-failed",
      detail: order.ok ? "Cashfree gave no payment session" : order.detail,
    };
  }
  await markOrdered(db, paymentId, order.value.cfOrderId, now);
  return { ok: true, paymentId, paymentSessionId: order.value.paymentSessionId };
}

export type CompleteCheckoutResult =
  | { ok: true; planId: PlanId; planExpiresAt: number | null; alreadyPaid: boolean }
  | {
      ok: false;
      code: "not-found" | "declined" | "mismatch" | "unavailable" | "not-paid";
      detail: string;
      /** Where the buyer can follow the payment (/status/payment/:paymentId). */
      paymentId?: string;
    };

/** The capture after the buyer approved in PayPal's window (the browser's `onApprove`). */
export async function completePayPalCheckout(
  db: D1Database,
  notices: GatewayNotices,
  paypal: PayPalClient,
  user: Pick<User, "id">,
  orderId: string,
  now: number = Date.now(),
): Promise<CompleteCheckoutResult> {
  const payment = await findPaymentByOrder(db, "paypal", orderId);
  if (!payment || payment.user_id !== user.id) {
    return { ok: false, code: "not-found", detail: "No payment of yours has this order id." };
  }

  let captured = await paypal.captureOrder({ orderId, requestId: captureRequestId(payment.id) });
  if (!captured.ok && captured.code === "instrument-declined") {
    return { ok: false, code: "declined", detail: "The card was declined. Choose another way to pay." };
  }
  // Captured already (the approval webhook's capture may have raced this one), or the call
  // failed on the way: what PayPal holds now decides, not the error.
  if (!captured.ok) captured = await paypal.getOrder(orderId);
  if (!captured.ok) return { ok: false, code: "unavailable", detail: captured.detail };
  const verdict = payPalVerdict(captured.value, payment);
  if (verdict === "approved" || verdict.kind === "pending") {
    return { ok: false, code: "not-paid", detail: "PayPal has not completed the payment yet.", paymentId: payment.id };
  }
  const settled = await settlePayment(db, notices, payment, verdict, now);
  if (verdict.kind === "mismatch") {
    return {
      ok: false,
      code: "mismatch",
      detail: "The payment does not match the order. Nothing was charged to your plan; contact support.",
    };
  }
  if (settled.status !== "paid") {
    return { ok: false, code: "not-paid", detail: `The payment is ${settled.status}.`, paymentId: payment.id };
  }
  return { ok: true, planId: settled.planId, planExpiresAt: settled.planExpiresAt, alreadyPaid: !settled.planChanged };
}
