/**
 * The browser engines: a page printed by Chromium through @cloudflare/puppeteer, on Cloudflare
 * Browser Rendering in production (`env.BROWSER`) and on the machine's Chromium in development
 * and tests (local-browser.ts stands in for the binding), so both run this same code.
 *
 * Each call gets a browser context of its own (no cookies, storage or cache shared with another
 * call), every request its page makes is answered through the caller's outbound guard
 * (subresources.ts), and the whole call is bounded by `request.timeoutMs`. The browser itself
 * is only ever disconnected: in production the session stays warm for the next call
 * (`keep_alive`), locally the one Chromium is shared by every call.
 */
import puppeteer, {
  TimeoutError,
  type Browser,
  type BrowserContext,
  type BrowserWorker,
  type HTTPRequest,
  type Page,
  type PDFOptions,
} from "@cloudflare/puppeteer";
import {
  documentFailure as failure,
  type DocumentFailure,
  type HtmlToPdfOutcome,
  type HtmlToPdfRequest,
  type PdfEngineName,
  type ResourceFetcher,
} from "~workers/hosted/capabilities";
import { readAtMost } from "~workers/http/request-body";
import { dropUnsafeLinks } from "./link-scrub";
import { refuseOtherTargets, type RawConnection } from "./other-targets";
import { countPdfPages } from "./page-count";
import { lengthToPixels, MAX_PDF_BYTES, MAX_PDF_PAGES, MAX_WAIT_MS } from "./print-units";
import { createResourceGate, type ResourceGate } from "./subresources";

/** How long Browser Rendering keeps an idle session for the next call to reuse. */
const KEEP_ALIVE_MS = 60_000;

/**
 * What a browser shows as a page (and so can print) when the caller's `url` answers it: HTML,
 * text, images and XML/JSON. Anything else (a PDF, an archive) Chromium would download or hand to
 * a viewer, so it is refused up front rather than failing inside the browser.
 */
const PRINTABLE_TYPE = /^(?:text\/[\w.+-]+|image\/[\w.+-]+|application\/(?:xhtml\+xml|xml|json))$/;

/** How long opening a browser session may take before the call answers 503 (retryable). */
const OPEN_BROWSER_MS = 5_000;

/** How long closing a call's browser context is waited for; past it the context is left to end with the session. */
const CLOSE_CONTEXT_MS = 2_000;

/** Seconds a caller is told to wait (Retry-After) when no browser could be had. */
export const BROWSER_RETRY_AFTER_S = 5;

/** A validated CSS length in CSS pixels, the unit puppeteer takes numbers in. */
export function lengthInPixels(length: string): number {
  const pixels = lengthToPixels(length);
  if (Number.isNaN(pixels)) throw new Error(`not a length: ${length}`);
  return pixels;
}

/**
 * The caller's header or footer inside a wrapper giving Chromium's bare template a readable
 * default (its own is a near-invisible size with no margins); the caller's styles still win.
 */
function template(html: string | undefined): string {
  if (!html) return "<span></span>";
  return `<div style="font-size:10px;width:100%;margin:0 1cm;-webkit-print-color-adjust:exact">${html}</div>`;
}

export function pdfOptions(request: HtmlToPdfRequest, remainingMs: number): PDFOptions {
  const paper =
    "format" in request.paper
      ? { format: request.paper.format }
      : { width: lengthInPixels(request.paper.width), height: lengthInPixels(request.paper.height) };
  const headerFooter = request.headerHtml !== undefined || request.footerHtml !== undefined;
  return {
    ...paper,
    landscape: request.landscape,
    preferCSSPageSize: request.preferCssPageSize ?? false,
    printBackground: request.printBackground,
    scale: request.scale,
    ...(request.pageRanges && { pageRanges: request.pageRanges }),
    margin: {
      top: lengthInPixels(request.margin.top),
      right: lengthInPixels(request.margin.right),
      bottom: lengthInPixels(request.margin.bottom),
      left: lengthInPixels(request.margin.left),
    },
    displayHeaderFooter: headerFooter,
    ...(headerFooter && { headerTemplate: template(request.headerHtml), footerTemplate: template(request.footerHtml) }),
    timeout: Math.max(1, remainingMs),
  };
}

class Deadline extends Error {}

