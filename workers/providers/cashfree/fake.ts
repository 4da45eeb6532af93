/**
 * A fake Cashfree PG for development and tests, so checkout runs offline: create / read an
 * order, its payment attempts and refunds, create a refund, a hosted checkout page standing in
 * for Cashfree's, a stand-in for the cashfree-js SDK script, and signed webhooks to the order's
 * notify_url. It answers in Cashfree's shapes and error format (`{ message, code, type }`), so the
 * real client in `client.ts` runs unchanged against it. State lives in KV so every isolate of a
 * dev server sees the same orders.
 *
 * Served at `baseUrl` (e.g. http://localhost:5173/dev/cashfree):
 * - `{baseUrl}/pg/...`: the API; point the client at `{baseUrl}/pg`.
 * - `{baseUrl}/checkout?payment_session_id=…`: the hosted checkout page.
 * - `{baseUrl}/sdk.js`: loaded before @cashfreepayments/cashfree-js, which then uses its
 *   `window.Cashfree` instead of fetching https://sdk.cashfree.com/js/v3/cashfree.js.
 *
 * Where it differs from Cashfree, on purpose: return_url and notify_url may be http (local dev
 * servers), refunds succeed at once and their webhook goes to the order's notify_url (Cashfree
 * sends refund webhooks to the URLs set in its dashboard), every payment is a UPI payment, and
 * orders never expire. `payFakeCashfreeOrder` and `refundFakeCashfreeOrder` let tests act as the
 * buyer and the merchant dashboard without the page.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import { signCashfreeWebhook } from "~workers/providers/signatures/cashfree";
import { escapeHtml, fakePageHeaders, renderFakePage } from "../fake-page";
import type { CashfreePayment, CashfreeRefund, DeliverWebhook } from "./types";
import { describeError, inProcessFetch } from "../http";

const ORDER_KV_PREFIX = "fake-cashfree:order:";
const SESSION_KV_PREFIX = "fake-cashfree:session:";
/** Long enough for any test or dev session, short enough that a dev KV store does not grow forever. */
const ORDER_TTL_SECONDS = 3 * 24 * 60 * 60;
/** Cashfree's default: an order may be paid for 30 days. */
const ORDER_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
/** The webhook format the fake speaks; the payload below follows it. */
const WEBHOOK_VERSION = "2025-01-01";
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const DIGITS = "0123456789";

export interface FakeCashfreeOptions {
  /** Where the fake is served, without `/pg`: e.g. http://localhost:5173/dev/cashfree. */
  baseUrl: string;
  kv: KVNamespace;
  /** The credentials the fake accepts; the secret also signs its webhooks, as Cashfree's does. */
  clientId: string;
  clientSecret: string;
  /** Hands each signed webhook to the webhook Worker; without it no webhook is sent. */
  deliverWebhook?: DeliverWebhook;
  /** When given, webhooks are delivered after the answer (`ctx.waitUntil`); otherwise before it. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/** What sending a webhook needs: the options without the serving parts. */
type WebhookOptions = Pick<FakeCashfreeOptions, "clientSecret" | "deliverWebhook" | "waitUntil">;

const IdSchema = z
  .string()
  .min(3)
  .max(45)
  .regex(/^[A-Za-z0-9_-]+$/, "only alphanumerics, _ and - are allowed");
const SessionIdSchema = z.string().regex(/^session_[A-Za-z0-9]{1,128}$/);

/** Rupees as Cashfree takes them: a JSON number with at most two decimals. */
const RupeesSchema = z.number().refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
  message: "at most two decimals are allowed",
});

/** Cashfree refuses URLs over 250 characters; the fake also allows http for local servers. */
const UrlSchema = z
  .string()
  .max(250)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an http(s) URL",
  });

