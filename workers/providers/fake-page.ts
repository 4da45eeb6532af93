/**
 * The frame of the pages the local fake providers show (the identity provider's consent form,
 * PayPal's approval page): self-contained HTML with inline styles, no scripts, escaped input.
 */
import { escapeHtml } from "~workers/platform/html";

export { escapeHtml };

/** Headers for a fake's page; `extraCsp` adds directives such as `form-action 'self'`. */
export function fakePageHeaders(extraCsp = ""): Record<string, string> {
  return {
    // The page is self-contained: inline styles, no scripts, nothing from elsewhere.
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline';${extraCsp ? ` ${extraCsp};` : ""} frame-ancestors 'none'`,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
  };
}

const BASE_STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(26rem, calc(100vw - 2rem)); padding: 2rem; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 0.75rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.25rem; }
  .warning { margin: 0 0 1.5rem; color: #b45309; font-weight: 600; }
  button { width: 100%; padding: 0.6rem; font: inherit; font-weight: 600; border: 0; border-radius: 0.375rem; cursor: pointer; }
`;

/** A whole page: `title` is plain text (escaped here); `style` and `body` are trusted markup. */
export function renderFakePage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${BASE_STYLE}${style}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}
