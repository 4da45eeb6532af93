/**
 * What the HTML-to-PDF API (main Worker: schema and docs) and the browser engine (engine Worker)
 * must agree on, in one place, with no dependencies: how a CSS length reads, how long a page may
 * be waited for, and how large a PDF may be. The
 * embedded engine's layout (embedded/layout.ts) has a length reader of its own, in points.
 */

/**
 * The largest PDF the browser engine answers: it crosses RPC back to the main Worker, is held
 * whole in both isolates' 128 MB, and `?as=json` base64s it there (a third larger again). The PDF
 * is read from Chromium as a stream and the read stops here, so a larger one is never held whole.
 */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;

/** The most pages a browser PDF may have; more is refused (422) rather than answered. */
export const MAX_PDF_PAGES = 500;

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
