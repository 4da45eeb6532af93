/**
 * Recognising an image from its bytes alone: the magic number says the format, the header
 * says the dimensions. Filenames and declared content types are never consulted, because a
 * caller controls both. Reading dimensions before decoding also lets us refuse a
 * decompression bomb (a small file declaring a huge canvas) before it costs any memory.
 */

export type ImageFormat = "png" | "jpeg" | "gif" | "webp" | "bmp";

export const MIME_TYPES: Record<ImageFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
};

export const SUPPORTED_FORMATS_TEXT = "PNG, JPEG, GIF, WebP or BMP";

export interface ImageHeader {
  format: ImageFormat;
  mimeType: string;
  width: number;
  height: number;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((value, index) => bytes[offset + index] === value);

const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));

const u16le = (b: Uint8Array, o: number): number => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
const u16be = (b: Uint8Array, o: number): number => ((b[o] ?? 0) << 8) | (b[o + 1] ?? 0);
const u24le = (b: Uint8Array, o: number): number => u16le(b, o) | ((b[o + 2] ?? 0) << 16);
const u32le = (b: Uint8Array, o: number): number => (u16le(b, o) | (u16le(b, o + 2) << 16)) >>> 0;
const i32le = (b: Uint8Array, o: number): number => u16le(b, o) | (u16le(b, o + 2) << 16);
const u32be = (b: Uint8Array, o: number): number => ((u16be(b, o) << 16) | u16be(b, o + 2)) >>> 0;

/** The format named by the file's magic number, or null when it is none we read. */
export function detectFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  if (startsWith(bytes, ascii("BM")) && bytes.length >= 26) return "bmp";
  return null;
}

function pngSize(b: Uint8Array): [number, number] | null {
  if (b.length < 24 || !startsWith(b, ascii("IHDR"), 12)) return null;
  return [u32be(b, 16), u32be(b, 20)];
}

function gifSize(b: Uint8Array): [number, number] | null {
  return b.length < 10 ? null : [u16le(b, 6), u16le(b, 8)];
}

function bmpSize(b: Uint8Array): [number, number] | null {
  const dibSize = u32le(b, 14);
  // BITMAPCOREHEADER (OS/2) stores 16-bit sizes; every later header stores signed 32-bit
  // ones, where a negative height means the rows run top-down.
  if (dibSize === 12) return [u16le(b, 18), u16le(b, 20)];
  if (dibSize < 16 || b.length < 26) return null;
  return [i32le(b, 18), Math.abs(i32le(b, 22))];
}

function webpSize(b: Uint8Array): [number, number] | null {
  if (b.length < 30) return null;
  if (startsWith(b, ascii("VP8 "), 12)) {
    // Lossy: a keyframe starts with the 9d 01 2a start code, then 14-bit sizes.
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null;
    return [u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff];
  }
  if (startsWith(b, ascii("VP8L"), 12)) {
    // Lossless: signature byte 0x2f, then width-1 and height-1 packed in 14 bits each.
    if (b[20] !== 0x2f) return null;
    const bits = u32le(b, 21);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (startsWith(b, ascii("VP8X"), 12)) return [u24le(b, 24) + 1, u24le(b, 27) + 1];
  return null;
}

function jpegSize(b: Uint8Array): [number, number] | null {
  let offset = 2;
  while (offset + 3 < b.length) {
    if (b[offset] !== 0xff) return null;
    const marker = b[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1; // fill byte before a marker
      continue;
    }
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length field
      continue;
    }
    // Image data or the end came before any frame header: there is no size to read.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = u16be(b, offset + 2);
    if (length < 2) return null;
    // SOF0–SOF15 carry the frame size, except DHT (c4), JPG (c8) and DAC (cc).
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return offset + 9 <= b.length ? [u16be(b, offset + 7), u16be(b, offset + 5)] : null;
    offset += 2 + length;
  }
  return null;
}

const SIZE_READERS: Record<ImageFormat, (bytes: Uint8Array) => [number, number] | null> = {
  png: pngSize,
  jpeg: jpegSize,
  gif: gifSize,
  webp: webpSize,
  bmp: bmpSize,
};

/** Format and dimensions from the header, or null when the header is missing or nonsense. */
export function readImageHeader(bytes: Uint8Array, format: ImageFormat): ImageHeader | null {
  const size = SIZE_READERS[format](bytes);
  if (!size) return null;
  const [width, height] = size;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) return null;
  return { format, mimeType: MIME_TYPES[format], width, height };
}

/**
 * What a PNG's IHDR says beyond its size: enough to know how many bytes its image data inflates
 * to, so a file whose compressed data inflates past that (a decompression bomb hiding behind a
 * small canvas) is refused while it is inflated, never after.
 */
export interface PngLayout {
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colorType: number;
  /** Samples a pixel in the image data (a palette index is one). */
  channels: number;
  interlaced: boolean;
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** IHDR's layout, or null when it is not one the PNG specification allows. */
export function readPngLayout(b: Uint8Array): PngLayout | null {
  if (!pngSize(b) || b.length < 29) return null;
  const bitDepth = b[24] ?? 0;
  const colorType = b[25] ?? 0;
  const channels = PNG_CHANNELS[colorType];
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(bitDepth)) return null;
  return { bitDepth, colorType, channels, interlaced: b[28] === 1 };
}

