/**
 * The QR matrix from `qrcode`'s encoder. It picks the smallest version and the best mask for the
 * text and level, and is deterministic: the same text and level always give the same modules.
 */
import { getPositions } from "qrcode/lib/core/alignment-pattern.js";
import { create } from "qrcode/lib/core/qrcode.js";
import type { QrCharset } from "./schema";

export type ErrorCorrectionLevel = "L" | "M" | "Q" | "H";

export interface QrMatrix {
  /** Modules per side (21 for version 1, up to 177 for version 40). */
  size: number;
  version: number;
  isDark(row: number, column: number): boolean;
  /** Whether the module belongs to a finder pattern (7×7, three corners) or an alignment pattern (5×5). */
  isLocator(row: number, column: number): boolean;
}

/** The text does not fit a QR code (version 40) at the chosen error correction level. */
export class QrCapacityError extends Error {}

const FINDER_SIZE = 7;
const ALIGNMENT_RADIUS = 2;

/**
 * The code's data: the text itself, which `qrcode` splits into numeric, alphanumeric and byte
 * segments and writes as UTF-8, or for ISO-8859-1 text beyond ASCII one byte segment of its
 * Latin-1 bytes (the caller has checked every character is at most U+00FF). ASCII is the same
 * bytes in both, so it keeps the library's smaller segments.
 */
function dataFor(text: string, charset: QrCharset): Parameters<typeof create>[0] {
  if (charset === "UTF-8" || !/[^\x00-\x7f]/.test(text)) return text;
  return [{ data: Uint8Array.from(text, (character) => character.charCodeAt(0)), mode: "byte" }];
}

export function createQrMatrix(
  text: string,
  errorCorrection: ErrorCorrectionLevel,
  charset: QrCharset = "UTF-8",
): QrMatrix {
  let code: ReturnType<typeof create>;
  try {
    code = create(dataFor(text, charset), { errorCorrectionLevel: errorCorrection });
  } catch (error) {
    // The encoder's only input error: anything else is a fault of the engine, and stays thrown.
    if (error instanceof Error && error.message.includes("too big to be stored")) {
      throw new QrCapacityError(`The text is too long for a QR code at error correction ${errorCorrection}.`);
    }
    throw error;
  }
  const { size, data } = code.modules;
  const alignment = new Uint8Array(size * size);
  for (const [centreRow, centreColumn] of getPositions(code.version)) {
    for (let row = centreRow - ALIGNMENT_RADIUS; row <= centreRow + ALIGNMENT_RADIUS; row += 1) {
      for (let column = centreColumn - ALIGNMENT_RADIUS; column <= centreColumn + ALIGNMENT_RADIUS; column += 1) {
        alignment[row * size + column] = 1;
      }
    }
  }
  const inFinder = (row: number, column: number) =>
    (row < FINDER_SIZE && (column < FINDER_SIZE || column >= size - FINDER_SIZE)) ||
    (row >= size - FINDER_SIZE && column < FINDER_SIZE);
  return {
    size,
    version: code.version,
    isDark: (row, column) => data[row * size + column] !== 0,
    isLocator: (row, column) => inFinder(row, column) || alignment[row * size + column] === 1,
  };
}
