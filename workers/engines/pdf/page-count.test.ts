/**
 * The browser engine's page count, read from the page tree as a PDF reader reads it, checked
 * against pdf.js (tests/pdf-inspect.ts) on Chromium's own output and on a PDF whose strings
 * spell out the keys a text search would count.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { HtmlToPdfRequest, ResourceFetcher } from "~workers/hosted/capabilities";
import { inspectPdf, pdfRequest } from "../../../tests/pdf-inspect";
import { dropUnsafeLinks } from "./link-scrub";
import { countPdfPages } from "./page-count";

/** A PDF laid out as Skia writes one (classic xref table), with `objects` numbered from 1. */
function pdfOf(objects: string[], root: number): Uint8Array {
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<</Size ${objects.length + 1}\n/Root ${root} 0 R\n/Info 1 0 R>>\nstartxref\n${xrefAt}\n%%EOF`;
  return new TextEncoder().encode(body);
}

describe("counting a printed PDF's pages", () => {
  it("reads the page tree's /Count, not strings that spell /Type /Page", () => {
    const pdf = pdfOf(
      [
        "<</Title (/Type /Page /Type /Page \\(/Count 9\\)) /Subject (/Pages 5 0 R)>>",
        "<</Type /Catalog\n/Lang (/Pages 1 0 R)\n/Pages 3 0 R>>",
        "<</Type /Pages\n/Kids [4 0 R]\n/Count 1>>",
        "<</Type /Page\n/Parent 3 0 R\n/Annots [<</Type /Annot /A <</S /URI /URI (/Type /Page)>>>>]>>",
      ],
      2,
    );
    expect(countPdfPages(pdf)).toBe(1);
  });

  it("answers undefined for what is not a PDF laid out so", () => {
    expect(countPdfPages(new TextEncoder().encode("%PDF-1.4\n<</Type /Page>>"))).toBeUndefined();
  });
});

describe("blanking a printed PDF's unsafe links", () => {
  it("blanks javascript:, file: and hex-written addresses in place, keeping web, mail and phone links and stream data", () => {
    const stream = "stream\n/URI (javascript:in-stream-data)\nendstream";
    const pdf = pdfOf(
      [
        "<</Title (/URI \\(javascript:title\\))>>",
        "<</Type /Catalog /Pages 3 0 R>>",
        "<</Type /Pages /Kids [4 0 R] /Count 1>>",
        "<</Type /Page /Parent 3 0 R /Annots [5 0 R 6 0 R 7 0 R 8 0 R 9 0 R]>>",
        "<</Type /Annot /A <</S /URI\n/URI (javascript:alert\\(1\\))>>>>",
        "<</Type /Annot /A <</S /URI /URI <66696C653A2F2F2F6574632F706173737764>>>>>",
        "<</Type /Annot /A <</S /URI /URI (https://x.example/keep)>>>>",
        "<</Type /Annot /A <</S /URI /URI (mailto:a@x.example)>> /B <</S /URI /URI (  JavaScript:x)>>>>",
        `<</Length 40>>\n${stream}`,
      ],
      2,
    );
    const before = pdf.byteLength;
    expect(dropUnsafeLinks(pdf)).toBe(3);
    expect(pdf.byteLength).toBe(before);
    const raw = new TextDecoder("latin1").decode(pdf);
    expect(raw.replace(stream, "")).not.toMatch(/\/URI\s*\((?:\s*javascript|file)/i);
    expect(raw).not.toContain("66696C65");
    expect(raw).toContain("/URI (https://x.example/keep)");
    expect(raw).toContain("/URI (mailto:a@x.example)");
    expect(raw).toContain(stream);
    expect(countPdfPages(pdf)).toBe(1);
  });
});

describe.skipIf(!inject("chromiumCdpUrl"))("counting Chromium's pages", () => {
  const refuseAll: ResourceFetcher = async (url) => ({ ok: false, detail: `${url} is not on the test's network.` });
  const request = (html: string): HtmlToPdfRequest => pdfRequest(html, { engine: "browser" });

  it("counts as pdf.js does, whatever the page's title and links say", async () => {
    for (const html of [
      "<title>/Type /Page /Type /Page</title><p>one page</p><a href='https://x.example/Type%20/Page'>/Type /Page</a>",
      Array.from({ length: 120 }, (_, i) => `<p>line ${i}</p>`).join(""),
    ]) {
      const outcome = await env.ENGINES.htmlToPdf(request(html), refuseAll);
      if (!outcome.ok) throw new Error(outcome.detail);
      const pdf = await inspectPdf(outcome.pdf);
      expect(countPdfPages(outcome.pdf)).toBe(pdf.pageCount);
      expect(outcome.pageCount).toBe(pdf.pageCount);
    }
  });
});
