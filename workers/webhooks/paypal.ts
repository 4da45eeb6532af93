/** POST /paypal: PayPal's webhook events (INTEGRATIONS "PayPal", payments issue). */
import { z } from "zod";
import { findPayment, findPaymentByOrder } from "~workers/platform/settlement";
import { payPalCertificateFetcher } from "~workers/providers/payments";
import { settleFromEvent, webhookProblem, type WebhookContext } from "./shared";
import { verifyPayPalSignature } from "~workers/providers/signatures/paypal";

const EnvelopeSchema = z.object({
  id: z.string().min(1).max(128),
  event_type: z.string().min(1).max(128),
  resource: z.record(z.string(), z.unknown()),
});

/** The parts of a resource that name our payment: an order, a capture or a refund. */
const ResourceSchema = z.object({
  id: z.string().optional(),
  custom_id: z.string().optional(),
  purchase_units: z.array(z.object({ custom_id: z.string().optional() })).optional(),
  supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().optional() }) }).optional(),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).optional(),
});

/** A refund or reversal names only its capture, as the `up` link: …/v2/payments/captures/<id>. */
function captureIdOf(resource: z.infer<typeof ResourceSchema>): string | null {
  const up = resource.links?.find((link) => link.rel === "up")?.href ?? "";
  return /\/v2\/payments\/captures\/([A-Za-z0-9-]{1,64})$/.exec(up)?.[1] ?? null;
}

async function verify(c: WebhookContext, rawBody: string): Promise<string | null> {
  const config = c.get("config");
  const headers = c.req.raw.headers;
  if (config.PAYPAL_WEBHOOK_VERIFY === "api") {
    const verified = await c.get("providers").paypal.verifyWebhookSignature({
      headers,
      webhookId: config.PAYPAL_WEBHOOK_ID,
      rawBody,
    });
    if (!verified.ok) throw new Error(`PayPal's verify API failed: ${verified.detail}`);
    return verified.value ? null : "PayPal's verify API refused the signature";
  }
  const verification = await verifyPayPalSignature({
    rawBody,
    headers,
    webhookId: config.PAYPAL_WEBHOOK_ID,
    now: Date.now(),
    fetchCertificate: payPalCertificateFetcher(config, c.env.CACHE),
  });
  return verification.ok ? null : verification.reason;
}

export async function payPalWebhook(c: WebhookContext): Promise<Response> {
  // The raw text, once: the signature covers these exact bytes.
  const rawBody = await c.req.text();
  const refused = await verify(c, rawBody);
  if (refused) return webhookProblem(c, "invalid-signature", `The PayPal signature was refused: ${refused}.`);

  let envelope: z.infer<typeof EnvelopeSchema>;
  try {
    envelope = EnvelopeSchema.parse(JSON.parse(rawBody));
  } catch {
    return webhookProblem(c, "malformed-body", "A signed PayPal event that is not PayPal's event envelope.");
  }
  const resource = ResourceSchema.safeParse(envelope.resource).data ?? {};
  const paymentId = resource.custom_id ?? resource.purchase_units?.[0]?.custom_id;
  let orderId = envelope.event_type.startsWith("CHECKOUT.ORDER.")
    ? resource.id
    : resource.supplementary_data?.related_ids.order_id;
  const db = c.env.DB;
  let payment =
    (paymentId ? await findPayment(db, paymentId) : null) ??
    (orderId ? await findPaymentByOrder(db, "paypal", orderId) : null);
  const captureId = payment ? null : captureIdOf(resource);
  if (captureId) {
    // Ask PayPal which order the capture belongs to; if it cannot say now, let it redeliver.
    const found = await c.get("providers").paypal.orderIdOfCapture(captureId);
    if (!found.ok && found.code !== "not-found") return webhookProblem(c, "upstream-failed", found.detail);
    orderId = found.ok ? found.value : undefined;
    payment = orderId ? await findPaymentByOrder(db, "paypal", orderId) : null;
  }
  return settleFromEvent(c, { provider: "paypal", key: envelope.id, type: envelope.event_type }, payment);
}
