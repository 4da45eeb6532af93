/**
 * The payment providers the configuration names: PayPal itself in production, the local fake
 * PayPal (served by this Worker at /dev/paypal) in development and tests.
 */
import type { Config } from "~workers/config";
import { createPayPalClient } from "./paypal/client";
import { createFakePayPal, createFakePayPalFetch } from "./paypal/fake";
import type { PayPalClient } from "./paypal/types";

export const FAKE_PAYPAL_PATH = "/dev/paypal";

export function payPalFor(config: Config, env: Env, origin: string): PayPalClient {
  if (config.PAYPAL_PROVIDER === "fake") {
    const baseUrl = `${origin}${FAKE_PAYPAL_PATH}`;
    const fetcher = createFakePayPalFetch(createFakePayPal({ baseUrl, kv: env.CACHE }), baseUrl);
    return createPayPalClient({
      baseUrl,
      clientId: config.PAYPAL_CLIENT_ID,
      clientSecret: config.PAYPAL_CLIENT_SECRET,
      fetch: fetcher,
    });
  }
  return createPayPalClient({
    baseUrl: config.PAYPAL_BASE_URL,
    clientId: config.PAYPAL_CLIENT_ID,
    clientSecret: config.PAYPAL_CLIENT_SECRET,
    fetch,
  });
}

/** Serves the fake PayPal (API and approval page), only when the configuration chose it. */
export function serveFakePayPal(config: Config, env: Env, request: Request): Promise<Response> | null {
  if (config.PAYPAL_PROVIDER !== "fake") return null;
  const url = new URL(request.url);
  if (url.pathname !== FAKE_PAYPAL_PATH && !url.pathname.startsWith(`${FAKE_PAYPAL_PATH}/`)) return null;
  return Promise.resolve(
    createFakePayPal({ baseUrl: `${url.origin}${FAKE_PAYPAL_PATH}`, kv: env.CACHE }).fetch(request),
  );
}
