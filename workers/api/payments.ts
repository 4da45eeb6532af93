/** Buying a plan (spec §7 payment calls). */
import { Hono } from "hono";
import { z } from "zod";
import { forgetAccountKeys } from "~workers/gateway/api-key-auth";
import { completePayPalCheckout, startPayPalCheckout } from "~workers/platform/checkout";
import { payPalFor } from "~workers/providers/payments";
import { requireSession, type ApiEnv } from "./context";
import { problem } from "./problem";

const PAYMENT_ERROR = "Unable to process the payment. Please try again.";

export const paymentsApi = new Hono<ApiEnv>();

paymentsApi.post("/payments/paypal/generate-session", requireSession, async (c) => {
  // Only the plan is read from the client: the price is the server's.
  const parsed = z
    .object({ payment_type: z.enum(["standard", "premium"]) })
    .safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success)
    return problem(c, "invalid-input", "payment_type is standard or premium.", { message: PAYMENT_ERROR });
  const paypal = payPalFor(c.get("config"), c.env, new URL(c.req.url).origin);
  const started = await startPayPalCheckout(c.env.DB, paypal, c.get("session").user, parsed.data.payment_type);
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

paymentsApi.post("/payments/paypal/capture", requireSession, async (c) => {
  const parsed = z.object({ orderID: z.string().min(1).max(64) }).safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) return problem(c, "invalid-input", "orderID is required.", { message: PAYMENT_ERROR });
  const { user } = c.get("session");
  const paypal = payPalFor(c.get("config"), c.env, new URL(c.req.url).origin);
  const result = await completePayPalCheckout(c.env.DB, paypal, user, parsed.data.orderID);
  if (!result.ok) {
    const type =
      result.code === "not-found" ? "not-found" : result.code === "unavailable" ? "upstream-failed" : "invalid-input";
    return problem(c, type, result.detail, { message: PAYMENT_ERROR, reason: result.code });
  }
  // The gateway caches plans with keys: forget them so the next call sees the new plan.
  await forgetAccountKeys(c.env.DB, c.env.CACHE, user.id);
  return c.json({
    success: 1,
    plan: result.planId,
    planExpiresAt: result.planExpiresAt,
    alreadyPaid: result.alreadyPaid,
  });
});
