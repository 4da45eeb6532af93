/**
 * The payment providers the configuration names: PayPal and Cashfree themselves in production,
 * local fakes (served by the app Worker at /dev/paypal and /dev/cashfree) in development and
 * tests. Both Workers build their clients here: the app (checkout, status page) and the
 * webhook Worker (re-reading orders, reconciliation).
 */
import { createCashfreeClient } from "./cashfree/client";
import { createFakeCashfree, createFakeCashfreeFetch } from "./cashfree/fake";
import type { CashfreeClient, DeliverWebhook } from "./cashfree/types";
import type { PaymentsConfig } from "./payments-config";
import { createPayPalClient } from "./paypal/client";
import { createFakePayPal, createFakePayPalFetch, fakePayPalCertificateFetcher } from "./paypal/fake";
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

function fakePayPal(config: PaymentsConfig, kv: KVNamespace, origin: string, delivery?: FakeWebhookDelivery) {
  const baseUrl = `${origin}${FAKE_PAYPAL_PATH}`;
  const fake = createFakePayPal({
    baseUrl,
    kv,
    ...(delivery && {
      webhook: {
        url: `${config.WEBHOOK_BASE_URL.replace(/\/+$/, "")}/paypal`,
        webhookId: config.PAYPAL_WEBHOOK_ID,
        deliver: delivery.deliver,
      },
      waitUntil: delivery.waitUntil,
    }),
  });
  return { baseUrl, fake };
}

function fakeCashfree(config: PaymentsConfig, kv: KVNamespace, origin: string, delivery?: FakeWebhookDelivery) {
  const baseUrl = `${origin}${FAKE_CASHFREE_PATH}`;
  const fake = createFakeCashfree({
    baseUrl,
    kv,
    clientId: config.CASHFREE_CLIENT_ID,
    clientSecret: config.CASHFREE_CLIENT_SECRET,
    ...(delivery && { deliverWebhook: delivery.deliver, waitUntil: delivery.waitUntil }),
  });
  return { baseUrl, fake };
}

export function payPalFor(
  config: PaymentsConfig,
  kv: KVNamespace,
  origin: string,
  delivery?: FakeWebhookDelivery,
): PayPalClient {
  const credentials = { clientId: config.PAYPAL_CLIENT_ID, clientSecret: config.PAYPAL_CLIENT_SECRET };
  if (config.PAYPAL_PROVIDER === "fake") {
    const { baseUrl, fake } = fakePayPal(config, kv, origin, delivery);
    return createPayPalClient({ baseUrl, ...credentials, fetch: createFakePayPalFetch(fake, baseUrl) });
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
    const { baseUrl, fake } = fakeCashfree(config, kv, origin, delivery);
    return createCashfreeClient({
      baseUrl: `${baseUrl}/pg`,
      ...credentials,
      fetch: createFakeCashfreeFetch(fake, baseUrl),
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
    const { baseUrl, fake } = fakePayPal(config, kv, "http://localhost");
    return fakePayPalCertificateFetcher(fake, baseUrl);
  }
  return async (url) => {
    const response = await fetch(url, { redirect: "error" });
    if (!response.ok) throw new Error(`certificate answered ${response.status}`);
    return response.text();
  };
}

/** Serves the fake providers (APIs, approval and checkout pages, SDK scripts), when configured. */
export function serveFakePaymentProvider(
  config: PaymentsConfig,
  kv: KVNamespace,
  request: Request,
  delivery?: FakeWebhookDelivery,
): Promise<Response> | null {
  const url = new URL(request.url);
  const under = (path: string) => url.pathname === path || url.pathname.startsWith(`${path}/`);
  if (config.PAYPAL_PROVIDER === "fake" && under(FAKE_PAYPAL_PATH)) {
    return Promise.resolve(fakePayPal(config, kv, url.origin, delivery).fake.fetch(request));
  }
  if (config.CASHFREE_PROVIDER === "fake" && under(FAKE_CASHFREE_PATH)) {
    return Promise.resolve(fakeCashfree(config, kv, url.origin, delivery).fake.fetch(request));
  }
  return null;
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
