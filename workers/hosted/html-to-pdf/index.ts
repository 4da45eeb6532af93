/**
 * HTML to PDF: HTML or a web page printed to PDF in the engine Worker, by a browser
 * (Cloudflare Browser Rendering in production, the machine's Chromium in development) or by
 * the embedded pdfmake engine where no browser exists (decision 056).
 */
import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import { MAX_PDF_BYTES, MAX_PDF_PAGES } from "~workers/engines/pdf/print-units";
import { SUBRESOURCE_LIMITS } from "~workers/engines/pdf/subresources";
import { ENGINE_TIMEOUT_MS } from "../_documents/engines";
import { printHtmlToPdf } from "./handler";
import { HtmlToPdfInputSchema, MAX_BODY_BYTES, MAX_HTML_BYTES, MAX_WAIT_MS } from "./schema";

const MB = 1024 * 1024;

/** The docs' example: a one-page invoice with a table, colours and a numbered footer. */
export const EXAMPLE_INVOICE_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Invoice 2026-0042</title>
<style>
  body { font-family: sans-serif; color: #1e293b; }
  h1 { color: #4f46e5; margin-bottom: 0; }
  table { width: 100%; border-collapse: collapse; margin-top: 1.5em; }
  th { background: #e0e7ff; text-align: left; }
  th, td { padding: 6px 8px; border-bottom: 1px solid #cbd5e1; }
  td.amount, th.amount { text-align: right; }
  .total td { font-weight: bold; }
</style></head>
<body>
  <h1>Invoice 2026-0042</h1>
  <p>Acme Tools Ltd · 1 Market Street · Leeds</p>
  <p>Billed to: Example GmbH, Berlin · Due 30 November 2026</p>
  <table>
    <thead><tr><th>Item</th><th class="amount">Qty</th><th class="amount">Price</th></tr></thead>
    <tbody>
      <tr><td>API plan, Standard (November)</td><td class="amount">1</td><td class="amount">€19.00</td></tr>
      <tr><td>Extra calls (10 000)</td><td class="amount">2</td><td class="amount">€10.00</td></tr>
      <tr class="total"><td>Total</td><td></td><td class="amount">€29.00</td></tr>
    </tbody>
  </table>
</body></html>`;

const DESCRIPTION = [
  "Send `html` (a page or a fragment) or a public `url`; the answer is the PDF (`application/pdf`), with `X-Engine` naming the engine that printed it and `X-Page-Count` its pages.",
  "Engines: a browser prints with full CSS (flex, grid, `@page`, `@media print`), web fonts and the page's JavaScript — Cloudflare Browser Rendering in production (`X-Engine: cloudflare-browser-rendering`), the machine's Chromium in development (`chromium`), through the same code. Where no browser exists the embedded engine (`pdfmake`, laid out inside the Worker) prints text, headings, paragraphs, lists, tables (with or without `<tbody>`, with spans and captions; lines only where the page draws them), images (PNG and JPEG; GIF, WebP and BMP converted, up to 1 megapixel each), links (web, mail and phone; `javascript:`, `file:` and other links are dropped) and colours, styled by the page's `<style>` elements and inline `style` attributes (not `<link>`ed style sheets), with the `@media` rules that `emulateMedia` selects, in Helvetica, Times or Courier: text is Windows-1252 (Latin-1 and typographic marks), other characters print as `?`. It lays flex and grid out as plain blocks, has no floats, no padding and no web fonts, and shows a block's background behind its text runs (a table cell's fills the cell). It runs no JavaScript: a `waitFor` delay is not waited, and a `waitFor` selector must match the HTML as sent. `pageRanges` lays the whole document out and draws only the pages named, so the others' text, links and images are not in the file, while the header and footer keep the original page numbers (page 2 of 5 stays `2` and `5`). Pages beyond its bounds (20 000 elements and text runs, nesting 150 deep, 600 000 characters of text, 50 000 in one paragraph) answer 422 `unreadable-document` with `reason: too-large`, counted before the page is parsed where the tags alone say so. `engine: auto` takes the best one here (the embedded engine only where no browser is configured: a busy browser answers 503 with `Retry-After` rather than changing the layout); `browser` or `embedded` ask for that kind and answer 503 `engine-unavailable` where it is absent.",
  "The options keep Puppeteer's `page.pdf()` names, which Browserless's `/pdf` and Cloudflare Browser Rendering's `/pdf` pass through: a body written for them works here with the options at the top level, in `options` (Browserless) or in `pdfOptions` (Browser Rendering); their `headerTemplate`/`footerTemplate`, `waitForSelector` (a string or `{selector}`), `waitForTimeout` and `emulateMediaType` are aliases of `headerHtml`/`footerHtml`, `waitFor` and `emulateMedia`. Gotenberg's Chromium form fields map as: `paperWidth`/`paperHeight` → `width`/`height`, `marginTop`… → `margin.top`…, `landscape`, `printBackground` and `scale` alike, `nativePageRanges` → `pageRanges`, the `header.html`/`footer.html` files → `headerHtml`/`footerHtml`, `waitDelay` → `waitFor` in milliseconds, `emulatedMediaType` → `emulateMedia`. Their other options are accepted and ignored, so such a body still prints: Puppeteer's `omitBackground`, `outline`, `tagged`, `timeout` and `waitForFonts` (fonts are always waited for), Browser Rendering's `gotoOptions`, `addStyleTag`, `addScriptTag`, `setExtraHTTPHeaders`, `cookies` and `authenticate`, and any name not listed below.",
  'Header and footer: HTML printed inside the top and bottom margins of every page (so give the margins room: 1cm each unless set), where `<span class="pageNumber"></span>` and `<span class="totalPages"></span>` become the page number and the page count (`date`, `title` and `url` too). They use their own inline styles: the page\'s style sheets do not reach them, and they load no images or fonts.',
  `Lengths take a unit: px, in, cm, mm, pt or pc (a bare number is CSS pixels). The paper is \`format\` (A3, A4, A5, Letter, Legal, Tabloid; A4 by default) or \`width\` and \`height\`; \`landscape\` turns it.`,
  `Every request the page makes — the \`url\` itself, its style sheets, fonts, images, scripts and the script's own fetches — is fetched through our outbound guard: public addresses only, checked on each redirect, GET only; \`data:\` and \`blob:\` URLs stay in the browser. Refused ones fail as a missing file would and the page still prints, except the \`url\` itself, which answers 422 with the reason. A page may make ${SUBRESOURCE_LIMITS.maxRequests} requests, ${SUBRESOURCE_LIMITS.maxBytesEach / MB} MB each and ${SUBRESOURCE_LIMITS.maxTotalBytes / MB} MB together; beyond that they fail. With \`html\`, \`baseUrl\` sets the address its relative URLs resolve against. In the browser, frames, their navigations and refreshes, \`EventSource\` and dedicated workers go through the guard too; popups (\`window.open\`, \`target=_blank\`), shared and service workers load nothing, and downloads are refused. WebSockets and WebRTC are not intercepted: in production they leave from Cloudflare's browser sandbox, never from our network. Links in the PDF keep their address only for http, https, mailto and tel (\`javascript:\`, \`file:\` and other links go nowhere).`,
  `Limits: \`html\` up to ${MAX_HTML_BYTES / MB} MB (the body ${Math.floor(MAX_BODY_BYTES / 1024)} KiB); \`waitFor\` up to ${MAX_WAIT_MS} ms; the whole print ${ENGINE_TIMEOUT_MS / 1000} s; a browser PDF up to ${MAX_PDF_BYTES / MB} MB and ${MAX_PDF_PAGES} pages (more answers 422).`,
  "Errors: 422 `invalid-input` field by field (a bad option, both or neither of `html` and `url`, a `url` the guard refuses, that does not answer, or that answers something other than a page (a PDF, an archive), a `waitFor` selector that never matches, `pageRanges` beyond the document), 413 `body-too-large`, 503 `engine-unavailable` (the engine asked for is not here, or no browser is free just now: retry after the `Retry-After` seconds), 502 `engine-failed` (the page did not print in time). Add `?as=json` for `{ data, mimeType, size }` with the PDF in base64.",
].join(" ");

export const definition: HostedApiDefinition = {
  slug: "html-to-pdf",
  operations: [
    defineOperation({
      id: "convertHtmlToPdf",
      method: "POST",
      path: "",
      summary: "Print HTML or a web page to PDF",
      description: DESCRIPTION,
      inputSource: "json",
      input: HtmlToPdfInputSchema,
      output: {
        kind: "binary",
        mimeTypes: ["application/pdf"],
        description: "The PDF; `X-Engine` names the engine and `X-Page-Count` the pages",
      },
      example: {
        html: EXAMPLE_INVOICE_HTML,
        format: "A4",
        margin: { top: "2cm", right: "1.5cm", bottom: "2cm", left: "1.5cm" },
        printBackground: true,
        footerHtml:
          '<div style="text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
      },
      maxBodyBytes: MAX_BODY_BYTES,
      errors: [
        {
          type: "invalid-input",
          when: "An option is invalid, or the `url` is refused by the outbound guard or does not answer.",
        },
        {
          type: "engine-unavailable",
          when: "The engine asked for is not available here, or no browser is free just now.",
        },
        { type: "engine-failed", when: "The page did not finish printing within the time limit." },
        {
          type: "unreadable-document",
          when: "The embedded engine was given a page beyond its bounds (`reason: too-large`).",
        },
      ],
      handler: printHtmlToPdf,
    }),
  ],
};
