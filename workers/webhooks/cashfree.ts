/** POST /cashfree: Cashfree PG's webhook events (INTEGRATIONS "Cashfree PG", payments issue). */
import { z } from "zod";
import { findPayment } from "~workers/platform/settlement";
import { settleFromEvent, webhookProblem, type WebhookContext } from "./shared";
import { verifyCashfreeSignature } from "~workers/providers/signatures/cashfree";

const EventSchema = z.object({
  type: z.string().min(1).max(64),
  data: z
    .object({
      order: z.object({ order_id: z.string() }).partial().optional(),
      payment: z
        .object({ cf_payment_id: z.union([z.string(), z.number()]), payment_status: z.string() })
        .partial()
        .optional(),
      refund: z
        .object({
          order_id: z.string(),
          refund_id: z.string(),
          cf_refund_id: z.union([z.string(), z.number()]),
          refund_status: z.string(),
        })
        .partial()
        .optional(),
    })
    .optional(),
});

export async function cashfreeWebhook(c: WebhookContext): Promise<Response> {
  // The raw text, once: the signature covers these exact bytes ("170.00" would not survive a re-serialise).
  const rawBody = await c.req.text();
  const verification = await verifyCashfreeSignature({
    rawBody,
    timestamp: c.req.header("x-webhook-timestamp") ?? null,
    signature: c.req.header("x-webhook-signature") ?? null,
    secret: c.get("config").CASHFREE_CLIENT_SECRET,
    now: Date.now(),
  });
  if (!verification.ok) {
    return webhookProblem(c, "invalid-signature", `The Cashfree signature was refused: ${verification.reason}.`);
  }

  let event: z.infer<typeof EventSchema>;
  try {
    event = EventSchema.parse(JSON.parse(rawBody));
  } catch {
    return webhookProblem(c, "malformed-body", "A signed Cashfree event that is not Cashfree's event shape.");
  }
  const { order, payment, refund } = event.data ?? {};
  // Our payment id is the Cashfree order id.
  const orderId = order?.order_id ?? refund?.order_id;
  // Cashfree repeats x-idempotency-key on every retry of one event; without it the order, the
  // attempt (or refund) and its status name the event.
  const key =
    c.req.header("x-idempotency-key") ??
    [
      event.type,
      orderId ?? "",
      payment?.cf_payment_id ?? refund?.cf_refund_id ?? refund?.refund_id ?? "",
      payment?.payment_status ?? refund?.refund_status ?? "",
    ].join(":");
  const found = orderId ? await findPayment(c.env.DB, orderId) : null;
  return settleFromEvent(c, { provider: "cashfree", key, type: event.type }, found);
}
