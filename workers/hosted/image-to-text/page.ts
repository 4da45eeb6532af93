/**
 * What an uploaded page is and whether OCR may decode it, from its header alone: the format,
 * the size, and what decoding it would allocate. Both Workers ask: the main Worker answers 415
 * and `too-large` before the RPC hop (as resume-parser does), and the engine asks again because
 * its RPC method can be called on its own. Nothing here decodes or inflates.
 */
import { documentFailure as failure, type DocumentFailure } from "~workers/hosted/capabilities";
import {
  detectFormat,
  isTiff,
  readImageHeader,
  readJpegLayout,
  readPngLayout,
  readTiffHeader,
  type PngLayout,
} from "../_image/sniff";

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
/**
 * What jpeg-js may allocate for one JPEG, as it counts (cumulatively: coefficient blocks of 256
 * bytes per 8×8 block per component, each component's sample lines, the interleaved frame and
 * the RGBA copy). A colour JPEG sampled 4:2:0 costs ~14.5 bytes a pixel (so ~4.3 MP fit), 4:4:4
 * or CMYK ~22–26 (~2.5 MP), greyscale ~10 (~6 MP). jpeg-js is called with this as its own
 * limit, so a header this reader misjudges still cannot take more.
 */
export const JPEG_MAX_DECODE_BYTES = 60 * 1024 * 1024;
/**
 * Most scans a JPEG may have: a progressive JPEG's scans each pass over every block again, and
 * encoders write about ten; thousands are only there to burn CPU.
 */
export const JPEG_MAX_SCANS = 100;

export const OCR_FORMATS_TEXT = "PNG, JPEG, GIF, WebP, BMP or TIFF";

export type PageFormat = "png" | "jpeg" | "gif" | "webp" | "bmp" | "tiff";

/** The formats decoded in JavaScript, whose memory the garbage collector gives back. */
export const JS_DECODED: readonly PageFormat[] = ["png", "jpeg", "tiff"];

