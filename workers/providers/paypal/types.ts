/**
 * The PayPal calls Portico makes (Orders v2, and the webhook signature check), as an interface:
 * a real client over HTTPS in production, the same client pointed at the local fake PayPal in
 * development and tests.
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
  /**
   * Present once captured: the first capture of the first purchase unit. Its status is
   * COMPLETED | PENDING | DECLINED | REFUNDED | PARTIALLY_REFUNDED; a refund changes it, not the
   * order's status, which stays COMPLETED.
   */
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
  /**
   * The order a capture belongs to (`GET /v2/payments/captures/{id}`): refund and reversal
   * events name only the capture, in their `up` link.
   */
  orderIdOfCapture(captureId: string): Promise<PayPalResult<string>>;
  /**
   * PayPal's own check of a webhook's signature (`POST /v1/notifications/verify-webhook-signature`),
   * for PAYPAL_WEBHOOK_VERIFY=api: true when PayPal answers SUCCESS, false for FAILURE and for a
   * delivery that lacks the `paypal-*` headers or whose body is not JSON.
   */
  verifyWebhookSignature(input: {
    headers: Headers;
    /** Our webhook subscription's id (PAYPAL_WEBHOOK_ID). */
    webhookId: string;
    /** The body exactly as received. */
    rawBody: string;
  }): Promise<PayPalResult<boolean>>;
}
