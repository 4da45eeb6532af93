/**
 * The embedded PDF engine: HTML laid out by pdfmake inside the Worker, for where no browser
 * exists. Text, headings, lists, tables, images (PNG, JPEG; GIF, WebP, BMP converted) and
 * colours, styled by the page's <style> elements and inline styles; no flex or grid, no
 * script (document.ts says what a browser would do differently).
 *
 * pdfmake's browser build is used because its Node build reads fonts from the file system; its
 * standard-font containers give pdfkit's Helvetica, Times and Courier metrics (Windows-1252)
 * without the 469 KB Roboto file system. pdfmake may fetch nothing itself: every image comes through
 * the caller's guarded fetcher first (images.ts) and reaches pdfmake as a data URL.
 *
 * How each request field is honoured:
 * - paper, landscape, margin: the page size and margins, CSS lengths as points;
 * - scale: font sizes, spacing and image sizes (the page and its margins stay);
 * - printBackground: background colours kept or dropped;
 * - pageRanges: the whole document is laid out, then only those pages are drawn into the file:
 *   the others' text, links and images are never written (headers and footers keep the
 *   original numbers, as they were laid out first);
 * - headerHtml/footerHtml: laid out per page in the top and bottom margins, with `pageNumber`,
 *   `totalPages`, `date`, `title` and `url` filled in;
 * - waitFor: no script runs, so a delay changes nothing and is not waited; a selector must
 *   match the page as sent, or the answer is invalid-input (a browser would have timed out);
 * - emulateMedia: which `@media` blocks and `<style media>` elements of the page apply.
 */
import pdfMake from "pdfmake/build/pdfmake.min.js";
import courier from "pdfmake/build/standard-fonts/Courier.js";
import helvetica from "pdfmake/build/standard-fonts/Helvetica.js";
import times from "pdfmake/build/standard-fonts/Times.js";
import type {
  DocumentFailure,
  HtmlToPdfOutcome,
  HtmlToPdfRequest,
  ResourceFetcher,
} from "~workers/hosted/capabilities";
import {
  convertBody,
  convertFragment,
  fitContent,
  FONTS,
  parseFragment,
  prepareDocument,
  printableText,
  type Refusal,
} from "./document";
import { resolveImages } from "./images";
import { pageGeometry, selectPages } from "./layout";

/** Bytes of the page a `{url}` names. */
const PAGE_MAX_BYTES = 2 * 1024 * 1024;

/** pdfmake never fetches: a URL left in the document is an error, not a request. */
pdfMake.setUrlAccessPolicy(() => false);
pdfMake.addFontContainer(helvetica);
pdfMake.addFontContainer(times);
pdfMake.addFontContainer(courier);

/**
 * Pages to draw, from the last layout: set by the header hook every document carries (pdfmake
 * calls it for each page once the layout is done) and taken by the renderer's hand-over below.
 * Layout and drawing run in one synchronous stretch, so no other document's layout can come
 * between the two; a document without pageRanges sets null, so no selection outlives its own.
 */
let pagesToDraw: number[] | null = null;

/**
 * pdfmake's renderer hands pdfkit the laid-out pages (`_pdfMakePages = pages`) just before it
 * draws them, one by one, from that same array. Keeping only the selected pages in it is the one
 * point where dropped pages can be left undrawn: once drawn, a page's text stream, link
 * annotations and images are in the file whether or not the page tree lists the page.
 */
let drawOnlySelectedPages: Promise<void> | undefined;

/**
 * pdfmake writes each image into the file as soon as it measures it (`provideImage` calls
 * `embed`), before the layout says which page shows it; pdfkit itself embeds an image when it
 * first draws it. While pdfmake measures, embedding waits for that first drawing, so an image
 * shown only on a dropped page is never written.
 */
let measuringImage = false;

