/**
 * The webhook Worker's configuration: the payment settings it shares with the app, parsed once
 * per isolate. Production refuses the fakes and a missing PayPal webhook id.
 */
import { z } from "zod";
import { checkProductionPayments, PaymentsConfigSchema, type PaymentsConfig } from "~workers/providers/payments-config";

/** The webhook Worker's bindings and vars (workers/webhooks/wrangler.toml). */
export interface WebhookEnv {
  DB: D1Database;
  CACHE: KVNamespace;
  APP_ENV: string;
}

const WebhookConfigSchema = z
  .object({ APP_ENV: z.enum(["development", "production"]) })
  .extend(PaymentsConfigSchema.shape)
  .superRefine((config, ctx) => {
    if (config.APP_ENV !== "production") return;
    checkProductionPayments(config, (path, message) => ctx.addIssue({ code: "custom", path: [path], message }), true);
  });

export type WebhookConfig = PaymentsConfig & { APP_ENV: "development" | "production" };

const cache = new WeakMap<object, WebhookConfig>();

export function readWebhookConfig(env: WebhookEnv): WebhookConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const parsed = WebhookConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Invalid webhook Worker configuration: ${problems}`);
  }
  cache.set(env, parsed.data);
  return parsed.data;
}
