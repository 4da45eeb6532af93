/**
 * GIF output for QR codes, with gifenc (MIT, plain JavaScript: nothing to instantiate).
 *
 * A QR code has few colours: two, plus the antialiased shades of dots and rounded modules, plus
 * a logo's. When the image has at most 256 (GIF's limit) the palette is exactly those colours,
 * so the GIF holds the same pixels as the PNG it came from; only a busy logo pushes it past 256,
 * and then gifenc's quantiser picks the palette. GIF has one fully transparent index and no
 * partial alpha, so a pixel at least half opaque keeps its colour and the rest are transparent.
 */
import { applyPalette, GIFEncoder, quantize, type Palette } from "gifenc";
import type { RgbaPixels } from "../_image/pixels";

const GIF_MAX_COLOURS = 256;
const OPAQUE_FROM = 128;

/** The exact palette and indices, or null when the image holds more colours than GIF allows. */
function exactIndices(
  pixels: RgbaPixels,
): { palette: Palette; index: Uint8Array; transparentIndex: number | null } | null {
  const { data } = pixels;
  const index = new Uint8Array(data.length / 4);
  const palette: Palette = [];
  const seen = new Map<number, number>();
  let transparentIndex: number | null = null;
  for (let pixel = 0; pixel < index.length; pixel += 1) {
    const offset = pixel * 4;
    if ((data[offset + 3] ?? 0) < OPAQUE_FROM) {
      if (transparentIndex === null) {
        if (palette.length === GIF_MAX_COLOURS) return null;
        transparentIndex = palette.length;
        palette.push([0, 0, 0]);
      }
      index[pixel] = transparentIndex;
      continue;
    }
    const r = data[offset] ?? 0;
    const g = data[offset + 1] ?? 0;
    const b = data[offset + 2] ?? 0;
    const key = (r << 16) | (g << 8) | b;
    let entry = seen.get(key);
    if (entry === undefined) {
      if (palette.length === GIF_MAX_COLOURS) return null;
      entry = palette.length;
      palette.push([r, g, b]);
      seen.set(key, entry);
    }
    index[pixel] = entry;
  }
  return { palette, index, transparentIndex };
}

function quantisedIndices(pixels: RgbaPixels): {
  palette: Palette;
  index: Uint8Array;
  transparentIndex: number | null;
} {
  const transparent = pixels.data.some((value, offset) => offset % 4 === 3 && value < OPAQUE_FROM);
  const format = transparent ? "rgba4444" : "rgb565";
  const palette = quantize(pixels.data, GIF_MAX_COLOURS, {
    format,
    oneBitAlpha: transparent ? OPAQUE_FROM - 1 : false,
  });
  const index = applyPalette(pixels.data, palette, format);
  const found = transparent ? palette.findIndex((colour) => colour[3] === 0) : -1;
  return {
    palette: palette.map(([r = 0, g = 0, b = 0]) => [r, g, b]),
    index,
    transparentIndex: found < 0 ? null : found,
  };
}

/** A single-frame GIF89a of `pixels` (no looping extension: it is a still image). */
export function encodeGif(pixels: RgbaPixels): Uint8Array {
  const { palette, index, transparentIndex } = exactIndices(pixels) ?? quantisedIndices(pixels);
  // gifenc writes a colour table of at least two entries; a one-colour image is padded.
  if (palette.length < 2) palette.push([0, 0, 0]);
  const gif = GIFEncoder();
  gif.writeFrame(index, pixels.width, pixels.height, {
    palette,
    repeat: -1,
    ...(transparentIndex === null ? {} : { transparent: true, transparentIndex }),
  });
  gif.finish();
  return gif.bytes();
}