type Kit = {
  openImage(this: Kit, src: unknown): { embed(this: unknown, document: unknown): unknown };
  provideImage(this: Kit, src: unknown): unknown;
};
function installPageSelection(): Promise<void> {
  drawOnlySelectedPages ??= pdfMake
    .createPdf({ content: "", defaultStyle: { font: FONTS.sans } })
    .getStream()
    .then((kit) => {
      const prototype = Object.getPrototypeOf(kit) as Kit;
      const { openImage, provideImage } = prototype;
      prototype.provideImage = function (src) {
        measuringImage = true;
        try {
          return provideImage.call(this, src);
        } finally {
          measuringImage = false;
        }
      };
      prototype.openImage = function (src) {
        const image = openImage.call(this, src);
        const { embed } = image;
        image.embed = function (document) {
          return measuringImage ? undefined : embed.call(this, document);
        };
        return image;
      };
      Object.defineProperty(prototype, "_pdfMakePages", {
        configurable: true,
        set(this: object, pages: unknown[]) {
          const keep = pagesToDraw;
          pagesToDraw = null;
          if (keep) pages.splice(0, pages.length, ...keep.map((number) => pages[number - 1]));
          Object.defineProperty(this, "_pdfMakePages", { value: pages, writable: true, configurable: true });
        },
      });
    })
    .catch((error: unknown) => {
      drawOnlySelectedPages = undefined;
      throw error;
    });
  return drawOnlySelectedPages;
}

