import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { verifyPayPalSignature } from "~workers/providers/signatures/paypal";
import { createPayPalClient } from "./client";
import {
  approveFakeOrder,
  createFakePayPal,
  createFakePayPalFetch,
  fakePayPalCertificateFetcher,
  refundFakeCapture,
  type FakePayPalOptions,
} from "./fake";
import type { PayPalAmount, PayPalResult } from "./types";

const BASE_URL = "http://localhost:5173/dev/paypal";
const WEBHOOK_URL = "http://localhost:8787/paypal";
const WEBHOOK_ID = "WH-LOCAL-FAKE";
const NINE_DOLLARS: PayPalAmount = { currency: "USD", value: "9.00" };
const CERT_URL = /^https:\/\/api\.sandbox\.paypal\.com\/v1\/notifications\/certs\/CERT-FAKE-[A-Z0-9]+$/;

const EventSchema = z.strictObject({
  id: z.string().regex(/^WH-[A-Z0-9]+-[A-Z0-9]+$/),
  event_version: z.literal("1.0"),
  create_time: z.iso.datetime(),
  resource_type: z.string(),
  resource_version: z.string(),
  event_type: z.string(),
  summary: z.string().min(1),
  resource: z.record(z.string(), z.unknown()),
});
type PayPalEvent = z.infer<typeof EventSchema>;

interface Delivery {
  url: string;
  headers: Record<string, string>;
  body: string;
  event: PayPalEvent;
}

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
}

function setup(overrides: Partial<FakePayPalOptions> = {}) {
  const deliveries: Delivery[] = [];
  const options: FakePayPalOptions = {
    baseUrl: BASE_URL,
    kv: env.CACHE,
    webhook: {
      url: WEBHOOK_URL,
      webhookId: WEBHOOK_ID,
      deliver: async (url, { headers, body }) => {
        deliveries.push({ url, headers, body, event: EventSchema.parse(JSON.parse(body)) });
      },
    },
    ...overrides,
  };
  const fake = createFakePayPal(options);
  const paypalFetch = createFakePayPalFetch(fake, BASE_URL);
  const client = createPayPalClient({
    baseUrl: BASE_URL,
    clientId: randomId("client"),
    clientSecret: "test-secret",
    fetch: paypalFetch,
  });
  return { options, fake, paypalFetch, client, deliveries };
}

