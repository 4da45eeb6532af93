/**
 * The webhook Worker (workers/webhooks) as its own Worker beside the app, on the same D1 and
 * KV: signed events from the fake providers, duplicates, events out of order, refunds,
 * reconciliation, and the status page's view of it all.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "~workers/config";
import { addUtcMonths } from "~workers/platform/plans";
import { payFakeCashfreeOrder, refundFakeCashfreeOrder } from "~workers/providers/cashfree/fake";
import type { DeliverWebhook } from "~workers/providers/cashfree/types";
import { deliveryThrough, FAKE_PAYPAL_PATH } from "~workers/providers/payments";
import { approveFakeOrder, refundFakeCapture } from "~workers/providers/paypal/fake";
import { webhooks } from "~workers/webhooks/index";
import { signCashfreeWebhook } from "~workers/providers/signatures/cashfree";
import { planOf, signUpBuyer } from "../buyers";
import { callApi, eventually } from "../factories";

/** workerd's service bindings can run the target's cron handler, as Cloudflare's test tools do. */
interface ScheduledFetcher {
  scheduled(options: { scheduledTime: Date; cron: string }): Promise<unknown>;
}

const CASHFREE_SECRET = readConfig(env).CASHFREE_CLIENT_SECRET;
const MONTH_SLACK_MS = 60_000;

/** The webhook Worker, beside the app (tests/setup/webhook-worker.ts). */
const webhookWorker: Fetcher =
  env.WEBHOOKS ??
  (() => {
    throw new Error("the tests need the WEBHOOKS service binding");
  })();
/** The fakes' webhooks, posted to the webhook Worker through the app's service binding. */
const toWebhookWorker = deliveryThrough(webhookWorker)!;
const cashfreeWithWebhooks = { kv: env.CACHE, clientSecret: CASHFREE_SECRET, deliverWebhook: toWebhookWorker.deliver };
const cashfreeSilently = { kv: env.CACHE, clientSecret: CASHFREE_SECRET };

async function startCashfree(cookie: string, plan: "standard" | "premium") {
  const response = await callApi(SELF, "POST", "/api/payments/cashfree/generate-session?country=IN", {
    cookie,
    body: {
      payment_type: plan,
      order_id: "chosen-by-the-client",
      customer_details: { customer_id: "someone-else", customer_phone: "98765 43210", customer_email: "x@y.z" },
      order_amount: 1,
    },
  });
  expect(response.status).toBe(200);
  const body = await response.json<{ response: { payment_session_id: string; order_id: string } }>();
  expect(body.response.payment_session_id).toMatch(/^session_/);
  return body.response.order_id;
}

function paymentRow(paymentId: string) {
  return env.DB.prepare(
    "SELECT status, amount_minor, currency, plan_id, provider, user_id, plan_expires_at FROM payments WHERE id = ?",
  )
    .bind(paymentId)
    .first<{
      status: string;
      amount_minor: number;
      currency: string;
      plan_id: string;
      provider: string;
      user_id: string;
      plan_expires_at: number | null;
    }>();
}

