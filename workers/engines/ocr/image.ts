/**
 * From an uploaded file's bytes to the RGBA pixels Tesseract reads, within the isolate's 128 MB.
 *
 * The format, dimensions and decoding cost come from the file's header
 * (workers/hosted/image-to-text/page.ts over _image/sniff.ts), so a file whose header claims
 * 100000×100000 pixels, a JPEG whose sampling needs more than its budget, or a compressed TIFF
 * is refused before anything is allocated for it; a PNG's image data is inflated with a bound
 * first (png.ts).
 *
 * Memory decides the decoders. photon's WebAssembly memory never shrinks, and decoding a 9 MP
 * PNG grew it to 105 MB (about 12 bytes a pixel: the decoded frame, its RGBA copy, the copy
 * handed out), which with Tesseract's own heap is more than the isolate has, for the rest of
 * its life. So PNG, JPEG and TIFF are decoded in JavaScript (fast-png and tiff through image-js, jpeg-js directly),
 * whose buffers the garbage collector takes back, and photon decodes only GIF, WebP and BMP,
 * up to PHOTON_MAX_PIXELS (a 10 MB BMP holds at most ~3.5 MP anyway). A page over
 * OCR_MAX_READ_PIXELS is scaled down before Tesseract sees it (text on an A4 page at 300 dpi is
 * still read well at ~175 dpi); boxes are scaled back to the uploaded image's pixels.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { decodePng, decodeTiff, type Image } from "image-js";
import { decode as decodeJpegData } from "jpeg-js";
import { documentFailure as failure, type DocumentFailure } from "~workers/hosted/capabilities";
import {
  identifyPage,
  JPEG_MAX_DECODE_BYTES,
  looksTruncated,
  OCR_MAX_DECODED_PIXELS,
  OCR_MAX_READ_PIXELS,
  OCR_MAX_SIDE,
  type PageFormat,
} from "~workers/hosted/image-to-text/page";
import { checkPngData } from "./png";

export interface Pixels {
  width: number;
  height: number;
  /** width × height × 4 bytes, opaque, on a buffer of exactly that length (Tesseract copies `data.buffer`). */
  data: Uint8Array;
}

export interface DecodedPage {
  format: PageFormat;
  /** The uploaded image's size: the boxes' coordinate space. */
  width: number;
  height: number;
  /** What Tesseract reads: the image, scaled down when it is over OCR_MAX_READ_PIXELS. */
  pixels: Pixels;
  /** pixels.width / width (1 unless scaled down). */
  scale: number;
}

/**
 * JPEG through jpeg-js directly rather than image-js's decodeJpeg, which turns jpeg-js's memory
 * limit off: here its limit is the one the header was checked against (page.ts), plus a little
 * for its tables. The answer is RGBA already, on a buffer of its own.
 */
function decodeJpeg(bytes: Uint8Array): Pixels {
  const decoded = decodeJpegData(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    maxMemoryUsageInMB: Math.ceil(JPEG_MAX_DECODE_BYTES / (1024 * 1024)) + 4,
    maxResolutionInMP: OCR_MAX_DECODED_PIXELS / 1_000_000,
  });
  return { width: decoded.width, height: decoded.height, data: decoded.data };
}

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
  const format = header.format;
  let input = bytes;
  if (header.png) {
    const checked = checkPngData(bytes, header.width, header.height, header.png);
    if (!checked.ok) {
      return failure(
        "unreadable-document",
        checked.reason === "too-large"
          ? `The PNG's image data inflates to more than the ${checked.limit} bytes its ${header.width}×${header.height} pixels need: it is refused as a decompression bomb.`
          : checked.reason === "truncated"
            ? "The PNG file ends early: it was cut off before its last byte."
            : "The PNG file is damaged: its image data is not a valid zlib stream.",
        { reason: checked.reason },
      );
    }
    input = checked.bytes;
  }
  let decoded: Pixels;
  try {
    if (format === "jpeg") decoded = decodeJpeg(input);
    else if (format === "png") decoded = toRgba(decodePng(input));
    else if (format === "tiff") decoded = toRgba(decodeTiff(input));
    else decoded = decodeWithPhoton(input);
  } catch {
    // The decoders throw (photon panics, a WebAssembly trap its instance survives) on data they cannot read.
    const truncated = looksTruncated(format, bytes);
    return failure(
      "unreadable-document",
      truncated
        ? `The ${format.toUpperCase()} file ends early: it was cut off before its last byte.`
        : `The ${format.toUpperCase()} file is damaged or uses a variant of the format we cannot decode.`,
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
  return { ok: true, page: { format, width, height, pixels, scale: pixels.width / width } };
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