function expectOk<T>(result: PayPalResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.detail}`);
  return result.value;
}

async function createOrder(client: ReturnType<typeof setup>["client"]) {
  const paymentId = randomId("pay");
  const order = expectOk(await client.createOrder({ paymentId, amount: NINE_DOLLARS, description: "Portico Pro" }));
  return { paymentId, order };
}

/** An order approved (without a webhook) and captured: the usual start of a refund test. */
async function capturedOrder(client: ReturnType<typeof setup>["client"]) {
  const { paymentId, order } = await createOrder(client);
  await approveFakeOrder(env.CACHE, order.id, "pay");
  const captured = expectOk(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") }));
  if (!captured.capture) throw new Error("expected a capture");
  return { paymentId, orderId: order.id, captureId: captured.capture.id };
}

async function bearer(paypalFetch: typeof fetch): Promise<string> {
  const response = await paypalFetch(`${BASE_URL}/v1/oauth2/token`, {
    method: "POST",
    headers: { authorization: `Basic ${btoa("client:secret")}` },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  return z.object({ access_token: z.string() }).parse(await response.json()).access_token;
}

async function getJson(paypalFetch: typeof fetch, path: string): Promise<unknown> {
  const response = await paypalFetch(`${BASE_URL}${path}`, {
    headers: { authorization: `Bearer ${await bearer(paypalFetch)}` },
  });
  expect(response.status).toBe(200);
  return response.json();
}

function verify(fake: ReturnType<typeof setup>["fake"], delivery: { headers: Record<string, string>; body: string }) {
  return verifyPayPalSignature({
    rawBody: delivery.body,
    headers: new Headers(delivery.headers),
    webhookId: WEBHOOK_ID,
    now: Date.now(),
    fetchCertificate: fakePayPalCertificateFetcher(fake, BASE_URL),
  });
}

/** Checks what PayPal always sends, and that the signature holds for this body and no other. */
async function expectSignedDelivery(fake: ReturnType<typeof setup>["fake"], delivery: Delivery | undefined) {
  if (!delivery) throw new Error("expected a webhook delivery");
  expect(delivery.url).toBe(WEBHOOK_URL);
  expect(Object.keys(delivery.headers).sort()).toEqual([
    "content-type",
    "paypal-auth-algo",
    "paypal-cert-url",
    "paypal-transmission-id",
    "paypal-transmission-sig",
    "paypal-transmission-time",
  ]);
  expect(delivery.headers["content-type"]).toBe("application/json");
  expect(delivery.headers["paypal-auth-algo"]).toBe("SHA256withRSA");
  expect(delivery.headers["paypal-transmission-id"]).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  expect(Math.abs(Date.parse(delivery.headers["paypal-transmission-time"] ?? "") - Date.now())).toBeLessThan(60_000);
  expect(delivery.headers["paypal-cert-url"]).toMatch(CERT_URL);

  expect(await verify(fake, delivery)).toEqual({ ok: true });
  const altered = delivery.body.replace('"9.00"', '"0.01"');
  expect(altered).not.toBe(delivery.body);
  expect(await verify(fake, { ...delivery, body: altered })).toEqual({ ok: false, reason: "bad-signature" });
  const otherSubscription = await verifyPayPalSignature({
    rawBody: delivery.body,
    headers: new Headers(delivery.headers),
    webhookId: "WH-SOMEONE-ELSE",
    now: Date.now(),
    fetchCertificate: fakePayPalCertificateFetcher(fake, BASE_URL),
  });
  expect(otherSubscription).toEqual({ ok: false, reason: "bad-signature" });
}

describe("fake PayPal webhooks", () => {
  it.each(["pay", "decline"] as const)(
    "sends a signed CHECKOUT.ORDER.APPROVED with the order when the buyer chooses %s on the page",
    async (choice) => {
      const { fake, paypalFetch, client, deliveries } = setup();
      const { paymentId, order } = await createOrder(client);
      expect(deliveries).toEqual([]);

      const response = await paypalFetch(`${BASE_URL}/checkoutnow?token=${order.id}`, {
        method: "POST",
        body: new URLSearchParams({ choice }),
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(deliveries).toHaveLength(1);
      const [delivery] = deliveries;
      await expectSignedDelivery(fake, delivery);
      expect(delivery?.event).toMatchObject({
        event_type: "CHECKOUT.ORDER.APPROVED",
        resource_type: "checkout-order",
        resource: { id: order.id, status: "APPROVED", purchase_units: [{ custom_id: paymentId }] },
      });
      // The resource is the order exactly as GET renders it.
      expect(delivery?.event.resource).toEqual(await getJson(paypalFetch, `/v2/checkout/orders/${order.id}`));
    },
  );

  it("sends a signed PAYMENT.CAPTURE.COMPLETED with the capture, once, and nothing for a failed capture", async () => {
    const { fake, client, deliveries } = setup();
    const { paymentId, order } = await createOrder(client);
    await approveFakeOrder(env.CACHE, order.id, "decline");
    expect(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") })).toMatchObject({ ok: false });
    expect(deliveries).toEqual([]);

    await approveFakeOrder(env.CACHE, order.id, "pay");
    const requestId = randomId("cap");
    const captured = expectOk(await client.captureOrder({ orderId: order.id, requestId }));
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    await expectSignedDelivery(fake, delivery);
    expect(delivery?.event).toMatchObject({ event_type: "PAYMENT.CAPTURE.COMPLETED", resource_type: "capture" });
    expect(delivery?.event.resource).toEqual({
      id: captured.capture?.id,
      status: "COMPLETED",
      amount: { currency_code: "USD", value: "9.00" },
      custom_id: paymentId,
      final_capture: true,
      create_time: expect.any(String),
      update_time: expect.any(String),
      supplementary_data: { related_ids: { order_id: order.id } },
      links: expect.arrayContaining([
        { href: `${BASE_URL}/v2/checkout/orders/${order.id}`, rel: "up", method: "GET" },
        { href: `${BASE_URL}/v2/payments/captures/${captured.capture?.id}`, rel: "self", method: "GET" },
      ]),
    });

    // A replayed capture (same request id) is the same capture: no second event.
    expectOk(await client.captureOrder({ orderId: order.id, requestId }));
    expect(deliveries).toHaveLength(1);
  });

  it("gives every event its own id and signs every delivery with one certificate kept in KV", async () => {
    const first = setup();
    const { order } = await createOrder(first.client);
    await approveFakeOrder(first.options, order.id, "pay");
    expectOk(await first.client.captureOrder({ orderId: order.id, requestId: randomId("cap") }));
    // Another instance, as another isolate would make: same KV, so the same key and certificate.
    const second = setup();
    await refundFakeCapture(second.options, order.id);

    const deliveries = [...first.deliveries, ...second.deliveries];
    expect(deliveries.map((delivery) => delivery.event.event_type)).toEqual([
      "CHECKOUT.ORDER.APPROVED",
      "PAYMENT.CAPTURE.COMPLETED",
      "PAYMENT.CAPTURE.REFUNDED",
    ]);
    expect(new Set(deliveries.map((delivery) => delivery.event.id)).size).toBe(3);
    expect(new Set(deliveries.map((delivery) => delivery.headers["paypal-transmission-id"])).size).toBe(3);
    expect(new Set(deliveries.map((delivery) => delivery.headers["paypal-cert-url"])).size).toBe(1);
    for (const delivery of deliveries) expect(await verify(first.fake, delivery)).toEqual({ ok: true });
  });

  it("approveFakeOrder sends the approval webhook only when given the fake's options", async () => {
    const { fake, options, client, deliveries } = setup();
    const a = await createOrder(client);
    await approveFakeOrder(env.CACHE, a.order.id, "pay");
    expect(deliveries).toEqual([]);

    const b = await createOrder(client);
    await approveFakeOrder(options, b.order.id, "decline");
    expect(deliveries).toHaveLength(1);
    await expectSignedDelivery(fake, deliveries[0]);
    expect(deliveries[0]?.event).toMatchObject({
      event_type: "CHECKOUT.ORDER.APPROVED",
      resource: { id: b.order.id, status: "APPROVED", purchase_units: [{ custom_id: b.paymentId }] },
    });
    expect(expectOk(await client.getOrder(b.order.id)).status).toBe("APPROVED");
  });

  // A short timeout: if the fake awaited the delivery, the capture below would hang until released.
  it("hands the delivery to waitUntil instead of waiting for it", { timeout: 10_000 }, async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const delivered: string[] = [];
    const handed: Promise<unknown>[] = [];
    const { client } = setup({
      webhook: {
        url: WEBHOOK_URL,
        webhookId: WEBHOOK_ID,
        deliver: async (_url, { body }) => {
          await released;
          delivered.push(body);
        },
      },
      waitUntil: (promise) => handed.push(promise),
    });
    const { order } = await createOrder(client);
    await approveFakeOrder(env.CACHE, order.id, "pay");
    // The capture answers while its webhook is still waiting to be delivered.
    expect(expectOk(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") })).status).toBe(
      "COMPLETED",
    );
    expect(handed).toHaveLength(1);
    expect(delivered).toEqual([]);
    release();
    await Promise.all(handed);
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0] ?? "")).toMatchObject({ event_type: "PAYMENT.CAPTURE.COMPLETED" });
  });

  it("logs a failed delivery and still answers, with or without waitUntil", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failing = {
        url: WEBHOOK_URL,
        webhookId: WEBHOOK_ID,
        deliver: async () => {
          throw new Error("webhook Worker is down");
        },
      };
      const awaited = setup({ webhook: failing });
      const { order } = await createOrder(awaited.client);
      const page = await awaited.paypalFetch(`${BASE_URL}/checkoutnow?token=${order.id}`, {
        method: "POST",
        body: new URLSearchParams({ choice: "pay" }),
        redirect: "manual",
      });
      expect(page.status).toBe(302);
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining(`CHECKOUT.ORDER.APPROVED`),
        expect.stringContaining("webhook Worker is down"),
      );

      const handed: Promise<unknown>[] = [];
      const deferred = setup({ webhook: failing, waitUntil: (promise) => handed.push(promise) });
      expect(
        expectOk(await deferred.client.captureOrder({ orderId: order.id, requestId: randomId("cap") })).status,
      ).toBe("COMPLETED");
      // The handed promise settles without rejecting: the failure was logged, not thrown.
      await expect(Promise.all(handed)).resolves.toHaveLength(1);
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining("PAYMENT.CAPTURE.COMPLETED"),
        expect.stringContaining("webhook Worker is down"),
      );
    } finally {
      errors.mockRestore();
    }
  });

  it("approves, captures and refunds without webhook settings, as the app's fake does", async () => {
    const fake = createFakePayPal({ baseUrl: BASE_URL, kv: env.CACHE });
    const client = createPayPalClient({
      baseUrl: BASE_URL,
      clientId: randomId("client"),
      clientSecret: "s",
      fetch: createFakePayPalFetch(fake, BASE_URL),
    });
    const { order } = await createOrder(client);
    await approveFakeOrder(env.CACHE, order.id, "pay");
    expectOk(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") }));
    await refundFakeCapture({ baseUrl: BASE_URL, kv: env.CACHE }, order.id);
    expect(expectOk(await client.getOrder(order.id)).capture?.status).toBe("REFUNDED");
  });
});

describe("fake PayPal webhook certificate", () => {
  async function certUrl(): Promise<string> {
    const { client, options, deliveries } = setup();
    const { order } = await createOrder(client);
    await approveFakeOrder(options, order.id, "pay");
    const url = deliveries[0]?.headers["paypal-cert-url"];
    if (!url) throw new Error("expected a certificate URL");
    return url;
  }

  it("serves the certificate as PEM and refuses unknown ids", async () => {
    const { paypalFetch } = setup();
    const certId = new URL(await certUrl()).pathname.split("/").pop();
    const response = await paypalFetch(`${BASE_URL}/v1/notifications/certs/${certId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const pem = await response.text();
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/);

    expect((await paypalFetch(`${BASE_URL}/v1/notifications/certs/CERT-FAKE-NOSUCHCERT`)).status).toBe(404);
    expect((await paypalFetch(`${BASE_URL}/v1/notifications/certs/..%2Fsigning-identity`)).status).toBe(404);
  });

  it("maps only the fake's paypal.com certificate URLs onto the fake, in process", async () => {
    const { fake } = setup();
    const fetchCertificate = fakePayPalCertificateFetcher(fake, BASE_URL);
    const url = await certUrl();
    expect(await fetchCertificate(url)).toContain("-----BEGIN CERTIFICATE-----");
    const path = new URL(url).pathname;
    // Same path on any other host, scheme or shape is refused before anything is fetched.
    for (const hostile of [
      `http://api.sandbox.paypal.com${path}`,
      `https://api.sandbox.paypal.com.evil.com${path}`,
      `https://evil.com${path}`,
      `https://user@api.sandbox.paypal.com${path}`,
      `https://api.sandbox.paypal.com:8443${path}`,
      `https://api.sandbox.paypal.com${path}?x=1`,
      `https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-e3f9d3f5`,
      "not a url",
    ]) {
      await expect(fetchCertificate(hostile), hostile).rejects.toThrow();
    }
    // The right shape, but a certificate the fake never made: the route's 404 becomes a throw.
    await expect(
      fetchCertificate("https://api.sandbox.paypal.com/v1/notifications/certs/CERT-FAKE-NOSUCHCERT"),
    ).rejects.toThrow(/404/);
  });
});

