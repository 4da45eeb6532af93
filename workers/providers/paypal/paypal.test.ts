import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPayPalClient } from "./client";
import { approveFakeOrder, createFakePayPal, createFakePayPalFetch } from "./fake";
import type { PayPalAmount, PayPalClient, PayPalOrder, PayPalResult } from "./types";

const BASE_URL = "http://localhost:5173/dev/paypal";
const NINE_DOLLARS: PayPalAmount = { currency: "USD", value: "9.00" };

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * A fresh client id per test: the client caches tokens in module memory per base URL and
 * client id, and tests share one isolate, so a shared id would hide token requests.
 */
function setup(options: { wrap?: (paypalFetch: typeof fetch) => typeof fetch } = {}) {
  const fake = createFakePayPal({ baseUrl: BASE_URL, kv: env.CACHE });
  const paypalFetch = createFakePayPalFetch(fake, BASE_URL);
  const client = createPayPalClient({
    baseUrl: BASE_URL,
    clientId: randomId("client"),
    clientSecret: "test-secret",
    fetch: options.wrap ? options.wrap(paypalFetch) : paypalFetch,
  });
  return { fake, paypalFetch, client };
}

function expectOk<T>(result: PayPalResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.detail}`);
  return result.value;
}

async function createOrder(client: PayPalClient, description = "Portico Pro, 1 month") {
  const paymentId = randomId("pay");
  const order = expectOk(await client.createOrder({ paymentId, amount: NINE_DOLLARS, description }));
  return { paymentId, order };
}

describe("PayPal client against the fake", () => {
  it("creates, approves and captures an order for the right amount and payment", async () => {
    const { client } = setup();
    const { paymentId, order } = await createOrder(client);
    expect(order.id).toMatch(/^FAKE[A-Z0-9]{17}$/);
    expect(order.status).toBe("CREATED");
    expect(order.amount).toEqual(NINE_DOLLARS);
    expect(order.customId).toBe(paymentId);
    expect(order.capture).toBeNull();
    expect(order.approveUrl).toBe(`${BASE_URL}/checkoutnow?token=${order.id}`);

    await approveFakeOrder(env.CACHE, order.id, "pay");
    const captured = expectOk(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") }));
    expect(captured).toMatchObject<Partial<PayPalOrder>>({
      id: order.id,
      status: "COMPLETED",
      customId: paymentId,
      amount: NINE_DOLLARS,
      approveUrl: null,
    });
    expect(captured.capture).toEqual({
      id: expect.stringMatching(/^FAKECAP/),
      status: "COMPLETED",
      amount: NINE_DOLLARS,
    });
  });

  it("returns the same order when the same payment id is created twice", async () => {
    const { client } = setup();
    const { paymentId, order } = await createOrder(client);
    const again = expectOk(await client.createOrder({ paymentId, amount: NINE_DOLLARS, description: "retry" }));
    expect(again.id).toBe(order.id);
    const other = await createOrder(client);
    expect(other.order.id).not.toBe(order.id);
  });

  it("refuses to capture an order the buyer has not approved", async () => {
    const { client } = setup();
    const { order } = await createOrder(client);
    const result = await client.captureOrder({ orderId: order.id, requestId: randomId("cap") });
    // The interface has no code for "not approved": it is unavailable, with PayPal's issue kept.
    expect(result).toEqual({ ok: false, code: "unavailable", detail: expect.stringContaining("ORDER_NOT_APPROVED") });
    expect(expectOk(await client.getOrder(order.id)).status).toBe("CREATED");
  });

  it("answers already-captured for a second capture, but replays a retry with the same request id", async () => {
    const { client } = setup();
    const { order } = await createOrder(client);
    await approveFakeOrder(env.CACHE, order.id, "pay");
    const requestId = randomId("cap");
    const first = expectOk(await client.captureOrder({ orderId: order.id, requestId }));

    const retry = expectOk(await client.captureOrder({ orderId: order.id, requestId }));
    expect(retry.capture?.id).toBe(first.capture?.id);

    const second = await client.captureOrder({ orderId: order.id, requestId: randomId("cap") });
    expect(second).toMatchObject({ ok: false, code: "already-captured" });
  });

  it("answers instrument-declined when the buyer's card is declined, and leaves the order approved", async () => {
    const { client } = setup();
    const { order } = await createOrder(client);
    await approveFakeOrder(env.CACHE, order.id, "decline");
    const result = await client.captureOrder({ orderId: order.id, requestId: randomId("cap") });
    expect(result).toMatchObject({ ok: false, code: "instrument-declined" });
    expect(expectOk(await client.getOrder(order.id))).toMatchObject({ status: "APPROVED", capture: null });

    // Paying with another card afterwards captures, as after PayPal's actions.restart().
    await approveFakeOrder(env.CACHE, order.id, "pay");
    expect(expectOk(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") })).status).toBe(
      "COMPLETED",
    );
  });

  it("reads an order's state as it moves, and not-found for an unknown order", async () => {
    const { client } = setup();
    const { paymentId, order } = await createOrder(client);
    expect(expectOk(await client.getOrder(order.id))).toMatchObject({
      status: "CREATED",
      customId: paymentId,
      amount: NINE_DOLLARS,
    });
    await approveFakeOrder(env.CACHE, order.id, "pay");
    expect(expectOk(await client.getOrder(order.id)).status).toBe("APPROVED");
    await client.captureOrder({ orderId: order.id, requestId: randomId("cap") });
    const completed = expectOk(await client.getOrder(order.id));
    expect(completed.status).toBe("COMPLETED");
    expect(completed.capture).toMatchObject({ status: "COMPLETED", amount: NINE_DOLLARS });

    expect(await client.getOrder("FAKEDOESNOTEXIST1234")).toMatchObject({ ok: false, code: "not-found" });
    // Not an id the fake could issue: still not-found, never a KV lookup outside the prefix.
    expect(await client.getOrder("../token")).toMatchObject({ ok: false, code: "not-found" });
  });
});

describe("PayPal client tokens", () => {
  /** Counts token requests and remembers the last token the fake issued. */
  function countingFetch(expiresIn?: number) {
    const seen = { tokenRequests: 0, lastToken: "", bearerCalls: 0 };
    const wrap =
      (paypalFetch: typeof fetch): typeof fetch =>
      async (input, init) => {
        const request = new Request(input, init);
        if (request.url === `${BASE_URL}/v1/oauth2/token`) {
          seen.tokenRequests += 1;
          expect(request.headers.get("authorization")).toMatch(/^Basic /);
          const answer = await paypalFetch(request);
          const body: { access_token: string; expires_in: number } = await answer.json();
          seen.lastToken = body.access_token;
          return Response.json({ ...body, expires_in: expiresIn ?? body.expires_in }, { status: answer.status });
        }
        if (request.headers.get("authorization") === `Bearer ${seen.lastToken}`) seen.bearerCalls += 1;
        return paypalFetch(request);
      };
    return { seen, wrap };
  }

  it("fetches one token for many calls, including concurrent ones", async () => {
    const { seen, wrap } = countingFetch();
    const { client } = setup({ wrap });
    const [a, b] = await Promise.all([createOrder(client), createOrder(client)]);
    await client.getOrder(a.order.id);
    await approveFakeOrder(env.CACHE, b.order.id, "pay");
    expectOk(await client.captureOrder({ orderId: b.order.id, requestId: randomId("cap") }));
    expect(seen.tokenRequests).toBe(1);
    expect(seen.bearerCalls).toBe(4);
  });

  it("asks for a new token when the cached one is within a minute of expiry", async () => {
    const { seen, wrap } = countingFetch(59);
    const { client } = setup({ wrap });
    const { order } = await createOrder(client);
    await client.getOrder(order.id);
    expect(seen.tokenRequests).toBe(2);
  });

  it("fetches a fresh token once when PayPal rejects the cached one", async () => {
    const { seen, wrap } = countingFetch();
    const { client } = setup({ wrap });
    const { order } = await createOrder(client);
    await env.CACHE.delete(`fake-paypal:token:${seen.lastToken}`);
    expect(expectOk(await client.getOrder(order.id)).id).toBe(order.id);
    expect(seen.tokenRequests).toBe(2);
  });

  it("sends the fake's token endpoint Basic credentials, and the fake refuses calls without them", async () => {
    const { paypalFetch } = setup();
    const noAuth = await paypalFetch(`${BASE_URL}/v1/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    expect(noAuth.status).toBe(401);
    const noBearer = await paypalFetch(`${BASE_URL}/v2/checkout/orders/FAKEANY`, {});
    expect(noBearer.status).toBe(401);
  });
});

