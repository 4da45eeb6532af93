/**
 * HTML to PDF through its handler and the real engine Worker (a second Worker, over RPC),
 * printing with the machine's Chromium; every PDF is read back with pdf.js (tests/pdf-inspect.ts),
 * never trusted from our own headers. URLs go through the real outbound guard over the fake
 * network, so a refused address is refused by the code production runs.
 */
import { env, SELF } from "cloudflare:test";
import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { describe, expect, inject, it } from "vitest";
import type { DocumentEngines } from "~workers/hosted/capabilities";
import type { HandlerResult } from "~workers/hosted/definition";
import { callHosted, createAccountWithKey } from "../../../tests/factories";
import { createTestContext, expectProblem, runParsed } from "../../../tests/hosted-context";
import type { FakeRoutes } from "../../../tests/fakes/network";
import { inspectPdf, PAPER_POINTS, type InspectedPdf } from "../../../tests/pdf-inspect";
import { definition, EXAMPLE_INVOICE_HTML } from "./index";
import { MAX_BODY_BYTES } from "./schema";

const operation = definition.operations[0]!;

const PUBLIC_HOST = "docs.example.com";
const PUBLIC_ADDRESS = "93.184.216.34";

function context(routes: FakeRoutes = {}, dns: Record<string, string[]> = {}) {
  return createTestContext({ routes, dns: { [PUBLIC_HOST]: [PUBLIC_ADDRESS], ...dns } });
}

async function print(raw: Record<string, unknown>, ctx = context()): Promise<HandlerResult> {
  return runParsed(operation, raw, ctx);
}

/** The PDF of a successful answer, read back, with the engine's headers. */
async function printed(
  raw: Record<string, unknown>,
  ctx = context(),
): Promise<InspectedPdf & { engine: string | undefined; pageHeader: string | undefined; bytes: Uint8Array }> {
  const result = await print(raw, ctx);
  if (result.kind !== "binary") {
    throw new Error(`expected a PDF, got ${result.kind}: ${result.kind === "problem" ? result.detail : ""}`);
  }
  expect(result.contentType).toBe("application/pdf");
  const bytes = result.body as Uint8Array;
  expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  return {
    ...(await inspectPdf(bytes)),
    engine: result.headers?.["X-Engine"],
    pageHeader: result.headers?.["X-Page-Count"],
    bytes,
  };
}

/**
 * Within a point of the paper: Chromium rounds the paper up to its own device units (A4 comes
 * out 595.92 × 842.88 whether asked as `A4` or as 210mm × 297mm), never by a whole point.
 */
function expectPaper(pdf: InspectedPdf, paper: { width: number; height: number }): void {
  for (const page of pdf.pages) {
    expect(Math.abs(page.width - paper.width), `width ${page.width} for ${paper.width}`).toBeLessThan(1);
    expect(Math.abs(page.height - paper.height), `height ${page.height} for ${paper.height}`).toBeLessThan(1);
  }
}

const paragraphs = (count: number, word = "lorem") =>
  Array.from({ length: count }, (_, index) => `<p>Paragraph ${index + 1} ${`${word} `.repeat(40)}</p>`).join("");

