/**
 * The embedded PDF engine, printing real HTML into a PDF read back with pdf.js (tests/pdf-inspect.ts):
 * text, page sizes, headers and footers, images fetched through the fake guarded fetcher.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { FetchedResource, HtmlToPdfRequest, ResourceFetcher } from "~workers/hosted/capabilities";
import { getDocumentProxy } from "unpdf";
import { makeJpeg, makePng, makeWebp, solid, toDataUrl, RED } from "~workers/hosted/_image/fixtures";
import { inspectPdf, PAPER_POINTS, pdfRequest } from "../../../../tests/pdf-inspect";
import pdfMake from "pdfmake/build/pdfmake.min.js";
import { unzlibSync } from "fflate";
import { printEmbedded } from ".";

const request = (html: string, overrides: Partial<HtmlToPdfRequest> = {}): HtmlToPdfRequest =>
  pdfRequest(html, { engine: "embedded", printBackground: true, ...overrides });

/** A fetcher serving fixed URLs and refusing the rest as the guard would; it records each URL asked. */
function fakeFetcher(routes: Record<string, { bytes: Uint8Array; contentType: string }>) {
  const asked: string[] = [];
  const fetcher: ResourceFetcher = async (url, options): Promise<FetchedResource> => {
    asked.push(url);
    const route = routes[url];
    if (!route) return { ok: false, detail: `${url} is not allowed: it resolves to a private address.` };
    if (route.bytes.length > options.maxBytes)
      return { ok: false, detail: `${url} is larger than ${options.maxBytes} bytes.` };
    return { ok: true, bytes: route.bytes, contentType: route.contentType, finalUrl: url };
  };
  return { fetcher, asked };
}

const noNetwork = fakeFetcher({}).fetcher;

async function printed(html: string, overrides: Partial<HtmlToPdfRequest> = {}, fetcher = noNetwork) {
  const outcome = await printEmbedded(request(html, overrides), fetcher);
  if (!outcome.ok) throw new Error(`expected a PDF, got ${outcome.problem}: ${outcome.detail}`);
  expect(outcome.engine).toBe("pdfmake");
  const pdf = await inspectPdf(outcome.pdf);
  expect(outcome.pageCount).toBe(pdf.pageCount);
  return { outcome, pdf };
}

/**
 * The pixel sizes of the colour images the file holds, sorted (pdfkit writes image dictionaries
 * uncompressed; a PNG's alpha channel is a second, grey image, its soft mask, left out here).
 */
function imageSizes(pdf: Uint8Array): string[] {
  const text = new TextDecoder("latin1").decode(pdf);
  const sizes: string[] = [];
  for (const [dictionary] of text.matchAll(/<<[^<>]*\/Subtype \/Image[^<>]*>>/g)) {
    if (dictionary.includes("/DeviceGray")) continue;
    sizes.push(`${/\/Width (\d+)/.exec(dictionary)?.[1]}x${/\/Height (\d+)/.exec(dictionary)?.[1]}`);
  }
  return sizes.sort();
}

/**
 * Everything a PDF holds as text, whether or not its page tree shows it: the raw bytes, every
 * stream inflated, and the glyph codes of each stream's hex strings joined (pdfkit writes the
 * standard fonts' text as `<48656c6c6f>`, split wherever kerning applies).
 */
function everyTextInFile(pdf: Uint8Array): string {
  const latin1 = new TextDecoder("latin1");
  const raw = latin1.decode(pdf);
  const parts = [raw];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) continue;
    const bytes = pdf.subarray(start, end);
    let inflated: string;
    try {
      inflated = latin1.decode(unzlibSync(bytes));
    } catch {
      inflated = latin1.decode(bytes);
    }
    const glyphs = [...inflated.matchAll(/<([0-9a-fA-F\s]*)>/g)]
      .map(([, hex]) => hex!.replace(/\s/g, ""))
      .map((hex) => String.fromCharCode(...(hex.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16))))
      .join("");
    parts.push(inflated, glyphs);
  }
  return parts.join("\n");
}

const paragraphs = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `<p>Paragraph ${i + 1} of a long report, long enough to wrap over a line or two of the page.</p>`,
  ).join("");

