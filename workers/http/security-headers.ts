/**
 * The headers that tell a browser how to treat what the Worker answers (issue #10, point 9).
 *
 * Pages get a Content-Security-Policy whose scripts are this origin's files plus the inline
 * scripts carrying this response's nonce (React Router's hydration data and module loader, the
 * colour-mode bootstrap), so markup injected into a page cannot run script. The payment SDKs'
 * hosts are allowed only on the pages that load them. Everything that is data, not a page
 * (`/api` answers, SVG and other outputs of the hosted APIs, short-link redirects), gets a
 * policy that allows nothing, so an SVG opened directly cannot run its scripts either.
 */
import { isPaymentPage } from "~/lib/payment-pages";

/** Two years with subdomains: the preload list's minimum; sent only by production (a local http origin must not be pinned). */
const HSTS = "max-age=63072000; includeSubDomains";

/**
 * The payment providers' hosts, from their CSP guides. PayPal's SDK comes from www.paypal.com,
 * loads its parts from *.paypalobjects.com and draws its buttons in frames of *.paypal.com
 * (sandbox included). Cashfree's comes from sdk.cashfree.com, calls api./sandbox.cashfree.com
 * and opens checkout at payments(-test).cashfree.com, by frame or by form.
 */
const PAYMENT_SOURCES = {
  script: ["https://www.paypal.com", "https://*.paypal.com", "https://*.paypalobjects.com", "https://sdk.cashfree.com"],
  connect: [
    "https://www.paypal.com",
    "https://*.paypal.com",
    "https://api.cashfree.com",
    "https://sandbox.cashfree.com",
  ],
  frame: [
    "https://www.paypal.com",
    "https://*.paypal.com",
    "https://sdk.cashfree.com",
    "https://api.cashfree.com",
    "https://sandbox.cashfree.com",
    "https://payments.cashfree.com",
    "https://payments-test.cashfree.com",
  ],
  form: [
    "https://api.cashfree.com",
    "https://sandbox.cashfree.com",
    "https://payments.cashfree.com",
    "https://payments-test.cashfree.com",
  ],
};

/** A fresh nonce for one response: 128 random bits, base64 (CSP's nonce-source syntax). */
export function createNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * A page's policy. Scripts: 'self' and the nonce rather than 'strict-dynamic', so the Vite
 * chunks React Router preloads by `<link rel="modulepreload">` (which 'strict-dynamic' would
 * not trust) and the local fake SDKs under /dev load as this origin's files. Styles may be
 * inline: React writes style attributes and the toaster injects a stylesheet, and a style
 * cannot run script. Pictures may come from any https host (a user's avatar link).
 */
/** A hosted API's live demo (`/:slug/live-demo`), the one page that frames a blob: URL. */
const LIVE_DEMO_PATH = /^\/[^/]+\/live-demo\/?$/i;

export function pageContentSecurityPolicy(nonce: string, pathname: string): string {
  const payment = isPaymentPage(pathname);
  const liveDemo = LIVE_DEMO_PATH.test(pathname);
  const allow = (own: string[], extra: string[]) => [...own, ...(payment ? extra : [])].join(" ");
  return [
    "default-src 'self'",
    `script-src ${allow(["'self'", `'nonce-${nonce}'`], PAYMENT_SOURCES.script)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${allow(["'self'"], PAYMENT_SOURCES.connect)}`,
    // blob: lets a live demo show a PDF answer inline (only this origin's scripts make blob
    // URLs); no other page frames one, so no other page allows it.
    `frame-src ${allow(["'self'", ...(liveDemo ? ["blob:"] : [])], PAYMENT_SOURCES.frame)}`,
    `form-action ${allow(["'self'"], PAYMENT_SOURCES.form)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Every header a page answer carries; `production` adds HSTS. */
export function pageSecurityHeaders(options: {
  nonce: string;
  pathname: string;
  production: boolean;
}): Record<string, string> {
  return {
    "content-security-policy": pageContentSecurityPolicy(options.nonce, options.pathname),
    // Older browsers without frame-ancestors: the pricing page holds payment buttons.
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    ...(options.production ? { "strict-transport-security": HSTS } : {}),
  };
}

/** What an answer that is data (JSON, an SVG, a redirect) carries: nothing in it may run or be framed. */
export function dataSecurityHeaders(options: { production: boolean }): Record<string, string> {
  return {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    ...(options.production ? { "strict-transport-security": HSTS } : {}),
  };
}

/** `response` with `headers` set over its own (its body is passed on, not read). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  const secured = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) secured.headers.set(name, value);
  return secured;
}
