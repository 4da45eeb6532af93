/**
 * The page geometry of an HTML-to-PDF request in pdfmake's terms: CSS lengths as PostScript
 * points, paper formats as point sizes, and Chromium's `pageRanges` as page numbers.
 */
import type { HtmlToPdfRequest, PaperFormat } from "~workers/hosted/capabilities";
import { lengthToPixels } from "../print-units";

/**
 * A CSS length as points, or null when it does not read. The browser engine and the API's
 * schema read lengths with the same function (print-units.ts), so a length means the same in
 * both engines; a bare number is pixels, as Puppeteer reads one (96 px = 72 pt).
 */
export function cssLengthToPoints(length: string): number | null {
  const pixels = lengthToPixels(length);
  return Number.isNaN(pixels) ? null : pixels * 0.75;
}

/** The paper sizes in points, portrait, as Chromium prints them. */
export const PAPER_SIZES: Record<PaperFormat, { width: number; height: number }> = {
  A3: { width: 841.89, height: 1190.55 },
  A4: { width: 595.28, height: 841.89 },
  A5: { width: 419.53, height: 595.28 },
  Letter: { width: 612, height: 792 },
  Legal: { width: 612, height: 1008 },
  Tabloid: { width: 792, height: 1224 },
};

/** Smaller than a business card or larger than a poster is a mistake, not a page. */
const MIN_SIDE_POINTS = 72;
const MAX_SIDE_POINTS = 14_400;

export interface PageGeometry {
  width: number;
  height: number;
  /** pdfmake's order: left, top, right, bottom. */
  margins: [number, number, number, number];
}

/** The page size and margins, or the sentence saying which field is unusable. */
export function pageGeometry(
  request: HtmlToPdfRequest,
): { ok: true; geometry: PageGeometry } | { ok: false; detail: string } {
  let width: number;
  let height: number;
  if ("format" in request.paper) {
    ({ width, height } = PAPER_SIZES[request.paper.format]);
  } else {
    const w = cssLengthToPoints(request.paper.width);
    const h = cssLengthToPoints(request.paper.height);
    if (w === null || h === null) {
      return { ok: false, detail: "width and height must be absolute CSS lengths (px, pt, pc, in, cm, mm)." };
    }
    [width, height] = [w, h];
  }
  if (request.landscape) [width, height] = [height, width];
  for (const side of [width, height]) {
    if (side < MIN_SIDE_POINTS || side > MAX_SIDE_POINTS) {
      return {
        ok: false,
        detail: `Each side of the paper must be between 1in and 200in; this one is ${round(side)}pt.`,
      };
    }
  }
  const margins: number[] = [];
  for (const side of ["left", "top", "right", "bottom"] as const) {
    const points = cssLengthToPoints(request.margin[side]);
    if (points === null)
      return { ok: false, detail: `margin.${side} must be an absolute CSS length (px, pt, pc, in, cm, mm).` };
    margins.push(points);
  }
  const [left, top, right, bottom] = margins as [number, number, number, number];
  // pdfmake needs room for at least a line of text between the margins.
  if (width - left - right < 36 || height - top - bottom < 36) {
    return { ok: false, detail: "The margins leave less than half an inch of the page to print on." };
  }
  return { ok: true, geometry: { width, height, margins: [left, top, right, bottom] } };
}

/**
 * The 1-based page numbers `pageRanges` keeps of a `pageCount`-page document, in order and
 * each once, as Chromium reads `"1-3, 5, 8-"` (an open end runs to the first or last page).
 * Pages past the end are ignored; null when the text is not a list of ranges.
 */
export function selectPages(pageRanges: string, pageCount: number): number[] | null {
  const keep = new Set<number>();
  for (const part of pageRanges.split(",")) {
    const range = /^\s*(\d*)\s*(-?)\s*(\d*)\s*$/.exec(part);
    if (!range || (range[1] === "" && range[3] === "")) return null;
    const from = range[1] === "" ? 1 : Number(range[1]);
    const to = range[2] === "" ? from : range[3] === "" ? Number.POSITIVE_INFINITY : Number(range[3]);
    if (from < 1 || to < from) return null;
    for (let page = from; page <= Math.min(to, pageCount); page++) keep.add(page);
  }
  return [...keep].sort((a, b) => a - b);
}

const round = (value: number): number => Math.round(value * 100) / 100;