export async function printWithBrowser(
  request: HtmlToPdfRequest,
  fetchResource: ResourceFetcher,
  binding: BrowserWorker,
  engine: Exclude<PdfEngineName, "pdfmake">,
): Promise<HtmlToPdfOutcome> {
  const deadline = Date.now() + request.timeoutMs;
  const gate = createResourceGate(fetchResource, { deadline });

  // The caller's URL is fetched before a browser is taken: a refused or dead address is the
  // caller's error (422, the guard's sentence) and costs no browser session.
  let address: string | undefined;
  if ("url" in request.source) {
    const document = await gate.prefetch(request.source.url);
    if (!document.ok) return failure("invalid-input", document.detail, { field: "url" });
    const type = document.contentType.split(";")[0]!.trim().toLowerCase();
    if (type && !PRINTABLE_TYPE.test(type)) {
      return failure(
        "invalid-input",
        `${request.source.url} answers ${type}, not a web page; send the page's URL, or its HTML as \`html\`.`,
        { field: "url" },
      );
    }
    address = request.source.url;
  } else if (request.source.baseUrl) {
    address = request.source.baseUrl;
    gate.provide(address, new TextEncoder().encode(request.source.html), "text/html; charset=utf-8");
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Deadline()), Math.max(0, deadline - Date.now()));
  });
  late.catch(() => undefined);

  let browser: Browser;
  const opening = openBrowser(binding);
  // Opening a session is bounded on its own: a browser that takes longer is busy, and the
  // caller is better told so (503, retry) than kept waiting for most of the time limit.
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  const slowOpen = new Promise<never>((_, reject) => {
    openTimer = setTimeout(() => reject(new Error("opening a browser took too long")), OPEN_BROWSER_MS);
  });
  slowOpen.catch(() => undefined);
  try {
    browser = await Promise.race([opening, late, slowOpen]);
  } catch (error) {
    clearTimeout(timer);
    // A session that arrives after the time ran out is let go at once.
    opening.then((session) => session.disconnect()).catch(() => undefined);
    console.error(`${engine}: no browser`, error);
    return failure("engine-unavailable", "No browser is free to print just now. Retry in a few seconds.", {
      engine,
      retryable: true,
      retryAfter: BROWSER_RETRY_AFTER_S,
    });
  } finally {
    clearTimeout(openTimer);
  }
  let context: BrowserContext | undefined;
  const creating = browser.createBrowserContext();
  try {
    context = await Promise.race([creating, late]);
    const pdf = await Promise.race([print(context, request, gate, address, deadline), late]);
    if (!(pdf instanceof Uint8Array)) return pdf;
    const pageCount = countPdfPages(pdf);
    if (pageCount === undefined) {
      return failure("engine-failed", "The browser's PDF could not be read back to count its pages.", { engine });
    }
    if (pageCount > MAX_PDF_PAGES) {
      return failure(
        "invalid-input",
        `The PDF came out at ${pageCount} pages, over the ${MAX_PDF_PAGES} an answer may have; print fewer (pageRanges).`,
        { field: "pageRanges" },
      );
    }
    return { ok: true, pdf, engine, pageCount };
  } catch (error) {
    if (error instanceof Deadline) {
      return failure("engine-failed", `The page did not finish printing within ${request.timeoutMs / 1000} s.`, {
        engine,
      });
    }
    const known = knownFailure(error, request);
    if (known) return known;
    throw error;
  } finally {
    clearTimeout(timer);
    // Closing the context ends its pages, their scripts and any request still in flight. A
    // context that arrives after the time ran out is closed when it comes; a close that hangs
    // is not waited for past a moment (the session's own keep-alive ends it).
    if (!context) void creating.then((late) => late.close()).catch(() => undefined);
    await within(context?.close(), CLOSE_CONTEXT_MS);
    await within(browser.disconnect(), CLOSE_CONTEXT_MS);
  }
}

/** Waits for `work` at most `ms`, never throwing: for clean-up that must not hold the answer. */
async function within(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!work) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * A free Browser Rendering session when there is one (a launch costs a second), else a new one
 * when the account's limits allow it. A session another call took between the listing and the
 * connect, or a fresh one another call connected to first, is one retry's worth of bad luck:
 * the listing is read again once before giving up.
 */
async function openBrowser(binding: BrowserWorker): Promise<Browser> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const sessions = await puppeteer.sessions(binding).catch(() => []);
    for (const session of sessions) {
      if (session.connectionId) continue;
      try {
        return await puppeteer.connect(binding, session.sessionId);
      } catch {
        // Another call took it between the listing and now.
      }
    }
    const limits = await puppeteer.limits(binding).catch(() => undefined);
    if (limits && limits.allowedBrowserAcquisitions <= 0) {
      throw new Error(`no browser may be launched for ${limits.timeUntilNextAllowedBrowserAcquisition} ms`);
    }
    try {
      return await puppeteer.launch(binding, { keep_alive: KEEP_ALIVE_MS });
    } catch (error) {
      if (attempt === 1) throw error;
    }
  }
  throw new Error("unreachable");
}

