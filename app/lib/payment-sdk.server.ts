/**
 * The payment SDK settings a page hands to the browser, from the Worker's configuration.
 * Only public values leave the server: PayPal's client id and hosted-button id, and which
 * environment each provider runs in. With the local fakes the SDKs come from /dev/*.
 */
import type { Config } from "~workers/config";
import type { CashfreeSdkConfig } from "./cashfree-checkout";
import type { PayPalSdkConfig } from "./paypal-sdk";

export function payPalSdkConfig(config: Config): PayPalSdkConfig {
  if (config.PAYPAL_PROVIDER === "fake") {
    // The fake SDK accepts any client id; PayPal's loader needs one to build the URL.
    return {
      clientId: config.PAYPAL_CLIENT_ID || "fake-client-id",
      environment: "sandbox",
      sdkBaseUrl: "/dev/paypal/sdk/js",
    };
  }
  return {
    clientId: config.PAYPAL_CLIENT_ID,
    environment: config.PAYPAL_BASE_URL.includes("sandbox") ? "sandbox" : "production",
  };
}

export function cashfreeSdkConfig(config: Config): CashfreeSdkConfig {
  if (config.CASHFREE_PROVIDER === "fake") return { mode: "sandbox", devSdkUrl: "/dev/cashfree/sdk.js" };
  return { mode: config.CASHFREE_BASE_URL.includes("sandbox") ? "sandbox" : "production" };
}
