/**
 * Draws a QR matrix as SVG, one unit per module (the viewBox), scaled to the requested pixels.
 *
 * - Each colour is one `<path>`: adjacent modules of one path are filled together, so the
 *   rasteriser leaves no hairline seams between them.
 * - The three finder patterns and the alignment patterns are always square, whatever the dot
 *   style: scanners find the symbol by the finders' 1:1:3:1:1 ring profile and correct its
 *   perspective with the alignment rings, and circles blur both (with alignment patterns as dots,
 *   jsQR failed on up to 6 of 7 sizes of a dotted test code; with them square, on none).
 * - Modules are whole pixels where the size allows (at least 1 px each): the symbol is scaled by
 *   the largest whole number of pixels per module and centred, the leftover (under one pixel per module)
 *   widening the quiet zone, as qr-code-styling does. Fractional module sizes alternate between two widths
 *   and made jsQR misread large codes at 2.5 and 3.5 px per module.
 * - With a logo, the modules under a centred square pad are left out and the pad is drawn white,
 *   with the logo inside it. The pad spans at most 20% of the symbol's width (so about 4% of its
 *   area), which error correction H (30% of codewords) recovers with room to spare.
 */
import type { QrMatrix } from "./engine";

export type DotStyle = "square" | "dots" | "rounded";

export interface QrSvgOptions {
  /** Output width and height in pixels. */
  size: number;
  /** Quiet zone, in modules. */
  margin: number;
  /** Normalised `#rrggbb`. */
  foreground: string;
  /** Normalised `#rrggbb`, or "transparent". */
  background: string;
  dotStyle: DotStyle;
  logo?: {
    /** A base64 `data:` URL (canonical, so safe inside an attribute). */
    dataUrl: string;
    /** Space between the logo and the pad's edge, in output pixels. */
    marginPx?: number;
  };
}

const LOGO_PAD_SHARE = 0.2;

/** The logo pad in modules: the largest odd span within 20% of the width, so it centres on the grid. */
export function logoPadModules(symbolSize: number): { start: number; length: number } {
  let length = Math.floor(symbolSize * LOGO_PAD_SHARE);
  if (length % 2 === 0) length -= 1;
  length = Math.max(1, length);
  return { start: (symbolSize - length) / 2, length };
}

/** A circle of radius .45 centred in the module: scanners sample module centres, and the gaps read as dots. */
function dotPath(x: number, y: number): string {
  return `M${x} ${y}m.05 .5a.45 .45 0 1 0 .9 0a.45 .45 0 1 0 -.9 0z`;
}

/** A module whose corners are rounded where both neighbours meeting at that corner are light. */
function roundedPath(x: number, y: number, corners: { tl: boolean; tr: boolean; br: boolean; bl: boolean }): string {
  const tl = corners.tl ? 0.5 : 0;
  const tr = corners.tr ? 0.5 : 0;
  const br = corners.br ? 0.5 : 0;
  const bl = corners.bl ? 0.5 : 0;
  return [
    `M${x} ${y}m${tl} 0`,
    `h${1 - tl - tr}`,
    tr ? "a.5 .5 0 0 1 .5 .5" : "",
    `v${1 - tr - br}`,
    br ? "a.5 .5 0 0 1 -.5 .5" : "",
    `h${-(1 - br - bl)}`,
    bl ? "a.5 .5 0 0 1 -.5 -.5" : "",
    `v${-(1 - bl - tl)}`,
    tl ? "a.5 .5 0 0 1 .5 -.5" : "",
    "z",
  ].join("");
}

export function renderQrSvg(matrix: QrMatrix, options: QrSvgOptions): string {
  const n = matrix.size;
  const margin = options.margin;
  const total = n + 2 * margin;
  const pad = options.logo ? logoPadModules(n) : undefined;
  const inPad = (row: number, column: number) =>
    pad !== undefined &&
    row >= pad.start &&
    row < pad.start + pad.length &&
    column >= pad.start &&
    column < pad.start + pad.length;
  const dark = (row: number, column: number) =>
    row >= 0 && column >= 0 && row < n && column < n && matrix.isDark(row, column) && !inPad(row, column);

  const squares: string[] = [];
  const shaped: string[] = [];
  for (let row = 0; row < n; row += 1) {
    // Square modules in a row merge into runs: a fraction of the path data of one square each.
    let runStart = -1;
    for (let column = 0; column <= n; column += 1) {
      const isDark = column < n && dark(row, column);
      const drawnSquare = isDark && (options.dotStyle === "square" || matrix.isLocator(row, column));
      if (drawnSquare) {
        if (runStart < 0) runStart = column;
        continue;
      }
      if (runStart >= 0) {
        const length = column - runStart;
        squares.push(`M${margin + runStart} ${margin + row}h${length}v1h${-length}z`);
        runStart = -1;
      }
      if (!isDark) continue;
      const x = margin + column;
      const y = margin + row;
      if (options.dotStyle === "dots") {
        shaped.push(dotPath(x, y));
      } else {
        const up = dark(row - 1, column);
        const down = dark(row + 1, column);
        const left = dark(row, column - 1);
        const right = dark(row, column + 1);
        shaped.push(
          roundedPath(x, y, { tl: !up && !left, tr: !up && !right, br: !down && !right, bl: !down && !left }),
        );
      }
    }
  }

  // Whole pixels per module when possible; the viewBox then reaches past the quiet zone so that
  // exactly `size` pixels are covered and the symbol starts on a whole pixel.
  const pixelsPerModule =
    Math.floor(options.size / total) >= 1 ? Math.floor(options.size / total) : options.size / total;
  const offset = round(Math.floor((options.size - pixelsPerModule * total) / 2) / pixelsPerModule);
  const span = round(options.size / pixelsPerModule);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${options.size}" height="${options.size}" viewBox="${-offset} ${-offset} ${span} ${span}"` +
      // Square modules look sharpest unantialiased; curves need antialiasing.
      (options.dotStyle === "square" ? ` shape-rendering="crispEdges">` : ">"),
  ];
  if (options.background !== "transparent") {
    parts.push(`<rect x="${-offset}" y="${-offset}" width="${span}" height="${span}" fill="${options.background}"/>`);
  }
  const modules = squares.join("") + shaped.join("");
  if (modules) parts.push(`<path fill="${options.foreground}" d="${modules}"/>`);

  if (options.logo && pad) {
    const padX = margin + pad.start;
    const unitsPerPixel = 1 / pixelsPerModule;
    // Default: a tenth of the pad on each side. At most 30%, so the logo keeps 40% of the pad.
    const requestedInset =
      options.logo.marginPx === undefined ? pad.length * 0.1 : options.logo.marginPx * unitsPerPixel;
    const inset = Math.min(requestedInset, pad.length * 0.3);
    const logoSize = pad.length - 2 * inset;
    parts.push(`<rect x="${padX}" y="${padX}" width="${pad.length}" height="${pad.length}" fill="#ffffff"/>`);
    parts.push(
      `<image x="${round(padX + inset)}" y="${round(padX + inset)}" width="${round(logoSize)}" height="${round(logoSize)}"` +
        ` preserveAspectRatio="xMidYMid meet" href="${options.logo.dataUrl}"/>`,
    );
  }
  parts.push("</svg>");
  return parts.join("");
}

/** Four decimals: exact enough at 2048 px, and free of binary-fraction noise such as 0.30000000000000004. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
