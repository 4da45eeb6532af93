import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { verifyCashfreeSignature } from "~workers/providers/signatures/cashfree";
import { createCashfreeClient } from "./client";
import {
  createFakeCashfree,
  createFakeCashfreeFetch,
  payFakeCashfreeOrder,
  refundFakeCashfreeOrder,
  type FakeCashfreeOptions,
} from "./fake";
import type { CashfreeClient, CashfreeResult, DeliverWebhook } from "./types";

const BASE_URL = "http://localhost:5173/dev/cashfree";
const API_URL = `${BASE_URL}/pg`;
const CLIENT_ID = "TEST1234567890abcdef";
const CLIENT_SECRET = "cfsk_ma_test_0f3c1d7b6a2e4f58";
const API_VERSION = "2025-01-01";
const NOTIFY_URL = "http://localhost:8787/cashfree";

type CreateOrderInput = Parameters<CashfreeClient["createOrder"]>[0];

interface DeliveredWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
}

function setup(
  options: {
    wrap?: (cashfreeFetch: typeof fetch) => typeof fetch;
    clientId?: string;
    clientSecret?: string;
    deliverWebhook?: DeliverWebhook;
    waitUntil?: (promise: Promise<unknown>) => void;
  } = {},
) {
  const delivered: DeliveredWebhook[] = [];
  const fakeOptions: FakeCashfreeOptions = {
    baseUrl: BASE_URL,
    kv: env.CACHE,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    deliverWebhook:
      options.deliverWebhook ??
      (async (url, init) => {
        delivered.push({ url, ...init });
      }),
    ...(options.waitUntil ? { waitUntil: options.waitUntil } : {}),
  };
  const fake = createFakeCashfree(fakeOptions);
  const cashfreeFetch = createFakeCashfreeFetch(fake, BASE_URL);
  const client = createCashfreeClient({
    baseUrl: API_URL,
    clientId: options.clientId ?? CLIENT_ID,
    clientSecret: options.clientSecret ?? CLIENT_SECRET,
    apiVersion: API_VERSION,
    fetch: options.wrap ? options.wrap(cashfreeFetch) : cashfreeFetch,
  });
  return { fakeOptions, cashfreeFetch, client, delivered };
}

/** Records every request the client makes, with its body, before the fake answers it. */
function recording() {
  const requests: { method: string; url: string; headers: Headers; body: string }[] = [];
  const answers: { status: number; text: string }[] = [];
  const wrap =
    (cashfreeFetch: typeof fetch): typeof fetch =>
    async (input, init) => {
      const request = new Request(input, init);
      const body = await request.clone().text();
      requests.push({ method: request.method, url: request.url, headers: request.headers, body });
      const answer = await cashfreeFetch(request);
      answers.push({ status: answer.status, text: await answer.clone().text() });
      return answer;
    };
  return { requests, answers, wrap };
}

function expectOk<T>(result: CashfreeResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.detail}`);
  return result.value;
}

function orderInput(overrides: Partial<CreateOrderInput> = {}): CreateOrderInput {
  const orderId = overrides.orderId ?? randomId("pay");
  return {
    orderId,
    amountMinor: 2100,
    customer: { id: randomId("usr"), email: "asha@example.com", name: "Asha Verma", phone: "9999999999" },
    returnUrl: `http://localhost:5173/status/payment/${orderId}`,
    notifyUrl: NOTIFY_URL,
    note: "Portico Pro, 1 month",
    ...overrides,
  };
}

async function createOrder(client: CashfreeClient, overrides: Partial<CreateOrderInput> = {}) {
  const input = orderInput(overrides);
  return { input, order: expectOk(await client.createOrder(input)) };
}