/** Bytes of filtered scanlines a PNG's image data inflates to (a filter byte starts each row). */
export function pngInflatedBytes(width: number, height: number, layout: PngLayout): number {
  const rowBytes = (w: number) => (w === 0 ? 0 : 1 + Math.ceil((w * layout.channels * layout.bitDepth) / 8));
  if (!layout.interlaced) return height * rowBytes(width);
  // Adam7: seven passes, each a smaller image of its own rows (an empty pass has none).
  const passes: [x0: number, dx: number, y0: number, dy: number][] = [
    [0, 8, 0, 8],
    [4, 8, 0, 8],
    [0, 4, 4, 8],
    [2, 4, 0, 4],
    [0, 2, 2, 4],
    [1, 2, 0, 2],
    [0, 1, 1, 2],
  ];
  let total = 0;
  for (const [x0, dx, y0, dy] of passes) {
    const w = Math.max(0, Math.ceil((width - x0) / dx));
    const h = Math.max(0, Math.ceil((height - y0) / dy));
    if (w > 0) total += h * rowBytes(w);
  }
  return total;
}

/** A JPEG frame's layout: what its decoder allocates depends on the components' sampling. */
export interface JpegLayout {
  progressive: boolean;
  /** Horizontal and vertical sampling factors (1–4) of each component. */
  components: { h: number; v: number }[];
  /** Start-of-scan markers counted, up to one more than the `maxScans` asked about. */
  scans: number;
}

/**
 * The frame header's components and the number of scans, walking the markers and each scan's
 * entropy-coded data (which ends at the first 0xFF not followed by 00 or a restart marker).
 * Stops counting past `maxScans`; null when the markers are not a JPEG's.
 */
export function readJpegLayout(b: Uint8Array, maxScans = 100): JpegLayout | null {
  let offset = 2;
  let frame: Omit<JpegLayout, "scans"> | undefined;
  let scans = 0;
  while (offset + 3 < b.length && scans <= maxScans) {
    if (b[offset] !== 0xff) return null;
    const marker = b[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9) break;
    const length = u16be(b, offset + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && !frame) {
      const count = b[offset + 9] ?? 0;
      if (offset + 10 + count * 3 > b.length) return null;
      const components = Array.from({ length: count }, (_, index) => {
        const factors = b[offset + 11 + index * 3] ?? 0;
        return { h: factors >> 4, v: factors & 15 };
      });
      frame = { progressive: marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce, components };
    }
    offset += 2 + length;
    if (marker !== 0xda) continue;
    scans += 1;
    while (offset + 1 < b.length) {
      if (b[offset] === 0xff) {
        const next = b[offset + 1] ?? 0;
        if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) break;
      }
      offset += 1;
    }
  }
  return frame ? { ...frame, scans } : null;
}

/** Whether the bytes start as a TIFF does (little- or big-endian). */
export function isTiff(b: Uint8Array): boolean {
  return startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]);
}

/** A TIFF's first image, as its first IFD describes it. */
export interface TiffHeader {
  width: number;
  height: number;
  /** The first sample's bits (all samples are taken to have as many). */
  bitsPerSample: number;
  samplesPerPixel: number;
  /** 1 none, 5 LZW, 7 JPEG, 8 and 32946 Deflate, 32773 PackBits, … */
  compression: number;
  /** 3 palette. */
  photometric: number;
  /** Strips: their count, the sum of StripByteCounts, and whether each lies inside the file. */
  strips: number;
  stripBytes: number;
  stripsInFile: boolean;
}

const TIFF_TYPE_BYTES: Record<number, number> = { 1: 1, 3: 2, 4: 4 };

/** The first IFD's tags this reader needs, or null when the header is not readable. */
export function readTiffHeader(b: Uint8Array): TiffHeader | null {
  if (!isTiff(b) || b.length < 8) return null;
  const little = b[0] === 0x49;
  const u16 = (at: number) => (little ? u16le(b, at) : u16be(b, at));
  const u32 = (at: number) => (little ? u32le(b, at) : u32be(b, at));
  const ifd = u32(4);
  if (ifd + 2 > b.length) return null;
  const count = u16(ifd);
  if (ifd + 2 + count * 12 > b.length) return null;
  /** The entry's values: inline when they fit its 4-byte field, else at the offset it holds. */
  const values = (entry: number): number[] | null => {
    const size = TIFF_TYPE_BYTES[u16(entry + 2)];
    const n = u32(entry + 4);
    if (size === undefined) return null;
    const at = size * n <= 4 ? entry + 8 : u32(entry + 8);
    if (at + size * n > b.length) return null;
    return Array.from({ length: n }, (_, index) =>
      size === 1 ? (b[at + index] ?? 0) : size === 2 ? u16(at + index * 2) : u32(at + index * 4),
    );
  };
  const tags = new Map<number, number[]>();
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12;
    const tag = u16(entry);
    if (![256, 257, 258, 259, 262, 273, 277, 279].includes(tag)) continue;
    const read = values(entry);
    if (!read) return null;
    tags.set(tag, read);
  }
  const first = (tag: number, fallback: number) => tags.get(tag)?.[0] ?? fallback;
  const width = first(256, 0);
  const height = first(257, 0);
  if (width < 1 || height < 1) return null;
  const offsets = tags.get(273) ?? [];
  const counts = tags.get(279) ?? [];
  return {
    width,
    height,
    bitsPerSample: first(258, 1),
    samplesPerPixel: first(277, 1),
    compression: first(259, 1),
    photometric: first(262, 0),
    strips: Math.min(offsets.length, counts.length),
    stripBytes: counts.reduce((sum, value) => sum + value, 0),
    stripsInFile:
      offsets.length === counts.length && offsets.every((offset, index) => offset + (counts[index] ?? 0) <= b.length),
  };
}