/** What Cashfree validates on create, narrowed to the fields the fake supports. */
const CreateOrderBodySchema = z.object({
  // Optional at Cashfree, which then makes one up; Portico always sends its payment id.
  order_id: IdSchema.optional(),
  order_amount: RupeesSchema.refine((value) => value >= 1, { message: "must be at least 1.00" }),
  order_currency: z.literal("INR"),
  customer_details: z.object({
    customer_id: z
      .string()
      .min(3)
      .max(50)
      .regex(/^[A-Za-z0-9_-]+$/, "only alphanumerics, _ and - are allowed"),
    customer_phone: z.string().regex(/^\d{10}$/, "must be 10 digits"),
    customer_email: z.email().max(100).optional(),
    customer_name: z.string().max(100).optional(),
  }),
  order_meta: z.object({ return_url: UrlSchema.optional(), notify_url: UrlSchema.optional() }).optional(),
  order_note: z.string().max(200).optional(),
});

const CreateRefundBodySchema = z.object({
  refund_amount: RupeesSchema.refine((value) => value > 0, { message: "must be more than 0" }),
  refund_id: z
    .string()
    .min(3)
    .max(40)
    .regex(/^[A-Za-z0-9_-]+$/, "only alphanumerics, _ and - are allowed"),
  refund_note: z.string().max(100).optional(),
});

const StoredPaymentSchema = z.object({
  cfPaymentId: z.string(),
  status: z.enum(["SUCCESS", "FAILED"]),
  amountPaise: z.number().int(),
  time: z.string(),
  message: z.string(),
  bankReference: z.string(),
});
type StoredPayment = z.infer<typeof StoredPaymentSchema>;

const StoredRefundSchema = z.object({
  refundId: z.string(),
  cfRefundId: z.string(),
  cfPaymentId: z.string(),
  status: z.literal("SUCCESS"),
  amountPaise: z.number().int(),
  note: z.string().nullable(),
  arn: z.string(),
  createdAt: z.string(),
  processedAt: z.string(),
});
type StoredRefund = z.infer<typeof StoredRefundSchema>;

const StoredOrderSchema = z.object({
  orderId: z.string(),
  cfOrderId: z.string(),
  status: z.enum(["ACTIVE", "PAID"]),
  amountPaise: z.number().int(),
  customer: z.object({
    id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    phone: z.string(),
  }),
  returnUrl: z.string().nullable(),
  notifyUrl: z.string().nullable(),
  note: z.string().nullable(),
  paymentSessionId: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  payments: z.array(StoredPaymentSchema),
  refunds: z.array(StoredRefundSchema),
});
type StoredOrder = z.infer<typeof StoredOrderSchema>;

export type FakeCheckoutChoice = "pay" | "fail";
const CheckoutChoiceSchema = z.enum(["pay", "fail"]);

