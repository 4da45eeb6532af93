/**
 * Every local fake the Worker calls or serves, in development and tests: the identity provider
 * at /dev/oidc, PayPal at /dev/paypal and Cashfree at /dev/cashfree. Nothing imports this
 * module statically: it is reached through `loadFakes()` (fakes.ts), so a production build
 * leaves it, and the fakes it imports, out.
 */
import type { Config } from "~workers/config";
import { createFakeCashfree, createFakeCashfreeFetch } from "./cashfree/fake";
// The fake ECB feed (the Currency Converter's rates), answered in process.
export { createFakeEcbFetch as fakeEcbFetch } from "./ecb/fake";
// Email Exists' fake DNS-over-HTTPS resolver (its fixture table), chosen by MX_PROVIDER=fake.
export { createFakeDohFetch as fakeDohFetch } from "./dns/fake";
import { FAKE_IDP_PATH } from "./oidc";
import { createFakeIdp, createFakeIdpFetch } from "./oidc/fake-idp";
import type { PaymentsConfig } from "./payments-config";
import { FAKE_CASHFREE_PATH, FAKE_PAYPAL_PATH, type FakeWebhookDelivery } from "./payments";
import { createFakePayPal, createFakePayPalFetch, fakePayPalCertificateFetcher } from "./paypal/fake";

// The Social Media Videos Downloader's recorded platforms, chosen by SOCIAL_PROVIDER=fake.
export { createFakeSocialFetch as fakeSocialFetch } from "./social/fake";
// The WHOIS Lookup's fake registries (RDAP and port 43), chosen by RDAP_PROVIDER=fake.
export { fakeDomainRegistry, fakeRdapFetch } from "./rdap/fake";

/** The fake identity provider's endpoints, answered in process for the OIDC client. */
export function fakeIdpFetch(issuer: string, kv: KVNamespace): typeof fetch {
  return createFakeIdpFetch(createFakeIdp({ issuer, kv }), issuer);
}

/** Serves the fake identity provider's pages and endpoints, when the configuration chose it. */
export function serveFakeIdp(config: Config, env: Env, request: Request): Promise<Response> | null {
  if (config.OIDC_PROVIDER !== "fake") return null;
  const url = new URL(request.url);
  if (url.pathname !== FAKE_IDP_PATH && !url.pathname.startsWith(`${FAKE_IDP_PATH}/`)) return null;
  return Promise.resolve(createFakeIdp({ issuer: `${url.origin}${FAKE_IDP_PATH}`, kv: env.CACHE }).fetch(request));
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

/** The fake PayPal's API, answered in process for the PayPal client. */
export function fakePayPalFetch(
  config: PaymentsConfig,
  kv: KVNamespace,
  origin: string,
  delivery?: FakeWebhookDelivery,
): typeof fetch {
  const { baseUrl, fake } = fakePayPal(config, kv, origin, delivery);
  return createFakePayPalFetch(fake, baseUrl);
}

/** The fake Cashfree's API, answered in process for the Cashfree client. */
export function fakeCashfreeFetch(
  config: PaymentsConfig,
  kv: KVNamespace,
  origin: string,
  delivery?: FakeWebhookDelivery,
): typeof fetch {
  const { baseUrl, fake } = fakeCashfree(config, kv, origin, delivery);
  return createFakeCashfreeFetch(fake, baseUrl);
}

/** The fake PayPal's own signing certificate, read in process. */
export function fakePayPalCertificate(config: PaymentsConfig, kv: KVNamespace): (url: string) => Promise<string> {
  const { baseUrl, fake } = fakePayPal(config, kv, "http://localhost");
  return fakePayPalCertificateFetcher(fake, baseUrl);
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