function apiHeaders(overrides: Record<string, string | null> = {}): Headers {
  const headers = new Headers({
    "x-client-id": CLIENT_ID,
    "x-client-secret": CLIENT_SECRET,
    "x-api-version": API_VERSION,
    "content-type": "application/json",
  });
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

function checkoutUrl(paymentSessionId: string): string {
  return `${BASE_URL}/checkout?payment_session_id=${encodeURIComponent(paymentSessionId)}`;
}

function submitCheckout(cashfreeFetch: typeof fetch, paymentSessionId: string, choice: string) {
  return cashfreeFetch(checkoutUrl(paymentSessionId), {
    method: "POST",
    body: new URLSearchParams({ choice }),
    redirect: "manual",
  });
}

const PaymentWebhookSchema = z.object({
  type: z.string(),
  event_time: z.string(),
  data: z.object({
    order: z.object({
      order_id: z.string(),
      order_amount: z.number(),
      order_currency: z.string(),
      order_tags: z.null(),
    }),
    payment: z.object({
      cf_payment_id: z.string(),
      payment_status: z.string(),
      payment_amount: z.number(),
      payment_currency: z.string(),
      payment_time: z.string(),
      payment_group: z.string(),
      payment_message: z.string(),
    }),
    customer_details: z.object({ customer_id: z.string(), customer_phone: z.string() }),
  }),
});

const RefundWebhookSchema = z.object({
  type: z.literal("REFUND_STATUS_WEBHOOK"),
  data: z.object({
    refund: z.object({
      refund_id: z.string(),
      order_id: z.string(),
      refund_status: z.string(),
      refund_amount: z.number(),
      cf_payment_id: z.string(),
    }),
  }),
});

/** Checks the webhook's signature the way the webhook Worker does, and returns its parsed body. */
async function verifiedBody(webhook: DeliveredWebhook | undefined): Promise<unknown> {
  if (!webhook) throw new Error("no webhook was delivered");
  expect(webhook.url).toBe(NOTIFY_URL);
  expect(webhook.headers["content-type"]).toBe("application/json");
  expect(webhook.headers["x-webhook-version"]).toBe("2025-01-01");
  expect(webhook.headers["x-idempotency-key"]).toMatch(/^\S{16,}$/);
  const timestamp = webhook.headers["x-webhook-timestamp"] ?? null;
  expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(60_000);
  const input = { rawBody: webhook.body, timestamp, signature: webhook.headers["x-webhook-signature"] ?? null };
  expect(await verifyCashfreeSignature({ ...input, secret: CLIENT_SECRET, now: Date.now() })).toEqual({ ok: true });
  expect(await verifyCashfreeSignature({ ...input, secret: "another-secret", now: Date.now() })).toEqual({
    ok: false,
    reason: "bad-signature",
  });
  return JSON.parse(webhook.body);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Cashfree client against the fake: orders", () => {
  it.each([
    [2100, "21.00"],
    [1999, "19.99"],
    // 170.1 * 100 is 17009.999999999998 in binary floating point.
    [17010, "170.10"],
    [100, "1.00"],
  ])("creates an order for %i paise (₹%s) and reads it back in paise", async (amountMinor, rupees) => {
    const { requests, answers, wrap } = recording();
    const { client } = setup({ wrap });
    const { input, order } = await createOrder(client, { amountMinor });
    expect(order).toEqual({
      orderId: input.orderId,
      cfOrderId: expect.stringMatching(/^\d{10}$/),
      status: "ACTIVE",
      amountMinor,
      currency: "INR",
      paymentSessionId: expect.stringMatching(/^session_[A-Za-z0-9]{64}$/),
    });

    const [create] = requests;
    expect(create?.method).toBe("POST");
    expect(create?.url).toBe(`${API_URL}/orders`);
    expect(create?.headers.get("x-client-id")).toBe(CLIENT_ID);
    expect(create?.headers.get("x-client-secret")).toBe(CLIENT_SECRET);
    expect(create?.headers.get("x-api-version")).toBe(API_VERSION);
    expect(create?.headers.get("x-idempotency-key")).toBe(input.orderId);
    expect(create?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(create?.body ?? "")).toEqual({
      order_id: input.orderId,
      order_amount: Number(rupees),
      order_currency: "INR",
      customer_details: {
        customer_id: input.customer.id,
        customer_email: "asha@example.com",
        customer_name: "Asha Verma",
        customer_phone: "9999999999",
      },
      order_meta: { return_url: input.returnUrl, notify_url: NOTIFY_URL },
      order_note: "Portico Pro, 1 month",
    });
    // The fake writes rupees as Cashfree does, with two decimals.
    expect(answers[0]?.text).toContain(`"order_amount":${rupees}`);

    expect(expectOk(await client.getOrder(input.orderId))).toEqual(order);
    expect(requests[1]).toMatchObject({ method: "GET", url: `${API_URL}/orders/${input.orderId}` });
    expect(expectOk(await client.getPayments(input.orderId))).toEqual([]);
    expect(expectOk(await client.getRefunds(input.orderId))).toEqual([]);
  });

  it("answers a retried create with the existing order, by reading it after Cashfree's 409", async () => {
    const { requests, answers, wrap } = recording();
    const { client } = setup({ wrap });
    const { input, order } = await createOrder(client);
    const again = expectOk(await client.createOrder({ ...input, note: "retry" }));
    expect(again).toEqual(order);
    expect(answers.map((answer) => answer.status)).toEqual([200, 409, 200]);
    expect(JSON.parse(answers[1]?.text ?? "")).toEqual({
      message: expect.any(String),
      code: "order_already_exists",
      type: "invalid_request_error",
    });
    expect(requests[2]).toMatchObject({ method: "GET", url: `${API_URL}/orders/${input.orderId}` });

    const other = await createOrder(client);
    expect(other.order.cfOrderId).not.toBe(order.cfOrderId);
    expect(other.order.paymentSessionId).not.toBe(order.paymentSessionId);
  });

  it("refuses to reuse an order id for another amount", async () => {
    const { client } = setup();
    const { input } = await createOrder(client);
    expect(await client.createOrder({ ...input, amountMinor: 100 })).toEqual({
      ok: false,
      code: "invalid-request",
      detail: expect.stringContaining("already exists"),
    });
  });

  it("answers not-found for an unknown order, on every read", async () => {
    const { client } = setup();
    const unknown = randomId("pay");
    expect(await client.getOrder(unknown)).toMatchObject({ ok: false, code: "not-found" });
    expect(await client.getPayments(unknown)).toMatchObject({ ok: false, code: "not-found" });
    expect(await client.getRefunds(unknown)).toMatchObject({ ok: false, code: "not-found" });
    // Not an id Cashfree allows: still not-found, never a KV lookup outside the prefix.
    expect(await client.getOrder("../session:x")).toMatchObject({ ok: false, code: "not-found" });
  });

  it.each([
    [
      "a phone that is not 10 digits",
      { customer: { id: "usr_1234", email: "a@example.com", name: "A", phone: "12345" } },
      "customer_details.customer_phone_invalid",
    ],
    [
      "a customer id with a space",
      { customer: { id: "usr 1234", email: "a@example.com", name: "A", phone: "9999999999" } },
      "customer_details.customer_id_invalid",
    ],
    ["an amount under one rupee", { amountMinor: 99 }, "order_amount_invalid"],
    ["an order id under 3 characters", { orderId: "p1" }, "order_id_invalid"],
    [
      "a return URL over 250 characters",
      { returnUrl: `http://localhost:5173/${"x".repeat(250)}` },
      "order_meta.return_url_invalid",
    ],
  ] satisfies [string, Partial<CreateOrderInput>, string][])(
    "answers invalid-request for %s",
    async (_name, overrides, code) => {
      const { client } = setup();
      const result = await client.createOrder(orderInput(overrides));
      expect(result).toEqual({ ok: false, code: "invalid-request", detail: expect.stringContaining(code) });
      expect(result.ok ? "" : result.detail).toContain("400");
    },
  );

  it("refuses an amount that is not a whole number of paise without calling Cashfree", async () => {
    const { requests, wrap } = recording();
    const { client } = setup({ wrap });
    expect(await client.createOrder(orderInput({ amountMinor: 21.5 }))).toMatchObject({
      ok: false,
      code: "invalid-request",
    });
    expect(await client.createOrder(orderInput({ amountMinor: 0 }))).toMatchObject({
      ok: false,
      code: "invalid-request",
    });
    expect(requests).toHaveLength(0);
  });
});

