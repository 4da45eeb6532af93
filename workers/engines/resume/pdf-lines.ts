/**
 * A PDF's text with its positions and fonts, through pdf.js (unpdf's serverless build), grouped
 * into lines column by column. Refusals come before any page is read: a truncated file (no
 * `%%EOF` at its end), a page tree claiming more pages than a résumé has, a password. pdf.js runs
 * in this isolate without a worker, so the caller's deadline destroys its loading task.
 */
import { getResolvedPDFJS } from "unpdf";
import type { DocumentFailure } from "~workers/hosted/capabilities";
import { splitColumns, type PositionedItem } from "./columns";
import { capLine, MAX_LINES, squash, tooManyLines, type DocumentLines, type Line } from "./lines";

export const MAX_PAGES = 20;
/** Pieces of text on one page: a dense résumé page has a few hundred; the column search is linear in them. */
export const MAX_ITEMS_PER_PAGE = 5_000;
/**
 * Pixels of one image pdf.js decodes: the bold fonts are learnt from a page's operator list,
 * which decodes its images too; a résumé's photo is far smaller, and a larger image is skipped.
 */
const MAX_IMAGE_PIXELS = 4_000_000;

const unreadable = (
  reason: "malformed" | "truncated" | "encrypted" | "too-large",
  detail: string,
): DocumentFailure => ({
  ok: false,
  problem: "unreadable-document",
  detail,
  extensions: { reason },
});

/** A page footer such as "Page 1 of 2" is not part of the résumé. */
const PAGE_FOOTER = /^(?:page|seite|página|pagina)\s+\d+\s*(?:(?:of|von|de|sur|\/)\s*\d+)?$|^\d+\s*\/\s*\d+$/i;

export async function readPdfLines(
  bytes: Uint8Array,
  signal: AbortSignal,
): Promise<{ ok: true; value: DocumentLines } | DocumentFailure> {
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 1024)));
  if (!tail.includes("%%EOF"))
    return unreadable("truncated", "The PDF ends before its end-of-file marker: it was cut short.");
  const claimed = claimedPageCount(bytes);
  if (claimed > MAX_PAGES) return tooManyPages(claimed);

  const pdfjs = await getResolvedPDFJS();
  // pdf.js takes ownership of (detaches) the buffer it is given.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: 0,
    // (No isEvalSupported: this pdf.js has no eval path left, and workerd forbids eval anyway.)
    maxImageSize: MAX_IMAGE_PIXELS,
  });
  const destroy = () => void task.destroy();
  signal.addEventListener("abort", destroy);
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      return loadFailure(error);
    }
    if (document.numPages > MAX_PAGES) return tooManyPages(document.numPages);
    const lines: Line[] = [];
    let columns = 1;
    for (let number = 1; number <= document.numPages; number++) {
      // pdf.js works in this thread: between pages, let the deadline's timer run.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (signal.aborted) throw new Error("deadline");
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const bold = await boldFonts(page, content.styles);
      const pageHeight = page.view[3] ?? 842;
      const items: PositionedItem[] = [];
      for (const item of content.items) {
        if (!("str" in item) || !item.str.trim()) continue;
        if (items.length >= MAX_ITEMS_PER_PAGE) {
          return unreadable(
            "too-large",
            `Page ${number} of the PDF has more than ${MAX_ITEMS_PER_PAGE} pieces of text; a résumé's page has a few hundred.`,
          );
        }
        const [a, b, , , e, f] = item.transform as number[];
        items.push({
          text: capLine(item.str),
          x: e ?? 0,
          y: pageHeight - (f ?? 0),
          width: item.width,
          fontSize: Math.hypot(a ?? 0, b ?? 0) || item.height,
          bold: bold.has(item.fontName),
        });
      }
      const text = items.filter((item) => !PAGE_FOOTER.test(item.text.trim()));
      const split = splitColumns(text);
      if (split.columns.length > 1) columns = Math.max(columns, split.columns.length);
      lines.push(...toLines(split.header, number, 0));
      split.columns.forEach((column, index) => lines.push(...toLines(column, number, index)));
      if (lines.length > MAX_LINES) return tooManyLines("The PDF");
      page.cleanup();
    }
    return { ok: true, value: { lines, pages: document.numPages, columns } };
  } finally {
    signal.removeEventListener("abort", destroy);
    await task.destroy();
  }
}

