/**
 * Two-column résumés (a sidebar of contacts and skills beside the main column) are read column
 * by column. A text extractor that sorts by position alone interleaves them line by line, and
 * every field after that is wrong.
 *
 * The gutter is found in the x histogram of one page's text: an empty vertical band with enough
 * text on both sides, below the page's full-width header (a name or contact line may cross it;
 * nothing else may). A right-aligned date beside each job title also leaves an empty band, so a
 * side made mostly of dates is not a column, and the band must run down a good part of the page.
 *
 * The band is searched across the text's own horizontal extent, at most BINS places, never
 * across the page's declared width (a MediaBox a billion points wide is the file's to choose),
 * and each place costs a pass over the items (pdf-lines.ts bounds how many a page may have).
 */
import { findDateRange, findSingleDate } from "./fields/dates";

export interface PositionedItem {
  text: string;
  x: number;
  /** Baseline from the page's top. */
  y: number;
  width: number;
  fontSize: number;
  bold: boolean;
}

export interface PageColumns {
  /** Full-width lines above the columns (or the whole page when it has one column). */
  header: PositionedItem[];
  columns: PositionedItem[][];
}

const MIN_GUTTER = 6;
/** Places a gutter is looked for: 2 pt apart across an A4 page's text, further apart across a wider one. */
const BINS = 200;

export function splitColumns(items: readonly PositionedItem[]): PageColumns {
  const single = { header: [...items], columns: [] };
  if (items.length < 8) return single;
  let top = Infinity;
  let bottom = -Infinity;
  let left = Infinity;
  let right = -Infinity;
  for (const item of items) {
    top = Math.min(top, item.y);
    bottom = Math.max(bottom, item.y);
    left = Math.min(left, item.x);
    right = Math.max(right, item.x + item.width);
  }
  const textHeight = Math.max(bottom - top, 1);
  const span = right - left;
  if (!Number.isFinite(span) || span <= MIN_GUTTER) return single;

  const datelike = new Set(
    items.filter((item) => findDateRange(item.text) || (findSingleDate(item.text) && item.text.length < 12)),
  );
  type Band = { from: number; to: number; headerBottom: number; aligned: number };
  let best: Band | null = null;
  let band: Band | null = null;
  const close = () => {
    if (band && band.to - band.from >= MIN_GUTTER) {
      band.aligned = rightEdgeAlignment(items, band.to, band.headerBottom);
      // A column's lines start at one x. A band between job titles and their right-aligned
      // dates (inside the main column) has dates of several widths on its right, so where
      // two bands qualify the one whose right side is aligned is the gutter.
      const better =
        !best ||
        band.aligned > best.aligned + 0.05 ||
        (Math.abs(band.aligned - best.aligned) <= 0.05 && band.to - band.from > best.to - best.from);
      if (better) best = band;
    }
    band = null;
  };
  // A column is not within a tenth of the text's edges (a bullet beside its line is not one).
  const step = Math.max(2, span / BINS);
  for (let x = left + span * 0.1; x <= right - span * 0.1; x += step) {
    const crossing = new Set<PositionedItem>();
    let headerBottom = -Infinity;
    for (const item of items) {
      if (item.x < x && item.x + item.width > x) {
        crossing.add(item);
        headerBottom = Math.max(headerBottom, item.y);
      }
    }
    // The header above the columns is made of the lines that cross them (a name, a contact
    // line): a band that only clears the page's lower part, with side-by-side text above it, is
    // a gap inside one column, not a gutter. The cheap bound first.
    let valid = crossing.size <= items.length * 0.25;
    if (valid) {
      let besideAbove = 0;
      for (const item of items) if (item.y <= headerBottom && !crossing.has(item)) besideAbove++;
      valid = besideAbove <= crossing.size && sidesHoldColumns(items, x, headerBottom, textHeight, bottom, datelike);
    }
    if (!valid) {
      close();
      continue;
    }
    if (band && band.headerBottom === headerBottom) band.to = x;
    else {
      close();
      band = { from: x, to: x, headerBottom, aligned: 0 };
    }
  }
  close();
  if (!best) return single;
  const { from, to, headerBottom } = best as Band;
  const gutter = (from + to) / 2;
  const header = items.filter((item) => item.y <= headerBottom);
  const below = items.filter((item) => item.y > headerBottom);
  return {
    header,
    columns: [below.filter((item) => item.x + item.width <= gutter), below.filter((item) => item.x >= gutter)],
  };
}

/** The share of the items right of `x` (below the header) that start at the side's most common x. */
function rightEdgeAlignment(items: readonly PositionedItem[], x: number, headerBottom: number): number {
  const starts = items.filter((item) => item.y > headerBottom && item.x >= x).map((item) => Math.round(item.x));
  if (!starts.length) return 0;
  const counts = new Map<number, number>();
  for (const start of starts) {
    for (const near of [start - 1, start, start + 1]) counts.set(near, (counts.get(near) ?? 0) + 1);
  }
  let most = 0;
  for (const count of counts.values()) most = Math.max(most, count);
  return most / starts.length;
}

function sidesHoldColumns(
  items: readonly PositionedItem[],
  x: number,
  headerBottom: number,
  textHeight: number,
  bottom: number,
  datelike: ReadonlySet<PositionedItem>,
): boolean {
  const below = items.filter((item) => item.y > headerBottom);
  const left = below.filter((item) => item.x + item.width <= x);
  const right = below.filter((item) => item.x >= x);
  if (left.length < 3 || right.length < 3) return false;
  // The columns run down a good part of the page, not only its last lines.
  if (bottom - headerBottom < textHeight * 0.35) return false;
  const extent = (side: PositionedItem[]) => {
    let low = Infinity;
    let high = -Infinity;
    for (const item of side) {
      low = Math.min(low, item.y);
      high = Math.max(high, item.y);
    }
    return high - low;
  };
  if (extent(left) < textHeight * 0.25 || extent(right) < textHeight * 0.25) return false;
  // A side of dates (or of dates and little else) sits beside job titles: rows, not columns.
  const dates = (side: PositionedItem[]) => side.filter((item) => datelike.has(item)).length / side.length;
  return dates(left) < 0.5 && dates(right) < 0.5;
}