describe("Cashfree client against the fake: credentials", () => {
  it("answers unavailable when the fake refuses the client's credentials", async () => {
    for (const credentials of [{ clientSecret: "wrong-secret" }, { clientId: "wrong-id" }]) {
      const { client } = setup(credentials);
      expect(await client.createOrder(orderInput())).toEqual({
        ok: false,
        code: "unavailable",
        detail: expect.stringContaining("401"),
      });
      expect(await client.getOrder(randomId("pay"))).toMatchObject({ ok: false, code: "unavailable" });
    }
  });

  it("answers 401 in Cashfree's error format without credentials, and 400 without x-api-version", async () => {
    const { cashfreeFetch } = setup();
    const orderId = randomId("pay");
    const noSecret = await cashfreeFetch(`${API_URL}/orders/${orderId}`, {
      headers: apiHeaders({ "x-client-secret": null }),
    });
    expect(noSecret.status).toBe(401);
    expect(await noSecret.json()).toEqual({
      message: expect.any(String),
      code: "request_failed",
      type: "authentication_error",
    });

    const noVersion = await cashfreeFetch(`${API_URL}/orders/${orderId}`, {
      headers: apiHeaders({ "x-api-version": null }),
    });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ type: "invalid_request_error" });

    // The same request with every header reaches the order lookup.
    const complete = await cashfreeFetch(`${API_URL}/orders/${orderId}`, { headers: apiHeaders() });
    expect(complete.status).toBe(404);
    expect(await complete.json()).toMatchObject({ code: "order_not_found" });
  });
});

