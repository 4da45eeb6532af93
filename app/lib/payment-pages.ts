/**
 * The pages that load a payment provider's SDK in the browser: pricing (PayPal or Cashfree
 * checkout) and transactions (PayPal's Easy Pay button). Only their Content-Security-Policy
 * lets the providers' hosts in (workers/http/security-headers.ts), so the browser must load
 * them as documents of their own; root.tsx's client middleware sees to that.
 */
const PAYMENT_PAGES = new Set(["/user/subscription", "/user/transactions"]);

/** React Router matches paths case-insensitively and with or without a trailing slash; so does this. */
export function isPaymentPage(pathname: string): boolean {
  return PAYMENT_PAGES.has(pathname.toLowerCase().replace(/\/+$/, ""));
}
