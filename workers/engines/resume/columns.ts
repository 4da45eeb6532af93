/**
 * Two-column résumés (a sidebar of contacts and skills beside the main column) are read column
 * by column. A text extractor that sorts by position alone interleaves them line by line, and
 * every field after that is wrong.
 *
 * The gutter is found in the x histogram of one page's text: an empty vertical band with enough
 * text on both sides, below the page's full-width header (a name or contact line may cross it;
 * nothing else may). A right-aligned date beside each job title also leaves an empty band, so a
 * side made mostly of dates is not a column, and the band must run down a good part of the page.
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

export function splitColumns(items: readonly PositionedItem[], pageWidth: number): PageColumns {
  const single = { header: [...items], columns: [] };
  if (items.length < 8) return single;
  const top = Math.min(...items.map((item) => item.y));
  const bottom = Math.max(...items.map((item) => item.y));
  const textHeight = Math.max(bottom - top, 1);

  const datelike = new Set(
    items.filter((item) => findDateRange(item.text) || (findSingleDate(item.text) && item.text.length < 12)),
  );
  let best: { from: number; to: number; headerBottom: number } | null = null;
  let band: { from: number; to: number; headerBottom: number } | null = null;
  const close = () => {
    if (band && band.to - band.from >= MIN_GUTTER && (!best || band.to - band.from > best.to - best.from)) best = band;
    band = null;
  };
  for (let x = Math.round(pageWidth * 0.12); x <= pageWidth * 0.88; x += 2) {
    const crossing = items.filter((item) => item.x < x && item.x + item.width > x);
    const headerBottom = crossing.length ? Math.max(...crossing.map((item) => item.y)) : -Infinity;
    const valid =
      crossing.length <= items.length * 0.25 && sidesHoldColumns(items, x, headerBottom, textHeight, bottom, datelike);
    if (!valid) {
      close();
      continue;
    }
    if (band && band.headerBottom === headerBottom) band.to = x;
    else {
      close();
      band = { from: x, to: x, headerBottom };
    }
  }
  close();
  if (!best) return single;
  const { from, to, headerBottom } = best as { from: number; to: number; headerBottom: number };
  const gutter = (from + to) / 2;
  const header = items.filter((item) => item.y <= headerBottom);
  const below = items.filter((item) => item.y > headerBottom);
  return {
    header,
    columns: [below.filter((item) => item.x + item.width <= gutter), below.filter((item) => item.x >= gutter)],
  };
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
  const extent = (side: PositionedItem[]) =>
    Math.max(...side.map((item) => item.y)) - Math.min(...side.map((item) => item.y));
  if (extent(left) < textHeight * 0.25 || extent(right) < textHeight * 0.25) return false;
  // A side of dates (or of dates and little else) sits beside job titles: rows, not columns.
  const dates = (side: PositionedItem[]) => side.filter((item) => datelike.has(item)).length / side.length;
  return dates(left) < 0.5 && dates(right) < 0.5;
}
