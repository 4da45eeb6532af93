import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { approveFakeOrder } from "~workers/providers/paypal/fake";
import { planOf, signUpBuyer } from "../buyers";
import { callApi, callHosted } from "../factories";

async function startOrder(cookie: string, plan: "standard" | "premium") {
  const response = await callApi(SELF, "POST", "/api/payments/paypal/generate-session?country=US", {
    cookie,
    body: { payment_type: plan, amount: 1 },
  });
  expect(response.status).toBe(200);
  return (await response.json<{ response: { id: string } }>()).response.id;
}

function capture(cookie: string, orderID: string) {
  return callApi(SELF, "POST", "/api/payments/paypal/capture", { cookie, body: { orderID } });
}

async function paymentOf(orderId: string) {
  return env.DB.prepare("SELECT status, amount_minor, currency, plan_id FROM payments WHERE provider_order_id = ?")
    .bind(orderId)
    .first<{ status: string; amount_minor: number; currency: string; plan_id: string }>();
}

describe("buying through PayPal (the local fake)", () => {
  it.each([
    ["standard", 900],
    ["premium", 1_700],
  ] as const)("creates a %s order at the server's price, whatever the client sends", async (plan, cents) => {
    const { cookie } = await signUpBuyer();
    const orderId = await startOrder(cookie, plan);
    expect(await paymentOf(orderId)).toEqual({
      status: "pending",
      amount_minor: cents,
      currency: "USD",
      plan_id: plan,
    });
  });

  it("gives a referred buyer 5% off", async () => {
    const referrer = await signUpBuyer();
    const { cookie } = await signUpBuyer(referrer.referralCode);
    const orderId = await startOrder(cookie, "standard");
    expect((await paymentOf(orderId))?.amount_minor).toBe(855);
  });

  it("activates the plan when the capture completes, and only once", async () => {
    const { cookie, userId } = await signUpBuyer();
    const orderId = await startOrder(cookie, "premium");
    await approveFakeOrder(env.CACHE, orderId, "pay");
    const first = await capture(cookie, orderId);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ success: 1, plan: "premium", alreadyPaid: false });
    const plan = await planOf(userId);
    expect(plan?.plan_id).toBe("premium");
    const second = await capture(cookie, orderId);
    expect(await second.json()).toMatchObject({ plan: "premium", alreadyPaid: true });
    expect((await planOf(userId))?.plan_expires_at).toBe(plan?.plan_expires_at);
    expect((await paymentOf(orderId))?.status).toBe("paid");
  });

  it("grants nothing when the card is declined", async () => {
    const { cookie, userId } = await signUpBuyer();
    const orderId = await startOrder(cookie, "standard");
    await approveFakeOrder(env.CACHE, orderId, "decline");
    const response = await capture(cookie, orderId);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      reason: "declined",
      message: "Unable to process the payment. Please try again.",
    });
    expect((await planOf(userId))?.plan_id).toBe("free");
    expect((await paymentOf(orderId))?.status).toBe("pending");
  });

  it("grants nothing when the captured amount differs from the server's price", async () => {
    const { cookie, userId } = await signUpBuyer();
    const orderId = await startOrder(cookie, "premium");
    // Someone changed the order at the provider: make our record expect another amount.
    await env.DB.prepare("UPDATE payments SET amount_minor = 100 WHERE provider_order_id = ?").bind(orderId).run();
    await approveFakeOrder(env.CACHE, orderId, "pay");
    const response = await capture(cookie, orderId);
    expect(await response.json()).toMatchObject({ reason: "mismatch" });
    expect((await planOf(userId))?.plan_id).toBe("free");
    // Marked failed for support to look at; a repeated capture cannot turn it into a plan.
    expect((await paymentOf(orderId))?.status).toBe("failed");
    expect(await (await capture(cookie, orderId)).json()).toMatchObject({ reason: "mismatch" });
    expect((await planOf(userId))?.plan_id).toBe("free");
  });

  it("does not let one user capture another's order", async () => {
    const alice = await signUpBuyer();
    const bob = await signUpBuyer();
    const orderId = await startOrder(alice.cookie, "standard");
    await approveFakeOrder(env.CACHE, orderId, "pay");
    expect((await capture(bob.cookie, orderId)).status).toBe(404);
  });

  it("shows the paid plan to the gateway at once", async () => {
    const { cookie } = await signUpBuyer();
    const created = await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "app" } });
    const { key } = await created.json<{ key: string }>();
    // Used once on Free, so the gateway has cached the key with its plan.
    const before = await callHosted(SELF, "GET", "/api/v1/urlshortener/links", { key });
    expect(before.headers.get("ratelimit-policy")).toMatch(/"burst";q=2/);
    const orderId = await startOrder(cookie, "standard");
    await approveFakeOrder(env.CACHE, orderId, "pay");
    await capture(cookie, orderId);
    const after = await callHosted(SELF, "GET", "/api/v1/urlshortener/links", { key });
    expect(after.headers.get("ratelimit-policy")).toMatch(/"burst";q=5/);
  });

  it("needs a signed-in user and a known plan", async () => {
    expect(
      (
        await callApi(SELF, "POST", "/api/payments/paypal/generate-session?country=US", {
          body: { payment_type: "standard" },
        })
      ).status,
    ).toBe(401);
    const { cookie } = await signUpBuyer();
    expect(
      (
        await callApi(SELF, "POST", "/api/payments/paypal/generate-session?country=US", {
          cookie,
          body: { payment_type: "gold" },
        })
      ).status,
    ).toBe(422);
  });
});