describe("fake Cashfree checkout page", () => {
  const HOSTILE = `<script>alert("x")</script> & 'friends'`;

  it("shows the amount in rupees, an escaped note and name, and both buttons", async () => {
    const { client, cashfreeFetch } = setup();
    const { input, order } = await createOrder(client, {
      amountMinor: 17_010,
      note: HOSTILE,
      customer: { id: randomId("usr"), email: "a@example.com", name: `${HOSTILE} name`, phone: "9999999999" },
    });
    const response = await cashfreeFetch(checkoutUrl(order.paymentSessionId ?? ""));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    // The form posts here, then redirects to the app's return URL: both must be allowed.
    expect(response.headers.get("content-security-policy")).toContain("form-action 'self' http://localhost:5173;");
    const html = await response.text();
    expect(html).toContain("Fake Cashfree — development only");
    expect(html).toContain('<p class="amount">₹170.10</p>');
    expect(html).toContain(">Pay ₹170.10</button>");
    expect(html).toContain(">Fail payment</button>");
    expect(html).toContain(input.orderId);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39; name");
    expect(html).not.toContain("<script>");
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(action).toBe(`/dev/cashfree/checkout?payment_session_id=${order.paymentSessionId}`);

    expect((await cashfreeFetch(checkoutUrl("session_doesnotexist"))).status).toBe(404);
    expect((await cashfreeFetch(checkoutUrl("../order:x"))).status).toBe(404);
    expect((await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "maybe")).status).toBe(400);
  });

  it("pays: the order becomes PAID with one successful attempt, a signed webhook, and a redirect", async () => {
    const { client, cashfreeFetch, delivered } = setup();
    const { input, order } = await createOrder(client);
    const response = await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "pay");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(input.returnUrl);

    expect(expectOk(await client.getOrder(input.orderId))).toMatchObject({
      status: "PAID",
      amountMinor: 2100,
      paymentSessionId: null,
    });
    const payments = expectOk(await client.getPayments(input.orderId));
    expect(payments).toEqual([{ cfPaymentId: expect.stringMatching(/^\d+$/), status: "SUCCESS", amountMinor: 2100 }]);

    expect(delivered).toHaveLength(1);
    const webhook = PaymentWebhookSchema.parse(await verifiedBody(delivered[0]));
    expect(webhook.type).toBe("PAYMENT_SUCCESS_WEBHOOK");
    expect(webhook.data.order).toEqual({
      order_id: input.orderId,
      order_amount: 21,
      order_currency: "INR",
      order_tags: null,
    });
    expect(webhook.data.payment).toMatchObject({
      cf_payment_id: payments[0]?.cfPaymentId,
      payment_status: "SUCCESS",
      payment_amount: 21,
      payment_currency: "INR",
      payment_group: "upi",
    });
    expect(webhook.data.customer_details).toMatchObject({
      customer_id: input.customer.id,
      customer_phone: "9999999999",
    });
    expect(webhook.event_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
    // Signed over the characters Cashfree writes: re-serialising the parse would lose ".00".
    expect(delivered[0]?.body).toContain('"order_amount":21.00');
    expect(delivered[0]?.body).toContain('"payment_amount":21.00');

    // A paid order cannot be paid again, and nothing more is sent.
    expect((await cashfreeFetch(checkoutUrl(order.paymentSessionId ?? ""))).status).toBe(422);
    expect((await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "pay")).status).toBe(422);
    expect(delivered).toHaveLength(1);
    expect(expectOk(await client.getPayments(input.orderId))).toHaveLength(1);
  });

  it("fails: a FAILED attempt and webhook, the order stays ACTIVE, and the buyer can pay afterwards", async () => {
    const { client, cashfreeFetch, delivered } = setup();
    const { input, order } = await createOrder(client);
    const failed = await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "fail");
    expect(failed.status).toBe(303);
    expect(failed.headers.get("location")).toBe(input.returnUrl);
    expect(expectOk(await client.getOrder(input.orderId))).toMatchObject({
      status: "ACTIVE",
      paymentSessionId: order.paymentSessionId,
    });
    expect(expectOk(await client.getPayments(input.orderId))).toEqual([
      { cfPaymentId: expect.any(String), status: "FAILED", amountMinor: 2100 },
    ]);
    const failedWebhook = PaymentWebhookSchema.parse(await verifiedBody(delivered[0]));
    expect(failedWebhook.type).toBe("PAYMENT_FAILED_WEBHOOK");
    expect(failedWebhook.data.order.order_id).toBe(input.orderId);
    expect(failedWebhook.data.payment.payment_status).toBe("FAILED");

    const paid = await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "pay");
    expect(paid.status).toBe(303);
    expect(expectOk(await client.getOrder(input.orderId)).status).toBe("PAID");
    const payments = expectOk(await client.getPayments(input.orderId));
    expect(payments.map((payment) => payment.status)).toEqual(["FAILED", "SUCCESS"]);
    expect(payments[0]?.cfPaymentId).not.toBe(payments[1]?.cfPaymentId);
    const paidWebhook = PaymentWebhookSchema.parse(await verifiedBody(delivered[1]));
    expect(paidWebhook.type).toBe("PAYMENT_SUCCESS_WEBHOOK");
    expect(paidWebhook.data.payment.cf_payment_id).toBe(payments[1]?.cfPaymentId);
    expect(delivered[0]?.headers["x-idempotency-key"]).not.toBe(delivered[1]?.headers["x-idempotency-key"]);
  });

  it("fills in Cashfree's {order_id} placeholder in the return URL", async () => {
    const { client, cashfreeFetch } = setup();
    const { input, order } = await createOrder(client, {
      returnUrl: "http://localhost:5173/status/cashfree?order_id={order_id}",
    });
    const response = await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "pay");
    expect(response.headers.get("location")).toBe(`http://localhost:5173/status/cashfree?order_id=${input.orderId}`);
  });

  it("delivers through waitUntil after answering, when given one", async () => {
    const pending: Promise<unknown>[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const delivered: string[] = [];
    const { client, cashfreeFetch } = setup({
      waitUntil: (promise) => pending.push(promise),
      deliverWebhook: async (_url, init) => {
        await released;
        delivered.push(init.body);
      },
    });
    const { order } = await createOrder(client);
    const response = await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "pay");
    expect(response.status).toBe(303);
    expect(pending).toHaveLength(1);
    expect(delivered).toHaveLength(0);
    release();
    await Promise.all(pending);
    expect(delivered).toHaveLength(1);
  });

  it("still redirects the buyer when the webhook cannot be delivered, and logs it", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const { client, cashfreeFetch } = setup({
      deliverWebhook: async () => {
        throw new Error("webhook Worker is down");
      },
    });
    const { input, order } = await createOrder(client);
    const response = await submitCheckout(cashfreeFetch, order.paymentSessionId ?? "", "pay");
    expect(response.status).toBe(303);
    expect(expectOk(await client.getOrder(input.orderId)).status).toBe("PAID");
    expect(log).toHaveBeenCalledWith(expect.stringContaining("webhook Worker is down"));
  });

  it("pays and fails through the test helper as through the page", async () => {
    const { client, fakeOptions, delivered } = setup();
    const { input } = await createOrder(client);
    const failed = await payFakeCashfreeOrder(fakeOptions, input.orderId, "fail");
    expect(failed).toEqual({ cfPaymentId: expect.any(String), status: "FAILED", amountMinor: 2100 });
    const paid = await payFakeCashfreeOrder(fakeOptions, input.orderId, "pay");
    expect(expectOk(await client.getPayments(input.orderId))).toEqual([failed, paid]);
    expect(expectOk(await client.getOrder(input.orderId)).status).toBe("PAID");
    const webhook = PaymentWebhookSchema.parse(await verifiedBody(delivered[1]));
    expect(webhook.data.payment).toMatchObject({ cf_payment_id: paid.cfPaymentId, payment_status: "SUCCESS" });

    await expect(payFakeCashfreeOrder(fakeOptions, input.orderId, "pay")).rejects.toThrow("already-paid");
    await expect(payFakeCashfreeOrder(fakeOptions, randomId("pay"), "pay")).rejects.toThrow("not-found");
  });
});