export function createFakeCashfree(options: FakeCashfreeOptions): Hono {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const { kv, clientId, clientSecret } = options;
  const app = new Hono().basePath(basePath || "/");

  app.use("/pg/*", async (c, next) => {
    c.header("cache-control", "no-store");
    if (c.req.header("x-client-id") !== clientId || c.req.header("x-client-secret") !== clientSecret) {
      return cashfreeError(c, 401, "authentication Failed", "request_failed", "authentication_error");
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(c.req.header("x-api-version") ?? "")) {
      return cashfreeError(c, 400, "x-api-version : is missing or invalid in the request header", "request_failed");
    }
    await next();
  });

  app.post("/pg/orders", async (c) => {
    const raw = await c.req.json<unknown>().catch(() => undefined);
    const body = CreateOrderBodySchema.safeParse(raw);
    if (!body.success) return validationError(c, raw, body.error);
    const input = body.data;
    const orderId = input.order_id ?? `order_${randomString(ALPHANUMERIC, 24)}`;
    // Two creates racing with one id could both pass this read (KV has no compare-and-set);
    // acceptable for a development fake.
    if (await loadOrder(kv, orderId)) {
      return cashfreeError(c, 409, "order with same id is already present", "order_already_exists");
    }
    const now = Date.now();
    const order: StoredOrder = {
      orderId,
      cfOrderId: randomString(DIGITS, 10),
      status: "ACTIVE",
      amountPaise: Math.round(input.order_amount * 100),
      customer: {
        id: input.customer_details.customer_id,
        email: input.customer_details.customer_email ?? null,
        name: input.customer_details.customer_name ?? null,
        phone: input.customer_details.customer_phone,
      },
      returnUrl: input.order_meta?.return_url ?? null,
      notifyUrl: input.order_meta?.notify_url ?? null,
      note: input.order_note ?? null,
      paymentSessionId: `session_${randomString(ALPHANUMERIC, 64)}`,
      createdAt: istTime(now),
      expiresAt: istTime(now + ORDER_EXPIRY_MS),
      payments: [],
      refunds: [],
    };
    await saveOrder(kv, order);
    await kv.put(`${SESSION_KV_PREFIX}${order.paymentSessionId}`, order.orderId, { expirationTtl: ORDER_TTL_SECONDS });
    return cashfreeJson(c, renderOrder(order));
  });

  app.get("/pg/orders/:id", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return orderNotFound(c);
    return cashfreeJson(c, renderOrder(order));
  });

  app.get("/pg/orders/:id/payments", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return orderNotFound(c);
    return cashfreeJson(
      c,
      order.payments.map((payment) => renderPayment(order, payment)),
    );
  });

  app.get("/pg/orders/:id/refunds", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return orderNotFound(c);
    return cashfreeJson(
      c,
      order.refunds.map((refund) => renderRefund(order, refund)),
    );
  });

  app.post("/pg/orders/:id/refunds", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return orderNotFound(c);
    const raw = await c.req.json<unknown>().catch(() => undefined);
    const body = CreateRefundBodySchema.safeParse(raw);
    if (!body.success) return validationError(c, raw, body.error);
    const outcome = await refundOrder(options, order, {
      refundId: body.data.refund_id,
      amountPaise: Math.round(body.data.refund_amount * 100),
      note: body.data.refund_note ?? null,
    });
    if (outcome === "not-paid") {
      return cashfreeError(c, 400, "refund can only be created for a PAID order", "order_not_paid");
    }
    if (outcome === "too-much") {
      return cashfreeError(c, 400, "refund_amount : exceeds the refundable amount", "refund_amount_invalid");
    }
    if (outcome === "duplicate") {
      return cashfreeError(c, 409, "refund with same id is already present", "refund_already_exists");
    }
    return cashfreeJson(c, renderRefund(outcome.order, outcome.refund));
  });

  app.get("/checkout", async (c) => {
    const order = await loadOrderBySession(kv, c.req.query("payment_session_id"));
    if (!order) return c.html(renderMessagePage("This payment session does not exist."), 404, pageHeaders());
    if (order.status !== "ACTIVE") {
      return c.html(renderMessagePage("This order has already been paid."), 422, pageHeaders());
    }
    const action = `${basePath}/checkout?payment_session_id=${encodeURIComponent(order.paymentSessionId)}`;
    // The form's answer redirects to return_url: form-action must allow that origin too, or
    // browsers stop the redirect.
    return c.html(renderCheckoutPage(order, action), 200, pageHeaders(returnOrigin(order)));
  });

  app.post("/checkout", async (c) => {
    const order = await loadOrderBySession(kv, c.req.query("payment_session_id"));
    if (!order) return c.html(renderMessagePage("This payment session does not exist."), 404, pageHeaders());
    const form = await c.req.parseBody();
    const choice = CheckoutChoiceSchema.safeParse(form.choice);
    if (!choice.success) return c.html(renderMessagePage("Choose Pay or Fail payment."), 400, pageHeaders());
    const outcome = await payOrder(options, order, choice.data);
    if (outcome === "already-paid") {
      return c.html(renderMessagePage("This order has already been paid."), 422, pageHeaders());
    }
    if (order.returnUrl === null) {
      const message = choice.data === "pay" ? "Payment successful." : "Payment failed.";
      return c.html(renderMessagePage(`${message} You may close this page.`), 200, pageHeaders());
    }
    // Cashfree fills in an {order_id} placeholder and appends nothing else.
    return c.redirect(order.returnUrl.replaceAll("{order_id}", encodeURIComponent(order.orderId)), 303);
  });

  app.get("/sdk.js", (c) => {
    return c.body(renderSdkScript(`${basePath}/checkout`), 200, {
      "content-type": "application/javascript; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
  });

  return app;
}

/**
 * Test-only: acts as the buyer on the checkout page, webhook included. Throws when the order
 * does not exist or is already paid, since a test asking for that has a bug.
 */
export async function payFakeCashfreeOrder(
  options: WebhookOptions & { kv: KVNamespace },
  orderId: string,
  choice: FakeCheckoutChoice,
): Promise<CashfreePayment> {
  const order = await loadOrder(options.kv, orderId);
  if (!order) throw new Error(`Fake Cashfree cannot pay order ${orderId}: not-found`);
  const outcome = await payOrder(options, order, choice);
  if (outcome === "already-paid") throw new Error(`Fake Cashfree cannot pay order ${orderId}: already-paid`);
  return { cfPaymentId: outcome.cfPaymentId, status: outcome.status, amountMinor: outcome.amountPaise };
}

/**
 * Test-only: refunds a paid order as the merchant dashboard would, webhook included; by default
 * the whole refundable amount under a fresh refund id. Throws when Cashfree would refuse.
 */
export async function refundFakeCashfreeOrder(
  options: WebhookOptions & { kv: KVNamespace },
  orderId: string,
  refund: { refundId?: string; amountMinor?: number; note?: string } = {},
): Promise<CashfreeRefund> {
  const order = await loadOrder(options.kv, orderId);
  if (!order) throw new Error(`Fake Cashfree cannot refund order ${orderId}: not-found`);
  const outcome = await refundOrder(options, order, {
    refundId: refund.refundId ?? `refund_${randomString(ALPHANUMERIC, 20)}`,
    amountPaise: refund.amountMinor ?? refundablePaise(order),
    note: refund.note ?? null,
  });
  if (typeof outcome === "string") throw new Error(`Fake Cashfree cannot refund order ${orderId}: ${outcome}`);
  return {
    refundId: outcome.refund.refundId,
    status: outcome.refund.status,
    amountMinor: outcome.refund.amountPaise,
  };
}

/** A `fetch` answered in process by this fake, refusing anything outside `baseUrl`. */
export function createFakeCashfreeFetch(fake: Hono, baseUrl: string): typeof fetch {
  return inProcessFetch(fake, baseUrl, "Cashfree");
}

/** One payment attempt: pay marks the order PAID; fail leaves it ACTIVE for another try. */
async function payOrder(
  options: WebhookOptions & { kv: KVNamespace },
  order: StoredOrder,
  choice: FakeCheckoutChoice,
): Promise<StoredPayment | "already-paid"> {
  if (order.status !== "ACTIVE") return "already-paid";
  const payment: StoredPayment = {
    cfPaymentId: randomString(DIGITS, 10),
    status: choice === "pay" ? "SUCCESS" : "FAILED",
    amountPaise: order.amountPaise,
    time: istTime(Date.now()),
    message: choice === "pay" ? "00::Transaction success" : "Payment declined by the fake bank",
    bankReference: randomString(DIGITS, 12),
  };
  const updated: StoredOrder = {
    ...order,
    status: choice === "pay" ? "PAID" : "ACTIVE",
    payments: [...order.payments, payment],
  };
  await saveOrder(options.kv, updated);
  await sendWebhook(options, updated, {
    data: {
      order: {
        order_id: updated.orderId,
        order_amount: new Rupees(updated.amountPaise),
        order_currency: "INR",
        order_tags: null,
      },
      payment: {
        cf_payment_id: payment.cfPaymentId,
        payment_status: payment.status,
        payment_amount: new Rupees(payment.amountPaise),
        payment_currency: "INR",
        payment_message: payment.message,
        payment_time: payment.time,
        bank_reference: payment.bankReference,
        auth_id: null,
        payment_method: paymentMethod(),
        payment_group: "upi",
      },
      customer_details: renderCustomer(updated),
    },
    event_time: istTime(Date.now()),
    type: payment.status === "SUCCESS" ? "PAYMENT_SUCCESS_WEBHOOK" : "PAYMENT_FAILED_WEBHOOK",
  });
  return payment;
}

async function refundOrder(
  options: WebhookOptions & { kv: KVNamespace },
  order: StoredOrder,
  input: { refundId: string; amountPaise: number; note: string | null },
): Promise<{ order: StoredOrder; refund: StoredRefund } | "not-paid" | "too-much" | "duplicate"> {
  const paid = order.payments.find((payment) => payment.status === "SUCCESS");
  if (order.status !== "PAID" || !paid) return "not-paid";
  if (order.refunds.some((refund) => refund.refundId === input.refundId)) return "duplicate";
  if (
    !Number.isSafeInteger(input.amountPaise) ||
    input.amountPaise <= 0 ||
    input.amountPaise > refundablePaise(order)
  ) {
    return "too-much";
  }
  const now = istTime(Date.now());
  const refund: StoredRefund = {
    refundId: input.refundId,
    cfRefundId: randomString(DIGITS, 8),
    cfPaymentId: paid.cfPaymentId,
    status: "SUCCESS",
    amountPaise: input.amountPaise,
    note: input.note,
    arn: randomString(DIGITS, 12),
    createdAt: now,
    processedAt: now,
  };
  const updated: StoredOrder = { ...order, refunds: [...order.refunds, refund] };
  await saveOrder(options.kv, updated);
  await sendWebhook(options, updated, {
    data: { refund: renderRefund(updated, refund) },
    event_time: now,
    type: "REFUND_STATUS_WEBHOOK",
  });
  return { order: updated, refund };
}

function refundablePaise(order: StoredOrder): number {
  const refunded = order.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0);
  return order.status === "PAID" ? order.amountPaise - refunded : 0;
}