describe("PayPal verify-webhook-signature", () => {
  async function signedApproval() {
    const { client, options, deliveries } = setup();
    const { order } = await createOrder(client);
    await approveFakeOrder(options, order.id, "pay");
    const delivery = deliveries[0];
    if (!delivery) throw new Error("expected a delivery");
    return { client, delivery };
  }

  it("answers true for the fake's own signed webhook", async () => {
    const { client, delivery } = await signedApproval();
    expect(
      await client.verifyWebhookSignature({
        headers: new Headers(delivery.headers),
        webhookId: WEBHOOK_ID,
        rawBody: delivery.body,
      }),
    ).toEqual({ ok: true, value: true });
  });

  it("answers false for an altered body, another webhook id, a foreign certificate or missing headers", async () => {
    const { client, delivery } = await signedApproval();
    const headers = new Headers(delivery.headers);
    const check = (input: { headers?: Headers; webhookId?: string; rawBody?: string }) =>
      client.verifyWebhookSignature({ headers, webhookId: WEBHOOK_ID, rawBody: delivery.body, ...input });

    expect(await check({ rawBody: delivery.body.replace('"APPROVED"', '"COMPLETED"') })).toEqual({
      ok: true,
      value: false,
    });
    expect(await check({ webhookId: "WH-SOMEONE-ELSE" })).toEqual({ ok: true, value: false });
    const foreign = new Headers(headers);
    foreign.set("paypal-cert-url", "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-FAKE-NOSUCHCERT");
    expect(await check({ headers: foreign })).toEqual({ ok: true, value: false });
    const unsigned = new Headers(headers);
    unsigned.delete("paypal-transmission-sig");
    expect(await check({ headers: unsigned })).toEqual({ ok: true, value: false });
    expect(await check({ rawBody: "not json" })).toEqual({ ok: true, value: false });
  });

  it("sends PayPal's field names, and the fake refuses calls without a token or fields", async () => {
    const { delivery } = await signedApproval();
    const { fake, paypalFetch } = setup();
    const seen: unknown[] = [];
    const client = createPayPalClient({
      baseUrl: BASE_URL,
      clientId: randomId("client"),
      clientSecret: "s",
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.url.endsWith("/verify-webhook-signature")) seen.push(await request.clone().json());
        return fake.fetch(request);
      },
    });
    expectOk(
      await client.verifyWebhookSignature({
        headers: new Headers(delivery.headers),
        webhookId: WEBHOOK_ID,
        rawBody: delivery.body,
      }),
    );
    expect(seen).toEqual([
      {
        auth_algo: "SHA256withRSA",
        cert_url: delivery.headers["paypal-cert-url"],
        transmission_id: delivery.headers["paypal-transmission-id"],
        transmission_sig: delivery.headers["paypal-transmission-sig"],
        transmission_time: delivery.headers["paypal-transmission-time"],
        webhook_id: WEBHOOK_ID,
        webhook_event: JSON.parse(delivery.body),
      },
    ]);

    const url = `${BASE_URL}/v1/notifications/verify-webhook-signature`;
    const noToken = await paypalFetch(url, { method: "POST", body: JSON.stringify(seen[0]) });
    expect(noToken.status).toBe(401);
    const noFields = await paypalFetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${await bearer(paypalFetch)}`, "content-type": "application/json" },
      body: JSON.stringify({ webhook_id: WEBHOOK_ID }),
    });
    expect(noFields.status).toBe(400);
    expect(await noFields.json()).toMatchObject({ name: "VALIDATION_ERROR" });
  });

  it("answers unavailable when PayPal's answer is not a verification status", async () => {
    const { delivery } = await signedApproval();
    const { fake } = setup();
    const client = createPayPalClient({
      baseUrl: BASE_URL,
      clientId: randomId("client"),
      clientSecret: "s",
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.url.endsWith("/verify-webhook-signature")) return Response.json({ verification_status: "MAYBE" });
        return fake.fetch(request);
      },
    });
    expect(
      await client.verifyWebhookSignature({
        headers: new Headers(delivery.headers),
        webhookId: WEBHOOK_ID,
        rawBody: delivery.body,
      }),
    ).toMatchObject({ ok: false, code: "unavailable" });
  });
});

describe("fake PayPal refunds", () => {
  const RefundSchema = z.object({
    id: z.string().regex(/^FAKEREF[A-Z0-9]+$/),
    status: z.literal("COMPLETED"),
    amount: z.object({ currency_code: z.literal("USD"), value: z.literal("9.00") }),
    create_time: z.iso.datetime(),
    links: z.array(z.object({ href: z.string(), rel: z.string(), method: z.string() })),
  });

  function refund(
    paypalFetch: typeof fetch,
    captureId: string,
    token: string,
    options: { body?: unknown; requestId?: string } = {},
  ) {
    return paypalFetch(`${BASE_URL}/v2/payments/captures/${captureId}/refund`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        prefer: "return=representation",
        ...(options.requestId ? { "paypal-request-id": options.requestId } : {}),
      },
      body: JSON.stringify(options.body ?? {}),
    });
  }

  it("refunds a completed capture, marks it REFUNDED and sends PAYMENT.CAPTURE.REFUNDED", async () => {
    const { fake, paypalFetch, client, deliveries } = setup();
    const { orderId, captureId } = await capturedOrder(client);
    expect(await getJson(paypalFetch, `/v2/payments/captures/${captureId}`)).toMatchObject({
      id: captureId,
      status: "COMPLETED",
    });
    deliveries.length = 0; // the capture's own event is covered above

    const token = await bearer(paypalFetch);
    const response = await refund(paypalFetch, captureId, token);
    expect(response.status).toBe(201);
    const raw: unknown = await response.json();
    const body = RefundSchema.parse(raw);
    // Like a refund made from PayPal's dashboard: only the capture's link names the payment.
    expect(raw).not.toHaveProperty("custom_id");
    expect(body.links).toContainEqual({
      href: `${BASE_URL}/v2/payments/captures/${captureId}`,
      rel: "up",
      method: "GET",
    });

    expect(await getJson(paypalFetch, `/v2/payments/captures/${captureId}`)).toMatchObject({
      id: captureId,
      status: "REFUNDED",
      supplementary_data: { related_ids: { order_id: orderId } },
    });
    const order = expectOk(await client.getOrder(orderId));
    expect(order.status).toBe("COMPLETED");
    expect(order.capture).toEqual({ id: captureId, status: "REFUNDED", amount: NINE_DOLLARS });

    expect(deliveries).toHaveLength(1);
    await expectSignedDelivery(fake, deliveries[0]);
    expect(deliveries[0]?.event).toMatchObject({
      event_type: "PAYMENT.CAPTURE.REFUNDED",
      resource_type: "refund",
      resource: { id: body.id, status: "COMPLETED" },
    });
    expect(deliveries[0]?.event.resource).toEqual(raw);
    expect(expectOk(await client.orderIdOfCapture(captureId))).toBe(orderId);
  });

  it("replays a refund with the same request id and refuses a second refund", async () => {
    const { paypalFetch, client, deliveries } = setup();
    const { captureId } = await capturedOrder(client);
    const token = await bearer(paypalFetch);
    const requestId = randomId("ref");
    const first = RefundSchema.parse(await (await refund(paypalFetch, captureId, token, { requestId })).json());
    const retry = await refund(paypalFetch, captureId, token, { requestId });
    expect(retry.status).toBe(201);
    expect(RefundSchema.parse(await retry.json()).id).toBe(first.id);

    const second = await refund(paypalFetch, captureId, token, { requestId: randomId("ref") });
    expect(second.status).toBe(422);
    expect(await second.json()).toMatchObject({ details: [{ issue: "CAPTURE_FULLY_REFUNDED" }] });
    expect(deliveries.filter((delivery) => delivery.event.event_type === "PAYMENT.CAPTURE.REFUNDED")).toHaveLength(1);
  });

  it("answers PayPal's minimal refund unless asked for the representation", async () => {
    const { paypalFetch, client } = setup();
    const { captureId } = await capturedOrder(client);
    const response = await paypalFetch(`${BASE_URL}/v2/payments/captures/${captureId}/refund`, {
      method: "POST",
      headers: { authorization: `Bearer ${await bearer(paypalFetch)}` },
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["id", "links", "status"]);
    expect(body.status).toBe("COMPLETED");
  });

  it("refuses partial refunds, unknown captures and calls without a token", async () => {
    const { paypalFetch, client } = setup();
    const { captureId } = await capturedOrder(client);
    const token = await bearer(paypalFetch);

    const partial = await refund(paypalFetch, captureId, token, {
      body: { amount: { currency_code: "USD", value: "1.00" } },
    });
    expect(partial.status).toBe(422);
    expect(await partial.json()).toMatchObject({ details: [{ issue: "PARTIAL_REFUND_NOT_ALLOWED" }] });
    const tooMuch = await refund(paypalFetch, captureId, token, {
      body: { amount: { currency_code: "USD", value: "10" } },
    });
    expect(await tooMuch.json()).toMatchObject({ details: [{ issue: "REFUND_AMOUNT_EXCEEDED" }] });
    const malformed = await paypalFetch(`${BASE_URL}/v2/payments/captures/${captureId}/refund`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect(await getJson(paypalFetch, `/v2/payments/captures/${captureId}`)).toMatchObject({ status: "COMPLETED" });

    // The whole amount, written as PayPal may echo it, is a full refund.
    expect(
      (await refund(paypalFetch, captureId, token, { body: { amount: { currency_code: "USD", value: "9" } } })).status,
    ).toBe(201);

    expect((await refund(paypalFetch, "FAKECAPNOSUCH0", token)).status).toBe(404);
    expect((await refund(paypalFetch, captureId, "A21AAFAKENOTISSUED")).status).toBe(401);
    const unknownCapture = await paypalFetch(`${BASE_URL}/v2/payments/captures/FAKECAPNOSUCH0`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(unknownCapture.status).toBe(404);
  });

  it("refundFakeCapture refunds an order's capture as the merchant would, and refuses what it cannot", async () => {
    const { fake, options, paypalFetch, client, deliveries } = setup();
    const { order } = await createOrder(client);
    await expect(refundFakeCapture(options, order.id)).rejects.toThrow(/not captured/);
    await expect(refundFakeCapture(options, "FAKENOSUCHORDER")).rejects.toThrow(/not-found/);

    await approveFakeOrder(env.CACHE, order.id, "pay");
    const captured = expectOk(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") }));
    const refunded = await refundFakeCapture(options, order.id);
    expect(refunded).toEqual({ refundId: expect.stringMatching(/^FAKEREF/), captureId: captured.capture?.id });
    expect(expectOk(await client.getOrder(order.id)).capture?.status).toBe("REFUNDED");
    const orderJson = z
      .object({
        purchase_units: z.array(z.object({ payments: z.object({ refunds: z.array(z.object({ id: z.string() })) }) })),
      })
      .parse(await getJson(paypalFetch, `/v2/checkout/orders/${order.id}`));
    expect(orderJson.purchase_units[0]?.payments.refunds.map((r) => r.id)).toEqual([refunded.refundId]);

    const event = deliveries.at(-1);
    await expectSignedDelivery(fake, event);
    expect(event?.event).toMatchObject({
      event_type: "PAYMENT.CAPTURE.REFUNDED",
      resource: {
        id: refunded.refundId,
        links: [{ rel: "up", href: `${BASE_URL}/v2/payments/captures/${refunded.captureId}` }],
      },
    });
    await expect(refundFakeCapture(options, order.id)).rejects.toThrow(/already refunded/);
  });
});