export interface PageHeader {
  ok: true;
  format: PageFormat;
  width: number;
  height: number;
  /** For a PNG: what its image data inflates to is bounded by this. */
  png?: PngLayout;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean =>
  bytes.length >= signature.length && signature.every((value, index) => bytes[index] === value);

/** What a file that is not an image is, for a sentence that helps (a PDF is the usual mistake). */
function describeNonImage(bytes: Uint8Array): string {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "That is a PDF, not an image";
  return "That is not an image";
}

/** Whether the file ends before its format's end marker: damaged by a cut-off transfer. */
export function looksTruncated(format: string, bytes: Uint8Array): boolean {
  const tail = bytes.subarray(Math.max(0, bytes.length - 16));
  const has = (marker: readonly number[]) =>
    tail.some((_, at) => marker.every((value, index) => tail[at + index] === value));
  if (format === "png") return !has([0x49, 0x45, 0x4e, 0x44]); // IEND
  if (format === "jpeg") return !has([0xff, 0xd9]); // EOI
  if (format === "gif") return tail[tail.length - 1] !== 0x3b; // trailer
  return false;
}

const tooLarge = (detail: string, width: number, height: number) =>
  failure("unreadable-document", detail, { reason: "too-large", width, height });

const unreadableHeader = (format: PageFormat, bytes: Uint8Array, why = "its header cannot be read") =>
  failure("unreadable-document", `The file starts like a ${format.toUpperCase()} but ${why}.`, {
    reason: looksTruncated(format, bytes) ? "truncated" : "malformed",
  });

/**
 * What jpeg-js allocates for this frame, as its own counter adds it up (decoder.js:
 * prepareComponents, buildComponentData, getData, decode).
 */
export function jpegDecodeBytes(width: number, height: number, components: { h: number; v: number }[]): number {
  const maxH = Math.max(...components.map((component) => component.h));
  const maxV = Math.max(...components.map((component) => component.v));
  const mcusPerLine = Math.ceil(width / 8 / maxH);
  const mcusPerColumn = Math.ceil(height / 8 / maxV);
  let total = width * height * components.length + width * height * 4;
  for (const { h, v } of components) {
    total += mcusPerLine * h * mcusPerColumn * v * 256;
    const blocksPerLine = Math.ceil((Math.ceil(width / 8) * h) / maxH);
    const blocksPerColumn = Math.ceil((Math.ceil(height / 8) * v) / maxV);
    total += blocksPerLine * 8 * blocksPerColumn * 8;
  }
  return total;
}

/** Format and dimensions from the header, refusing what is not an image or too costly to decode. */
export function identifyPage(bytes: Uint8Array): PageHeader | DocumentFailure {
  if (bytes.length === 0) return failure("invalid-input", "The image is empty.");
  const detected = detectFormat(bytes);
  const format: PageFormat | null = detected ?? (isTiff(bytes) ? "tiff" : null);
  if (!format) {
    return failure(
      "unsupported-media-type",
      `${describeNonImage(bytes)}: expected ${OCR_FORMATS_TEXT} (the type is read from the file's bytes).`,
    );
  }
  const tiff = format === "tiff" ? readTiffHeader(bytes) : null;
  const size = detected ? readImageHeader(bytes, detected) : tiff;
  if (!size) return unreadableHeader(format, bytes);
  const { width, height } = size;
  const pixels = width * height;
  if (width > OCR_MAX_SIDE || height > OCR_MAX_SIDE || pixels > OCR_MAX_DECODED_PIXELS) {
    return tooLarge(
      `The image is ${width}×${height} pixels; OCR reads images of up to ${OCR_MAX_DECODED_PIXELS / 1_000_000} megapixels and ${OCR_MAX_SIDE} pixels on a side. Scale it down (300 dpi is plenty for text).`,
      width,
      height,
    );
  }
  if (!JS_DECODED.includes(format) && pixels > PHOTON_MAX_PIXELS) {
    return tooLarge(
      `The ${format.toUpperCase()} image is ${width}×${height} pixels; OCR reads ${format.toUpperCase()} images of up to ${PHOTON_MAX_PIXELS / 1_000_000} megapixels (PNG, JPEG and TIFF up to ${OCR_MAX_DECODED_PIXELS / 1_000_000}). Send it as PNG or JPEG, or scale it down.`,
      width,
      height,
    );
  }
  let bytesPerPixel = 4;
  let png: PngLayout | undefined;
  if (format === "png") {
    png = readPngLayout(bytes) ?? undefined;
    if (!png) return unreadableHeader(format, bytes, "its IHDR names no valid bit depth and colour type");
    // Decoded, a palette expands to RGB(A) and 16-bit samples take two bytes.
    bytesPerPixel = (png.colorType === 3 ? 4 : png.channels) * (png.bitDepth === 16 ? 2 : 1);
  }
  if (format === "jpeg") {
    const layout = readJpegLayout(bytes, JPEG_MAX_SCANS);
    const valid =
      layout &&
      layout.components.length >= 1 &&
      layout.components.length <= 4 &&
      layout.components.every(({ h, v }) => h >= 1 && h <= 4 && v >= 1 && v <= 4);
    if (!valid) return unreadableHeader(format, bytes, "its frame header names no valid components");
    if (layout.scans > JPEG_MAX_SCANS) {
      return failure(
        "unreadable-document",
        `The JPEG has more than ${JPEG_MAX_SCANS} scans; OCR reads JPEGs of up to ${JPEG_MAX_SCANS} (encoders write about ten). Save it again as a baseline JPEG or a PNG.`,
        { reason: "too-large", width, height },
      );
    }
    const cost = jpegDecodeBytes(width, height, layout.components);
    if (cost > JPEG_MAX_DECODE_BYTES) {
      const sampling = layout.components.map(({ h, v }) => `${h}×${v}`).join(", ");
      return tooLarge(
        `The JPEG is ${width}×${height} pixels in ${layout.components.length} component${layout.components.length === 1 ? "" : "s"} sampled ${sampling}; decoding it would take ${Math.round(cost / 1_000_000)} MB, more than the ${Math.round(JPEG_MAX_DECODE_BYTES / 1_000_000)} MB OCR gives a JPEG (about 4 megapixels in colour with 4:2:0 chroma, 2.5 with 4:4:4 or CMYK, 6 in greyscale). Scale it down, or send a PNG (up to ${OCR_MAX_DECODED_PIXELS / 1_000_000} megapixels).`,
        width,
        height,
      );
    }
  }
  if (tiff) {
    // Only uncompressed strips are read: the TIFF decoder inflates Deflate and LZW strips with
    // no bound, so a small file could expand past the isolate's memory.
    if (tiff.compression !== 1) {
      return failure(
        "unsupported-media-type",
        `The TIFF is compressed (compression ${tiff.compression}); OCR reads uncompressed TIFFs only. Save it uncompressed, or send a PNG.`,
      );
    }
    const rowBytes = Math.ceil((width * tiff.samplesPerPixel * tiff.bitsPerSample) / 8);
    if (tiff.strips === 0 || !tiff.stripsInFile || tiff.stripBytes < rowBytes * height) {
      return unreadableHeader(format, bytes, "its strips do not hold the pixels its header declares");
    }
    // A palette image is expanded to 16-bit RGB by the decoder.
    bytesPerPixel =
      tiff.photometric === 3
        ? tiff.samplesPerPixel === 2
          ? 8
          : 6
        : tiff.samplesPerPixel * Math.ceil(tiff.bitsPerSample / 8);
  }
  if (pixels * bytesPerPixel > OCR_MAX_DECODED_BYTES) {
    return tooLarge(
      `The image is ${width}×${height} pixels at ${bytesPerPixel} bytes a pixel; decoded it would take ${Math.round((pixels * bytesPerPixel) / 1_000_000)} MB, more than the ${OCR_MAX_DECODED_BYTES / 1_000_000} MB OCR decodes. Save it with 8 bits a channel, or scale it down.`,
      width,
      height,
    );
  }
  return { ok: true, format, width, height, ...(png && { png }) };
}
