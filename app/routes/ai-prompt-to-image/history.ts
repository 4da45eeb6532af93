/**
 * The admin's image list on the page: the loader's first page, and older pages loaded below it,
 * each after the last image shown (`GET /api/ai/images?after=<id>`). A new picture moves every
 * page down by one, so older pages loaded before it would skip the image pushed off the first
 * page: they are kept only while the first page still ends where they began.
 */
import type { LinkedAiImage } from "~workers/platform/ai-images";

/** A page as the API and the loader give it: `next` is the id to continue after, null at the end. */
export interface HistoryPage {
  images: LinkedAiImage[];
  next: string | null;
}

/** Older pages shown below the first, and the first page's last id they continue from. */
export interface OlderImages extends HistoryPage {
  from: string;
}

/** What the page lists, and the id to ask the next page after (null: nothing older). */
export function shownHistory(first: HistoryPage, older: OlderImages | null): HistoryPage {
  if (!older || older.from !== first.images.at(-1)?.id) return first;
  return { images: [...first.images, ...older.images], next: older.next };
}

/**
 * The older pages once `page`, asked for after `after`, has come back. A page asked for a list
 * that has moved since, or answered twice, is dropped: appending it would skip or repeat images.
 */
export function withOlderPage(
  first: HistoryPage,
  older: OlderImages | null,
  after: string,
  page: HistoryPage,
): OlderImages | null {
  const shown = shownHistory(first, older);
  if (shown.next !== after) return older;
  const current = shown === first ? null : older;
  const from = first.images.at(-1)?.id;
  if (from === undefined) return older;
  return { from, images: [...(current?.images ?? []), ...page.images], next: page.next };
}
