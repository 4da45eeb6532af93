/**
 * The payment providers the configuration names: PayPal and Cashfree themselves in production,
 * local fakes (served by the app Worker at /dev/paypal and /dev/cashfree, and loaded through
 * `loadFakes()`, so a production build does not hold them) in development and tests. Both
 * Workers build their clients here: the app (checkout, status page) and the webhook Worker
 * (re-reading orders, reconciliation).
 */
import { createCashfreeClient } from "./cashfree/client";
import type { CashfreeClient, DeliverWebhook } from "./cashfree/types";
import { lazyFetch, loadFakes } from "./fakes";
import type { PaymentsConfig } from "./payments-config";
import { createPayPalClient } from "./paypal/client";
import type { PayPalClient } from "./paypal/types";

/** The clients of both providers, as the settlement code reads orders through them. */
export interface PaymentProviders {
  paypal: PayPalClient;
  cashfree: CashfreeClient;
}

export const FAKE_PAYPAL_PATH = "/dev/paypal";
export const FAKE_CASHFREE_PATH = "/dev/cashfree";

/** How the fakes reach the webhook Worker, and keep delivering after the page has answered. */
export interface FakeWebhookDelivery {
  deliver: DeliverWebhook;
  waitUntil?: (promise: Promise<unknown>) => void;
}

export function payPalFor(
  config: PaymentsConfig,
  kv: KVNamespace,
  origin: string,
  delivery?: FakeWebhookDelivery,
): PayPalClient {
  const credentials = { clientId: config.PAYPAL_CLIENT_ID, clientSecret: config.PAYPAL_CLIENT_SECRET };
  if (config.PAYPAL_PROVIDER === "fake") {
    return createPayPalClient({
      baseUrl: `${origin}${FAKE_PAYPAL_PATH}`,
      ...credentials,
      fetch: lazyFetch((fakes) => fakes.fakePayPalFetch(config, kv, origin, delivery)),
    });
  }
  return createPayPalClient({ baseUrl: config.PAYPAL_BASE_URL, ...credentials, fetch });
}

export function cashfreeFor(
  config: PaymentsConfig,
  kv: KVNamespace,
  origin: string,
  delivery?: FakeWebhookDelivery,
): CashfreeClient {
  const credentials = {
    clientId: config.CASHFREE_CLIENT_ID,
    clientSecret: config.CASHFREE_CLIENT_SECRET,
    apiVersion: config.CASHFREE_API_VERSION,
  };
  if (config.CASHFREE_PROVIDER === "fake") {
    return createCashfreeClient({
      baseUrl: `${origin}${FAKE_CASHFREE_PATH}/pg`,
      ...credentials,
      fetch: lazyFetch((fakes) => fakes.fakeCashfreeFetch(config, kv, origin, delivery)),
    });
  }
  return createCashfreeClient({ baseUrl: config.CASHFREE_BASE_URL, ...credentials, fetch });
}

export function paymentProvidersFor(
  config: PaymentsConfig,
  kv: KVNamespace,
  origin: string,
  delivery?: FakeWebhookDelivery,
): PaymentProviders {
  return {
    paypal: payPalFor(config, kv, origin, delivery),
    cashfree: cashfreeFor(config, kv, origin, delivery),
  };
}

/**
 * Fetches the certificate PayPal names in `paypal-cert-url`. The verifier has already checked
 * that the URL is https on paypal.com; redirects are refused so it cannot lead elsewhere. With
 * the fake PayPal, its own certificate is read in process.
 */
export function payPalCertificateFetcher(config: PaymentsConfig, kv: KVNamespace): (url: string) => Promise<string> {
  if (config.PAYPAL_PROVIDER === "fake") {
    let fetcher: Promise<(url: string) => Promise<string>> | undefined;
    return async (url) => (await (fetcher ??= loadFakes().then((fakes) => fakes.fakePayPalCertificate(config, kv))))(url);
  }
  return async (url) => {
    const response = await fetch(url, { redirect: "error" });
    if (!response.ok) throw new Error(`certificate answered ${response.status}`);
    return response.text();
  };
}

/**
 * The fakes' webhooks go to the webhook Worker through the app's WEBHOOKS service binding (a
 * development-only binding): only the path of the URL the provider was given matters.
 */
export function deliveryThrough(
  binding: Fetcher | undefined,
  waitUntil?: (promise: Promise<unknown>) => void,
): FakeWebhookDelivery | undefined {
  if (!binding) return undefined;
  return {
    waitUntil,
    deliver: async (url, init) => {
      const { pathname } = new URL(url);
      const response = await binding.fetch(`https://webhooks.internal${pathname}`, {
        method: "POST",
        headers: init.headers,
        body: init.body,
      });
      if (!response.ok) throw new Error(`webhook ${pathname} answered ${response.status}: ${await response.text()}`);
    },
  };
}