/**
 * Signs and hands over one webhook, as Cashfree sends it. The body is serialised once and
 * signed as those exact characters. A failed delivery is logged and otherwise ignored: the
 * buyer's page must not break because the webhook Worker is down (Cashfree would retry).
 */
async function sendWebhook(
  options: WebhookOptions,
  order: StoredOrder,
  payload: { data: Record<string, unknown>; event_time: string; type: string },
): Promise<void> {
  const { deliverWebhook, waitUntil, clientSecret } = options;
  const url = order.notifyUrl;
  if (!deliverWebhook || url === null) return;
  const body = toCashfreeJson(payload);
  const delivery = (async () => {
    const timestamp = String(Date.now());
    await deliverWebhook(url, {
      headers: {
        "content-type": "application/json",
        "x-webhook-signature": await signCashfreeWebhook(body, timestamp, clientSecret),
        "x-webhook-timestamp": timestamp,
        "x-webhook-version": WEBHOOK_VERSION,
        "x-idempotency-key": crypto.randomUUID(),
      },
      body,
    });
  })().catch((error: unknown) => {
    console.error(
      `Fake Cashfree: delivering ${payload.type} for order ${order.orderId} to ${url} failed: ${describeError(error)}`,
    );
  });
  if (waitUntil) waitUntil(delivery);
  else await delivery;
}

