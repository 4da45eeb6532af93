/**
 * The payment providers' settings, read by both Workers: the app (checkout, status page) and
 * the webhook Worker (signatures, re-reading orders, reconciliation). Production refuses the
 * local fakes, so a deploy can never take money through them.
 */
import { z } from "zod";

export const PaymentsConfigSchema = z.object({
  // PayPal: the local fake served at /dev/paypal, or PayPal itself at PAYPAL_BASE_URL.
  PAYPAL_PROVIDER: z.enum(["fake", "live"]).default("fake"),
  PAYPAL_BASE_URL: z.string().default(""),
  PAYPAL_CLIENT_ID: z.string().default(""),
  PAYPAL_CLIENT_SECRET: z.string().default(""),
  /** Our webhook subscription's id: part of every message PayPal signs. */
  PAYPAL_WEBHOOK_ID: z.string().default(""),
  /** How webhook signatures are checked: offline (CRC32 + RSA certificate) or PayPal's verify API. */
  PAYPAL_WEBHOOK_VERIFY: z.enum(["offline", "api"]).default("offline"),
  /** The hosted button the Easy Pay drawer renders (payment history, privileged accounts). */
  PAYPAL_EASY_PAY_BUTTON_ID: z.string().default(""),
  // Cashfree: the local fake served at /dev/cashfree, or Cashfree PG at CASHFREE_BASE_URL.
  CASHFREE_PROVIDER: z.enum(["fake", "live"]).default("fake"),
  /** Up to and including /pg: https://sandbox.cashfree.com/pg or https://api.cashfree.com/pg. */
  CASHFREE_BASE_URL: z.string().default(""),
  CASHFREE_CLIENT_ID: z.string().default(""),
  /** Authenticates our calls and signs Cashfree's webhooks. */
  CASHFREE_CLIENT_SECRET: z.string().default(""),
  CASHFREE_API_VERSION: z.string().default("2025-01-01"),
  /** Where providers deliver webhooks: the webhook Worker's public origin (Cashfree's notify_url). */
  WEBHOOK_BASE_URL: z.string().default(""),
});

export type PaymentsConfig = z.infer<typeof PaymentsConfigSchema>;

/**
 * The production rules for the payment settings; `refuse` names the setting and the reason.
 * `verifiesWebhooks`: the webhook Worker also needs our PayPal webhook id.
 */
export function checkProductionPayments(
  config: PaymentsConfig,
  refuse: (path: string, message: string) => void,
  verifiesWebhooks = false,
) {
  if (config.PAYPAL_PROVIDER === "fake") refuse("PAYPAL_PROVIDER", "the fake PayPal is for development only");
  if (
    config.PAYPAL_PROVIDER === "live" &&
    (!config.PAYPAL_BASE_URL.startsWith("https://") || !config.PAYPAL_CLIENT_ID || !config.PAYPAL_CLIENT_SECRET)
  )
    refuse("PAYPAL_BASE_URL", "PayPal needs PAYPAL_BASE_URL (https), PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET");
  if (config.CASHFREE_PROVIDER === "fake") refuse("CASHFREE_PROVIDER", "the fake Cashfree is for development only");
  if (
    config.CASHFREE_PROVIDER === "live" &&
    (!config.CASHFREE_BASE_URL.startsWith("https://") || !config.CASHFREE_CLIENT_ID || !config.CASHFREE_CLIENT_SECRET)
  )
    refuse(
      "CASHFREE_BASE_URL",
      "Cashfree needs CASHFREE_BASE_URL (https), CASHFREE_CLIENT_ID and CASHFREE_CLIENT_SECRET",
    );
  if (!config.WEBHOOK_BASE_URL.startsWith("https://"))
    refuse("WEBHOOK_BASE_URL", "the webhook Worker's public https origin, for Cashfree's notify_url");
  if (verifiesWebhooks && !config.PAYPAL_WEBHOOK_ID)
    refuse("PAYPAL_WEBHOOK_ID", "PayPal webhook signatures cannot be checked without our webhook id");
}
