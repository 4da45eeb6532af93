/** `/api/payments/*`: buying a plan (docs/product.md#payment-calls) and reading a payment's state (/status/payment/:id). */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { completePayPalCheckout, startCashfreeCheckout, startPayPalCheckout } from "~workers/platform/checkout";
import { cachedCountryOf, currencyFor, type Currency } from "~workers/platform/country";
import { isFinal, syncPayment } from "~workers/platform/payment-sync";
import { PLANS } from "~workers/platform/plans";
import { findPayment } from "~workers/platform/settlement";
import { deliveryThrough, paymentProvidersFor } from "~workers/providers/payments";
import { requireSession, type ApiEnv } from "./context";
import { problem } from "~workers/http/problem";

const PAYMENT_ERROR = "Unable to process the payment. Please try again.";
const METHOD_NAMES = { paypal: "PayPal", cashfree: "Cashfree" } as const;

/** Cashfree needs an Indian mobile number: ten digits starting 6-9, optionally written +91 or 0 first. */
const IndianMobileSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/[\s-]/g, "").replace(/^(\+91|0)/, ""))
  .pipe(z.string().regex(/^[6-9]\d{9}$/, "Enter a 10-digit Indian mobile number."));

function providers(c: Context<ApiEnv>) {
  // Development: the fakes post their webhooks to the webhook Worker after answering.
  const delivery = deliveryThrough(c.env.WEBHOOKS, (promise) => c.executionCtx.waitUntil(promise));
  return paymentProvidersFor(c.get("config"), c.env.CACHE, new URL(c.req.url).origin, delivery);
}

/**
 * The provider follows the buyer's country as the pricing page showed it (docs/product.md#country): rupees
 * through Cashfree in India, dollars through PayPal elsewhere. Without this check anyone could
 * pay the rupee price. Development takes `?country=XX`, as the page does.
 */
async function refuseOtherCountry(c: Context<ApiEnv>, currency: Currency): Promise<Response | null> {
  const country = await cachedCountryOf(c.req.raw, c.get("config"), c.env.CACHE);
  if (currencyFor(country) === currency) return null;
  const provider =
    currency === "INR" ? "Cashfree takes payments from India" : "PayPal takes payments from outside India";
  return problem(c, "forbidden", `${provider}; your country is ${country}. Reload the pricing page.`, {
    message: PAYMENT_ERROR,
  });
}

/**
 * The status call asks the provider at most this often per payment (per isolate): the page
 * polls every 3 s, and anyone holding the link could call it in a loop.
 */
const STATUS_SYNC_INTERVAL_MS = 2_000;
const lastStatusSync = new Map<string, number>();

function mayAskProvider(paymentId: string, now: number): boolean {
  const last = lastStatusSync.get(paymentId);
  if (last !== undefined && now - last < STATUS_SYNC_INTERVAL_MS) return false;
  lastStatusSync.delete(paymentId);
  lastStatusSync.set(paymentId, now);
  // Maps keep insertion order: drop the oldest once the map is large.
  if (lastStatusSync.size > 1_000) lastStatusSync.delete(lastStatusSync.keys().next().value ?? "");
  return true;
}

export const paymentsApi = new Hono<ApiEnv>();

paymentsApi.post("/paypal/generate-session", requireSession, async (c) => {
  // Only the plan is read from the client: the price is the server's.
  const parsed = z
    .object({ payment_type: z.enum(["standard", "premium"]) })
    .safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success)
    return problem(c, "invalid-input", "payment_type is standard or premium.", { message: PAYMENT_ERROR });
  const refused = await refuseOtherCountry(c, "USD");
  if (refused) return refused;
  const started = await startPayPalCheckout(
    c.env.DB,
    providers(c).paypal,
    c.get("session").user,
    parsed.data.payment_type,
  );
  if (!started.ok && started.code === "email-unverified")
    return problem(c, "forbidden", started.detail, { message: started.detail });
  if (!started.ok)
    return problem(c, "upstream-failed", `PayPal did not create the order: ${started.detail}`, {
      message: PAYMENT_ERROR,
    });
  return c.json({
    response: { id: started.orderId, approve_url: started.approveUrl },
    order_id: started.orderId,
    payment_id: started.paymentId,
  });
});

