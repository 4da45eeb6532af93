/**
 * A fake PayPal (Orders v2) for development and tests, so checkout runs offline: the OAuth
 * token endpoint, create / read / capture an order, read and refund a capture, the webhook
 * signature check (`verify-webhook-signature`) and the webhook certificate, signed webhooks
 * for approval, capture and refund, a buyer approval page standing in for PayPal's hosted
 * checkout, and a stand-in for PayPal's JS SDK (`fake-sdk.ts`). It answers in PayPal's shapes
 * and error codes, so the real client in `client.ts` runs unchanged against it. State lives in
 * KV so every isolate of a dev server sees the same orders.
 *
 * Fake-only pieces: the approval page's "Decline card" button (the order is approved, but its
 * capture fails with INSTRUMENT_DECLINED, as a real declined card does), the `return` query
 * parameter of `/checkoutnow` (PayPal takes return URLs from the order instead), its `popup=1`
 * mode for the fake SDK, refunds of whole captures only, and the helpers `approveFakeOrder`
 * and `refundFakeCapture` for tests and tooling that act as the buyer or the merchant.
 */
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import { verifyPayPalSignature } from "~workers/providers/signatures/paypal";
import { escapeHtml, fakePageHeaders, renderFakePage } from "../fake-page";
import { randomId } from "./fake-ids";
import { POPUP_RESULT_SCRIPT, popupResultScriptSource, renderFakePayPalSdk } from "./fake-sdk";
import {
  certificateIdFromUrl,
  readFakeCertificate,
  sendFakeWebhook,
  type FakeWebhookEvent,
  type FakeWebhookSettings,
} from "./fake-webhooks";
import { inProcessFetch } from "../http";

export { fakePayPalCertificateFetcher, type FakePayPalWebhook } from "./fake-webhooks";

const ORDER_KV_PREFIX = "fake-paypal:order:";
const CAPTURE_KV_PREFIX = "fake-paypal:capture:";
const REQUEST_ID_KV_PREFIX = "fake-paypal:request:";
const TOKEN_KV_PREFIX = "fake-paypal:token:";
/** PayPal's access tokens last about nine hours. */
const TOKEN_TTL_SECONDS = 32_400;
/** Long enough for any test or dev session, short enough that a dev KV store does not grow forever. */
const ORDER_TTL_SECONDS = 3 * 24 * 60 * 60;
const DEFAULT_RETURN_PATH = "/user/subscription";

/** Order, capture and refund ids: all issued by `randomId`, so all uppercase alphanumerics. */
const ResourceIdSchema = z.string().regex(/^[A-Z0-9]{1,36}$/);

const StoredOrderSchema = z.object({
  id: z.string(),
  status: z.enum(["CREATED", "APPROVED", "COMPLETED"]),
  amount: z.object({ currency_code: z.string(), value: z.string() }),
  customId: z.string().nullable(),
  description: z.string().nullable(),
  /** Set by "Decline card": the order is approved, but its capture is refused. */
  declineOnCapture: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
  capture: z
    .object({
      id: z.string(),
      requestId: z.string().nullable(),
      createTime: z.string(),
      // A default, so orders stored before refunds existed still read.
      refund: z
        .object({ id: z.string(), requestId: z.string().nullable(), createTime: z.string() })
        .nullable()
        .default(null),
    })
    .nullable(),
});
type StoredOrder = z.infer<typeof StoredOrderSchema>;
type StoredCapture = NonNullable<StoredOrder["capture"]>;
type CapturedOrder = StoredOrder & { capture: StoredCapture };
type RefundedOrder = StoredOrder & { capture: StoredCapture & { refund: NonNullable<StoredCapture["refund"]> } };

const MoneySchema = z.object({
  currency_code: z.string().regex(/^[A-Z]{3}$/),
  value: z.string().regex(/^\d{1,10}(\.\d{1,2})?$/),
});

