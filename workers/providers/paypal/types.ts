/**
 * The PayPal Orders v2 calls Portico makes, as an interface: a real client over HTTPS in
 * production, the same client pointed at the local fake PayPal in development and tests.
 */
export interface PayPalAmount {
  currency: "USD";
  /** Decimal string with two places, as PayPal wants it: "9.00". */
  value: string;
}

export interface PayPalOrder {
  id: string;
  /** CREATED | APPROVED | COMPLETED | VOIDED | PAYER_ACTION_REQUIRED */
  status: string;
  customId: string | null;
  amount: PayPalAmount | null;
  /** Present once captured: the first capture of the first purchase unit. */
  capture: { id: string; status: string; amount: PayPalAmount } | null;
  approveUrl: string | null;
}

export type PayPalResult<T> =
  | { ok: true; value: T }
  | { ok: false; code: "instrument-declined" | "already-captured" | "not-found" | "unavailable"; detail: string };

export interface PayPalClient {
  createOrder(input: {
    paymentId: string;
    amount: PayPalAmount;
    description: string;
  }): Promise<PayPalResult<PayPalOrder>>;
  captureOrder(input: { orderId: string; requestId: string }): Promise<PayPalResult<PayPalOrder>>;
  getOrder(orderId: string): Promise<PayPalResult<PayPalOrder>>;
}