export async function printEmbedded(
  request: HtmlToPdfRequest,
  fetchResource: ResourceFetcher,
): Promise<HtmlToPdfOutcome> {
  const deadline = Date.now() + request.timeoutMs;
  const geometry = pageGeometry(request);
  if (!geometry.ok) return invalid(geometry.detail);
  const { width, height, margins } = geometry.geometry;
  if (request.pageRanges !== undefined && selectPages(request.pageRanges, 1) === null) {
    return invalid(`pageRanges "${request.pageRanges}" is not a list of pages and ranges such as "1-3, 5".`);
  }

  let html: string;
  let baseUrl: string | undefined;
  if ("url" in request.source) {
    const page = await fetchResource(request.source.url, {
      maxBytes: PAGE_MAX_BYTES,
      accept: "text/html,application/xhtml+xml",
    });
    if (!page.ok) return invalid(page.detail);
    if (!/html|xml|text\/plain/i.test(page.contentType) && page.contentType !== "") {
      return {
        ok: false,
        problem: "unsupported-media-type",
        detail: `${request.source.url} answered ${page.contentType}, not an HTML page.`,
      };
    }
    html = decodePage(page.bytes, page.contentType);
    baseUrl = page.finalUrl;
  } else {
    html = request.source.html;
    baseUrl = request.source.baseUrl;
  }

  const prepared = prepareDocument(html, { printBackground: request.printBackground, media: request.emulateMedia });
  if (!prepared.ok) return refusal(prepared);
  const { document, title } = prepared.prepared;
  if (prepared.prepared.baseHref) {
    try {
      baseUrl = new URL(prepared.prepared.baseHref, baseUrl).href;
    } catch {
      // An unusable <base href> is ignored, as a browser ignores it.
    }
  }

  if (request.waitFor && "selector" in request.waitFor) {
    let found: boolean;
    try {
      found = document.querySelector(request.waitFor.selector) !== null;
    } catch {
      return invalid(`waitFor.selector "${request.waitFor.selector}" is not a CSS selector.`);
    }
    if (!found) {
      return invalid(
        `Nothing in the page matches waitFor.selector "${request.waitFor.selector}", and the embedded engine runs no script that could add it.`,
      );
    }
  }

  const converted = convertBody(document, request.printBackground);
  const sources = new Map(Object.entries(converted.images));
  const { images, skipped } = await resolveImages(sources, baseUrl, fetchResource, deadline);
  // A count only: an image's URL can carry a caller's token, and logs are kept and shared.
  if (skipped.length > 0) console.log(`embedded PDF: ${skipped.length} image(s) left out`);
  const contentWidth = width - margins[0] - margins[2];
  const content = fitContent(converted.content, { scale: request.scale, contentWidth, images, baseUrl });

  const header = request.headerHtml ? marginTemplate(request.headerHtml, request, title, baseUrl, margins) : null;
  if (header && !header.ok) return refusal(header);
  const footer = request.footerHtml ? marginTemplate(request.footerHtml, request, title, baseUrl, margins) : null;
  if (footer && !footer.ok) return refusal(footer);

  if (Date.now() > deadline) return timedOut(request.timeoutMs);

  /** Pages the layout made, before pageRanges picks from them. */
  let laidOut = 0;
  const docDefinition = {
    info: { title: title || undefined, producer: "Portico (pdfmake)", creator: "Portico" },
    pageSize: { width, height },
    pageMargins: margins,
    content,
    images: Object.fromEntries([...images.values()].map((image) => [image.key, image.dataUrl])),
    defaultStyle: { font: FONTS.sans, fontSize: 12 * request.scale, lineHeight: 1.15 },
    // Always a function, even without a header: the layout's page count decides what is drawn.
    header: (page: number, pages: number) => {
      laidOut = pages;
      if (page === pages) {
        const keep = request.pageRanges === undefined ? null : selectPages(request.pageRanges, pages);
        pagesToDraw = keep && keep.length > 0 ? keep : null;
      }
      return header ? header.render(page, pages) : null;
    },
    footer: footer?.render,
  };

  let pdf: Uint8Array;
  let pageCount: number;
  try {
    await installPageSelection();
    const output = pdfMake.createPdf(docDefinition);
    const kit = await output.getStream();
    pageCount = kit._root.data.Pages.data.Kids.length;
    if (request.pageRanges !== undefined && (selectPages(request.pageRanges, laidOut) ?? []).length === 0) {
      return invalid(`pageRanges "${request.pageRanges}" selects none of the document's ${laidOut} page(s).`);
    }
    pdf = await output.getBuffer();
  } catch (error) {
    console.error("embedded PDF: pdfmake failed", error);
    return {
      ok: false,
      problem: "engine-failed",
      detail: `The embedded engine could not lay out this page (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  if (Date.now() > deadline) return timedOut(request.timeoutMs);
  return { ok: true, pdf, engine: "pdfmake", pageCount };
}

/**
 * A header or footer template, parsed and bounded once and converted per page with the page's
 * numbers filled in, in the page's side margins (pdfmake gives it the whole page width).
 */
function marginTemplate(
  html: string,
  request: HtmlToPdfRequest,
  title: string,
  url: string | undefined,
  margins: [number, number, number, number],
): { ok: true; render: (page: number, pages: number) => unknown } | Refusal {
  const parsed = parseFragment(html, { printBackground: request.printBackground, media: request.emulateMedia });
  if (!parsed.ok) return parsed;
  const document = parsed.document;
  const fill = (name: string, text: string): void => {
    for (const element of [...document.querySelectorAll(`.${name}`)]) element.textContent = printableText(text);
  };
  const date = new Date().toLocaleString("en-US", { dateStyle: "short", timeStyle: "short", timeZone: "UTC" });
  return {
    ok: true,
    render(page, pages) {
      fill("pageNumber", String(page));
      fill("totalPages", String(pages));
      fill("date", date);
      fill("title", title);
      fill("url", url ?? "about:blank");
      // Chromium prints templates at a small default size unless they set one.
      const content = fitContent(convertFragment(document), { scale: 1, contentWidth: 0, images: new Map() });
      return { stack: [content], fontSize: 9, margin: [margins[0], 8, margins[2], 8] };
    },
  };
}

/** A fetched page's text in the charset its Content-Type names (UTF-8 when none or unknown). */
function decodePage(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

function invalid(detail: string): DocumentFailure {
  return { ok: false, problem: "invalid-input", detail };
}

function refusal(refused: Refusal): DocumentFailure {
  return {
    ok: false,
    problem: refused.problem,
    detail: refused.detail,
    ...(refused.reason ? { extensions: { reason: refused.reason } } : {}),
  };
}

function timedOut(timeoutMs: number): DocumentFailure {
  return { ok: false, problem: "engine-failed", detail: `The embedded engine did not finish within ${timeoutMs} ms.` };
}