/** What PayPal validates on create, narrowed to what the fake supports (one unit, CAPTURE). */
const CreateOrderBodySchema = z.object({
  intent: z.literal("CAPTURE"),
  purchase_units: z
    .array(
      z.object({
        amount: z.object({
          currency_code: z.string().regex(/^[A-Z]{3}$/),
          value: z.string().regex(/^\d{1,10}(\.\d{2})?$/),
        }),
        custom_id: z.string().max(127).optional(),
        description: z.string().max(127).optional(),
      }),
    )
    .length(1),
});

/** An empty body asks for a full refund; the fake refunds nothing less. */
const RefundBodySchema = z.object({
  amount: MoneySchema.optional(),
  invoice_id: z.string().max(127).optional(),
  note_to_payer: z.string().max(255).optional(),
});

const VerifyWebhookBodySchema = z.object({
  auth_algo: z.string().min(1),
  cert_url: z.string().min(1),
  transmission_id: z.string().min(1),
  transmission_sig: z.string().min(1),
  transmission_time: z.string().min(1),
  webhook_id: z.string().min(1),
  webhook_event: z.record(z.string(), z.unknown()),
});

export type FakeApprovalChoice = "pay" | "decline";
/** The popup adds "Cancel and return", as PayPal's own popup has. */
const PageChoiceSchema = z.enum(["pay", "decline", "cancel"]);

export interface FakePayPalOptions extends FakeWebhookSettings {
  /** Where the fake is served, e.g. `http://localhost:5173/dev/paypal`. */
  baseUrl: string;
  kv: KVNamespace;
}