async function print(
  context: BrowserContext,
  request: HtmlToPdfRequest,
  gate: ResourceGate,
  address: string | undefined,
  deadline: number,
): Promise<Uint8Array | DocumentFailure> {
  const remaining = () => Math.max(1, deadline - Date.now());
  const page = await context.newPage();
  // Targets the page opens from now on (popups, shared and service workers) load nothing.
  const probe = await page.createCDPSession();
  const connection = probe.connection();
  // A page that answers with an attachment would save a file on the browser's machine.
  await probe
    .send("Browser.setDownloadBehavior", { behavior: "deny", browserContextId: context.id })
    .catch(() => probe.send("Page.setDownloadBehavior", { behavior: "deny" }))
    .catch(() => undefined);
  await probe.detach().catch(() => undefined);
  const stopRefusing = connection
    ? refuseOtherTargets(connection as unknown as RawConnection, context)
    : () => undefined;
  try {
    return await printPage(page, request, gate, address, remaining);
  } finally {
    stopRefusing();
  }
}

async function printPage(
  page: Page,
  request: HtmlToPdfRequest,
  gate: ResourceGate,
  address: string | undefined,
  remaining: () => number,
): Promise<Uint8Array | DocumentFailure> {
  await page.setRequestInterception(true);
  // A service worker would answer the page's requests from outside the interception.
  await page.setBypassServiceWorker(true);
  page.on("request", (intercepted) => void answer(intercepted, gate));
  // alert(), confirm() and prompt() would hold the page until someone answers; nobody will.
  page.on("dialog", (dialog) => void dialog.dismiss().catch(() => undefined));
  // A popup is a page of its own, outside this page's interception: it never opens.
  await page.evaluateOnNewDocument(() => {
    window.open = () => null;
  });
  page.on("popup", (popup) => void popup?.close().catch(() => undefined));
  await page.emulateMediaType(request.emulateMedia);
  if (address) await page.goto(address, { waitUntil: "load", timeout: remaining() });
  else if ("html" in request.source)
    await page.setContent(request.source.html, { waitUntil: "load", timeout: remaining() });

  if (request.waitFor && "selector" in request.waitFor) {
    const { selector } = request.waitFor;
    const patience = request.waitFor.timeoutMs ?? MAX_WAIT_MS;
    try {
      await page.waitForSelector(selector, { timeout: Math.min(patience, remaining()) });
    } catch (error) {
      if (error instanceof TimeoutError || (error as Error).name === "TimeoutError") {
        return failure("invalid-input", `No element matched waitFor "${selector}" within ${patience} ms.`, {
          field: "waitFor",
        });
      }
      if (/not a valid selector|Failed to execute 'querySelector'/i.test(String(error))) {
        return failure("invalid-input", `waitFor "${selector}" is not a valid CSS selector.`, { field: "waitFor" });
      }
      throw error;
    }
  } else if (request.waitFor) {
    await new Promise((resolve) => setTimeout(resolve, Math.min((request.waitFor as { ms: number }).ms, remaining())));
  }
  return readPdf(await page.createPDFStream(pdfOptions(request, remaining())));
}

/** Reads Chromium's PDF stream, stopping (and refusing) once it passes MAX_PDF_BYTES. */
async function readPdf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array | DocumentFailure> {
  const reader = stream.getReader();
  const read = await readAtMost(reader, MAX_PDF_BYTES);
  if (!read.ok) {
    await reader.cancel().catch(() => undefined);
    return failure(
      "invalid-input",
      `The PDF came out over the ${MAX_PDF_BYTES / 1024 / 1024} MB an answer may be; print fewer pages (pageRanges) or smaller images.`,
      { field: "html" },
    );
  }
  const pdf = read.bytes;
  // Only web, mail and telephone links keep their address (link-scrub.ts).
  if (dropUnsafeLinks(pdf) === undefined) {
    return failure("engine-failed", "The browser's PDF could not be read back to check its links.");
  }
  return pdf;
}

async function answer(intercepted: HTTPRequest, gate: ResourceGate): Promise<void> {
  try {
    const decision = await gate.answer({ url: intercepted.url(), method: intercepted.method() });
    if (decision.kind === "native") await intercepted.continue();
    else if (decision.kind === "abort") await intercepted.abort(decision.reason as "accessdenied");
    else {
      await intercepted.respond({
        status: decision.status,
        contentType: decision.contentType,
        headers: decision.headers,
        body: decision.body,
      });
    }
  } catch {
    // The page was closed (time ran out, or it printed) while this answer was on its way.
  }
}

/** Chromium's refusals of a valid-looking input, as the caller's error. */
function knownFailure(error: unknown, request: HtmlToPdfRequest): DocumentFailure | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (/page range/i.test(message)) {
    return failure(
      "invalid-input",
      `pageRanges "${request.pageRanges}" does not fit this document (${message.replace(/^Protocol error \([^)]*\): /, "")}).`,
      {
        field: "pageRanges",
      },
    );
  }
  return undefined;
}