paymentsApi.post("/paypal/capture", requireSession, async (c) => {
  const parsed = z.object({ orderID: z.string().min(1).max(64) }).safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) return problem(c, "invalid-input", "orderID is required.", { message: PAYMENT_ERROR });
  const { user } = c.get("session");
  const result = await completePayPalCheckout(
    c.env.DB,
    gatewayNotices(c.env),
    providers(c).paypal,
    user,
    parsed.data.orderID,
  );
  if (!result.ok) {
    const type =
      result.code === "not-found" ? "not-found" : result.code === "unavailable" ? "upstream-failed" : "invalid-input";
    return problem(c, type, result.detail, {
      message: PAYMENT_ERROR,
      reason: result.code,
      ...(result.paymentId && { paymentId: result.paymentId }),
    });
  }
  return c.json({
    success: 1,
    plan: result.planId,
    planExpiresAt: result.planExpiresAt,
    alreadyPaid: result.alreadyPaid,
  });
});

paymentsApi.post("/cashfree/generate-session", requireSession, async (c) => {
  // The spec's clients also send customer_id, customer_email and order_id: the server uses the
  // session's account and its own payment id instead, and never reads an amount.
  const parsed = z
    .object({
      payment_type: z.enum(["standard", "premium"], { error: "payment_type is standard or premium." }),
      customer_details: z.object(
        { customer_phone: IndianMobileSchema, customer_name: z.string().max(100).optional() },
        { error: "customer_details.customer_phone is required." },
      ),
    })
    .safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      field: issue.path.at(-1) === "customer_details" ? "customer_phone" : String(issue.path.at(-1) ?? ""),
      message: issue.message,
    }));
    return problem(c, "invalid-input", errors.map((error) => error.message).join(" "), {
      message: PAYMENT_ERROR,
      errors,
    });
  }
  const refused = await refuseOtherCountry(c, "INR");
  if (refused) return refused;
  const config = c.get("config");
  const started = await startCashfreeCheckout(c.env.DB, providers(c).cashfree, c.get("session").user, {
    planId: parsed.data.payment_type,
    phone: parsed.data.customer_details.customer_phone,
    customerName: parsed.data.customer_details.customer_name,
    appOrigin: new URL(c.req.url).origin,
    webhookBaseUrl: config.WEBHOOK_BASE_URL,
  });
  if (!started.ok && started.code === "email-unverified")
    return problem(c, "forbidden", started.detail, { message: started.detail });
  if (!started.ok)
    return problem(c, "upstream-failed", `Cashfree did not create the order: ${started.detail}`, {
      message: PAYMENT_ERROR,
    });
  return c.json({
    response: { payment_session_id: started.paymentSessionId, order_id: started.paymentId },
    payment_id: started.paymentId,
  });
});

/**
 * The state of one payment, for /status/payment/:paymentId (a public page: the id is a long
 * random name, and the answer carries no personal data). While the payment is open the
 * provider is asked again, so the buyer returning from checkout sees the outcome even before
 * the webhook arrives.
 */
paymentsApi.get("/:paymentId/status", async (c) => {
  const paymentId = c.req.param("paymentId");
  let payment = /^pay_[A-Za-z0-9_-]{8,64}$/.test(paymentId) ? await findPayment(c.env.DB, paymentId) : null;
  if (!payment) return problem(c, "not-found", "No payment has this id.");
  const now = Date.now();
  if (!isFinal(payment.status) && mayAskProvider(payment.id, now)) {
    // Reading a page never captures: an approved PayPal order is captured by its webhook or the cron.
    const synced = await syncPayment(c.env.DB, gatewayNotices(c.env), providers(c), payment, now, undefined, {
      mayCapture: false,
    });
    if (synced.ok) {
      payment = (await findPayment(c.env.DB, paymentId)) ?? payment;
    } else {
      console.error(`status of ${paymentId}: ${synced.detail}`);
    }
  }
  c.header("cache-control", "no-store");
  return c.json({
    payment: {
      id: payment.id,
      status: payment.status,
      planId: payment.plan_id,
      planName: PLANS[payment.plan_id].name,
      amount: payment.amount_minor,
      currency: payment.currency,
      method: METHOD_NAMES[payment.provider],
      planExpiresAt: payment.status === "paid" ? payment.plan_expires_at : null,
      final: isFinal(payment.status),
    },
  });
});
