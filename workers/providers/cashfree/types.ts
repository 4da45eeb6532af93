/**
 * The Cashfree PG calls Portico makes, as an interface: a real client over HTTPS in production,
 * the same client pointed at the local fake Cashfree (`fake.ts`, served at /dev/cashfree) in
 * development and tests. Amounts are in paise, as everywhere in Portico; the client converts
 * to and from Cashfree's rupee decimals.
 */

/** ACTIVE (awaiting payment) | PAID | EXPIRED | TERMINATED | TERMINATION_REQUESTED */
export type CashfreeOrderStatus = "ACTIVE" | "PAID" | "EXPIRED" | "TERMINATED" | "TERMINATION_REQUESTED";

export interface CashfreeOrder {
  /** Our id for the order: Portico's payment id. */
  orderId: string;
  /** Cashfree's own id for it. */
  cfOrderId: string;
  status: CashfreeOrderStatus;
  amountMinor: number;
  currency: "INR";
  /** What the browser hands to cashfree-js `checkout()`; present while the order is ACTIVE. */
  paymentSessionId: string | null;
}

export interface CashfreePayment {
  cfPaymentId: string;
  /** SUCCESS | NOT_ATTEMPTED | FAILED | USER_DROPPED | VOID | CANCELLED | PENDING */
  status: string;
  amountMinor: number;
}

export interface CashfreeRefund {
  refundId: string;
  /** SUCCESS | PENDING | CANCELLED | ONHOLD */
  status: string;
  amountMinor: number;
}

export interface CashfreeCustomer {
  /** Alphanumeric, `_` or `-`: our user id. */
  id: string;
  email: string;
  name: string;
  /** Ten digits, as Cashfree requires for Indian numbers. */
  phone: string;
}

export type CashfreeResult<T> =
  { ok: true; value: T } | { ok: false; code: "invalid-request" | "not-found" | "unavailable"; detail: string };

export interface CashfreeClient {
  createOrder(input: {
    orderId: string;
    amountMinor: number;
    customer: CashfreeCustomer;
    /** Where the buyer comes back to: our /status/payment/:paymentId. */
    returnUrl: string;
    /** Where Cashfree posts webhooks: the webhook Worker's /cashfree. */
    notifyUrl: string;
    note: string;
  }): Promise<CashfreeResult<CashfreeOrder>>;
  getOrder(orderId: string): Promise<CashfreeResult<CashfreeOrder>>;
  getPayments(orderId: string): Promise<CashfreeResult<CashfreePayment[]>>;
  getRefunds(orderId: string): Promise<CashfreeResult<CashfreeRefund[]>>;
}

/**
 * How a fake provider hands a signed webhook to the webhook Worker: the URL the provider was
 * given (Cashfree's notify_url, PayPal's subscription URL) and the exact request it sends.
 */
export type DeliverWebhook = (url: string, init: { headers: Record<string, string>; body: string }) => Promise<void>;
