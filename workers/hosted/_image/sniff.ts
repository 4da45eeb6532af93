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
