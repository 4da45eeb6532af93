/**
 * The one model the parser reads, whichever format the résumé came in: lines of text in reading
 * order (column by column), each with where it stood and how it looked. PDF lines come from
 * pdf.js's positioned text (pdf-lines.ts), DOCX lines from WordprocessingML's paragraphs and
 * table cells (docx-lines.ts); everything after that is format-blind.
 */
export interface Line {
  text: string;
  /**
   * The pieces a line was set in, apart: a title and its right-aligned dates, a tab-separated
   * cell. One piece for most lines.
   */
  parts: string[];
  /** 1-based. */
  page: number;
  /** From the page's left edge, in points (DOCX: 0). */
  x: number;
  /** Baseline from the page's top, in points (DOCX: the paragraph's index). */
  y: number;
  /** In points; 0 where unknown. */
  fontSize: number;
  bold: boolean;
  /** 0 for the only or the left column (or header), 1 for the right one. */
  column: number;
  /** A paragraph the document itself marks as a title or heading (DOCX styles). */
  styled?: "title" | "heading";
  /** A list item (a numbered DOCX paragraph; PDF bullets are read from their glyph). */
  listItem?: boolean;
}

export interface DocumentLines {
  lines: Line[];
  /** A PDF's page count; null for a DOCX (its pages exist only once Word lays it out). */
  pages: number | null;
  /** The most columns found on one page (1 or 2). */
  columns: number;
}

/**
 * Bounds on the model, so every reader after it does bounded work whatever the file holds: a
 * résumé has a few hundred lines of at most a few hundred characters. A longer line is cut
 * before any pattern reads it (a pattern that backtracks costs the square of a line's length);
 * a document of more lines is refused as too large.
 */
export const MAX_LINE_CHARS = 2_000;
export const MAX_LINES = 20_000;

/** A text cut to MAX_LINE_CHARS, never through a surrogate pair. */
export function capLine(text: string): string {
  if (text.length <= MAX_LINE_CHARS) return text;
  const end = /[\ud800-\udbff]/.test(text[MAX_LINE_CHARS - 1]!) ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS;
  return text.slice(0, end);
}

/** The refusal of a document with more than MAX_LINES lines. */
export const tooManyLines = (what: string) => ({
  ok: false as const,
  problem: "unreadable-document" as const,
  detail: `${what} has more than ${MAX_LINES} lines of text; a résumé has a few hundred.`,
  extensions: { reason: "too-large" as const },
});

/** Whitespace runs as one space, trimmed. */
export const squash = (text: string) => text.replace(/[\s\u00a0\u200b]+/g, " ").trim();

/** The font size most of the text is set in: what "larger" is measured against. */
export function bodyFontSize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    if (!line.fontSize) continue;
    const size = Math.round(line.fontSize * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, count] of weight) {
    if (count > bestWeight) {
      best = size;
      bestWeight = count;
    }
  }
  return best;
}