async function eventCount(paymentId: string) {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM payment_events WHERE payment_id = ?")
    .bind(paymentId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A Cashfree event as Cashfree signs it, for requests the fake would not send. */
async function signedCashfreeEvent(body: unknown, options: { key?: string; secret?: string; at?: number } = {}) {
  const rawBody = JSON.stringify(body);
  const timestamp = String(options.at ?? Date.now());
  return {
    body: rawBody,
    headers: {
      "content-type": "application/json",
      "x-webhook-timestamp": timestamp,
      "x-webhook-signature": await signCashfreeWebhook(rawBody, timestamp, options.secret ?? CASHFREE_SECRET),
      "x-webhook-version": "2025-01-01",
      ...(options.key ? { "x-idempotency-key": options.key } : {}),
    },
  };
}

function postToWebhooks(path: "/cashfree" | "/paypal", request: { body: string; headers: Record<string, string> }) {
  return webhookWorker.fetch(`https://webhooks.internal${path}`, { method: "POST", ...request });
}

function paymentEvent(type: string, orderId: string, status: string, cfPaymentId = "9000001") {
  return {
    type,
    event_time: new Date().toISOString(),
    data: {
      order: { order_id: orderId, order_amount: 21.0, order_currency: "INR" },
      payment: { cf_payment_id: cfPaymentId, payment_status: status, payment_amount: 21.0 },
    },
  };
}

describe("buying through Cashfree (the local fake)", () => {
  it.each([
    ["standard", 2_100],
    ["premium", 4_600],
  ] as const)("creates a %s order in rupees at the server's price, for the signed-in buyer", async (plan, paise) => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, plan);
    expect(paymentId).toMatch(/^pay_/);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: "pending",
      amount_minor: paise,
      currency: "INR",
      plan_id: plan,
      provider: "cashfree",
      user_id: userId,
    });
  });

  it("gives a referred buyer 5% off in rupees too", async () => {
    const referrer = await signUpBuyer();
    const { cookie } = await signUpBuyer(referrer.referralCode);
    const paymentId = await startCashfree(cookie, "standard");
    expect((await paymentRow(paymentId))?.amount_minor).toBe(1_995);
  });

  it("asks for a valid Indian mobile number, naming the field", async () => {
    const { cookie } = await signUpBuyer();
    for (const phone of ["12345", "5876543210", "98765432101", ""]) {
      const response = await callApi(SELF, "POST", "/api/payments/cashfree/generate-session?country=IN", {
        cookie,
        body: { payment_type: "premium", customer_details: { customer_phone: phone } },
      });
      expect(response.status).toBe(422);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const body = await response.json<{ errors: { field: string }[]; message: string }>();
      expect(body.errors.map((error) => error.field)).toEqual(["customer_phone"]);
      expect(body.message).toBe("Unable to process the payment. Please try again.");
    }
  });

  it("takes each country's payments through its own provider only", async () => {
    const { cookie } = await signUpBuyer();
    const cashfreeFromUs = await callApi(SELF, "POST", "/api/payments/cashfree/generate-session?country=US", {
      cookie,
      body: { payment_type: "premium", customer_details: { customer_phone: "9876543210" } },
    });
    expect(cashfreeFromUs.status).toBe(403);
    const paypalFromIndia = await callApi(SELF, "POST", "/api/payments/paypal/generate-session?country=IN", {
      cookie,
      body: { payment_type: "premium" },
    });
    expect(paypalFromIndia.status).toBe(403);
    expect(await paypalFromIndia.json()).toMatchObject({ message: "Unable to process the payment. Please try again." });
  });

  it("needs a signed-in buyer", async () => {
    const response = await callApi(SELF, "POST", "/api/payments/cashfree/generate-session?country=IN", {
      body: { payment_type: "premium", customer_details: { customer_phone: "9876543210" } },
    });
    expect(response.status).toBe(401);
  });

  it("activates the plan when the signed success webhook arrives", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, "premium");
    const before = Date.now();
    await payFakeCashfreeOrder(cashfreeWithWebhooks, paymentId, "pay");
    expect((await paymentRow(paymentId))?.status).toBe("paid");
    const plan = await planOf(userId);
    expect(plan?.plan_id).toBe("premium");
    expect(plan?.plan_expires_at).toBeGreaterThanOrEqual(addUtcMonths(before, 1));
    expect(plan?.plan_expires_at).toBeLessThan(addUtcMonths(before, 1) + MONTH_SLACK_MS);
    expect(await eventCount(paymentId)).toBe(1);
  });

  it("records a failed attempt, and a later successful one still activates", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, "standard");
    await payFakeCashfreeOrder(cashfreeWithWebhooks, paymentId, "fail");
    expect((await paymentRow(paymentId))?.status).toBe("failed");
    expect((await planOf(userId))?.plan_id).toBe("free");
    await payFakeCashfreeOrder(cashfreeWithWebhooks, paymentId, "pay");
    expect((await paymentRow(paymentId))?.status).toBe("paid");
    expect((await planOf(userId))?.plan_id).toBe("standard");
  });

  it("refuses a bad or stale signature with 401 and writes nothing", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, "premium");
    await payFakeCashfreeOrder(cashfreeSilently, paymentId, "pay");
    const event = paymentEvent("PAYMENT_SUCCESS_WEBHOOK", paymentId, "SUCCESS");
    const forged = [
      await signedCashfreeEvent(event, { secret: "not-the-secret" }),
      await signedCashfreeEvent(event, { at: Date.now() - 60 * 60 * 1000 }),
      { ...(await signedCashfreeEvent(event)), body: JSON.stringify({ ...event, type: "PAYMENT_SUCCESS_WEBHOOK " }) },
      { body: JSON.stringify(event), headers: { "content-type": "application/json" } },
    ];
    for (const request of forged) {
      const response = await postToWebhooks("/cashfree", request);
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    expect(await eventCount(paymentId)).toBe(0);
    expect((await paymentRow(paymentId))?.status).toBe("pending");
    expect((await planOf(userId))?.plan_id).toBe("free");
  });

  it("acts once on ten concurrent copies of one event, and once on ten different events", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, "premium");
    const before = Date.now();
    await payFakeCashfreeOrder(cashfreeSilently, paymentId, "pay");
    const copy = await signedCashfreeEvent(paymentEvent("PAYMENT_SUCCESS_WEBHOOK", paymentId, "SUCCESS"), {
      key: `idem-${paymentId}`,
    });
    const copies = await Promise.all(Array.from({ length: 10 }, () => postToWebhooks("/cashfree", copy)));
    expect(copies.map((response) => response.status)).toEqual(Array(10).fill(200));
    const bodies = await Promise.all(copies.map((response) => response.json<{ duplicate: boolean }>()));
    expect(bodies.filter((body) => !body.duplicate)).toHaveLength(1);
    expect(await eventCount(paymentId)).toBe(1);

    const distinct = await Promise.all(
      Array.from({ length: 10 }, async (_, index) =>
        postToWebhooks(
          "/cashfree",
          await signedCashfreeEvent(paymentEvent("PAYMENT_SUCCESS_WEBHOOK", paymentId, "SUCCESS", `${9100 + index}`)),
        ),
      ),
    );
    expect(distinct.map((response) => response.status)).toEqual(Array(10).fill(200));
    // One month, not eleven: only one of all these moved the plan.
    const plan = await planOf(userId);
    expect(plan?.plan_id).toBe("premium");
    expect(plan?.plan_expires_at).toBeLessThan(addUtcMonths(before, 1) + MONTH_SLACK_MS);
    expect((await paymentRow(paymentId))?.status).toBe("paid");
  });

  it("trusts the provider, not the order events arrive in", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, "standard");
    await payFakeCashfreeOrder(cashfreeSilently, paymentId, "pay");
    // A failure notice that arrives after the money: Cashfree says the order is paid, so it is.
    const late = await postToWebhooks(
      "/cashfree",
      await signedCashfreeEvent(paymentEvent("PAYMENT_FAILED_WEBHOOK", paymentId, "FAILED", "9000000")),
    );
    expect(late.status).toBe(200);
    expect((await paymentRow(paymentId))?.status).toBe("paid");
    expect((await planOf(userId))?.plan_id).toBe("standard");
    // And an old success notice after the refund cannot bring the plan back.
    await refundFakeCashfreeOrder(cashfreeWithWebhooks, paymentId);
    expect((await paymentRow(paymentId))?.status).toBe("refunded");
    const replayed = await postToWebhooks(
      "/cashfree",
      await signedCashfreeEvent(paymentEvent("PAYMENT_SUCCESS_WEBHOOK", paymentId, "SUCCESS", "9000002")),
    );
    expect(replayed.status).toBe(200);
    expect((await paymentRow(paymentId))?.status).toBe("refunded");
    expect((await planOf(userId))?.plan_id).toBe("free");
  });

  it("ends the plan when the payment is refunded", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, "premium");
    await payFakeCashfreeOrder(cashfreeWithWebhooks, paymentId, "pay");
    expect((await planOf(userId))?.plan_id).toBe("premium");
    await refundFakeCashfreeOrder(cashfreeWithWebhooks, paymentId);
    expect((await paymentRow(paymentId))?.status).toBe("refunded");
    expect(await planOf(userId)).toEqual({ plan_id: "free", plan_expires_at: null });
  });

  it("upgrades Standard to Premium keeping the paid Standard days, converted at the price ratio", async () => {
    const { cookie, userId } = await signUpBuyer();
    const standard = await startCashfree(cookie, "standard");
    await payFakeCashfreeOrder(cashfreeWithWebhooks, standard, "pay");
    const standardEnd = (await planOf(userId))?.plan_expires_at ?? 0;
    const premium = await startCashfree(cookie, "premium");
    const at = Date.now();
    await payFakeCashfreeOrder(cashfreeWithWebhooks, premium, "pay");
    const plan = await planOf(userId);
    expect(plan?.plan_id).toBe("premium");
    // Premium for a month from now, plus the Standard time left at 21/46 of its length.
    const expected = addUtcMonths(at, 1) + ((standardEnd - at) * 2_100) / 4_600;
    expect(Math.abs((plan?.plan_expires_at ?? 0) - expected)).toBeLessThan(MONTH_SLACK_MS);
    expect(plan?.plan_expires_at).toBeGreaterThan(addUtcMonths(at, 1) + 13 * 24 * 60 * 60 * 1000);
  });

  it("extends the same plan by a month when it is bought again", async () => {
    const { cookie, userId } = await signUpBuyer();
    const first = await startCashfree(cookie, "standard");
    await payFakeCashfreeOrder(cashfreeWithWebhooks, first, "pay");
    const firstEnd = (await planOf(userId))?.plan_expires_at ?? 0;
    const second = await startCashfree(cookie, "standard");
    await payFakeCashfreeOrder(cashfreeWithWebhooks, second, "pay");
    expect(await planOf(userId)).toEqual({ plan_id: "standard", plan_expires_at: addUtcMonths(firstEnd, 1) });
  });

  it("counts both of two purchases confirmed at the same moment", async () => {
    const { cookie, userId } = await signUpBuyer();
    const payments = [await startCashfree(cookie, "standard"), await startCashfree(cookie, "standard")];
    for (const paymentId of payments) await payFakeCashfreeOrder(cashfreeSilently, paymentId, "pay");
    const before = Date.now();
    const answers = await Promise.all(
      payments.map(async (paymentId) =>
        postToWebhooks(
          "/cashfree",
          await signedCashfreeEvent(paymentEvent("PAYMENT_SUCCESS_WEBHOOK", paymentId, "SUCCESS")),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    // Two months, not one: the second purchase started from the first one's new end.
    const end = (await planOf(userId))?.plan_expires_at ?? 0;
    expect(end).toBeGreaterThanOrEqual(addUtcMonths(addUtcMonths(before, 1), 1));
    expect(end).toBeLessThan(addUtcMonths(addUtcMonths(before, 1), 1) + MONTH_SLACK_MS);
  });

  it("answers an event about an unknown order with 200 and remembers it", async () => {
    const response = await postToWebhooks(
      "/cashfree",
      await signedCashfreeEvent(paymentEvent("PAYMENT_SUCCESS_WEBHOOK", "pay_unknown_order_0000", "SUCCESS")),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: "unmatched" });
  });
});

