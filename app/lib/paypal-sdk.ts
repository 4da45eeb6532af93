/**
 * Loading PayPal's JS SDK in the browser. `@paypal/paypal-js` is imported only when a page
 * asks for PayPal, so the home page and every other page ship none of it. In development
 * the SDK is the local fake the Worker serves (`sdkBaseUrl`), which defines the same
 * `window.paypal` as the real one.
 */
import type { PayPalNamespace, PayPalScriptOptions } from "@paypal/paypal-js";

/** What the browser needs to load the SDK: public values only (never the client secret). */
export interface PayPalSdkConfig {
  clientId: string;
  environment: "sandbox" | "production";
  /** Set in development: where the local fake SDK is served. */
  sdkBaseUrl?: string;
}

/** PayPal's hosted buttons (`components=hosted-buttons`); paypal-js has no types for them. */
export interface PayPalHostedButtonsComponent {
  render: (container: HTMLElement | string) => Promise<void>;
}

export type PayPalSdk = PayPalNamespace & {
  HostedButtons?: (options: { hostedButtonId: string }) => PayPalHostedButtonsComponent;
};

type ExtraOptions = Omit<PayPalScriptOptions, "clientId" | "environment" | "sdkBaseUrl">;

// One load per set of options: a component mounted twice (React's development double effects,
// a modal reopened) must not insert the SDK's script twice.
const loading = new Map<string, Promise<PayPalSdk>>();

export function loadPayPalSdk(sdk: PayPalSdkConfig, options: ExtraOptions): Promise<PayPalSdk> {
  const scriptOptions: PayPalScriptOptions = {
    clientId: sdk.clientId,
    environment: sdk.environment,
    ...(sdk.sdkBaseUrl ? { sdkBaseUrl: sdk.sdkBaseUrl } : {}),
    ...options,
  };
  const key = JSON.stringify(scriptOptions);
  let promise = loading.get(key);
  if (!promise) {
    promise = import("@paypal/paypal-js")
      .then(({ loadScript }) => loadScript(scriptOptions))
      .then((paypal) => {
        if (!paypal) throw new Error("The PayPal SDK did not load.");
        return paypal as PayPalSdk;
      });
    // A failed load may be retried later (the next time the modal opens).
    promise.catch(() => loading.delete(key));
    loading.set(key, promise);
  }
  return promise;
}
