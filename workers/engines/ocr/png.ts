/**
 * A PNG's compressed parts inflated with a bound before fast-png sees them. fast-png inflates
 * IDAT (and an iCCP profile) with no limit tied to IHDR, so a 100 KB file claiming 1×1 pixels
 * can inflate to hundreds of MB inside it. Here the IDAT data is inflated first, streaming and
 * counting, and stopped as soon as it passes what IHDR's size allows; an iCCP chunk (a colour
 * profile, of no use to OCR) is dropped from the copy handed to the decoder.
 */
import { inflatedSize } from "~workers/hosted/_documents/bounded-inflate";
import { pngInflatedBytes, type PngLayout } from "~workers/hosted/_image/sniff";

export type PngCheck =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: "too-large" | "truncated" | "malformed"; inflated?: number; limit?: number };

const u32be = (b: Uint8Array, o: number): number =>
  (((b[o] ?? 0) << 24) | ((b[o + 1] ?? 0) << 16) | ((b[o + 2] ?? 0) << 8) | (b[o + 3] ?? 0)) >>> 0;

/**
 * Walks the chunks, checks that the IDAT data inflates to no more than IHDR allows, and answers
 * the bytes to decode: the file itself, or a copy without its iCCP chunk.
 */
export function checkPngData(bytes: Uint8Array, width: number, height: number, layout: PngLayout): PngCheck {
  const idat: Uint8Array[] = [];
  const iccp: [start: number, end: number][] = [];
  let offset = 8;
  let ended = false;
  while (offset + 8 <= bytes.length) {
    const length = u32be(bytes, offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const end = offset + 12 + length;
    if (end > bytes.length) return { ok: false, reason: "truncated" };
    if (type === "IDAT") idat.push(bytes.subarray(offset + 8, offset + 8 + length));
    if (type === "iCCP") iccp.push([offset, end]);
    offset = end;
    if (type === "IEND") {
      ended = true;
      break;
    }
  }
  if (!ended) return { ok: false, reason: "truncated" };
  if (idat.length === 0) return { ok: false, reason: "malformed" };
  const limit = pngInflatedBytes(width, height, layout);
  const inflated = inflatedSize(idat, limit, "zlib");
  if (!inflated.ok) return { ...inflated, limit };
  if (iccp.length === 0) return { ok: true, bytes };
  const kept = new Uint8Array(bytes.length - iccp.reduce((sum, [start, end]) => sum + end - start, 0));
  let from = 0;
  let to = 0;
  for (const [start, end] of iccp) {
    kept.set(bytes.subarray(from, start), to);
    to += start - from;
    from = end;
  }
  kept.set(bytes.subarray(from), to);
  return { ok: true, bytes: kept };
}
