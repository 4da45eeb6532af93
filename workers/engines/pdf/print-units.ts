/**
 * What the HTML-to-PDF API's schema (main Worker) and the browser engine (engine Worker) must
 * agree on, in one place: how a CSS length reads, and how long a page may be waited for. The
 * embedded engine's layout (embedded/layout.ts) has a length reader of its own, in points.
 */

/** The longest `waitFor` (a delay, or a selector's patience), in milliseconds. */
export const MAX_WAIT_MS = 10_000;

/** A CSS length the API takes: a number with `px` (the default), `in`, `cm`, `mm`, `pt` or `pc`. */
export const LENGTH = /^(\d+(?:\.\d+)?|\.\d+)(px|in|cm|mm|pt|pc)?$/;

/** CSS pixels per unit, as Chromium measures print lengths (96 px to the inch). */
const PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, pt: 96 / 72, pc: 16 };

/** A CSS length (`"1.5cm"`, `"20px"`, `"0"`) in CSS pixels, the unit puppeteer takes numbers in; NaN when it does not read. */
export function lengthToPixels(length: string): number {
  const match = LENGTH.exec(length.trim());
  return Number(match?.[1] ?? Number.NaN) * (PX_PER_UNIT[match?.[2] ?? "px"] ?? 1);
}