describe("the status page's call and reconciliation", () => {
  it("shows a payment's state and asks the provider while it is open", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paymentId = await startCashfree(cookie, "standard");
    const pending = await SELF.fetch(`http://localhost/api/payments/${paymentId}/status`);
    expect(pending.status).toBe(200);
    expect(await pending.json()).toMatchObject({
      payment: { id: paymentId, status: "pending", planName: "Standard", amount: 2_100, currency: "INR", final: false },
    });
    // Paid, but its webhook lost: the buyer returning to the status page still sees it paid.
    await payFakeCashfreeOrder(cashfreeSilently, paymentId, "pay");
    type StatusAnswer = { payment: { status: string; final: boolean; planExpiresAt: number } };
    const read = async () =>
      (await SELF.fetch(`http://localhost/api/payments/${paymentId}/status`)).json<StatusAnswer>();
    // Asked a moment ago: the provider is not asked again yet (the page polls every 3 s).
    expect((await read()).payment.status).toBe("pending");
    const body = await eventually(read, (answer) => answer.payment.final, 4_000);
    expect(body.payment).toMatchObject({ status: "paid", final: true, method: "Cashfree" });
    expect(body.payment.planExpiresAt).toBe((await planOf(userId))?.plan_expires_at);
  });

  it("answers 404 for a payment that does not exist", async () => {
    for (const id of ["pay_doesnotexist00000000", "../../etc"]) {
      const response = await SELF.fetch(`http://localhost/api/payments/${encodeURIComponent(id)}/status`);
      expect(response.status).toBe(404);
    }
  });

  it("the cron settles a payment whose webhook never came, and gives up on abandoned ones", async () => {
    const { cookie, userId } = await signUpBuyer();
    const paid = await startCashfree(cookie, "premium");
    await payFakeCashfreeOrder(cashfreeSilently, paid, "pay");
    const abandoned = await startCashfree(cookie, "standard");
    const fresh = await startCashfree(cookie, "standard");
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("UPDATE payments SET updated_at = ? WHERE id = ?").bind(now - 20 * 60 * 1000, paid),
      env.DB.prepare("UPDATE payments SET created_at = ?, updated_at = ? WHERE id = ?").bind(
        now - 25 * 60 * 60 * 1000,
        now - 25 * 60 * 60 * 1000,
        abandoned,
      ),
    ]);
    await (webhookWorker as unknown as ScheduledFetcher).scheduled({
      scheduledTime: new Date(now),
      cron: "*/15 * * * *",
    });
    expect((await paymentRow(paid))?.status).toBe("paid");
    expect((await planOf(userId))?.plan_id).toBe("premium");
    expect((await paymentRow(abandoned))?.status).toBe("failed");
    // Younger than 15 minutes: left for its webhook.
    expect((await paymentRow(fresh))?.status).toBe("pending");
  });
});