describe("printEmbedded", () => {
  it("prints headings, paragraphs, lists and tables as text on an A4 page", async () => {
    const { pdf } = await printed(`
      <h1>Quarterly report</h1>
      <p>Revenue grew <b>twelve</b> percent and <i>costs</i> fell.</p>
      <ul><li>First point</li><li>Second point</li></ul>
      <ol><li>Step one</li><li>Step two</li></ol>
      <table><thead><tr><th>Region</th><th>Sales</th></tr></thead>
      <tbody><tr><td>North</td><td>1200</td></tr><tr><td>South</td><td>950</td></tr></tbody></table>`);
    expect(pdf.pageCount).toBe(1);
    expect(pdf.pages[0]).toMatchObject({ orientation: "portrait" });
    expect(pdf.pages[0]!.width).toBeCloseTo(PAPER_POINTS.A4.width, 0);
    expect(pdf.pages[0]!.height).toBeCloseTo(PAPER_POINTS.A4.height, 0);
    for (const text of [
      "Quarterly report",
      "Revenue grew twelve percent and costs fell.",
      "First point",
      "Second point",
      "Step two",
      "Region",
      "Sales",
      "North",
      "1200",
      "South",
      "950",
    ]) {
      expect(pdf.text).toContain(text);
    }
  });

  it("prints tables as a browser parses them: rows without <tbody>, ragged rows, spans, captions, empty tables", async () => {
    const { pdf } = await printed(`
      <table><caption>Ignored caption</caption><tr><th colspan="2">Wide header</th><th>Third</th></tr>
        <tr><td rowspan="2">Tall</td><td>b1</td></tr><tr><td>b2</td><td>c2</td><td>extra</td></tr></table>
      <table></table><table><tr></tr></table>
      <table><tbody><tr><td>Nested <table><tr><td>inner</td></tr></table></td></tr></tbody></table>`);
    for (const text of ["Wide header", "Third", "Tall", "b1", "b2", "c2", "extra", "Nested", "inner"])
      expect(pdf.text).toContain(text);
  });

  it("lays flex and grid out as plain blocks, keeping their text", async () => {
    const { pdf } = await printed(`
      <div style="display: flex; gap: 1rem"><div>Flex one</div><div>Flex two</div></div>
      <div style="display: grid; grid-template-columns: 1fr 1fr"><span>Grid one</span><span>Grid two</span></div>`);
    for (const text of ["Flex one", "Flex two", "Grid one", "Grid two"]) expect(pdf.text).toContain(text);
  });

  it("prints Latin-1 and Windows-1252's marks, and characters outside the standard fonts as ?", async () => {
    const { pdf } = await printed(
      "<p>Café déjà vu, Müller, señor</p><p>Ελληνικά 日本語 😀 € — “quotes”</p><p>After</p>",
    );
    expect(pdf.text).toContain("Café déjà vu, Müller, señor");
    expect(pdf.text).toContain("???????? ??? ? € — “quotes”");
    expect(pdf.text).toContain("After");
  });

  it("draws inline SVG shapes and survives a broken one", async () => {
    const { pdf } = await printed(`<p>Before</p>
      <svg width="120" height="40" viewBox="0 0 120 40"><rect x="0" y="0" width="120" height="40" fill="#2563eb"/>
      <image href="https://tracker.example/pixel.png" width="10" height="10"/></svg>
      <svg width="10" height="10"><path d="M 0 0 L oops"/></svg><p>After</p>`);
    expect(pdf.text).toContain("Before");
    expect(pdf.text).toContain("After");
  });

  it.each([
    ["empty and stray lists", "<ul></ul><ol></ol><li>stray item</li><ol start='-5' type='I'><li>roman</li></ol>"],
    ["lists in tables in lists", "<ul><li><table><tr><td><ol><li>deep</li></ol></td></tr></table></li></ul>"],
    ["odd spans", "<table><tr><td colspan='0' rowspan='-2'>zero</td><td colspan='99999'>huge</td></tr></table>"],
    ["odd sizes", "<p style='font-size:0'>zero</p><p style='font-size:500px'>big</p><p style='line-height:0'>flat</p>"],
    [
      "odd margins and widths",
      "<p style='margin:-1000px'>neg</p><p style='width:100000px'>wide</p><table width='120%'><tr><td>t</td></tr></table>",
    ],
    [
      "odd images",
      `<img width='0' src='${toDataUrl(solid(4, 4, RED))}'><img width='50%' height='auto' src='${toDataUrl(solid(4, 4, RED))}'>`,
    ],
    [
      "odd colours and fonts",
      "<span style='color:notacolour'>c</span><font size='9' color='red'>f</font><p style='text-align:justify'>j</p>",
    ],
    ["borders and rules", "<h1 style='border:5px solid red'>b</h1><hr><hr data-pdfmake='{broken'><br><br>"],
    ["anchors and duplicate ids", "<a href='#missing'>to nowhere</a><div id='x'>one</div><div id='x'>two</div>"],
    ["preformatted text", "<pre>\tcode\n  indented</pre><code>inline</code><sub>sub</sub><sup>sup</sup>"],
    ["empty body", ""],
    ["bare text", "just text"],
    ["empty svg", "<svg></svg><svg width='0' height='0'></svg>"],
    [
      "form controls",
      "<form><input value='typed'><button>Go</button><select><option>o</option></select><textarea>t</textarea></form>",
    ],
    [
      "media and widgets",
      "<video src='v.mp4'></video><canvas></canvas><details><summary>s</summary>d</details><math><mi>x</mi></math>",
    ],
    ["definition lists and quotes", "<dl><dt>term</dt><dd>definition</dd></dl><blockquote>quoted</blockquote><q>q</q>"],
    ["custom elements and comments", "<my-widget>custom</my-widget><!-- comment --><![CDATA[x]]>"],
    ["unclosed and misnested tags", "<p><b>bold <i>both</b> italic</i><div><span>open"],
    ["a frameset document", "<html><frameset><frame src='a.html'></frameset></html>"],
    ["a head-only document", "<html><head><title>Only a head</title></head></html>"],
  ])("prints awkward HTML (%s) without failing", async (_name, html) => {
    const outcome = await printEmbedded(request(html), noNetwork);
    expect(outcome, outcome.ok ? "" : outcome.detail).toMatchObject({ ok: true });
  });

  it("applies the page's style sheets under its inline styles, with the emulated media's rules", async () => {
    const html = `<html><head><style>
        .hidden { display: none }
        th { background: #e0e7ff; }
        td.amount { text-align: right; color: rgb(200, 0, 0) }
        p.note { font-size: 40px }
        @media screen { .print-only { display: none } }
        @media print { .screen-only { display: none } }
      </style><style media="screen">.screen-sheet { display: none }</style></head>
      <body><p class="hidden">Hidden by a rule</p><p class="note" style="font-size: 10px">Small note</p>
      <p class="print-only">Print only</p><p class="screen-only">Screen only</p><p class="screen-sheet">Not on screen</p>
      <table><thead><tr><th>Item</th></tr></thead><tbody><tr><td class="amount">€29.00</td></tr></tbody></table></body></html>`;
    const print = (await printed(html, { source: { html }, emulateMedia: "print" })).pdf.text;
    expect(print).not.toContain("Hidden by a rule");
    expect(print).toContain("Print only");
    expect(print).not.toContain("Screen only");
    expect(print).toContain("Not on screen");
    expect(print).toContain("€29.00");
    const screen = (await printed(html, { source: { html }, emulateMedia: "screen" })).pdf.text;
    expect(screen).not.toContain("Print only");
    expect(screen).toContain("Screen only");
    expect(screen).not.toContain("Not on screen");
    // The inline 10px beats the sheet's 40px: the words fit one page at 10px, not at 40px.
    const words = "word ".repeat(700);
    const { pdf: small } = await printed(`<style>p { font-size: 40px }</style><p style="font-size: 10px">${words}</p>`);
    const { pdf: large } = await printed(`<style>p { font-size: 40px }</style><p>${words}</p>`);
    expect(small.pageCount).toBe(1);
    expect(large.pageCount).toBeGreaterThan(1);
  });

  it("prints content after </body> and </html>, as a browser puts it in the body", async () => {
    const { pdf } = await printed("<html><body><p>Inside</p></body><p>After body</p></html><p>After html</p>");
    expect(pdf.text).toContain("Inside");
    expect(pdf.text).toContain("After body");
    expect(pdf.text).toContain("After html");
  });

  it("leaves out scripts, styles and hidden elements", async () => {
    const { pdf } = await printed(`<html><head><title>T</title><style>p { color: red }</style></head>
      <body><script>document.write("injected")</script><p>Visible</p><p style="display:none">Hidden</p><noscript>No script</noscript></body></html>`);
    expect(pdf.text).toContain("Visible");
    for (const text of ["injected", "color", "Hidden", "No script"]) expect(pdf.text).not.toContain(text);
  });

  it("survives colours in every CSS notation, with and without backgrounds", async () => {
    const html = `<p style="color: rgb(200, 10, 10); background: #eee">rgb on grey</p>
      <p style="color: hsl(120, 50%, 40%); background: url(https://example.com/x.png) no-repeat">hsl</p>
      <p style="color: var(--brand); background-color: rebeccapurple">var</p>
      <p style="color: #0a0b0c80; background: linear-gradient(red, blue)">hex alpha</p>
      <table><tr><td style="background-color: yellow">cell</td><td bgcolor="#ff0000">red cell</td></tr></table>
      <p style="font-family: 'Times New Roman', serif">serif</p><pre>mono</pre><p style="font-family: Comic Sans MS">unknown font</p>`;
    for (const printBackground of [true, false]) {
      const { pdf } = await printed(html, { printBackground });
      for (const text of [
        "rgb on grey",
        "hsl",
        "var",
        "hex alpha",
        "cell",
        "red cell",
        "serif",
        "mono",
        "unknown font",
      ])
        expect(pdf.text).toContain(text);
    }
  });

  it("honours paper formats, custom sizes and landscape", async () => {
    for (const format of ["A3", "A5", "Letter", "Legal", "Tabloid"] as const) {
      const { pdf } = await printed("<p>Size</p>", { paper: { format } });
      expect(pdf.pages[0]!.width).toBeCloseTo(PAPER_POINTS[format].width, 0);
      expect(pdf.pages[0]!.height).toBeCloseTo(PAPER_POINTS[format].height, 0);
    }
    const landscape = await printed("<p>Wide</p>", { paper: { format: "Letter" }, landscape: true });
    expect(landscape.pdf.pages[0]).toMatchObject({ width: 792, height: 612, orientation: "landscape" });
    const custom = await printed("<p>Custom</p>", { paper: { width: "4in", height: "150mm" } });
    expect(custom.pdf.pages[0]!.width).toBeCloseTo(288, 1);
    expect(custom.pdf.pages[0]!.height).toBeCloseTo(425.2, 1);
  });

  it("flows long content over several pages and numbers them in the header and footer", async () => {
    const { pdf, outcome } = await printed(paragraphs(60), {
      headerHtml: '<div style="font-size:10px"><span class="title"></span></div>',
      footerHtml: '<div>Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
      source: { html: `<html><head><title>Annual review</title></head><body>${paragraphs(60)}</body></html>` },
    });
    expect(outcome.pageCount).toBeGreaterThanOrEqual(2);
    const total = pdf.pageCount;
    pdf.pages.forEach((page, index) => {
      expect(page.text).toContain(`Page ${index + 1} of ${total}`);
      expect(page.text).toContain("Annual review");
    });
    expect(pdf.text).toContain("Paragraph 1 of");
    expect(pdf.text).toContain("Paragraph 60 of");
  });

  it("fills the header's url and date, and applies the template's own <style>", async () => {
    const html = "<p>Body</p>";
    const { pdf } = await printed(html, {
      source: { html, baseUrl: "https://site.example/report" },
      headerHtml:
        '<style>.hide { display: none }</style><span class="url"></span> on <span class="date"></span><span class="hide">Hidden</span>',
    });
    expect(pdf.text).toContain("https://site.example/report on ");
    expect(pdf.text).toMatch(/on \d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2}/);
    expect(pdf.text).not.toContain("Hidden");
  });

  it("keeps only the pages pageRanges names", async () => {
    const whole = await printed(paragraphs(80));
    expect(whole.pdf.pageCount).toBeGreaterThanOrEqual(3);
    const { pdf, outcome } = await printed(paragraphs(80), {
      pageRanges: "2-3",
      footerHtml: 'Page <span class="pageNumber"></span>',
    });
    expect(outcome.pageCount).toBe(2);
    expect(pdf.pages[0]!.text).toContain("Page 2");
    expect(pdf.pages[1]!.text).toContain("Page 3");
    expect(pdf.text).not.toContain("Paragraph 1 of");
  });

  it("leaves the dropped pages' text, links and images out of the file, not just out of the page tree", async () => {
    const marked = (page: string) => `<p>Marker${page}onlyhere</p>`;
    const html =
      `<p><a href="https://dropped.example/secret-token">Firstpagelink</a></p>${marked("PageOne")}` +
      `<img src="${toDataUrl(makePng(37, 23, () => RED))}">` +
      paragraphs(80) +
      marked("PageLast");
    const whole = await printed(html);
    const everything = everyTextInFile(whole.outcome.pdf);
    // The search finds what is there: every marker, the link and the image, in the whole document.
    expect(everything).toContain("MarkerPageOneonlyhere");
    expect(everything).toContain("MarkerPageLastonlyhere");
    expect(everything).toContain("dropped.example/secret-token");
    expect(imageSizes(whole.outcome.pdf)).toContain("37x23");
    expect(whole.pdf.pageCount).toBeGreaterThanOrEqual(3);

    const { pdf, outcome } = await printed(html, { pageRanges: "2" });
    expect(outcome.pageCount).toBe(1);
    expect(pdf.text).toContain("Paragraph");
    const kept = everyTextInFile(outcome.pdf);
    const dropped = ["MarkerPageOneonlyhere", "MarkerPageLastonlyhere", "Firstpagelink", "dropped.example"];
    expect(dropped.filter((text) => kept.includes(text))).toEqual([]);
    expect(imageSizes(outcome.pdf)).not.toContain("37x23");
  });

  it("refuses pageRanges that are not ranges or select no page", async () => {
    const bad = await printEmbedded(request("<p>x</p>", { pageRanges: "two" }), noNetwork);
    expect(bad).toMatchObject({ ok: false, problem: "invalid-input" });
    const none = await printEmbedded(request("<p>x</p>", { pageRanges: "5-9" }), noNetwork);
    expect(none).toMatchObject({ ok: false, problem: "invalid-input", detail: expect.stringContaining("1 page") });
  });

  it("scales the type: a scaled page takes more pages", async () => {
    const normal = await printed(paragraphs(40));
    const scaled = await printed(paragraphs(40), { scale: 2 });
    expect(scaled.pdf.pageCount).toBeGreaterThan(normal.pdf.pageCount);
  });

  it("embeds images fetched through the guarded fetcher and data: URLs, and leaves out refused ones", async () => {
    const png = makePng(40, 30, () => RED);
    const jpeg = makeJpeg(20, 20, () => RED);
    const { fetcher, asked } = fakeFetcher({
      "https://images.example/logo.png": { bytes: png, contentType: "image/png" },
      "https://images.example/photo.jpg": { bytes: jpeg, contentType: "image/jpeg" },
    });
    const html = `<p>Before</p><img src="/logo.png"><img src="https://images.example/photo.jpg" width="100">
       <img src="${toDataUrl(solid(8, 8, RED))}"><img src="http://10.0.0.1/secret.png"><img src="https://images.example/logo.png"><p>After</p>`;
    const result = await printed(html, { source: { html, baseUrl: "https://images.example/page/" } }, fetcher);
    expect(result.pdf.text).toContain("Before");
    expect(result.pdf.text).toContain("After");
    // logo.png (named twice, fetched once), photo.jpg and the data: URL; the private one is left out.
    expect(imageSizes(result.outcome.ok ? result.outcome.pdf : new Uint8Array())).toEqual(["20x20", "40x30", "8x8"]);
    expect(asked.filter((url) => url === "https://images.example/logo.png")).toHaveLength(1);
    expect(asked).toContain("http://10.0.0.1/secret.png");
  });

  it("logs how many images it left out, never their URLs, which can carry a caller's token", async () => {
    const log = vi.spyOn(console, "log");
    try {
      const { pdf } = await printed(`<p>Text</p><img src="https://images.example/logo.png?token=SECRET123">`);
      expect(pdf.text).toContain("Text");
      const logged = log.mock.calls.map((call) => call.map(String).join(" ")).join("\n");
      expect(logged).toContain("1 image(s) left out");
      expect(logged).not.toContain("SECRET123");
    } finally {
      log.mockRestore();
    }
  });

  it("skips images without a usable source instead of failing the page", async () => {
    const { pdf } = await printed(
      `<p>Before</p><img alt="none"><img src=""><img src='{"url":"https://x.example/a.png"}'><p>After</p>`,
    );
    expect(pdf.text).toContain("Before");
    expect(pdf.text).toContain("After");
  });

  it("embeds a WebP as a PNG, which pdfkit reads, and leaves out one that does not decode", async () => {
    const webp = makeWebp(24, 18, () => RED);
    const broken = new Uint8Array(webp.slice(0, 40));
    const { outcome } = await printed(
      `<img src="${toDataUrl(webp, "image/webp")}"><img src="${toDataUrl(broken, "image/webp")}"><p>Text</p>`,
    );
    expect(imageSizes(outcome.ok ? outcome.pdf : new Uint8Array())).toEqual(["24x18"]);
  });

  it("links to the web, mail and phones only, relative links made absolute against the page", async () => {
    const html = `<p><a href="/pricing">Pricing</a> <a href="https://example.com/docs">Docs</a> <a href="mailto:hi@example.com">Mail</a>
      <a href="javascript:alert(1)">Script</a> <a href="file:///etc/passwd">File</a></p>`;
    const outcome = await printEmbedded(
      request(html, { source: { html, baseUrl: "https://site.example/app/" } }),
      noNetwork,
    );
    if (!outcome.ok) throw new Error(outcome.detail);
    const document = await getDocumentProxy(new Uint8Array(outcome.pdf));
    const annotations = (await (await document.getPage(1)).getAnnotations()) as { url?: string }[];
    expect(annotations.map((annotation) => annotation.url).sort()).toEqual([
      "https://example.com/docs",
      "https://site.example/pricing",
      "mailto:hi@example.com",
    ]);
  });

  it("forbids pdfmake to fetch anything itself: every URL goes through the guarded fetcher first", async () => {
    // The same pdfmake instance the engine configured on import.
    const document = pdfMake.createPdf({
      content: [{ image: "remote" }],
      images: { remote: "https://images.example/a.png" },
      defaultStyle: { font: "Helvetica" },
    });
    await expect(document.getBuffer()).rejects.toThrow(/denied by resource access policy/);
  });

  it("leaves out a PNG whose header claims a huge canvas, before pdfkit inflates it", async () => {
    const png = makePng(4, 4, () => RED);
    const bomb = new Uint8Array(png);
    new DataView(bomb.buffer).setUint32(16, 100_000);
    new DataView(bomb.buffer).setUint32(20, 100_000);
    const { outcome, pdf } = await printed(`<p>Text stays</p><img src="${toDataUrl(bomb)}">`);
    expect(pdf.text).toContain("Text stays");
    expect(imageSizes(outcome.ok ? outcome.pdf : new Uint8Array())).toEqual([]);
  });

  it("prints a page fetched from {url} through the fetcher, and answers its refusal as invalid-input", async () => {
    const page = new TextEncoder().encode("<html><body><h2>Fetched page</h2></body></html>");
    const { fetcher } = fakeFetcher({
      "https://site.example/": { bytes: page, contentType: "text/html; charset=utf-8" },
    });
    const { pdf } = await printed("", { source: { url: "https://site.example/" } }, fetcher);
    expect(pdf.text).toContain("Fetched page");
    // A page in the charset its Content-Type names: "Café" in Latin-1 is 43 61 66 E9.
    const latin1 = new Uint8Array([...new TextEncoder().encode("<p>Caf"), 0xe9, ...new TextEncoder().encode("</p>")]);
    const { fetcher: legacy } = fakeFetcher({
      "https://old.example/": { bytes: latin1, contentType: "text/html; charset=ISO-8859-1" },
    });
    expect((await printed("", { source: { url: "https://old.example/" } }, legacy)).pdf.text).toContain("Café");
    const refused = await printEmbedded(request("", { source: { url: "http://127.0.0.1/" } }), fetcher);
    expect(refused).toMatchObject({
      ok: false,
      problem: "invalid-input",
      detail: expect.stringContaining("private address"),
    });
  });

  it("needs waitFor's selector in the page as sent, and ignores a delay", async () => {
    await printed('<p id="ready">Ready</p>', { waitFor: { selector: "#ready" } });
    await printed("<p>Delay</p>", { waitFor: { ms: 5000 } });
    const missing = await printEmbedded(request("<p>x</p>", { waitFor: { selector: "#later" } }), noNetwork);
    expect(missing).toMatchObject({ ok: false, problem: "invalid-input", detail: expect.stringContaining("#later") });
    const broken = await printEmbedded(request("<p>x</p>", { waitFor: { selector: "p[" } }), noNetwork);
    expect(broken).toMatchObject({ ok: false, problem: "invalid-input" });
  });

  it("refuses unusable page geometry", async () => {
    expect(
      await printEmbedded(request("<p>x</p>", { paper: { width: "50%", height: "10in" } }), noNetwork),
    ).toMatchObject({ ok: false, problem: "invalid-input" });
    expect(
      await printEmbedded(
        request("<p>x</p>", { margin: { top: "5in", right: "0", bottom: "7in", left: "0" } }),
        noNetwork,
      ),
    ).toMatchObject({ ok: false, problem: "invalid-input" });
  });

  it("refuses pages too large to lay out within the isolate's memory, before converting them", async () => {
    const rows = Array.from({ length: 8000 }, (_, i) => `<tr><td>${i}</td><td>x</td></tr>`).join("");
    const table = await printEmbedded(request(`<table><tbody>${rows}</tbody></table>`), noNetwork);
    expect(table).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } });
    const nested = await printEmbedded(request("<div>".repeat(5000) + "deep" + "</div>".repeat(5000)), noNetwork);
    expect(nested).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      extensions: { reason: "too-large" },
      detail: expect.stringContaining("inside one another, counted before parsing"),
    });
    const text = await printEmbedded(request(`<p>${"word ".repeat(9_000)}</p>`.repeat(14)), noNetwork);
    expect(text).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      detail: expect.stringContaining("characters of text"),
    });
    // Counted before parsing: linkedom alone needed 364 MB for the first, 120 MB for the second,
    // and 39 s of CPU for the third.
    const tooLarge = { ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } };
    const open = await printEmbedded(request("<p>x".repeat(500_000)), noNetwork);
    expect(open).toMatchObject({ ...tooLarge, detail: expect.stringContaining("before parsing") });
    const empty = await printEmbedded(request("<b></b>".repeat(280_000)), noNetwork);
    expect(empty).toMatchObject({ ...tooLarge, detail: expect.stringContaining("before parsing") });
    const deep = await printEmbedded(request("<i>".repeat(650_000)), noNetwork);
    expect(deep).toMatchObject({ ...tooLarge, detail: expect.stringContaining("before parsing") });
    // A script's comparisons are not tags: a page with a large inline script still prints.
    const script = `<script>${"if(i<n)i++;".repeat(50_000)}</script><style>a{}</style><p>Scripted page</p>`;
    const { pdf: scripted } = await printed(script);
    expect(scripted.text).toContain("Scripted page");
    // One long block costs pdfmake time quadratically: it is bounded on its own.
    const block = await printEmbedded(request(`<p>${"word ".repeat(11_000)}</p>`), noNetwork);
    expect(block).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      detail: expect.stringContaining("per block"),
    });
  });
});

describe("the embedded engine in the engine Worker", () => {
  it("answers engine: embedded over RPC with a pdfmake PDF, fetching images through the caller's function", async () => {
    const { fetcher, asked } = fakeFetcher({
      "https://images.example/a.jpg": { bytes: makeJpeg(16, 12, () => RED), contentType: "image/jpeg" },
    });
    const outcome = await env.ENGINES.htmlToPdf(
      request('<h1>Over RPC</h1><img src="https://images.example/a.jpg">', {
        paper: { format: "Letter" },
        landscape: true,
      }),
      fetcher,
    );
    if (!outcome.ok) throw new Error(`${outcome.problem}: ${outcome.detail}`);
    expect(outcome).toMatchObject({ engine: "pdfmake", pageCount: 1 });
    const pdf = await inspectPdf(outcome.pdf);
    expect(pdf.text).toContain("Over RPC");
    expect(pdf.pages[0]).toMatchObject({ width: 792, height: 612 });
    expect(imageSizes(outcome.pdf)).toEqual(["16x12"]);
    expect(asked).toEqual(["https://images.example/a.jpg"]);
  });
});