async function loadOrder(kv: KVNamespace, orderId: string): Promise<StoredOrder | null> {
  // Checked before use as a key: a path segment must not reach other KV entries.
  if (!IdSchema.safeParse(orderId).success) return null;
  const stored = StoredOrderSchema.safeParse(await kv.get(`${ORDER_KV_PREFIX}${orderId}`, "json"));
  return stored.success ? stored.data : null;
}

async function loadOrderBySession(kv: KVNamespace, sessionId: string | undefined): Promise<StoredOrder | null> {
  if (!SessionIdSchema.safeParse(sessionId).success) return null;
  const orderId = await kv.get(`${SESSION_KV_PREFIX}${sessionId}`);
  return orderId === null ? null : loadOrder(kv, orderId);
}

async function saveOrder(kv: KVNamespace, order: StoredOrder): Promise<void> {
  await kv.put(`${ORDER_KV_PREFIX}${order.orderId}`, JSON.stringify(order), { expirationTtl: ORDER_TTL_SECONDS });
}

/** An amount in paise, written into JSON as Cashfree writes rupees: always two decimals. */
class Rupees {
  constructor(readonly paise: number) {}
}

/**
 * JSON with every `Rupees` written as `21.00`, not `21`: Cashfree's bodies carry two decimals,
 * and webhook signatures cover those characters, so a receiver that re-serialises fails as it
 * would against Cashfree. The marker is random per call, so no string value can imitate it.
 */