describe("PayPal webhooks (the local fake)", () => {
  const config = readConfig(env);
  /** The fake as the app serves it, sending its signed events to the webhook Worker. */
  const paypalWithWebhooks = {
    baseUrl: `http://localhost${FAKE_PAYPAL_PATH}`,
    kv: env.CACHE,
    webhook: {
      url: "https://webhooks.internal/paypal",
      webhookId: config.PAYPAL_WEBHOOK_ID,
      deliver: toWebhookWorker.deliver,
    },
  };

  /** The same fake, keeping its signed events for the test to send (or tamper with). */
  function paypalRecording() {
    const sent: { headers: Record<string, string>; body: string }[] = [];
    const deliver: DeliverWebhook = async (_url, init) => {
      sent.push(init);
    };
    return { sent, options: { ...paypalWithWebhooks, webhook: { ...paypalWithWebhooks.webhook, deliver } } };
  }

  async function startPayPal(cookie: string, plan: "standard" | "premium") {
    const response = await callApi(SELF, "POST", "/api/payments/paypal/generate-session?country=US", {
      cookie,
      body: { payment_type: plan },
    });
    expect(response.status).toBe(200);
    return response.json<{ response: { id: string }; payment_id: string }>();
  }

  it("captures on the approval event when the buyer never came back, and activates once", async () => {
    const { cookie, userId } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "standard");
    await approveFakeOrder(paypalWithWebhooks, response.id, "pay");
    expect((await paymentRow(paymentId))?.status).toBe("paid");
    expect((await planOf(userId))?.plan_id).toBe("standard");
    // The buyer's own capture afterwards finds it paid and changes nothing.
    const capture = await callApi(SELF, "POST", "/api/payments/paypal/capture", {
      cookie,
      body: { orderID: response.id },
    });
    expect(await capture.json()).toMatchObject({ success: 1, plan: "standard", alreadyPaid: true });
  });

  it("settles on the capture-completed event the fake sends after the buyer's capture", async () => {
    const { cookie, userId } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "premium");
    await approveFakeOrder(env.CACHE, response.id, "pay");
    const capture = await callApi(SELF, "POST", "/api/payments/paypal/capture", {
      cookie,
      body: { orderID: response.id },
    });
    expect(await capture.json()).toMatchObject({ plan: "premium", alreadyPaid: false });
    // The app's fake posts PAYMENT.CAPTURE.COMPLETED after answering: recorded, and a no-op.
    const events = await eventually(
      async () =>
        (
          await env.DB.prepare("SELECT event_type, outcome FROM payment_events WHERE payment_id = ?")
            .bind(paymentId)
            .all<{ event_type: string; outcome: string }>()
        ).results,
      (rows) => rows.length > 0,
    );
    expect(events).toEqual([{ event_type: "PAYMENT.CAPTURE.COMPLETED", outcome: "paid" }]);
    expect((await planOf(userId))?.plan_id).toBe("premium");
  });

  it("refuses a tampered, unsigned or foreign-certificate event with 401 and writes nothing", async () => {
    const { cookie, userId } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "premium");
    const recording = paypalRecording();
    await approveFakeOrder(recording.options, response.id, "pay");
    const [event] = recording.sent;
    if (!event) throw new Error("the fake sent no approval event");
    const tampered = [
      { ...event, body: event.body.replace(`"${response.id}"`, `"${response.id}X"`) },
      { ...event, headers: { ...event.headers, "paypal-cert-url": "https://evil.example/cert.pem" } },
      { ...event, headers: { ...event.headers, "paypal-transmission-time": "2020-01-01T00:00:00Z" } },
      { body: event.body, headers: { "content-type": "application/json" } },
    ];
    for (const request of tampered) {
      const answer = await postToWebhooks("/paypal", request);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
    }
    expect(await eventCount(paymentId)).toBe(0);
    expect((await paymentRow(paymentId))?.status).toBe("pending");
    expect((await planOf(userId))?.plan_id).toBe("free");
  });

  it("acts once on ten concurrent copies of the approval event", async () => {
    const { cookie, userId } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "premium");
    const recording = paypalRecording();
    const before = Date.now();
    await approveFakeOrder(recording.options, response.id, "pay");
    const [event] = recording.sent;
    if (!event) throw new Error("the fake sent no approval event");
    const answers = await Promise.all(Array.from({ length: 10 }, () => postToWebhooks("/paypal", event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const bodies = await Promise.all(answers.map((answer) => answer.json<{ duplicate: boolean }>()));
    expect(bodies.filter((body) => !body.duplicate)).toHaveLength(1);
    expect(await eventCount(paymentId)).toBe(1);
    const plan = await planOf(userId);
    expect(plan?.plan_id).toBe("premium");
    expect(plan?.plan_expires_at).toBeLessThan(addUtcMonths(before, 1) + MONTH_SLACK_MS);
  });

  it("can check signatures with PayPal's verify API instead, when so configured", async () => {
    const { cookie, userId } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "standard");
    const recording = paypalRecording();
    await approveFakeOrder(recording.options, response.id, "pay");
    const [event] = recording.sent;
    if (!event) throw new Error("the fake sent no approval event");
    // The webhook Worker's code in this isolate, with the other choice of PAYPAL_WEBHOOK_VERIFY.
    const verifyByApi = { ...env, PAYPAL_WEBHOOK_VERIFY: "api" };
    const post = async (request: { body: string; headers: Record<string, string> }) => {
      const ctx = createExecutionContext();
      const answer = await webhooks.fetch(
        new Request("https://webhooks.internal/paypal", { method: "POST", ...request }),
        verifyByApi,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return answer;
    };
    const forged = await post({ ...event, body: event.body.replace(`"${response.id}"`, `"${response.id}X"`) });
    expect(forged.status).toBe(401);
    expect((await paymentRow(paymentId))?.status).toBe("pending");
    expect((await post(event)).status).toBe(200);
    expect((await paymentRow(paymentId))?.status).toBe("paid");
    expect((await planOf(userId))?.plan_id).toBe("standard");
  });

  it("the cron captures an order the buyer approved before closing the window", async () => {
    const { cookie, userId } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "premium");
    await approveFakeOrder(env.CACHE, response.id, "pay"); // no webhook, no capture call
    const stuck = Date.now() - 20 * 60 * 1000;
    await env.DB.prepare("UPDATE payments SET updated_at = ? WHERE id = ?").bind(stuck, paymentId).run();
    await (webhookWorker as unknown as ScheduledFetcher).scheduled({ scheduledTime: new Date(), cron: "*/15 * * * *" });
    expect((await paymentRow(paymentId))?.status).toBe("paid");
    expect((await planOf(userId))?.plan_id).toBe("premium");
  });

  it("the status call does not capture: reading a page moves no money", async () => {
    const { cookie } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "standard");
    await approveFakeOrder(env.CACHE, response.id, "pay");
    const status = await SELF.fetch(`http://localhost/api/payments/${paymentId}/status`);
    expect(await status.json()).toMatchObject({ payment: { status: "pending", method: "PayPal", final: false } });
    expect((await paymentRow(paymentId))?.status).toBe("pending");
  });

  it("ends the plan when PayPal reports the capture refunded", async () => {
    const { cookie, userId } = await signUpBuyer();
    const { response, payment_id: paymentId } = await startPayPal(cookie, "standard");
    await approveFakeOrder(paypalWithWebhooks, response.id, "pay");
    expect((await planOf(userId))?.plan_id).toBe("standard");
    await refundFakeCapture(paypalWithWebhooks, response.id);
    expect((await paymentRow(paymentId))?.status).toBe("refunded");
    expect(await planOf(userId)).toEqual({ plan_id: "free", plan_expires_at: null });
  });
});
