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
  pages: number;
  /** The most columns found on one page (1 or 2). */
  columns: number;
}

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
