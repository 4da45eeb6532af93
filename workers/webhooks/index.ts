/**
 * The payment-webhook Worker (payments issue; DESIGN "Accounts, payments, admin"): PayPal posts
 * to /paypal, Cashfree to /cashfree. Each request is verified on its raw body before anything
 * parses it, recorded once, and only used as a trigger: the payment moves on what the provider
 * says when asked again (`workers/platform/payment-sync.ts`). A cron re-checks payments whose
 * webhook never came.
 */
import { Hono } from "hono";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { bufferBody, WEBHOOK_BODY_LIMIT } from "~workers/http/request-body";
import { reconcileOpenPayments } from "~workers/platform/payment-sync";
import { cashfreeWebhook } from "./cashfree";
import { readWebhookConfig, type WebhookEnv } from "./config";
import { payPalWebhook } from "./paypal";
import { providersFor, webhookProblem, type WebhookBindings } from "./shared";

export const webhooks = new Hono<WebhookBindings>();

// Both endpoints read the raw body whole to check its signature: bound it first, so an
// unauthenticated sender cannot make the Worker buffer any size it likes.
webhooks.use(async (c, next) => {
  const buffered = await bufferBody(c.req.raw, WEBHOOK_BODY_LIMIT);
  if (!buffered.ok) {
    return webhookProblem(c, "body-too-large", `A webhook event is at most ${WEBHOOK_BODY_LIMIT / 1024} KiB.`);
  }
  c.req.raw = buffered.request;
  await next();
});

webhooks.use(async (c, next) => {
  const config = readWebhookConfig(c.env);
  c.set("config", config);
  c.set("providers", providersFor(config, c.env));
  await next();
});
webhooks.post("/paypal", payPalWebhook);
webhooks.post("/cashfree", cashfreeWebhook);
webhooks.get("/", (c) => c.json({ service: "portico-webhooks", endpoints: ["POST /paypal", "POST /cashfree"] }));
webhooks.notFound((c) => webhookProblem(c, "not-found", `Nothing is served at ${c.req.method} ${c.req.path}.`));
webhooks.onError((error, c) => {
  console.error("webhook failed", error);
  // 503, not 500: the provider retries, and nothing was half-written (every change is one batch).
  return webhookProblem(c, "service-unavailable", "The webhook could not be handled now; it will be retried.");
});

export default {
  fetch: webhooks.fetch,

  async scheduled(controller, env) {
    const config = readWebhookConfig(env);
    const providers = providersFor(config, env);
    // Number(): a cron gives milliseconds; a test calling through a service binding gives a Date.
    const summary = await reconcileOpenPayments(
      env.DB,
      gatewayNotices(env),
      providers,
      Number(controller.scheduledTime),
    );
    if (summary.checked > 0) console.log("reconciled payments", JSON.stringify(summary));
  },
} satisfies ExportedHandler<WebhookEnv>;
