/**
 * Bringing a payment in line with its provider: read the order from PayPal or Cashfree, turn
 * what it says into a verdict, and settle the payment on it (`settlement.ts`). Webhooks, the
 * status page and the reconciliation cron all come through here, so they agree by
 * construction; nothing trusts what a webhook's body or a browser claims.
 */
import type { GatewayNotices } from "./gateway-notices";
import type { CashfreeClient, CashfreeOrder, CashfreePayment, CashfreeRefund } from "~workers/providers/cashfree/types";
import type { PaymentProviders } from "~workers/providers/payments";
import type { PayPalClient, PayPalOrder } from "~workers/providers/paypal/types";
import {
  FINAL_STATUSES,
  PAYMENT_COLUMNS,
  settlePayment,
  type EventRecord,
  type PaymentRow,
  type SettleResult,
  type Verdict,
} from "./settlement";

export type VerdictResult = { ok: true; verdict: Verdict } | { ok: false; detail: string };

/**
 * A fresh request id for each capture call. A capture racing another one (the browser's and the
 * approval webhook's) is refused as already captured, and both then read the order; a shared id
 * could instead replay an earlier decline after the buyer picked another card.
 */
export function captureRequestId(paymentId: string): string {
  return `${paymentId}-capture-${crypto.randomUUID()}`;
}

/** What a PayPal order says about this payment. `approved` still needs our capture. */
export function payPalVerdict(order: PayPalOrder, payment: Pick<PaymentRow, "id" | "amount_minor" | "currency">) {
  const capture = order.capture;
  if (!capture) {
    if (order.status === "APPROVED") return "approved" as const;
    if (order.status === "VOIDED") return { kind: "failed", detail: "PayPal voided the order" } satisfies Verdict;
    return { kind: "pending" } satisfies Verdict;
  }
  const matches =
    capture.amount.currency === payment.currency &&
    capture.amount.value === (payment.amount_minor / 100).toFixed(2) &&
    order.customId === payment.id;
  switch (capture.status) {
    case "COMPLETED":
      return matches
        ? ({ kind: "paid" } satisfies Verdict)
        : ({
            kind: "mismatch",
            detail: `capture ${capture.id} is ${capture.amount.value} ${capture.amount.currency} for ${order.customId}`,
          } satisfies Verdict);
    case "REFUNDED":
    case "PARTIALLY_REFUNDED":
    case "REVERSED":
      return { kind: "refunded" } satisfies Verdict;
    case "DECLINED":
    case "FAILED":
      return { kind: "failed", detail: `PayPal capture ${capture.status}` } satisfies Verdict;
    case "PENDING":
      return { kind: "pending", awaitingProvider: true } satisfies Verdict;
    default:
      return { kind: "pending" } satisfies Verdict;
  }
}

async function readPayPal(paypal: PayPalClient, payment: PaymentRow, mayCapture: boolean): Promise<VerdictResult> {
  if (!payment.provider_order_id) return { ok: true, verdict: { kind: "failed", detail: "no PayPal order" } };
  const order = await paypal.getOrder(payment.provider_order_id);
  if (!order.ok) {
    return order.code === "not-found"
      ? { ok: true, verdict: { kind: "failed", detail: "PayPal has no such order" } }
      : { ok: false, detail: `PayPal order: ${order.detail}` };
  }
  const verdict = payPalVerdict(order.value, payment);
  if (verdict === "approved" && !mayCapture) return { ok: true, verdict: { kind: "pending" } };
  if (verdict !== "approved") return { ok: true, verdict };
  // Approved but not captured: the buyer closed the window before our capture ran. Capture
  // now, with the same request id as the browser's capture, so two captures are one.
  let captured = await paypal.captureOrder({
    orderId: payment.provider_order_id,
    requestId: captureRequestId(payment.id),
  });
  if (!captured.ok && captured.code === "already-captured") captured = await paypal.getOrder(payment.provider_order_id);
  if (!captured.ok) {
    // A declined card leaves the order approved: the buyer may choose another way to pay.
    return captured.code === "instrument-declined"
      ? { ok: true, verdict: { kind: "pending" } }
      : { ok: false, detail: `PayPal capture: ${captured.detail}` };
  }
  const after = payPalVerdict(captured.value, payment);
  return { ok: true, verdict: after === "approved" ? { kind: "pending" } : after };
}

/** What a Cashfree order, its payment attempts and its refunds say about this payment. */
export function cashfreeVerdict(
  order: CashfreeOrder,
  attempts: CashfreePayment[],
  refunds: CashfreeRefund[],
  payment: Pick<PaymentRow, "id" | "amount_minor" | "currency">,
): Verdict {
  if (order.orderId !== payment.id || order.currency !== payment.currency) {
    return { kind: "mismatch", detail: `Cashfree order ${order.orderId} in ${order.currency}` };
  }
  if (refunds.some((refund) => refund.status === "SUCCESS")) return { kind: "refunded" };
  switch (order.status) {
    case "PAID":
      return order.amountMinor === payment.amount_minor
        ? { kind: "paid" }
        : { kind: "mismatch", detail: `Cashfree order paid ${order.amountMinor} paise, not ${payment.amount_minor}` };
    case "EXPIRED":
    case "TERMINATED":
    case "TERMINATION_REQUESTED":
      return { kind: "failed", detail: `Cashfree order ${order.status}` };
    default: {
      // ACTIVE: an attempt still in flight means money may be on its way; otherwise attempts
      // that all ended badly mean the buyer gave up (Cashfree does not promise their order).
      if (attempts.some((attempt) => attempt.status === "PENDING")) return { kind: "pending", awaitingProvider: true };
      const ended = attempts.filter((attempt) =>
        ["FAILED", "USER_DROPPED", "CANCELLED", "VOID"].includes(attempt.status),
      );
      if (ended.length > 0 && ended.length === attempts.length) {
        return { kind: "failed", detail: `Cashfree payment attempts ended: ${ended.map((a) => a.status).join(", ")}` };
      }
      return { kind: "pending" };
    }
  }
}