describe("fake Cashfree refunds", () => {
  function createRefund(cashfreeFetch: typeof fetch, orderId: string, body: unknown) {
    return cashfreeFetch(`${API_URL}/orders/${orderId}/refunds`, {
      method: "POST",
      headers: apiHeaders(),
      body: JSON.stringify(body),
    });
  }

  it("refunds a paid order through Cashfree's create-refund API, with a signed webhook", async () => {
    const { client, cashfreeFetch, fakeOptions, delivered } = setup();
    const { input } = await createOrder(client);
    const early = await createRefund(cashfreeFetch, input.orderId, { refund_amount: 5, refund_id: randomId("ref") });
    expect(early.status).toBe(400);
    expect(await early.json()).toMatchObject({ code: "order_not_paid", type: "invalid_request_error" });

    const payment = await payFakeCashfreeOrder(fakeOptions, input.orderId, "pay");
    const refundId = randomId("ref");
    const response = await createRefund(cashfreeFetch, input.orderId, { refund_amount: 5.0, refund_id: refundId });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"refund_amount":5.00');
    expect(JSON.parse(text)).toMatchObject({
      refund_id: refundId,
      order_id: input.orderId,
      refund_status: "SUCCESS",
      cf_payment_id: payment.cfPaymentId,
    });
    expect(expectOk(await client.getRefunds(input.orderId))).toEqual([
      { refundId, status: "SUCCESS", amountMinor: 500 },
    ]);

    const webhook = RefundWebhookSchema.parse(await verifiedBody(delivered.at(-1)));
    expect(webhook.data.refund).toEqual({
      refund_id: refundId,
      order_id: input.orderId,
      refund_status: "SUCCESS",
      refund_amount: 5,
      cf_payment_id: payment.cfPaymentId,
    });

    const duplicate = await createRefund(cashfreeFetch, input.orderId, { refund_amount: 1, refund_id: refundId });
    expect(duplicate.status).toBe(409);
    const tooMuch = await createRefund(cashfreeFetch, input.orderId, {
      refund_amount: 16.01,
      refund_id: randomId("ref"),
    });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ code: "refund_amount_invalid" });
    // Refunds do not change the order's status, as at Cashfree.
    expect(expectOk(await client.getOrder(input.orderId)).status).toBe("PAID");
  });

  it("refunds the rest through the test helper, then refuses more", async () => {
    const { client, fakeOptions, delivered } = setup();
    const { input } = await createOrder(client);
    await expect(refundFakeCashfreeOrder(fakeOptions, input.orderId)).rejects.toThrow("not-paid");
    await payFakeCashfreeOrder(fakeOptions, input.orderId, "pay");
    const part = await refundFakeCashfreeOrder(fakeOptions, input.orderId, { amountMinor: 600 });
    const rest = await refundFakeCashfreeOrder(fakeOptions, input.orderId);
    expect(rest).toEqual({ refundId: expect.stringMatching(/^refund_/), status: "SUCCESS", amountMinor: 1500 });
    expect(expectOk(await client.getRefunds(input.orderId))).toEqual([part, rest]);
    await expect(refundFakeCashfreeOrder(fakeOptions, input.orderId, { amountMinor: 1 })).rejects.toThrow("too-much");
    const webhook = RefundWebhookSchema.parse(await verifiedBody(delivered.at(-1)));
    expect(webhook.data.refund).toMatchObject({ refund_id: rest.refundId, refund_amount: 15 });
  });
});

