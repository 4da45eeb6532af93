/** What both webhook endpoints share: their context, problems, and settling on an event. */
import type { Context } from "hono";
import { problemBody, type ProblemType } from "~workers/http/problem";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { syncPayment } from "~workers/platform/payment-sync";
import { isEventRecorded, recordUnmatchedEvent, type EventRecord, type PaymentRow } from "~workers/platform/settlement";
import { paymentProvidersFor, type PaymentProviders } from "~workers/providers/payments";
import type { WebhookConfig, WebhookEnv } from "./config";

/** The fakes' order pages are not served from here, so their links need no real origin. */
const FAKE_PROVIDER_ORIGIN = "http://localhost";

export type WebhookBindings = {
  Bindings: WebhookEnv;
  Variables: { config: WebhookConfig; providers: PaymentProviders };
};
export type WebhookContext = Context<WebhookBindings>;

/** The providers' clients, made once per request by the Worker's middleware. */
export function providersFor(config: WebhookConfig, env: WebhookEnv): PaymentProviders {
  return paymentProvidersFor(config, env.CACHE, FAKE_PROVIDER_ORIGIN);
}

export function webhookProblem(c: WebhookContext, type: ProblemType, detail: string): Response {
  const body = problemBody(type, detail, c.req.header("cf-ray") ?? crypto.randomUUID());
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": "application/problem+json" },
  });
}

/**
 * The part both providers share, once the signature is good and the event is read: answer a
 * copy with 200 and nothing else, note events about payments we do not have, and otherwise
 * settle the payment on what the provider now says. A provider we cannot reach gets a 503,
 * with nothing recorded, so it delivers the event again later.
 */
export async function settleFromEvent(
  c: WebhookContext,
  event: EventRecord,
  payment: PaymentRow | null,
): Promise<Response> {
  const db = c.env.DB;
  const now = Date.now();
  if (await isEventRecorded(db, event)) return c.json({ received: true, duplicate: true });
  if (!payment || payment.provider !== event.provider) {
    await recordUnmatchedEvent(db, event, now);
    return c.json({ received: true, outcome: "unmatched" });
  }
  const synced = await syncPayment(db, gatewayNotices(c.env), c.get("providers"), payment, now, event);
  if (!synced.ok) return webhookProblem(c, "upstream-failed", synced.detail);
  return c.json({ received: true, duplicate: synced.duplicate, status: synced.status });
}