function toCashfreeJson(value: unknown): string {
  const marker = `rupees-${crypto.randomUUID()}:`;
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Rupees ? `${marker}${item.paise}` : item,
  );
  return text.replace(new RegExp(`"${marker}(\\d+)"`, "g"), (_match, paise: string) => formatRupees(Number(paise)));
}

function cashfreeJson(c: Context, value: unknown): Response {
  return c.body(toCashfreeJson(value), 200, { "content-type": "application/json" });
}

function formatRupees(paise: number): string {
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, "0")}`;
}

function renderCustomer(order: StoredOrder): Record<string, unknown> {
  return {
    customer_name: order.customer.name,
    customer_id: order.customer.id,
    customer_email: order.customer.email,
    customer_phone: order.customer.phone,
  };
}

function paymentMethod(): Record<string, unknown> {
  return { upi: { channel: "collect", upi_id: "buyer@fakeupi" } };
}

function renderOrder(order: StoredOrder): Record<string, unknown> {
  return {
    cf_order_id: order.cfOrderId,
    created_at: order.createdAt,
    customer_details: { ...renderCustomer(order), customer_uid: null },
    entity: "order",
    order_amount: new Rupees(order.amountPaise),
    order_currency: "INR",
    order_expiry_time: order.expiresAt,
    order_id: order.orderId,
    order_meta: { return_url: order.returnUrl, notify_url: order.notifyUrl, payment_methods: null },
    order_note: order.note,
    order_splits: [],
    order_status: order.status,
    order_tags: null,
    payment_session_id: order.paymentSessionId,
  };
}

function renderPayment(order: StoredOrder, payment: StoredPayment): Record<string, unknown> {
  return {
    auth_id: null,
    authorization: null,
    bank_reference: payment.bankReference,
    cf_payment_id: payment.cfPaymentId,
    entity: "payment",
    error_details:
      payment.status === "FAILED"
        ? {
            error_code: "TRANSACTION_DECLINED",
            error_description: payment.message,
            error_reason: "bank_declined",
            error_source: "bank",
          }
        : null,
    is_captured: payment.status === "SUCCESS",
    order_amount: new Rupees(order.amountPaise),
    order_id: order.orderId,
    payment_amount: new Rupees(payment.amountPaise),
    payment_completion_time: payment.time,
    payment_currency: "INR",
    payment_gateway_details: null,
    payment_group: "upi",
    payment_message: payment.message,
    payment_method: paymentMethod(),
    payment_offers: null,
    payment_status: payment.status,
    payment_time: payment.time,
  };
}

function renderRefund(order: StoredOrder, refund: StoredRefund): Record<string, unknown> {
  return {
    cf_payment_id: refund.cfPaymentId,
    cf_refund_id: refund.cfRefundId,
    order_id: order.orderId,
    refund_id: refund.refundId,
    entity: "refund",
    refund_amount: new Rupees(refund.amountPaise),
    refund_currency: "INR",
    refund_note: refund.note,
    refund_status: refund.status,
    refund_arn: refund.arn,
    refund_charge: 0,
    status_description: "Refund processed successfully",
    metadata: null,
    refund_splits: [],
    refund_type: "MERCHANT_INITIATED",
    refund_mode: "STANDARD",
    created_at: refund.createdAt,
    processed_at: refund.processedAt,
  };
}

function cashfreeError(
  c: Context,
  status: 400 | 401 | 404 | 409,
  message: string,
  code: string,
  type = "invalid_request_error",
): Response {
  return c.json({ message, code, type }, status);
}

function orderNotFound(c: Context): Response {
  return cashfreeError(c, 404, "order not found for this id", "order_not_found");
}

/** The first problem, named the way Cashfree names it: `customer_details.customer_phone_invalid`. */
function validationError(c: Context, raw: unknown, error: z.ZodError): Response {
  if (typeof raw !== "object" || raw === null) {
    return cashfreeError(c, 400, "request body is not valid JSON", "request_invalid");
  }
  const issue = error.issues[0];
  const field = issue?.path.map(String).join(".") || "request";
  const missing = issue !== undefined && valueAt(raw, issue.path) === undefined;
  return cashfreeError(
    c,
    400,
    `${field} : ${missing ? "is missing in the request" : (issue?.message ?? "invalid value provided")}`,
    `${field}_${missing ? "missing" : "invalid"}`,
  );
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Characters from `alphabet`, without modulo bias. */
function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let result = "";
  while (result.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < limit && result.length < length) result += alphabet[byte % alphabet.length];
    }
  }
  return result;
}

/** Cashfree writes times in India Standard Time: 2026-11-15T17:30:00+05:30. */
function istTime(epochMs: number): string {
  return new Date(epochMs + 5.5 * 60 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, "+05:30");
}

function returnOrigin(order: StoredOrder): string | null {
  return order.returnUrl === null ? null : new URL(order.returnUrl).origin;
}

/**
 * The stand-in for Cashfree's SDK: `Cashfree(options).checkout({ paymentSessionId })` goes to
 * the fake checkout page. Only what Portico calls; `mode` and `redirectTarget` are ignored.
 */
function renderSdkScript(checkoutPath: string): string {
  return `// Fake Cashfree JS SDK: development only. Stands in for https://sdk.cashfree.com/js/v3/cashfree.js.
