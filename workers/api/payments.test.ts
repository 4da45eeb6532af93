/**
 * `/api/payments/*` through the Worker: the cases the buying tests (tests/integration/
 * checkout.test.ts, webhooks.test.ts) leave out — a capture without a session, body or order
 * of the buyer's, a price the client tries to set, and a status answer that holds no personal
 * data.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PLANS } from "~workers/platform/plans";
import { signUpBuyer } from "../../tests/buyers";
import { callApi, expectProblem } from "../../tests/factories";

const PAYMENT_ERROR = "Unable to process the payment. Please try again.";

async function startPayPal(cookie: string, body: Record<string, unknown>): Promise<string> {
  const response = await callApi(SELF, "POST", "/api/payments/paypal/generate-session?country=US", { cookie, body });
  expect(response.status).toBe(200);
  return (await response.json<{ payment_id: string }>()).payment_id;
}

describe("POST /api/payments/paypal/generate-session", () => {
  it("charges the server's price whatever amount, currency or user the client sends", async () => {
    const buyer = await signUpBuyer();
    const other = await signUpBuyer();
    const paymentId = await startPayPal(buyer.cookie, {
      payment_type: "premium",
      amount: 1,
      amount_minor: 1,
      currency: "INR",
      user_id: other.userId,
      customer_id: other.userId,
    });
    const row = await env.DB.prepare(`SELECT user_id, amount_minor, currency, plan_id FROM payments WHERE id = ?`)
      .bind(paymentId)
      .first();
    expect(row).toEqual({
      user_id: buyer.userId,
      amount_minor: PLANS.premium.price.usdCents,
      currency: "USD",
      plan_id: "premium",
    });
  });
});

describe("POST /api/payments/paypal/capture", () => {
  it("needs a session", async () => {
    await expectProblem(
      await callApi(SELF, "POST", "/api/payments/paypal/capture", { body: { orderID: "anything" } }),
      401,
      "unauthenticated",
    );
  });

  it("asks for the order id, with the words the checkout shows", async () => {
    const { cookie } = await signUpBuyer();
    for (const body of [{}, { orderID: "" }, { orderID: "x".repeat(65) }]) {
      const answer = await expectProblem(
        await callApi(SELF, "POST", "/api/payments/paypal/capture", { cookie, body }),
        422,
        "invalid-input",
      );
      expect(answer.message).toBe(PAYMENT_ERROR);
    }
  });

  it("answers 404 for an order that is not the buyer's, and moves no plan", async () => {
    const { cookie, userId } = await signUpBuyer();
    const answer = await expectProblem(
      await callApi(SELF, "POST", "/api/payments/paypal/capture", { cookie, body: { orderID: "ORDER-NOBODYS" } }),
      404,
      "not-found",
    );
    expect(answer).toMatchObject({ reason: "not-found", message: PAYMENT_ERROR });
    expect(await env.DB.prepare(`SELECT plan_id FROM users WHERE id = ?`).bind(userId).first()).toEqual({
      plan_id: "free",
    });
  });
});

describe("GET /api/payments/:paymentId/status", () => {
  it("answers the payment's state with nothing personal in it, and is not cached", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startPayPal(cookie, { payment_type: "standard" });
    const response = await callApi(SELF, "GET", `/api/payments/${paymentId}/status`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { payment } = await response.json<{ payment: Record<string, unknown> }>();
    expect(Object.keys(payment).sort()).toEqual(
      ["amount", "currency", "final", "id", "method", "planExpiresAt", "planId", "planName", "status"].sort(),
    );
    const user = await env.DB.prepare(`SELECT email, name FROM users WHERE id = ?`)
      .bind(userId)
      .first<{ email: string }>();
    expect(JSON.stringify(payment)).not.toContain(userId);
    expect(JSON.stringify(payment)).not.toContain(user?.email);
  });

  it.each(["pay_short", "not-a-payment", "pay_" + "x".repeat(65), "pay_../../users"])(
    "answers 404 for the id %s",
    async (id) => {
      await expectProblem(
        await callApi(SELF, "GET", `/api/payments/${encodeURIComponent(id)}/status`),
        404,
        "not-found",
      );
    },
  );
});
