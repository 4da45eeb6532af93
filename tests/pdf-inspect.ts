/**
 * Reads a PDF the way the HTML-to-PDF tests check it: page count, each page's size in points
 * and orientation, and each page's text, with unpdf (pdf.js) as the independent reader. The
 * engines under test never use this module.
 */
import { extractText, getDocumentProxy } from "unpdf";
import type { HtmlToPdfRequest } from "~workers/hosted/capabilities";

export interface InspectedPage {
  /** In PostScript points (1/72 in): A4 is 595.28 × 841.89. */
  width: number;
  height: number;
  orientation: "portrait" | "landscape";
  /** The page's text, with runs of whitespace as one space. */
  text: string;
}

export interface InspectedPdf {
  pageCount: number;
  pages: InspectedPage[];
  /** Every page's text, pages joined by a newline. */
  text: string;
}

export async function inspectPdf(bytes: Uint8Array): Promise<InspectedPdf> {
  // pdf.js takes ownership of the buffer it is given: read a copy.
  const document = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(document, { mergePages: false });
  const pages: InspectedPage[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    const width = Math.abs(x1 - x0);
    const height = Math.abs(y1 - y0);
    pages.push({
      width,
      height,
      orientation: width > height ? "landscape" : "portrait",
      text: (text[number - 1] ?? "").replace(/\s+/g, " ").trim(),
    });
  }
  return { pageCount: document.numPages, pages, text: pages.map((page) => page.text).join("\n") };
}

/** Paper sizes in points, for comparing with `InspectedPage` (within half a point). */
export const PAPER_POINTS = {
  A3: { width: 841.89, height: 1190.55 },
  A4: { width: 595.28, height: 841.89 },
  A5: { width: 419.53, height: 595.28 },
  Letter: { width: 612, height: 792 },
  Legal: { width: 612, height: 1008 },
  Tabloid: { width: 792, height: 1224 },
} as const;

/**
 * An engine request as the API builds one from `{html}` and its defaults (A4 portrait, 1 cm
 * margins, scale 1, print media, the engines' 20 s), with the test's changes.
 */
export function pdfRequest(html: string, overrides: Partial<HtmlToPdfRequest> = {}): HtmlToPdfRequest {
  return {
    source: { html },
    engine: "auto",
    paper: { format: "A4" },
    landscape: false,
    margin: { top: "1cm", right: "1cm", bottom: "1cm", left: "1cm" },
    printBackground: false,
    scale: 1,
    emulateMedia: "print",
    timeoutMs: 20_000,
    ...overrides,
  };
}
