/**
 * From an uploaded file's bytes to the RGBA pixels Tesseract reads, within the isolate's 128 MB.
 *
 * The format and dimensions come from the file's header (workers/hosted/_image/sniff.ts, plus
 * TIFF here), so a file whose header claims 100000×100000 pixels is refused before anything is
 * allocated for it.
 *
 * Memory decides the decoders. photon's WebAssembly memory never shrinks, and decoding a 9 MP
 * PNG grew it to 105 MB (about 12 bytes a pixel: the decoded frame, its RGBA copy, the copy
 * handed out), which with Tesseract's own heap is more than the isolate has, for the rest of
 * its life. So PNG, JPEG and TIFF are decoded in JavaScript (image-js: fast-png, jpeg-js, tiff),
 * whose buffers the garbage collector takes back, and photon decodes only GIF, WebP and BMP,
 * up to PHOTON_MAX_PIXELS (a 10 MB BMP holds at most ~3.5 MP anyway). A page over
 * OCR_MAX_READ_PIXELS is scaled down before Tesseract sees it (text on an A4 page at 300 dpi is
 * still read well at ~175 dpi); boxes are scaled back to the uploaded image's pixels.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { decodeJpeg, decodePng, decodeTiff, type Image } from "image-js";
import type { DocumentFailure } from "~workers/hosted/capabilities";
import { detectFormat, readImageHeader } from "~workers/hosted/_image/sniff";

/** Largest image decoded: 9 megapixels (36 MB as RGBA), e.g. an A4 page at 300 dpi (2480×3508). */
export const OCR_MAX_DECODED_PIXELS = 9_000_000;
/**
 * Largest decoded frame in bytes before it is made 8-bit RGBA: 9 MP at 4 bytes. A 16-bit PNG or
 * TIFF takes twice the bytes a pixel, so it may have half the pixels.
 */
export const OCR_MAX_DECODED_BYTES = OCR_MAX_DECODED_PIXELS * 4;
/** Longest side decoded, whatever the pixel count (a 10000×1000 strip is fine; 20000×100 is not). */
export const OCR_MAX_SIDE = 10_000;
/**
 * Largest page handed to Tesseract; larger ones are scaled down to this many pixels. Measured:
 * Tesseract's memory is 28 MB with the English model and a small page, 58 MB after a 4 MP page
 * and 73 MB after a 5.6 MP one (about 8 bytes a pixel).
 */
export const OCR_MAX_READ_PIXELS = 3_000_000;
/** Largest GIF, WebP or BMP decoded (by photon, whose memory never shrinks: ~12 bytes a pixel). */
export const PHOTON_MAX_PIXELS = 3_000_000;

export const OCR_FORMATS_TEXT = "PNG, JPEG, GIF, WebP, BMP or TIFF";

export interface Pixels {
  width: number;
  height: number;
  /** width × height × 4 bytes, opaque, on a buffer of exactly that length (Tesseract copies `data.buffer`). */
  data: Uint8Array;
}

export interface DecodedPage {
  format: string;
  /** The uploaded image's size: the boxes' coordinate space. */
  width: number;
  height: number;
  /** What Tesseract reads: the image, scaled down when it is over OCR_MAX_READ_PIXELS. */
  pixels: Pixels;
  /** pixels.width / width (1 unless scaled down). */
  scale: number;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((value, index) => bytes[offset + index] === value);

/**
 * A TIFF's first image's width and height from its first IFD, and the bytes a pixel takes once
 * decoded (samples × bytes a sample; a palette image is expanded to 16-bit RGB by the decoder),
 * or null when the header is not readable.
 */
export function tiffSize(bytes: Uint8Array): { width: number; height: number; bytesPerPixel: number } | null {
  const little = startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]);
  if (!little && !startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8) return null;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > bytes.length) return null;
  const count = view.getUint16(ifd, little);
  let width = 0;
  let height = 0;
  let bitsPerSample = 1;
  let samplesPerPixel = 1;
  let palette = false;
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > bytes.length) return null;
    const tag = view.getUint16(entry, little);
    const type = view.getUint16(entry + 2, little);
    const values = view.getUint32(entry + 4, little);
    // SHORT (3) values sit left-justified in the 4-byte field; LONG (4) fill it. More than two
    // SHORTs live elsewhere, at the offset the field holds.
    let value = type === 3 ? view.getUint16(entry + 8, little) : type === 4 ? view.getUint32(entry + 8, little) : 0;
    if (type === 3 && values > 2) {
      const at = view.getUint32(entry + 8, little);
      value = at + 2 <= bytes.length ? view.getUint16(at, little) : 0;
    }
    if (tag === 256) width = value;
    if (tag === 257) height = value;
    if (tag === 258) bitsPerSample = value;
    if (tag === 262) palette = value === 3;
    if (tag === 277) samplesPerPixel = value;
  }
  if (width <= 0 || height <= 0) return null;
  const bytesPerPixel = palette ? (samplesPerPixel === 2 ? 8 : 6) : samplesPerPixel * Math.ceil(bitsPerSample / 8);
  return { width, height, bytesPerPixel };
}