describe("fake Cashfree SDK script", () => {
  it("serves a script that sends checkout() to the fake checkout page", async () => {
    const { cashfreeFetch } = setup();
    const response = await cashfreeFetch(`${BASE_URL}/sdk.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/javascript/);
    const script = await response.text();
    expect(script).toContain("window.Cashfree = function (options)");
    expect(script).toContain('var checkoutPath = "/dev/cashfree/checkout";');
    expect(script).toContain(
      'location.assign(checkoutPath + "?payment_session_id=" + encodeURIComponent(paymentSessionId));',
    );
    // Served without API credentials, as the browser loads it.
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("Cashfree client failures", () => {
  it("answers unavailable on every call when the network fails", async () => {
    const { client } = setup({
      wrap: () => async () => {
        throw new TypeError("Network connection lost.");
      },
    });
    const orderId = randomId("pay");
    expect(await client.createOrder(orderInput({ orderId }))).toEqual({
      ok: false,
      code: "unavailable",
      detail: expect.stringContaining("Network connection lost."),
    });
    expect(await client.getOrder(orderId)).toMatchObject({ ok: false, code: "unavailable" });
    expect(await client.getPayments(orderId)).toMatchObject({ ok: false, code: "unavailable" });
    expect(await client.getRefunds(orderId)).toMatchObject({ ok: false, code: "unavailable" });
  });

  it.each([
    ["a 5xx page", () => new Response("<html>Bad gateway</html>", { status: 502 }), "502"],
    ["a 200 that is not an order", () => Response.json({ order_id: 42 }), "could not read"],
    ["a 200 that is not JSON", () => new Response("{truncated", { status: 200 }), "could not read"],
    [
      "an amount that is not whole paise",
      () =>
        new Response(
          '{"order_id":"pay_x","cf_order_id":"1","order_status":"PAID","order_amount":21.005,"order_currency":"INR"}',
        ),
      "could not read",
    ],
    [
      "an order in another currency",
      () =>
        Response.json({
          order_id: "pay_x",
          cf_order_id: 1,
          order_status: "PAID",
          order_amount: 21,
          order_currency: "USD",
        }),
      "could not read",
    ],
  ])("answers unavailable for %s", async (_name, answer, detail) => {
    const { client } = setup({ wrap: () => async () => answer() });
    expect(await client.getOrder("pay_x")).toEqual({
      ok: false,
      code: "unavailable",
      detail: expect.stringContaining(detail),
    });
  });

  it("reads Cashfree's older numeric ids", async () => {
    const { client } = setup({
      wrap: () => async () =>
        new Response(
          '{"order_id":"pay_x","cf_order_id":2149460581,"order_status":"ACTIVE","order_amount":21.00,"order_currency":"INR","payment_session_id":"session_abc"}',
        ),
    });
    expect(expectOk(await client.getOrder("pay_x"))).toEqual({
      orderId: "pay_x",
      cfOrderId: "2149460581",
      status: "ACTIVE",
      amountMinor: 2100,
      currency: "INR",
      paymentSessionId: "session_abc",
    });
  });

  it("refuses requests outside the fake's base URL in its fetch", async () => {
    const { cashfreeFetch } = setup();
    await expect(cashfreeFetch("https://sandbox.cashfree.com/pg/orders")).rejects.toThrow("refuses");
    await expect(cashfreeFetch("http://localhost:5173/dev/cashfreeX/pg/orders")).rejects.toThrow("refuses");
  });
});