async function readCashfree(cashfree: CashfreeClient, payment: PaymentRow): Promise<VerdictResult> {
  // Our payment id is the Cashfree order id.
  const [order, attempts, refunds] = await Promise.all([
    cashfree.getOrder(payment.id),
    cashfree.getPayments(payment.id),
    cashfree.getRefunds(payment.id),
  ]);
  if (!order.ok) {
    return order.code === "not-found"
      ? { ok: true, verdict: { kind: "failed", detail: "Cashfree has no such order" } }
      : { ok: false, detail: `Cashfree order: ${order.detail}` };
  }
  if (!attempts.ok) return { ok: false, detail: `Cashfree payments: ${attempts.detail}` };
  if (!refunds.ok) return { ok: false, detail: `Cashfree refunds: ${refunds.detail}` };
  return { ok: true, verdict: cashfreeVerdict(order.value, attempts.value, refunds.value, payment) };
}

/**
 * `mayCapture`: an approved PayPal order is captured on the way (webhooks, cron). The public
 * status call passes false: reading a page must not move money.
 */
export function readVerdict(
  providers: PaymentProviders,
  payment: PaymentRow,
  options: { mayCapture?: boolean } = {},
): Promise<VerdictResult> {
  return payment.provider === "paypal"
    ? readPayPal(providers.paypal, payment, options.mayCapture ?? true)
    : readCashfree(providers.cashfree, payment);
}

export type SyncResult = ({ ok: true } & SettleResult) | { ok: false; detail: string };

/** Reads the provider and settles the payment on what it says. */
export async function syncPayment(
  db: D1Database,
  notices: GatewayNotices,
  providers: PaymentProviders,
  payment: PaymentRow,
  now: number,
  event?: EventRecord,
  options: { mayCapture?: boolean } = {},
): Promise<SyncResult> {
  const read = await readVerdict(providers, payment, options);
  if (!read.ok) return read;
  return { ok: true, ...(await settlePayment(db, notices, payment, read.verdict, now, event)) };
}

/** A payment open this long is re-checked by the cron: its webhook may have been lost. */
export const RECONCILE_AFTER_MS = 15 * 60 * 1000;
/** An order nobody paid in a day is abandoned: the buyer starts a new one. */
export const ABANDON_AFTER_MS = 24 * 60 * 60 * 1000;
const RECONCILE_BATCH = 50;

export interface ReconcileSummary {
  checked: number;
  settled: Record<string, number>;
  unavailable: number;
  /** Accounts whose plan changed (the gateway has already heard: `settlePayment` told it). */
  changedUsers: string[];
}

/**
 * Re-checks payments stuck in created or pending for more than 15 minutes, least recently
 * checked first (`updated_at` doubles as "last checked" for open payments), and gives up on
 * those older than a day.
 */
export async function reconcileOpenPayments(
  db: D1Database,
  notices: GatewayNotices,
  providers: PaymentProviders,
  now: number,
): Promise<ReconcileSummary> {
  const { results } = await db
    .prepare(
      `SELECT ${PAYMENT_COLUMNS} FROM payments
       WHERE status IN ('created', 'pending') AND updated_at < ? ORDER BY updated_at LIMIT ?`,
    )
    .bind(now - RECONCILE_AFTER_MS, RECONCILE_BATCH)
    .all<PaymentRow>();
  const summary: ReconcileSummary = { checked: 0, settled: {}, unavailable: 0, changedUsers: [] };
  for (const payment of results) {
    summary.checked += 1;
    const read = await readVerdict(providers, payment);
    const abandoned = now - payment.created_at > ABANDON_AFTER_MS;
    if (!read.ok) {
      summary.unavailable += 1;
      console.error(`reconcile ${payment.id}: ${read.detail}`);
    }
    // Unpaid after a day, or unreadable for a day: given up. A webhook can still make it paid.
    const verdict: Verdict | null = read.ok
      ? read.verdict.kind === "pending" && !read.verdict.awaitingProvider && abandoned
        ? { kind: "failed", detail: "abandoned: not paid within a day" }
        : read.verdict
      : abandoned
        ? { kind: "failed", detail: `abandoned: unreadable for a day (${read.detail})` }
        : null;
    const settled = verdict ? await settlePayment(db, notices, payment, verdict, now) : null;
    if (settled) summary.settled[settled.status] = (summary.settled[settled.status] ?? 0) + 1;
    if (settled?.planChanged && payment.user_id) summary.changedUsers.push(payment.user_id);
    // Still open: to the back of the queue, so a few stuck payments cannot hold up the rest.
    if (!settled || !isFinal(settled.status)) {
      await db
        .prepare(`UPDATE payments SET updated_at = ? WHERE id = ? AND status IN ('created', 'pending')`)
        .bind(now, payment.id)
        .run();
    }
  }
  return summary;
}

export function isFinal(status: PaymentRow["status"]): boolean {
  return FINAL_STATUSES.includes(status);
}