describe("PayPal client failures", () => {
  it("answers unavailable when the network fails", async () => {
    const { client } = setup({
      wrap: () => async () => {
        throw new TypeError("Network connection lost.");
      },
    });
    const created = await client.createOrder({ paymentId: randomId("pay"), amount: NINE_DOLLARS, description: "x" });
    expect(created).toMatchObject({ ok: false, code: "unavailable" });
    expect(await client.getOrder("FAKEANY")).toEqual({
      ok: false,
      code: "unavailable",
      detail: expect.stringContaining("Network connection lost."),
    });
  });

  it("answers unavailable for a 5xx and for a body that is not an order", async () => {
    const broken = setup({
      wrap: (paypalFetch) => async (input, init) => {
        const request = new Request(input, init);
        if (request.url.includes("/v2/")) return new Response("<html>Bad gateway</html>", { status: 502 });
        return paypalFetch(request);
      },
    });
    expect(await broken.client.getOrder("FAKEANY")).toMatchObject({
      ok: false,
      code: "unavailable",
      detail: expect.stringContaining("502"),
    });

    const garbled = setup({
      wrap: (paypalFetch) => async (input, init) => {
        const request = new Request(input, init);
        if (request.url.includes("/v2/")) return Response.json({ id: 42 });
        return paypalFetch(request);
      },
    });
    expect(await garbled.client.getOrder("FAKEANY")).toMatchObject({ ok: false, code: "unavailable" });
  });

  it("answers unavailable when the fake rejects a malformed amount", async () => {
    const { client } = setup();
    const result = await client.createOrder({
      paymentId: randomId("pay"),
      amount: { currency: "USD", value: "9.5.0" },
      description: "x",
    });
    expect(result).toMatchObject({ ok: false, code: "unavailable", detail: expect.stringContaining("400") });
  });
});

