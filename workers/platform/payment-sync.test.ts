import { describe, expect, it } from "vitest";
import type { CashfreeOrder, CashfreePayment } from "~workers/providers/cashfree/types";
import type { PayPalOrder } from "~workers/providers/paypal/types";
import { cashfreeVerdict, payPalVerdict } from "./payment-sync";

const usdPayment = { id: "pay_usd", amount_minor: 900, currency: "USD" as const };
const inrPayment = { id: "pay_inr", amount_minor: 2_100, currency: "INR" as const };

function paypalOrder(status: string, capture?: { status: string; value?: string }, customId = "pay_usd"): PayPalOrder {
  return {
    id: "ORDER1",
    status,
    customId,
    amount: { currency: "USD", value: "9.00" },
    capture: capture
      ? { id: "CAP1", status: capture.status, amount: { currency: "USD", value: capture.value ?? "9.00" } }
      : null,
    approveUrl: null,
  };
}

describe("what a PayPal order says about a payment", () => {
  it.each([
    ["CREATED", undefined, { kind: "pending" }],
    ["PAYER_ACTION_REQUIRED", undefined, { kind: "pending" }],
    ["APPROVED", undefined, "approved"],
    ["VOIDED", undefined, { kind: "failed" }],
    ["COMPLETED", { status: "COMPLETED" }, { kind: "paid" }],
    ["COMPLETED", { status: "PENDING" }, { kind: "pending", awaitingProvider: true }],
    ["COMPLETED", { status: "DECLINED" }, { kind: "failed" }],
    ["COMPLETED", { status: "FAILED" }, { kind: "failed" }],
    ["COMPLETED", { status: "REFUNDED" }, { kind: "refunded" }],
    ["COMPLETED", { status: "PARTIALLY_REFUNDED" }, { kind: "refunded" }],
  ] as const)("order %s with capture %j → %j", (status, capture, expected) => {
    const verdict = payPalVerdict(paypalOrder(status, capture), usdPayment);
    if (typeof expected === "string") expect(verdict).toBe(expected);
    else expect(verdict).toMatchObject(expected);
  });

  it("never calls a capture of another amount or another payment paid", () => {
    expect(payPalVerdict(paypalOrder("COMPLETED", { status: "COMPLETED", value: "1.00" }), usdPayment)).toMatchObject({
      kind: "mismatch",
    });
    expect(
      payPalVerdict(paypalOrder("COMPLETED", { status: "COMPLETED" }, "pay_someone_else"), usdPayment),
    ).toMatchObject({ kind: "mismatch" });
    expect(
      payPalVerdict(paypalOrder("COMPLETED", { status: "COMPLETED" }), { ...usdPayment, currency: "INR" }),
    ).toMatchObject({ kind: "mismatch" });
  });
});

function cashfreeOrder(status: CashfreeOrder["status"], amountMinor = 2_100, orderId = "pay_inr"): CashfreeOrder {
  return { orderId, cfOrderId: "CF1", status, amountMinor, currency: "INR", paymentSessionId: null };
}

const attempt = (status: string): CashfreePayment => ({ cfPaymentId: `cf-${status}`, status, amountMinor: 2_100 });

describe("what a Cashfree order says about a payment", () => {
  it("is paid only when PAID for exactly the amount of this payment", () => {
    expect(cashfreeVerdict(cashfreeOrder("PAID"), [attempt("SUCCESS")], [], inrPayment)).toEqual({ kind: "paid" });
    expect(cashfreeVerdict(cashfreeOrder("PAID", 100), [], [], inrPayment)).toMatchObject({ kind: "mismatch" });
    expect(cashfreeVerdict(cashfreeOrder("PAID", 2_100, "pay_other"), [], [], inrPayment)).toMatchObject({
      kind: "mismatch",
    });
  });

  it("is refunded once any refund succeeded, and not before", () => {
    const refund = (status: string) => ({ refundId: "r1", status, amountMinor: 2_100 });
    expect(cashfreeVerdict(cashfreeOrder("PAID"), [], [refund("SUCCESS")], inrPayment)).toEqual({ kind: "refunded" });
    expect(cashfreeVerdict(cashfreeOrder("PAID"), [], [refund("PENDING")], inrPayment)).toEqual({ kind: "paid" });
  });

  it("reads an open order from its attempts, whatever their order", () => {
    const open = cashfreeOrder("ACTIVE");
    expect(cashfreeVerdict(open, [], [], inrPayment)).toEqual({ kind: "pending" });
    expect(cashfreeVerdict(open, [attempt("FAILED"), attempt("USER_DROPPED")], [], inrPayment)).toMatchObject({
      kind: "failed",
    });
    // A UPI attempt still in flight, listed before or after a failed one: money may be coming.
    for (const attempts of [
      [attempt("PENDING"), attempt("FAILED")],
      [attempt("FAILED"), attempt("PENDING")],
    ]) {
      expect(cashfreeVerdict(open, attempts, [], inrPayment)).toEqual({ kind: "pending", awaitingProvider: true });
    }
  });

  it("gives up on an expired or terminated order", () => {
    for (const status of ["EXPIRED", "TERMINATED", "TERMINATION_REQUESTED"] as const) {
      expect(cashfreeVerdict(cashfreeOrder(status), [], [], inrPayment)).toMatchObject({ kind: "failed" });
    }
  });
});