/** What a PNG's pixels take decoded, from IHDR's bit depth and colour type (palettes expand to RGB(A)). */
function pngBytesPerPixel(bytes: Uint8Array): number {
  const depth = bytes[24] ?? 8;
  const channels = ({ 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 } as Record<number, number>)[bytes[25] ?? 6] ?? 4;
  return channels * (depth === 16 ? 2 : 1);
}

const failure = (
  problem: DocumentFailure["problem"],
  detail: string,
  extensions?: DocumentFailure["extensions"],
): DocumentFailure => ({ ok: false, problem, detail, ...(extensions && { extensions }) });

/** What a file that is not an image is, for a sentence that helps (a PDF is the usual mistake). */
function describeNonImage(bytes: Uint8Array): string {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "That is a PDF, not an image";
  return "That is not an image";
}

/** Whether the file ends before its format's end marker: damaged by a cut-off transfer. */
function looksTruncated(format: string, bytes: Uint8Array): boolean {
  const tail = bytes.subarray(Math.max(0, bytes.length - 16));
  const has = (marker: readonly number[]) =>
    tail.some((_, at) => marker.every((value, index) => tail[at + index] === value));
  if (format === "png") return !has([0x49, 0x45, 0x4e, 0x44]); // IEND
  if (format === "jpeg") return !has([0xff, 0xd9]); // EOI
  if (format === "gif") return tail[tail.length - 1] !== 0x3b; // trailer
  return false;
}

/** Format and dimensions from the header, refusing what is not an image or too large to decode. */
export function identifyPage(
  bytes: Uint8Array,
): { ok: true; format: string; width: number; height: number } | DocumentFailure {
  if (bytes.length === 0) return failure("invalid-input", "The image is empty.");
  const format = detectFormat(bytes);
  let size: { width: number; height: number } | null;
  if (format) {
    size = readImageHeader(bytes, format);
  } else if (
    tiffSize(bytes) ||
    startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])
  ) {
    size = tiffSize(bytes);
  } else {
    return failure(
      "unsupported-media-type",
      `${describeNonImage(bytes)}: expected ${OCR_FORMATS_TEXT} (the type is read from the file's bytes).`,
    );
  }
  const name = format ?? "tiff";
  if (!size) {
    return failure(
      "unreadable-document",
      `The file starts like a ${name.toUpperCase()} but its header cannot be read.`,
      {
        reason: looksTruncated(name, bytes) ? "truncated" : "malformed",
      },
    );
  }
  const { width, height } = size;
  if (width > OCR_MAX_SIDE || height > OCR_MAX_SIDE || width * height > OCR_MAX_DECODED_PIXELS) {
    return failure(
      "unreadable-document",
      `The image is ${width}×${height} pixels; OCR reads images of up to ${OCR_MAX_DECODED_PIXELS / 1_000_000} megapixels and ${OCR_MAX_SIDE} pixels on a side. Scale it down (300 dpi is plenty for text).`,
      { reason: "too-large", width, height },
    );
  }
  const bytesPerPixel =
    name === "png" ? pngBytesPerPixel(bytes) : name === "tiff" ? (tiffSize(bytes)?.bytesPerPixel ?? 4) : 4;
  if (width * height * bytesPerPixel > OCR_MAX_DECODED_BYTES) {
    return failure(
      "unreadable-document",
      `The image is ${width}×${height} pixels at ${bytesPerPixel} bytes a pixel; decoded it would take ${Math.round((width * height * bytesPerPixel) / 1_000_000)} MB, more than the ${OCR_MAX_DECODED_BYTES / 1_000_000} MB OCR decodes. Save it with 8 bits a channel, or scale it down.`,
      { reason: "too-large", width, height },
    );
  }
  if (!JS_DECODERS[name] && width * height > PHOTON_MAX_PIXELS) {
    return failure(
      "unreadable-document",
      `The ${name.toUpperCase()} image is ${width}×${height} pixels; OCR reads ${name.toUpperCase()} images of up to ${PHOTON_MAX_PIXELS / 1_000_000} megapixels (PNG, JPEG and TIFF up to ${OCR_MAX_DECODED_PIXELS / 1_000_000}). Send it as PNG or JPEG, or scale it down.`,
      { reason: "too-large", width, height },
    );
  }
  return { ok: true, format: name, width, height };
}

/** The formats decoded in JavaScript, whose memory is given back after the call. */
const JS_DECODERS: Record<string, ((bytes: Uint8Array) => Image) | undefined> = {
  png: decodePng,
  jpeg: decodeJpeg,
  tiff: decodeTiff,
};

