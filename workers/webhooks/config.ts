/**
 * The webhook Worker's configuration: the payment settings it shares with the app, parsed once
 * per isolate. Production refuses the fakes and a missing PayPal webhook id.
 */
import { z } from "zod";
import type { MeterNamespace } from "~workers/gateway/meter-notices";
import { envReader } from "~workers/config";
import { checkProductionPayments, PaymentsConfigSchema } from "~workers/providers/payments-config";

/** The webhook Worker's bindings and vars (workers/webhooks/wrangler.toml). */
export interface WebhookEnv {
  DB: D1Database;
  CACHE: KVNamespace;
  /** The app's Meters, told of plan changes (a refund ends the plan on the gateway's next call). */
  METER: MeterNamespace;
  APP_ENV: string;
}

const WebhookConfigSchema = z
  .object({ APP_ENV: z.enum(["development", "production"]) })
  .extend(PaymentsConfigSchema.shape)
  .superRefine((config, ctx) => {
    if (config.APP_ENV !== "production") return;
    checkProductionPayments(config, (path, message) => ctx.addIssue({ code: "custom", path: [path], message }), true);
  });

export type WebhookConfig = z.infer<typeof WebhookConfigSchema>;

export const readWebhookConfig: (env: WebhookEnv) => WebhookConfig = envReader(WebhookConfigSchema, "webhook Worker");