export function createFakePayPal(options: FakePayPalOptions): Hono {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const { kv } = options;
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const app = new Hono().basePath(basePath || "/");

  app.post("/v1/oauth2/token", async (c) => {
    c.header("cache-control", "no-store");
    if (!hasBasicCredentials(c.req.header("authorization"))) {
      return c.json({ error: "invalid_client", error_description: "Client Authentication failed" }, 401);
    }
    const form = await c.req.parseBody();
    if (form.grant_type !== "client_credentials") {
      return c.json({ error: "unsupported_grant_type", error_description: "Grant Type is NULL" }, 400);
    }
    const accessToken = `A21AAFAKE${randomId(40)}`;
    // Kept so the order endpoints can refuse tokens they never issued, as PayPal does.
    await kv.put(`${TOKEN_KV_PREFIX}${accessToken}`, "1", { expirationTtl: TOKEN_TTL_SECONDS });
    return c.json({
      scope: "https://uri.paypal.com/services/payments/payment",
      access_token: accessToken,
      token_type: "Bearer",
      app_id: "APP-FAKE",
      expires_in: TOKEN_TTL_SECONDS,
      nonce: `${new Date().toISOString()}${randomId(8)}`,
    });
  });

  const requireBearer: MiddlewareHandler = async (c, next) => {
    const match = /^Bearer (\S+)$/.exec(c.req.header("authorization") ?? "");
    const token = match?.[1];
    if (!token || (await kv.get(`${TOKEN_KV_PREFIX}${token}`)) === null) {
      return c.json({ error: "invalid_token", error_description: "Token signature verification failed" }, 401);
    }
    await next();
  };
  app.use("/v2/*", requireBearer);
  app.use("/v1/notifications/verify-webhook-signature", requireBearer);

  app.post("/v2/checkout/orders", async (c) => {
    const requestId = c.req.header("paypal-request-id") ?? null;
    if (requestId !== null) {
      // Two creates racing with one request id could both pass this read (KV has no
      // compare-and-set); acceptable for a development fake.
      const earlierId = await kv.get(`${REQUEST_ID_KV_PREFIX}${requestId}`);
      const earlier = earlierId === null ? null : await loadOrder(kv, earlierId);
      if (earlier) return c.json(renderOrder(earlier, baseUrl, preferMinimal(c)), 200);
    }

    const body = CreateOrderBodySchema.safeParse(await c.req.json<unknown>().catch(() => undefined));
    if (!body.success) return invalidRequest(c, body.error);
    const [unit] = body.data.purchase_units;
    if (!unit) throw new Error("purchase_units was checked to hold exactly one unit");
    const now = new Date().toISOString();
    const order: StoredOrder = {
      id: `FAKE${randomId(17)}`,
      status: "CREATED",
      amount: unit.amount,
      customId: unit.custom_id ?? null,
      description: unit.description ?? null,
      declineOnCapture: false,
      createTime: now,
      updateTime: now,
      capture: null,
    };
    await saveOrder(kv, order);
    if (requestId !== null) {
      await kv.put(`${REQUEST_ID_KV_PREFIX}${requestId}`, order.id, { expirationTtl: ORDER_TTL_SECONDS });
    }
    return c.json(renderOrder(order, baseUrl, preferMinimal(c)), 201);
  });

  app.get("/v2/checkout/orders/:id", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return notFound(c);
    return c.json(renderOrder(order, baseUrl, false), 200);
  });

  app.post("/v2/checkout/orders/:id/capture", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return notFound(c);
    const requestId = c.req.header("paypal-request-id") ?? null;

    if (order.status === "COMPLETED") {
      // PayPal-Request-Id: a retried capture gets the earlier result, anything else is refused.
      if (requestId !== null && order.capture?.requestId === requestId) {
        return c.json(renderOrder(order, baseUrl, false), 201);
      }
      return unprocessable(
        c,
        "ORDER_ALREADY_CAPTURED",
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (order.status !== "APPROVED") {
      return unprocessable(c, "ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment.");
    }
    if (order.declineOnCapture) {
      // PayPal leaves a declined order APPROVED so the buyer can pick another funding source.
      return unprocessable(
        c,
        "INSTRUMENT_DECLINED",
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }

    const now = new Date().toISOString();
    const captured: CapturedOrder = {
      ...order,
      status: "COMPLETED",
      updateTime: now,
      capture: { id: `FAKECAP${randomId(10)}`, requestId, createTime: now, refund: null },
    };
    await saveOrder(kv, captured);
    await kv.put(`${CAPTURE_KV_PREFIX}${captured.capture.id}`, captured.id, { expirationTtl: ORDER_TTL_SECONDS });
    // After the writes: a webhook handler that re-reads the order must see the capture.
    await sendFakeWebhook(kv, options, captureCompletedEvent(captured, baseUrl));
    return c.json(renderOrder(captured, baseUrl, false), 201);
  });

  app.get("/v2/payments/captures/:captureId", async (c) => {
    const order = await loadOrderByCapture(kv, c.req.param("captureId"));
    if (!order) return notFound(c);
    return c.json(renderCapture(order, baseUrl), 200);
  });

  app.post("/v2/payments/captures/:captureId/refund", async (c) => {
    const order = await loadOrderByCapture(kv, c.req.param("captureId"));
    if (!order) return notFound(c);
    const requestId = c.req.header("paypal-request-id") ?? null;
    const text = await c.req.text();
    let json: unknown;
    try {
      json = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      return paypalError(
        c,
        400,
        "INVALID_REQUEST",
        "Request is not well-formed, syntactically incorrect, or violates schema.",
        {
          issue: "MALFORMED_REQUEST_JSON",
          description: "The request JSON is not well formed.",
        },
      );
    }
    const body = RefundBodySchema.safeParse(json);
    if (!body.success) return invalidRequest(c, body.error);

    if (isRefunded(order)) {
      // PayPal-Request-Id: a retried refund gets the earlier refund, anything else is refused.
      if (requestId !== null && order.capture.refund.requestId === requestId) {
        return c.json(renderRefund(order, baseUrl, preferMinimal(c)), 201);
      }
      return unprocessable(c, "CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.");
    }
    const asked = body.data.amount;
    if (asked && asked.currency_code !== order.amount.currency_code) {
      return unprocessable(c, "CURRENCY_MISMATCH", "The refund currency must match the currency of the capture.");
    }
    if (asked && toCents(asked.value) > toCents(order.amount.value)) {
      return unprocessable(
        c,
        "REFUND_AMOUNT_EXCEEDED",
        "The refund amount must be less than or equal to the capture amount.",
      );
    }
    if (asked && toCents(asked.value) < toCents(order.amount.value)) {
      return unprocessable(c, "PARTIAL_REFUND_NOT_ALLOWED", "The fake PayPal refunds whole captures only.");
    }

    const refunded = await refundCapture(kv, order, requestId);
    await sendFakeWebhook(kv, options, captureRefundedEvent(refunded, baseUrl));
    return c.json(renderRefund(refunded, baseUrl, preferMinimal(c)), 201);
  });

  app.post("/v1/notifications/verify-webhook-signature", async (c) => {
    const body = VerifyWebhookBodySchema.safeParse(await c.req.json<unknown>().catch(() => undefined));
    if (!body.success) {
      return paypalError(c, 400, "VALIDATION_ERROR", "Invalid request - see details", {
        issue: "MISSING_REQUIRED_PARAMETER",
        description: body.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
      });
    }
    const input = body.data;
    const verification = await verifyPayPalSignature({
      // PayPal's verify API has the same quirk: it checks the event re-serialised, not the bytes
      // that were delivered. The fake's events are JSON.stringify output, so they survive the trip.
      rawBody: JSON.stringify(input.webhook_event),
      headers: new Headers({
        "paypal-transmission-id": input.transmission_id,
        "paypal-transmission-time": input.transmission_time,
        "paypal-transmission-sig": input.transmission_sig,
        "paypal-cert-url": input.cert_url,
        "paypal-auth-algo": input.auth_algo,
      }),
      webhookId: input.webhook_id,
      now: Date.now(),
      // Only the fake's own certificates, read from KV: no URL here ever reaches the network.
      fetchCertificate: async (url) => {
        const certId = certificateIdFromUrl(url);
        const pem = certId === null ? null : await readFakeCertificate(kv, certId);
        if (pem === null) throw new Error(`The fake PayPal has no certificate at ${url}`);
        return pem;
      },
    });
    return c.json({ verification_status: verification.ok ? "SUCCESS" : "FAILURE" }, 200);
  });

  app.get("/v1/notifications/certs/:certId", async (c) => {
    const pem = await readFakeCertificate(kv, c.req.param("certId"));
    if (pem === null) return notFound(c);
    return c.text(pem, 200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  });

  app.get("/sdk/js", (c) =>
    c.body(renderFakePayPalSdk(basePath), 200, {
      "content-type": "application/javascript; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    }),
  );

  app.get("/checkoutnow", async (c) => {
    const hostedButtonId = c.req.query("hosted_button_id");
    if (hostedButtonId !== undefined && c.req.query("token") === undefined) {
      return c.html(
        renderMessagePage(
          `Hosted button ${hostedButtonId}: PayPal takes such payments on its own pages. The fake PayPal takes none.`,
        ),
        200,
        pageHeaders,
      );
    }
    const order = await loadOrder(kv, c.req.query("token") ?? "");
    if (!order) return c.html(renderMessagePage("This order does not exist."), 404, pageHeaders);
    if (order.status === "COMPLETED") {
      return c.html(renderMessagePage("This order has already been paid."), 422, pageHeaders);
    }
    const popup = isPopup(c);
    const action = new URL(`${baseUrl}/checkoutnow`);
    action.searchParams.set("token", order.id);
    if (popup) action.searchParams.set("popup", "1");
    else action.searchParams.set("return", safeReturnPath(c.req.query("return")));
    return c.html(renderApprovalPage(order, `${action.pathname}${action.search}`, popup), 200, pageHeaders);
  });

  app.post("/checkoutnow", async (c) => {
    const popup = isPopup(c);
    const form = await c.req.parseBody();
    const choice = PageChoiceSchema.safeParse(form.choice);
    // "Cancel and return" exists only in the popup: the redirect flow has nowhere to return it to.
    if (!choice.success || (choice.data === "cancel" && !popup)) {
      const message = popup ? "Choose Pay now, Decline card or Cancel and return." : "Choose Pay now or Decline card.";
      return c.html(renderMessagePage(message), 400, pageHeaders);
    }
    const orderId = c.req.query("token") ?? "";
    if (choice.data === "cancel") {
      // Cancelling leaves the order as it was, as on PayPal: the shop may offer it again.
      if (!(await loadOrder(kv, orderId)))
        return c.html(renderMessagePage("This order does not exist."), 404, pageHeaders);
      return popupResult(c, orderId, "cancelled");
    }
    const result = await approveOrder(kv, orderId, choice.data);
    if (result === "not-found") return c.html(renderMessagePage("This order does not exist."), 404, pageHeaders);
    if (result === "already-captured") {
      return c.html(renderMessagePage("This order has already been paid."), 422, pageHeaders);
    }
    await sendFakeWebhook(kv, options, orderApprovedEvent(result, baseUrl));
    if (popup) return popupResult(c, orderId, "approved");
    const location = new URL(safeReturnPath(c.req.query("return")), "http://return.invalid");
    location.searchParams.set("token", orderId);
    // Relative on purpose: the browser resolves it against the app's own origin.
    return c.redirect(`${location.pathname}${location.search}${location.hash}`, 302);
  });

  return app;
}

/**
 * Test-only: acts as the buyer on the approval page. Given the fake's options instead of a KV
 * namespace, it also sends CHECKOUT.ORDER.APPROVED as the page does. Throws when the order does
 * not exist or is already captured, since a test asking for that has a bug.
 */
export async function approveFakeOrder(
  target: KVNamespace | FakePayPalOptions,
  orderId: string,
  choice: FakeApprovalChoice,
): Promise<void> {
  const options = isFakePayPalOptions(target) ? target : null;
  const kv = options ? options.kv : (target as KVNamespace);
  const result = await approveOrder(kv, orderId, choice);
  if (typeof result === "string") throw new Error(`Fake PayPal cannot approve order ${orderId}: ${result}`);
  if (options) await sendFakeWebhook(kv, options, orderApprovedEvent(result, options.baseUrl.replace(/\/+$/, "")));
}

/**
 * For tests and dev tooling: refunds the whole capture of an order, as the merchant would from
 * PayPal's dashboard, and sends PAYMENT.CAPTURE.REFUNDED when `options.webhook` is set. Throws
 * when the order does not exist, is not captured, or is already refunded.
 */
export async function refundFakeCapture(
  options: FakePayPalOptions,
  orderId: string,
): Promise<{ refundId: string; captureId: string }> {
  const order = await loadOrder(options.kv, orderId);
  if (!order) throw new Error(`Fake PayPal cannot refund order ${orderId}: not-found`);
  if (!isCaptured(order)) throw new Error(`Fake PayPal cannot refund order ${orderId}: not captured`);
  if (isRefunded(order)) throw new Error(`Fake PayPal cannot refund order ${orderId}: already refunded`);
  const refunded = await refundCapture(options.kv, order, null);
  await sendFakeWebhook(options.kv, options, captureRefundedEvent(refunded, options.baseUrl.replace(/\/+$/, "")));
  return { refundId: refunded.capture.refund.id, captureId: refunded.capture.id };
}

/** A `fetch` answered in process by this fake, refusing anything outside `baseUrl`. */
export function createFakePayPalFetch(fake: Hono, baseUrl: string): typeof fetch {
  return inProcessFetch(fake, baseUrl, "PayPal");
}

function isFakePayPalOptions(target: KVNamespace | FakePayPalOptions): target is FakePayPalOptions {
  return "kv" in target && "baseUrl" in target;
}

async function approveOrder(
  kv: KVNamespace,
  orderId: string,
  choice: FakeApprovalChoice,
): Promise<StoredOrder | "not-found" | "already-captured"> {
  const order = await loadOrder(kv, orderId);
  if (!order) return "not-found";
  if (order.status === "COMPLETED") return "already-captured";
  // Approving again (after a decline) replaces the choice, like picking another card.
  const approved: StoredOrder = {
    ...order,
    status: "APPROVED",
    declineOnCapture: choice === "decline",
    updateTime: new Date().toISOString(),
  };
  await saveOrder(kv, approved);
  return approved;
}

async function refundCapture(kv: KVNamespace, order: CapturedOrder, requestId: string | null): Promise<RefundedOrder> {
  const now = new Date().toISOString();
  const refunded: RefundedOrder = {
    ...order,
    updateTime: now,
    capture: { ...order.capture, refund: { id: `FAKEREF${randomId(10)}`, requestId, createTime: now } },
  };
  await saveOrder(kv, refunded);
  return refunded;
}

function isCaptured(order: StoredOrder): order is CapturedOrder {
  return order.capture !== null;
}

function isRefunded(order: StoredOrder): order is RefundedOrder {
  return order.capture?.refund != null;
}

async function loadOrder(kv: KVNamespace, id: string): Promise<StoredOrder | null> {
  // Checked before use as a key: a path segment must not reach other KV entries.
  if (!ResourceIdSchema.safeParse(id).success) return null;
  const stored = StoredOrderSchema.safeParse(await kv.get(`${ORDER_KV_PREFIX}${id}`, "json"));
  return stored.success ? stored.data : null;
}

async function loadOrderByCapture(kv: KVNamespace, captureId: string): Promise<CapturedOrder | null> {
  if (!ResourceIdSchema.safeParse(captureId).success) return null;
  const orderId = await kv.get(`${CAPTURE_KV_PREFIX}${captureId}`);
  const order = orderId === null ? null : await loadOrder(kv, orderId);
  return order && isCaptured(order) && order.capture.id === captureId ? order : null;
}

async function saveOrder(kv: KVNamespace, order: StoredOrder): Promise<void> {
  await kv.put(`${ORDER_KV_PREFIX}${order.id}`, JSON.stringify(order), { expirationTtl: ORDER_TTL_SECONDS });
}

/** The order as PayPal answers it: the full representation, or the minimal one on create. */
function renderOrder(order: StoredOrder, baseUrl: string, minimal: boolean): Record<string, unknown> {
  const self = `${baseUrl}/v2/checkout/orders/${order.id}`;
  const links = [
    { href: self, rel: "self", method: "GET" },
    ...(order.status === "CREATED"
      ? [{ href: `${baseUrl}/checkoutnow?token=${order.id}`, rel: "approve", method: "GET" }]
      : []),
    ...(order.status === "APPROVED" ? [{ href: `${self}/capture`, rel: "capture", method: "POST" }] : []),
  ];
  if (minimal) return { id: order.id, status: order.status, links };

  const payments = isCaptured(order)
    ? {
        captures: [renderCapture(order, baseUrl)],
        ...(isRefunded(order) ? { refunds: [renderRefund(order, baseUrl, false)] } : {}),
      }
    : null;
  return {
    id: order.id,
    intent: "CAPTURE",
    status: order.status,
    purchase_units: [
      {
        reference_id: "default",
        amount: order.amount,
        ...(order.customId === null ? {} : { custom_id: order.customId }),
        ...(order.description === null ? {} : { description: order.description }),
        ...(payments ? { payments } : {}),
      },
    ],
    create_time: order.createTime,
    update_time: order.updateTime,
    links,
  };
}

/** A capture as `GET /v2/payments/captures/:id` and the PAYMENT.CAPTURE.* webhooks render it. */
function renderCapture(order: CapturedOrder, baseUrl: string): Record<string, unknown> {
  const { capture } = order;
  const self = `${baseUrl}/v2/payments/captures/${capture.id}`;
  return {
    id: capture.id,
    status: capture.refund ? "REFUNDED" : "COMPLETED",
    amount: order.amount,
    final_capture: true,
    ...(order.customId === null ? {} : { custom_id: order.customId }),
    create_time: capture.createTime,
    update_time: capture.refund?.createTime ?? capture.createTime,
    supplementary_data: { related_ids: { order_id: order.id } },
    links: [
      { href: self, rel: "self", method: "GET" },
      ...(capture.refund ? [] : [{ href: `${self}/refund`, rel: "refund", method: "POST" }]),
      { href: `${baseUrl}/v2/checkout/orders/${order.id}`, rel: "up", method: "GET" },
    ],
  };
}

/** The refund of an order's capture; `minimal` is PayPal's default answer to a refund call. */
function renderRefund(order: RefundedOrder, baseUrl: string, minimal: boolean): Record<string, unknown> {
  const { refund } = order.capture;
  const links = [{ href: `${baseUrl}/v2/payments/captures/${order.capture.id}`, rel: "up", method: "GET" }];
  if (minimal) return { id: refund.id, status: "COMPLETED", links };
  return {
    id: refund.id,
    status: "COMPLETED",
    amount: order.amount,
    // No custom_id: refunds made from PayPal's dashboard carry none, only the capture's link.
    create_time: refund.createTime,
    update_time: refund.createTime,
    links,
  };
}

function orderApprovedEvent(order: StoredOrder, baseUrl: string): FakeWebhookEvent {
  return {
    eventType: "CHECKOUT.ORDER.APPROVED",
    resourceType: "checkout-order",
    summary: "An order has been approved by buyer",
    resource: renderOrder(order, baseUrl, false),
  };
}

function captureCompletedEvent(order: CapturedOrder, baseUrl: string): FakeWebhookEvent {
  return {
    eventType: "PAYMENT.CAPTURE.COMPLETED",
    resourceType: "capture",
    summary: `Payment completed for ${order.amount.value} ${order.amount.currency_code}`,
    resource: renderCapture(order, baseUrl),
  };
}

function captureRefundedEvent(order: RefundedOrder, baseUrl: string): FakeWebhookEvent {
  return {
    eventType: "PAYMENT.CAPTURE.REFUNDED",
    resourceType: "refund",
    summary: `A ${order.amount.value} ${order.amount.currency_code} capture payment was refunded`,
    resource: renderRefund(order, baseUrl, false),
  };
}

/** "9", "9.5" and "9.50" as 900, 950 and 950: amounts compared without floating point. */
function toCents(value: string): number {
  const [whole = "0", fraction = ""] = value.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** PayPal answers create with only id, status and links unless asked for the representation. */
function preferMinimal(c: Context): boolean {
  return !/\breturn=representation\b/.test(c.req.header("prefer") ?? "");
}

function isPopup(c: Context): boolean {
  return c.req.query("popup") === "1";
}

function paypalError(
  c: Context,
  status: 400 | 404 | 422,
  name: string,
  message: string,
  detail: { issue: string; description: string },
): Response {
  return c.json({ name, message, debug_id: randomId(13).toLowerCase(), details: [detail], links: [] }, status);
}

function invalidRequest(c: Context, error: z.ZodError): Response {
  return paypalError(
    c,
    400,
    "INVALID_REQUEST",
    "Request is not well-formed, syntactically incorrect, or violates schema.",
    {
      issue: "INVALID_PARAMETER_SYNTAX",
      description: error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
    },
  );
}

function unprocessable(c: Context, issue: string, description: string): Response {
  return paypalError(
    c,
    422,
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
    { issue, description },
  );
}

function notFound(c: Context): Response {
  return paypalError(c, 404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", {
    issue: "INVALID_RESOURCE_ID",
    description: "Specified resource ID does not exist. Please check the resource ID and try again.",
  });
}

function hasBasicCredentials(header: string | undefined): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? "");
  if (!match?.[1]) return false;
  try {
    const [clientId, ...secret] = atob(match[1]).split(":");
    return Boolean(clientId) && secret.join(":").length > 0;
  } catch {
    return false;
  }
}

/**
 * Only a path on the app's own origin: "/x" but not "//evil.com" or "/\evil.com", which
 * browsers read as another host. Anything else falls back to the default, never an open redirect.
 */
function safeReturnPath(value: string | undefined): string {
  if (!value || !/^\/(?![/\\])/.test(value) || /[\\\u0000-\u001f\u007f]/.test(value)) return DEFAULT_RETURN_PATH;
  const resolved = new URL(value, "http://return.invalid");
  return resolved.origin === "http://return.invalid" ? value : DEFAULT_RETURN_PATH;
}

const PAGE_STYLE = `
  .amount { font-size: 2rem; font-weight: 700; margin: 0; }
  .description { overflow-wrap: anywhere; }
  .order { font-size: 0.8rem; opacity: 0.7; }
  .actions { display: grid; gap: 0.5rem; margin-top: 1.5rem; }
  .pay { background: #ffc439; color: #111; }
  .decline, .cancel { background: transparent; color: inherit; border: 1px solid color-mix(in srgb, CanvasText 35%, transparent); }
`;
/** Every page but the popup's result page: no script at all. */
const pageHeaders = fakePageHeaders("form-action 'self'");

function renderDocument(body: string): string {
  return renderFakePage("Fake PayPal — development only", PAGE_STYLE, body);
}

function renderApprovalPage(order: StoredOrder, action: string, popup: boolean): string {
  return renderDocument(`
<h1>Fake PayPal — development only</h1>
<p class="warning">No real money moves and no real account is involved.</p>
<p class="amount">${escapeHtml(order.amount.value)} ${escapeHtml(order.amount.currency_code)}</p>
<p class="description">${escapeHtml(order.description ?? "")}</p>
<p class="order">Order ${escapeHtml(order.id)}</p>
<form method="post" action="${escapeHtml(action)}" class="actions">
<button type="submit" name="choice" value="pay" class="pay">Pay now</button>
<button type="submit" name="choice" value="decline" class="decline">Decline card</button>${
    popup ? `\n<button type="submit" name="choice" value="cancel" class="cancel">Cancel and return</button>` : ""
  }
</form>`);
}

function renderMessagePage(message: string): string {
  return renderDocument(`
<h1>Fake PayPal — development only</h1>
<p>${escapeHtml(message)}</p>`);
}

/**
 * The popup's last page: its one script (allowed by hash, nothing else) posts the outcome to
 * the SDK in the opener and closes the popup. The data rides in attributes, not in the script,
 * so the script and its hash never change.
 */
async function popupResult(c: Context, orderId: string, outcome: "approved" | "cancelled"): Promise<Response> {
  const headers = fakePageHeaders(`script-src ${await popupResultScriptSource()}`);
  const text =
    outcome === "approved" ? "Payment approved. Returning to the shop…" : "Cancelled. Returning to the shop…";
  const html = renderDocument(`
<h1>Fake PayPal — development only</h1>
<p id="fake-paypal-result" data-order-id="${escapeHtml(orderId)}" data-outcome="${outcome}">${text}</p>
<p class="order">You can close this window if it stays open.</p>
<script>${POPUP_RESULT_SCRIPT}</script>`);
  return c.html(html, 200, headers);
}
