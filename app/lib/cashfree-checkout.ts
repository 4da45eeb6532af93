/**
 * Opening Cashfree's checkout in the same window. `@cashfreepayments/cashfree-js` injects
 * https://sdk.cashfree.com/js/v3/cashfree.js as soon as it is evaluated unless
 * `window.Cashfree` already exists, so it is imported only here, at the moment of checkout;
 * in development the local fake SDK is loaded first, and the package then finds it.
 */

/** What the browser needs to open checkout: public values only. */
export interface CashfreeSdkConfig {
  mode: "sandbox" | "production";
  /** Set in development: the local fake SDK script, loaded before the package. */
  devSdkUrl?: string;
}

declare global {
  interface Window {
    Cashfree?: unknown;
  }
}

function loadScriptTag(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`The script ${src} failed to load.`));
    document.head.appendChild(script);
  });
}

/**
 * Resolves once checkout has been asked to open (the page then navigates away), and rejects
 * when the SDK cannot load or Cashfree refuses the session.
 */
export async function openCashfreeCheckout(sdk: CashfreeSdkConfig, paymentSessionId: string): Promise<void> {
  if (sdk.devSdkUrl && !window.Cashfree) await loadScriptTag(sdk.devSdkUrl);
  const { load } = await import("@cashfreepayments/cashfree-js");
  const cashfree = await load({ mode: sdk.mode });
  if (!cashfree) throw new Error("The Cashfree SDK did not load.");
  const result = await cashfree.checkout({ paymentSessionId, redirectTarget: "_self" });
  if (result?.error) throw new Error(`Cashfree checkout failed: ${result.error.message ?? "unknown error"}`);
}