function tooManyPages(count: number): DocumentFailure {
  return unreadable("too-large", `The PDF has ${count} pages; a résumé may have at most ${MAX_PAGES}.`);
}

function loadFailure(error: unknown): DocumentFailure {
  const name = (error as { name?: string } | null)?.name;
  if (name === "PasswordException")
    return unreadable("encrypted", "The PDF is protected by a password; send it without the protection.");
  return unreadable("malformed", "The file starts as a PDF but its structure cannot be read.");
}

/**
 * The largest `/Count` a page tree node declares, read from the raw bytes before pdf.js: a file
 * that claims millions of pages is refused without walking its tree. Page trees kept in
 * compressed object streams are not seen here; pdf.js's page count covers those.
 */
function claimedPageCount(bytes: Uint8Array): number {
  const text = new TextDecoder("latin1").decode(bytes);
  let most = 0;
  for (const match of text.matchAll(/<<((?:(?!<<|>>)[\s\S]){0,2000})>>/g)) {
    const body = match[1]!;
    if (!/\/Type\s*\/Pages\b/.test(body)) continue;
    const count = /\/Count\s+(\d+)/.exec(body);
    if (count) most = Math.max(most, Number(count[1]));
  }
  return most;
}

/**
 * Which of the page's fonts are bold. Text content names fonts by pdf.js's internal ids; their
 * real names ("Helvetica-Bold", "ABCDEF+Calibri-Bold") are known once the page's operator list
 * has loaded them.
 */
async function boldFonts(
  page: { getOperatorList(): Promise<unknown>; commonObjs: { has(id: string): boolean; get(id: string): unknown } },
  styles: Record<string, unknown>,
): Promise<Set<string>> {
  const bold = new Set<string>();
  try {
    await page.getOperatorList();
  } catch {
    return bold;
  }
  for (const id of Object.keys(styles)) {
    if (!page.commonObjs.has(id)) continue;
    const font = page.commonObjs.get(id) as { name?: string; bold?: boolean; black?: boolean } | null;
    if (font && (font.bold || font.black || /bold|black|heavy|semibold|demi/i.test(font.name ?? ""))) bold.add(id);
  }
  return bold;
}

/** Items into lines: one baseline (within half a font size), left to right. */
function toLines(items: readonly PositionedItem[], page: number, column: number): Line[] {
  const sorted = [...items].sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: PositionedItem[][] = [];
  for (const item of sorted) {
    const row = rows.at(-1);
    const anchor = row?.[0];
    if (row && anchor && Math.abs(item.y - anchor.y) <= Math.min(anchor.fontSize, item.fontSize) * 0.5) row.push(item);
    else rows.push([item]);
  }
  return rows.map((row) => {
    row.sort((a, b) => a.x - b.x);
    const parts: string[] = [];
    let current = "";
    let end = -Infinity;
    let characters = 0;
    let boldCharacters = 0;
    let fontSize = 0;
    for (const item of row) {
      const gap = item.x - end;
      if (current && gap > item.fontSize * 1.5) {
        parts.push(squash(current));
        current = item.text;
      } else current += current && gap > item.fontSize * 0.15 && !current.endsWith(" ") ? ` ${item.text}` : item.text;
      end = item.x + item.width;
      characters += item.text.length;
      if (item.bold) boldCharacters += item.text.length;
      fontSize = Math.max(fontSize, item.fontSize);
    }
    parts.push(squash(current));
    const kept = parts.map(capLine).filter(Boolean);
    return {
      text: capLine(kept.join(" ")),
      parts: kept,
      page,
      x: row[0]!.x,
      y: row[0]!.y,
      fontSize: Math.round(fontSize * 100) / 100,
      bold: boldCharacters > characters / 2,
      column,
    };
  });
}