/** image-js's image as 8-bit RGBA on a buffer of its own. */
function toRgba(decoded: Image): Pixels {
  let image = decoded;
  if (image.bitDepth !== 8) image = image.convertBitDepth(8);
  if (image.colorModel !== "RGBA") image = image.convertColor("RGBA");
  const raw = image.getRawImage();
  const data =
    raw.data instanceof Uint8Array && raw.data.byteOffset === 0 && raw.data.buffer.byteLength === raw.data.length
      ? raw.data
      : Uint8Array.from(raw.data);
  return { width: raw.width, height: raw.height, data };
}

function decodeWithPhoton(bytes: Uint8Array): Pixels {
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
  } finally {
    image.free();
  }
}

/**
 * Decodes the image to opaque RGBA: transparency is laid over white, as a page is, because
 * Tesseract reads the colour channels only and transparent pixels are black there.
 */
export function decodePage(bytes: Uint8Array): { ok: true; page: DecodedPage } | DocumentFailure {
  const header = identifyPage(bytes);
  if (!header.ok) return header;
  const decode = JS_DECODERS[header.format];
  let decoded: Pixels;
  try {
    decoded = decode ? toRgba(decode(bytes)) : decodeWithPhoton(bytes);
  } catch {
    // The decoders throw (photon panics, a WebAssembly trap its instance survives) on data they cannot read.
    const truncated = looksTruncated(header.format, bytes);
    return failure(
      "unreadable-document",
      truncated
        ? `The ${header.format.toUpperCase()} file ends early: it was cut off before its last byte.`
        : `The ${header.format.toUpperCase()} file is damaged or uses a variant of the format we cannot decode.`,
      { reason: truncated ? "truncated" : "malformed" },
    );
  }
  const { width, height } = decoded;
  // A header can understate the frame: the limit holds for what was decoded.
  if (width > OCR_MAX_SIDE || height > OCR_MAX_SIDE || width * height > OCR_MAX_DECODED_PIXELS) {
    return failure("unreadable-document", `The image decodes to ${width}×${height} pixels, more than OCR reads.`, {
      reason: "too-large",
      width,
      height,
    });
  }
  flattenOnWhite(decoded.data);
  let pixels = decoded;
  if (width * height > OCR_MAX_READ_PIXELS)
    pixels = scaleDown(decoded, Math.sqrt(OCR_MAX_READ_PIXELS / (width * height)));
  return { ok: true, page: { format: header.format, width, height, pixels, scale: pixels.width / width } };
}

function flattenOnWhite(data: Uint8Array): void {
  for (let offset = 0; offset < data.length; offset += 4) {
    const alpha = data[offset + 3] ?? 255;
    if (alpha === 255) continue;
    const keep = alpha / 255;
    for (let channel = 0; channel < 3; channel++) {
      data[offset + channel] = Math.round((data[offset + channel] ?? 0) * keep + 255 * (1 - keep));
    }
    data[offset + 3] = 255;
  }
}

/** Area-averaging reduction by `factor` (< 1): each output pixel is the mean of the input pixels it covers. */
export function scaleDown(source: Pixels, factor: number): Pixels {
  const width = Math.max(1, Math.floor(source.width * factor));
  const height = Math.max(1, Math.floor(source.height * factor));
  const data = new Uint8Array(width * height * 4);
  const xRatio = source.width / width;
  const yRatio = source.height / height;
  for (let y = 0; y < height; y++) {
    const top = Math.floor(y * yRatio);
    const bottom = Math.max(top + 1, Math.floor((y + 1) * yRatio));
    for (let x = 0; x < width; x++) {
      const left = Math.floor(x * xRatio);
      const right = Math.max(left + 1, Math.floor((x + 1) * xRatio));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = top; sy < bottom; sy++) {
        let offset = (sy * source.width + left) * 4;
        for (let sx = left; sx < right; sx++, offset += 4) {
          r += source.data[offset] ?? 0;
          g += source.data[offset + 1] ?? 0;
          b += source.data[offset + 2] ?? 0;
        }
      }
      const count = (bottom - top) * (right - left);
      const out = (y * width + x) * 4;
      data[out] = Math.round(r / count);
      data[out + 1] = Math.round(g / count);
      data[out + 2] = Math.round(b / count);
      data[out + 3] = 255;
    }
  }
  return { width, height, data };
}

/** The pixels turned clockwise by `degrees` (a multiple of 90), into a fresh buffer. */
export function rotateClockwise(source: Pixels, degrees: 0 | 90 | 180 | 270): Pixels {
  if (degrees === 0) return source;
  const { width, height } = source;
  const turned = degrees !== 180;
  const outWidth = turned ? height : width;
  const outHeight = turned ? width : height;
  const input = new Uint32Array(source.data.buffer, source.data.byteOffset, width * height);
  const output = new Uint32Array(outWidth * outHeight);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = input[y * width + x] ?? 0;
      let to: number;
      if (degrees === 90) to = x * outWidth + (outWidth - 1 - y);
      else if (degrees === 180) to = (height - 1 - y) * outWidth + (width - 1 - x);
      else to = (outHeight - 1 - x) * outWidth + y;
      output[to] = value;
    }
  }
  return { width: outWidth, height: outHeight, data: new Uint8Array(output.buffer) };
}