describe.skipIf(!inject("chromiumCdpUrl"))("html-to-pdf in the browser engine", () => {
  it("prints the example invoice on one A4 page, named chromium, with the page count it says", async () => {
    const pdf = await printed(operation.example as Record<string, unknown>);
    expect(pdf.engine).toBe("chromium");
    expect(pdf.pageCount).toBe(1);
    expect(pdf.pageHeader).toBe("1");
    expect(pdf.text).toContain("Invoice 2026-0042");
    expect(pdf.text).toContain("€29.00");
    expect(pdf.text).toContain("Page 1 of 1");
    expectPaper(pdf, PAPER_POINTS.A4);
    expect(pdf.pages[0]?.orientation).toBe("portrait");
  });

  it("spans a long document over several pages and counts them as pdf.js does", async () => {
    const pdf = await printed({ html: paragraphs(60) });
    expect(pdf.pageCount).toBeGreaterThanOrEqual(2);
    expect(pdf.pageHeader).toBe(String(pdf.pageCount));
    expect(pdf.pages[0]?.text).toContain("Paragraph 1 ");
    expect(pdf.pages.at(-1)?.text).toContain("Paragraph 60 ");
  });

  it.each(["A3", "A5", "Letter", "Legal", "Tabloid"] as const)("prints on %s paper", async (format) => {
    const pdf = await printed({ html: "<p>paper</p>", format });
    expectPaper(pdf, PAPER_POINTS[format]);
  });

  it("turns the paper for landscape and takes a width and height in any unit", async () => {
    const landscape = await printed({ html: "<p>wide</p>", format: "a4", landscape: true });
    expect(landscape.pages[0]?.orientation).toBe("landscape");
    expectPaper(landscape, { width: PAPER_POINTS.A4.height, height: PAPER_POINTS.A4.width });
    const card = await printed({ html: "<p>card</p>", width: "10cm", height: "4in", margin: { top: 0, bottom: 0 } });
    expectPaper(card, { width: (10 / 2.54) * 72, height: 4 * 72 });
  });

  it("lets the page's CSS @page size choose the paper only when preferCSSPageSize is set", async () => {
    const html = "<style>@page { size: 100mm 150mm }</style><p>sized by CSS</p>";
    expectPaper(await printed({ html }), PAPER_POINTS.A4);
    expectPaper(await printed({ html, preferCSSPageSize: true }), {
      width: (100 / 25.4) * 72,
      height: (150 / 25.4) * 72,
    });
  });

  it("lays the text out within the margins: wider margins need more pages", async () => {
    const html = paragraphs(25);
    const narrow = await printed({ html, margin: { top: "5mm", right: "5mm", bottom: "5mm", left: "5mm" } });
    const wide = await printed({ html, margin: { top: "6cm", right: "6cm", bottom: "6cm", left: "6cm" } });
    expect(wide.pageCount).toBeGreaterThan(narrow.pageCount);
  });

  it("numbers the pages in the header and footer, under Puppeteer's names too", async () => {
    const pdf = await printed({
      html: '<title>Quarterly</title><p style="break-after:page">first page</p><p>second page</p>',
      headerTemplate: '<div>Report — <span class="title"></span></div>',
      footerHtml: 'Page <span class="pageNumber"></span> of <span class="totalPages"></span>',
    });
    expect(pdf.pageCount).toBe(2);
    expect(pdf.pages[0]?.text).toContain("Page 1 of 2");
    expect(pdf.pages[1]?.text).toContain("Page 2 of 2");
    expect(pdf.pages[1]?.text).toContain("Report — Quarterly");
  });

  it("leaves the header and footer out when displayHeaderFooter is false", async () => {
    const pdf = await printed({ html: "<p>body</p>", footerHtml: "FOOTER-TEXT", displayHeaderFooter: false });
    expect(pdf.text).not.toContain("FOOTER-TEXT");
  });

  it("prints backgrounds only when printBackground is set", async () => {
    const html = '<div style="background:#ff0000;height:300px">red box</div>';
    const { OPS } = await getResolvedPDFJS();
    const fills = async (printBackground: boolean) => {
      const pdf = await printed({ html, printBackground });
      const document = await getDocumentProxy(new Uint8Array(pdf.bytes));
      const operators = await (await document.getPage(1)).getOperatorList();
      return operators.fnArray.filter(
        (fn, index) =>
          fn === OPS.setFillRGBColor && JSON.stringify(operators.argsArray[index]).toLowerCase().includes("ff0000"),
      ).length;
    };
    expect(await fills(true)).toBeGreaterThan(0);
    expect(await fills(false)).toBe(0);
  });

  it("lays the page out for print media unless asked for screen", async () => {
    const html =
      "<style>@media print { .screen { display: none } } @media screen { .print { display: none } }</style>" +
      '<p class="print">PRINT-ONLY</p><p class="screen">SCREEN-ONLY</p>';
    const asPrinted = await printed({ html });
    expect(asPrinted.text).toContain("PRINT-ONLY");
    expect(asPrinted.text).not.toContain("SCREEN-ONLY");
    const asScreen = await printed({ html, emulateMediaType: "screen" });
    expect(asScreen.text).toContain("SCREEN-ONLY");
    expect(asScreen.text).not.toContain("PRINT-ONLY");
  });

  it("prints a page that calls alert() or opens a popup, instead of waiting on them", async () => {
    const pdf = await printed({
      html:
        "<p>before</p><script>alert('hi'); confirm('sure?'); window.open('https://docs.example.com/');" +
        "document.body.append('AFTER-DIALOGS')</script>",
    });
    expect(pdf.text).toContain("AFTER-DIALOGS");
  });

  it("runs the page's JavaScript and waits for a selector or a delay before printing", async () => {
    const html =
      "<p>first</p><script>document.write('<p>WRITTEN-BY-SCRIPT</p>');" +
      "setTimeout(() => { const late = document.createElement('div'); late.id = 'late'; late.textContent = 'LATE-CONTENT'; document.body.append(late); }, DELAY);</script>";
    // Printing at load is checked against a timer far longer than any print takes, and the
    // waits against a short one with room to spare, so no outcome hangs on the machine's speed.
    const atLoad = await printed({ html: html.replace("DELAY", "10000") });
    expect(atLoad.text).toContain("WRITTEN-BY-SCRIPT");
    expect(atLoad.text).not.toContain("LATE-CONTENT");
    const soon = html.replace("DELAY", "50");
    expect((await printed({ html: soon, waitFor: "#late" })).text).toContain("LATE-CONTENT");
    expect((await printed({ html: soon, waitForSelector: { selector: "#late" } })).text).toContain("LATE-CONTENT");
    expect((await printed({ html: soon, waitFor: 2000 })).text).toContain("LATE-CONTENT");
  });

  it("answers 422 naming waitFor when the selector never matches in its time", async () => {
    const result = await print({ html: "<p>x</p>", waitForSelector: { selector: "#never", timeout: 300 } });
    expectProblem(result, "invalid-input", /#never.*300 ms/);
    expect(result.kind === "problem" && result.extensions).toMatchObject({ errors: { waitFor: expect.any(String) } });
  });

  it("keeps only the pageRanges asked for, and refuses ranges beyond the document", async () => {
    const html = ["ONE", "TWO", "THREE"].map((word) => `<p style="break-after:page">PAGE-${word}</p>`).join("");
    const all = await printed({ html });
    expect(all.pageCount).toBe(3);
    const some = await printed({ html, pageRanges: "2-3" });
    expect(some.pageCount).toBe(2);
    expect(some.pageHeader).toBe("2");
    expect(some.pages[0]?.text).toContain("PAGE-TWO");
    expect(some.text).not.toContain("PAGE-ONE");
    expectProblem(await print({ html, pageRanges: "5-6" }), "invalid-input", /pageRanges/);
  });

  it("refuses a PDF of more than 500 pages with a 422 naming pageRanges, and prints 500", async () => {
    const pages = (count: number) => "<div style='break-after:page'>p</div>".repeat(count);
    expect((await printed({ html: pages(500) })).pageCount).toBe(500);
    const result = await print({ html: pages(501) });
    expectProblem(result, "invalid-input", /501 pages.*500/);
    expect(result.kind === "problem" && result.extensions).toMatchObject({ errors: { pageRanges: expect.any(String) } });
  });

  it("prints a url fetched through the guard, with its style sheet, and resolves relative URLs", async () => {
    const fetched: string[] = [];
    const route = (body: string, type: string) => () => {
      return new Response(body, { headers: { "content-type": type } });
    };
    const ctx = context({
      [`https://${PUBLIC_HOST}/guide/`]: () => {
        fetched.push("page");
        return route('<link rel="stylesheet" href="style.css"><h1>Guide</h1><p class="x">body</p>', "text/html")();
      },
      [`https://${PUBLIC_HOST}/guide/style.css`]: () => {
        fetched.push("style");
        return route('.x::after { content: " STYLED-BY-SHEET" }', "text/css")();
      },
    });
    const pdf = await printed({ url: `https://${PUBLIC_HOST}/guide/` }, ctx);
    expect(pdf.text).toContain("Guide");
    expect(pdf.text).toContain("STYLED-BY-SHEET");
    expect(fetched).toEqual(["page", "style"]);
  });

  it("resolves an html document's relative URLs against baseUrl", async () => {
    const ctx = context({
      [`https://${PUBLIC_HOST}/assets/look.css`]: () =>
        new Response('body::before { content: "BASE-SHEET " }', { headers: { "content-type": "text/css" } }),
    });
    const pdf = await printed(
      { html: '<link rel="stylesheet" href="assets/look.css"><p>text</p>', baseUrl: `https://${PUBLIC_HOST}/` },
      ctx,
    );
    expect(pdf.text).toContain("BASE-SHEET");
  });

  it("prints the caller's html, not the live site, for a baseUrl typed without a slash or in capitals", async () => {
    let live = 0;
    const ctx = context({
      [`https://${PUBLIC_HOST}/`]: () => (live++, new Response("<p>LIVE-SITE</p>", { headers: { "content-type": "text/html" } })),
    });
    for (const baseUrl of [`https://${PUBLIC_HOST}`, "https://Docs.Example.COM"]) {
      const pdf = await printed({ html: "<p>CALLERS-HTML</p>", baseUrl }, ctx);
      expect(pdf.text).toContain("CALLERS-HTML");
      expect(pdf.text).not.toContain("LIVE-SITE");
    }
    expect(live).toBe(0);
  });

  it("keeps http, https, mailto and tel links and drops javascript: and file: ones, in frames too", async () => {
    const pdf = await printed({
      html:
        '<a href="javascript:alert(1)">js</a> <a href="JaVaScRiPt:alert(2)">js2</a> <a href="file:///etc/passwd">file</a>' +
        ' <svg width="50" height="20"><a href="javascript:alert(3)"><text y="15">svg</text></a></svg>' +
        ' <a href="https://x.example/keep">web</a> <a href="mailto:a@x.example">mail</a> <a href="tel:+15550100">tel</a>' +
        "<iframe srcdoc=\"<a href='javascript:alert(4)'>in frame</a>\"></iframe>",
    });
    const raw = new TextDecoder("latin1").decode(pdf.bytes);
    expect(raw).not.toMatch(/\/URI \((?:javascript|file):/i);
    expect(raw).toContain("/URI (https://x.example/keep)");
    expect(raw).toContain("/URI (mailto:a@x.example)");
    expect(raw).toContain("/URI (tel:+15550100)");
  });

  it("answers 422 with the guard's reason for a url on a private address, fetching nothing", async () => {
    let reached = 0;
    const ctx = context(
      { "http://10.0.0.7/": () => (reached++, new Response("secret")) },
      { "intranet.example": ["10.0.0.7"] },
    );
    for (const url of ["http://10.0.0.7/", "http://intranet.example/"]) {
      const result = await print({ url }, ctx);
      expectProblem(result, "invalid-input");
      expect(result.kind === "problem" && result.extensions).toMatchObject({ errors: { url: expect.any(String) } });
    }
    expect(reached).toBe(0);
  });

  it("answers 422 naming url for a url that answers a download rather than a page", async () => {
    const ctx = context({
      [`https://${PUBLIC_HOST}/report.pdf`]: () =>
        new Response("%PDF-1.4 not a page", { headers: { "content-type": "application/pdf" } }),
    });
    const result = await print({ url: `https://${PUBLIC_HOST}/report.pdf` }, ctx);
    expectProblem(result, "invalid-input", /application\/pdf/);
    expect(result.kind === "problem" && result.extensions).toMatchObject({ errors: { url: expect.any(String) } });
  });

  it("answers 422 for a url that answers an error", async () => {
    const ctx = context({ [`https://${PUBLIC_HOST}/gone`]: () => new Response("gone", { status: 404 }) });
    expectProblem(await print({ url: `https://${PUBLIC_HOST}/gone` }, ctx), "invalid-input", /404/);
  });

  it("never fetches a page's sub-resources on private addresses, nor its files, and still prints", async () => {
    let reached = 0;
    const secret = () => (reached++, new Response("p { color: red } body::after { content: 'LEAKED' }"));
    const ctx = context(
      {
        "http://127.0.0.1/a.css": secret,
        "http://intranet.example/b.css": secret,
        "http://10.1.2.3/c.js": secret,
        "http://10.1.2.3/frame.html": secret,
      },
      { "intranet.example": ["10.1.2.3"] },
    );
    const pdf = await printed(
      {
        html:
          '<link rel="stylesheet" href="http://127.0.0.1/a.css"><link rel="stylesheet" href="http://intranet.example/b.css">' +
          '<script src="http://10.1.2.3/c.js"></script><iframe src="file:///etc/passwd"></iframe>' +
          '<iframe src="http://10.1.2.3/frame.html"></iframe>' +
          "<p>still printed</p><script>fetch('http://127.0.0.1/').then(() => document.body.append('FETCHED')," +
          " () => document.body.append('FETCH-REFUSED'))</script>",
        waitFor: 300,
      },
      ctx,
    );
    expect(pdf.text).toContain("still printed");
    expect(pdf.text).toContain("FETCH-REFUSED");
    expect(pdf.text).not.toContain("LEAKED");
    expect(pdf.text).not.toMatch(/root:/);
    expect(reached).toBe(0);
  });

  it("prints with the browser or the embedded engine as asked, each naming itself", async () => {
    const browser = await printed({ html: "<p>by the browser</p>", engine: "browser" });
    expect(browser.engine).toBe("chromium");
    expect(browser.text).toContain("by the browser");
    const embedded = await printed({ html: "<p>by pdfmake</p>", engine: "embedded" });
    expect(embedded.engine).toBe("pdfmake");
    expect(embedded.text).toContain("by pdfmake");
    expect(embedded.pageHeader).toBe(String(embedded.pageCount));
  });

  it("answers 503 engine-unavailable where the engine Worker is not bound", async () => {
    const ctx = { ...context(), documents: undefined };
    expectProblem(await print({ html: "<p>x</p>" }, ctx), "engine-unavailable", /ENGINES/);
  });
});

describe("html-to-pdf when the engine Worker itself fails", () => {
  it("answers 502 engine-failed, not the gateway's 500, when the RPC call throws", async () => {
    const broken: DocumentEngines = {
      htmlToPdf: () => Promise.reject(new Error("Worker exceeded memory limit")),
      imageToText: () => Promise.reject(new Error("unused")),
      parseResume: () => Promise.reject(new Error("unused")),
      pdfEngines: () => Promise.reject(new Error("unused")),
    };
    const result = await print({ html: "<p>x</p>" }, { ...context(), documents: broken });
    expectProblem(result, "engine-failed");
    expect(result.kind === "problem" && result.detail).not.toMatch(/memory/);
  });

  it("answers 503 with Retry-After when the browser is busy, and names no field", async () => {
    const busy: DocumentEngines = {
      htmlToPdf: async () => ({
        ok: false,
        problem: "engine-unavailable",
        detail: "No browser is free to print just now. Retry in a few seconds.",
        extensions: { engine: "chromium", retryable: true, retryAfter: 5 },
      }),
      imageToText: () => Promise.reject(new Error("unused")),
      parseResume: () => Promise.reject(new Error("unused")),
      pdfEngines: () => Promise.reject(new Error("unused")),
    };
    const result = await print({ html: "<p>x</p>" }, { ...context(), documents: busy });
    expectProblem(result, "engine-unavailable");
    expect(result.kind === "problem" && result.headers?.["Retry-After"]).toBe("5");
  });
});

describe("html-to-pdf input", () => {
  const refusal = (raw: Record<string, unknown>) => {
    const parsed = operation.input.safeParse(raw);
    expect(parsed.success, JSON.stringify(raw).slice(0, 80)).toBe(false);
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join("."));
  };

  it("refuses bad input field by field", () => {
    expect(refusal({})).toContain("html");
    expect(refusal({ html: "<p>x</p>", url: "https://example.com/" })).toContain("url");
    expect(refusal({ url: "file:///etc/passwd" })).toContain("url");
    expect(refusal({ html: "x", format: "B5" })).toContain("format");
    expect(refusal({ html: "x", width: "10cm" })).toContain("height");
    expect(refusal({ html: "x", width: "10cm", height: "10cm", format: "A4" })).toContain("format");
    expect(refusal({ html: "x", width: "10em", height: "10cm" })).toContain("width");
    expect(refusal({ html: "x", scale: 3 })).toContain("scale");
    expect(refusal({ html: "x", margin: { top: "1em" } })).toContain("margin.top");
    expect(refusal({ html: "x", margin: { inner: "1cm" } })).toContain("margin");
    expect(refusal({ html: "x", width: "4cm", height: "4cm", margin: { left: "2cm", right: "2cm" } })).toContain(
      "margin",
    );
    expect(refusal({ html: "x", pageRanges: "first" })).toContain("pageRanges");
    expect(refusal({ html: "x", waitFor: 10_001 })).toContain("waitFor");
    expect(refusal({ html: "x", waitForTimeout: -1 })).toContain("waitForTimeout");
    expect(refusal({ html: "x", waitFor: "#a", waitForTimeout: 5 })).toContain("waitForTimeout");
    expect(refusal({ html: "x", emulateMedia: "tv" })).toContain("emulateMedia");
    expect(refusal({ html: "x", engine: "gpu" })).toContain("engine");
    expect(refusal({ url: "https://example.com/", baseUrl: "https://example.com/" })).toContain("baseUrl");
    expect(refusal({ html: "x".repeat(2 * 1024 * 1024 + 1) })).toContain("html");
  });

  it("takes Browserless's options and Browser Rendering's pdfOptions as its own", () => {
    const parsed = operation.input.safeParse({
      html: "x",
      pdfOptions: { format: "letter", landscape: true, headerTemplate: "<span class=pageNumber></span>" },
      options: { printBackground: true },
      emulateMediaType: "screen",
    });
    expect(parsed.success && parsed.data).toMatchObject({
      format: "Letter",
      landscape: true,
      printBackground: true,
      headerTemplate: "<span class=pageNumber></span>",
      emulateMediaType: "screen",
    });
  });

  it("accepts and ignores the other services' options it does not take, as its docs list them", () => {
    const ignored = {
      omitBackground: true,
      outline: true,
      tagged: true,
      timeout: 5,
      waitForFonts: false,
      gotoOptions: { waitUntil: "networkidle0" },
      addStyleTag: [{ content: "p{}" }],
      addScriptTag: [{ content: "1" }],
      setExtraHTTPHeaders: { "x-a": "b" },
      cookies: [],
      authenticate: { username: "a", password: "b" },
    };
    const parsed = operation.input.safeParse({ html: "x", ...ignored });
    expect(parsed.success).toBe(true);
    for (const name of Object.keys(ignored)) {
      expect(parsed.success && parsed.data).not.toHaveProperty(name);
      expect(operation.description).toContain(`\`${name}\``);
    }
  });

  it("documents an invoice-like example that parses", () => {
    expect(operation.input.safeParse(operation.example).success).toBe(true);
    expect(EXAMPLE_INVOICE_HTML).toContain("<table>");
  });
});

describe.skipIf(!inject("chromiumCdpUrl"))("html-to-pdf through the gateway", () => {
  const call = async (body: unknown, query = "") => {
    const { key } = await createAccountWithKey(env.DB);
    return callHosted(SELF, "POST", `/api/v1/html-to-pdf${query}`, { key, body });
  };

  it("answers a Free key's call with the PDF, its engine and its page count", async () => {
    const response = await call({ html: "<h1>Through the gateway</h1>", format: "Letter" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("x-engine")).toBe("chromium");
    expect(response.headers.get("x-page-count")).toBe("1");
    expect(response.headers.get("ratelimit-policy")).toBeTruthy();
    const pdf = await inspectPdf(new Uint8Array(await response.arrayBuffer()));
    expect(pdf.text).toContain("Through the gateway");
    expectPaper(pdf, PAPER_POINTS.Letter);
  });

  it("wraps the PDF in JSON for ?as=json, keeping the headers", async () => {
    const response = await call({ html: "<p>as json</p>" }, "?as=json");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-engine")).toBe("chromium");
    const body = await response.json<{ data: string; mimeType: string; size: number }>();
    expect(body.mimeType).toBe("application/pdf");
    const bytes = Uint8Array.from(atob(body.data), (character) => character.charCodeAt(0));
    expect(bytes.length).toBe(body.size);
    expect((await inspectPdf(bytes)).text).toContain("as json");
  });

  it("answers 422 problems field by field, for the schema and for the guard", async () => {
    const bad = await call({ html: "<p>x</p>", scale: 5, format: "B5" });
    expect(bad.status).toBe(422);
    const problem = await bad.json<{ type: string; errors: Record<string, string> }>();
    expect(problem.type).toMatch(/invalid-input$/);
    expect(Object.keys(problem.errors).sort()).toEqual(["format", "scale"]);

    const refused = await call({ url: "http://127.0.0.1:8787/admin" });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    const body = await refused.json<{ errors: Record<string, string>; detail: string }>();
    expect(body.errors).toEqual({ url: body.detail });
    expect(body).not.toHaveProperty("field");
  });

  it("answers 413 for a body over its limit", async () => {
    const response = await call({ html: "x".repeat(MAX_BODY_BYTES + 1) });
    expect(response.status).toBe(413);
  });
});