describe("fake PayPal approval page", () => {
  const HOSTILE = `<script>alert("x")</script> & 'friends'`;

  it("shows the amount and an escaped description with both buttons", async () => {
    const { client, paypalFetch } = setup();
    const { order } = await createOrder(client, HOSTILE);
    const response = await paypalFetch(order.approveUrl ?? "");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("Fake PayPal — development only");
    expect(html).toContain("9.00 USD");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;");
    expect(html).not.toContain("<script>");
    expect(html).toContain(">Pay now</button>");
    expect(html).toContain(">Decline card</button>");

    const missing = await paypalFetch(`${BASE_URL}/checkoutnow?token=FAKENOSUCHORDER`);
    expect(missing.status).toBe(404);
  });

  it("carries the return path into the form, then approves and redirects to it with the token", async () => {
    const { client, paypalFetch } = setup();
    const { order } = await createOrder(client);
    const page = await (
      await paypalFetch(`${order.approveUrl}&return=${encodeURIComponent("/billing/done?plan=pro")}`)
    ).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(new URL(action, BASE_URL).searchParams.get("return")).toBe("/billing/done?plan=pro");

    const response = await paypalFetch(new URL(action, BASE_URL), {
      method: "POST",
      body: new URLSearchParams({ choice: "pay" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/billing/done?plan=pro&token=${order.id}`);
    expect(expectOk(await client.getOrder(order.id)).status).toBe("APPROVED");
    expect(expectOk(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") })).status).toBe(
      "COMPLETED",
    );
  });

  it.each(["https://evil.com", "//evil.com/x", "/\\evil.com", "javascript:alert(1)"])(
    "refuses %s as a return and falls back to the default",
    async (hostile) => {
      const { client, paypalFetch } = setup();
      const { order } = await createOrder(client);
      const url = new URL(`${BASE_URL}/checkoutnow`);
      url.searchParams.set("token", order.id);
      url.searchParams.set("return", hostile);
      const response = await paypalFetch(url, {
        method: "POST",
        body: new URLSearchParams({ choice: "pay" }),
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/user/subscription?token=${order.id}`);
    },
  );

  it("declines through the page's Decline card button", async () => {
    const { client, paypalFetch } = setup();
    const { order } = await createOrder(client);
    const response = await paypalFetch(`${BASE_URL}/checkoutnow?token=${order.id}`, {
      method: "POST",
      body: new URLSearchParams({ choice: "decline" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(await client.captureOrder({ orderId: order.id, requestId: randomId("cap") })).toMatchObject({
      ok: false,
      code: "instrument-declined",
    });
  });
});