(function () {
  "use strict";
  var checkoutPath = ${JSON.stringify(checkoutPath)};
  window.Cashfree = function (options) {
    return {
      checkout: function (checkoutOptions) {
        var paymentSessionId = checkoutOptions && checkoutOptions.paymentSessionId;
        if (typeof paymentSessionId !== "string" || paymentSessionId === "") {
          return Promise.resolve({ error: { message: "paymentSessionId is required" } });
        }
        location.assign(checkoutPath + "?payment_session_id=" + encodeURIComponent(paymentSessionId));
        return Promise.resolve({});
      },
    };
  };
})();
`;
}

const PAGE_STYLE = `
  .amount { font-size: 2rem; font-weight: 700; margin: 0; }
  .note { overflow-wrap: anywhere; }
  .order { font-size: 0.8rem; opacity: 0.7; overflow-wrap: anywhere; }
  .actions { display: grid; gap: 0.5rem; margin-top: 1.5rem; }
  .pay { background: #6933d3; color: #fff; }
  .fail { background: transparent; color: inherit; border: 1px solid color-mix(in srgb, CanvasText 35%, transparent); }
`;

function pageHeaders(extraFormOrigin: string | null = null): Record<string, string> {
  return fakePageHeaders(`form-action 'self'${extraFormOrigin ? ` ${extraFormOrigin}` : ""}`);
}

function renderDocument(body: string): string {
  return renderFakePage("Fake Cashfree — development only", PAGE_STYLE, body);
}

function renderCheckoutPage(order: StoredOrder, action: string): string {
  const amount = `₹${formatRupees(order.amountPaise)}`;
  return renderDocument(`
<h1>Fake Cashfree — development only</h1>
<p class="warning">No real money moves and no real account is involved.</p>
<p class="amount">${escapeHtml(amount)}</p>
<p class="note">${escapeHtml(order.note ?? "")}</p>
<p class="order">Order ${escapeHtml(order.orderId)}${order.customer.name ? ` · ${escapeHtml(order.customer.name)}` : ""}</p>
<form method="post" action="${escapeHtml(action)}" class="actions">
<button type="submit" name="choice" value="pay" class="pay">Pay ${escapeHtml(amount)}</button>
<button type="submit" name="choice" value="fail" class="fail">Fail payment</button>
</form>`);
}

function renderMessagePage(message: string): string {
  return renderDocument(`
<h1>Fake Cashfree — development only</h1>
<p>${escapeHtml(message)}</p>`);
}
