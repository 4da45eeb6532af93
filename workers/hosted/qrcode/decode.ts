/**
 * The decode operation: an image in, every QR code in it out, with the text, the level it was
 * made at, its version and where it sits. The image arrives and is checked the way every image
 * API takes one (`_image/input.ts`: file, data URL or fetched URL; 10 MB, 4096×4096).
 *
 * Memory (decision 043, "Reading codes"): the isolate has 128 MB, and a 4096×4096 image is
 * 64 MiB of RGBA in photon's WebAssembly memory (which never shrinks). Before, that was copied
 * out to JavaScript whole (64 MiB), laid over white on a second canvas when transparent
 * (64 MiB), turned into luminance by zxing-wasm in JavaScript (16 MiB) and copied into ZXing's
 * heap (16 MiB) with its binarised copies beside it: ~190–250 MB, and the isolate was killed
 * without an answer. Now photon shrinks the image to READ_SIDE on its longest side first
 * (16 MiB more in its memory), only that copy leaves photon (16 MiB), transparency is laid over
 * white in that same buffer, and luminance and ZXing's copy are 4 MiB each: ~64 + 16 + 16 + 4
 * + 4 MiB and ZXing's working copies of a 2048² image, about 110 MB at the peak.
 */
import { resize, SamplingFilter, type PhotonImage } from "@cf-wasm/photon/workerd";
import { WHITE, type Rgba } from "../_image/color";
import { loadImage } from "../_image/input";
import { hasTransparency, toPixels, type RgbaPixels } from "../_image/pixels";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { QrReaderUnavailableError, readQrCodes, type FoundCode } from "./reader";
import type { QrDecodeInput, QrDecodeOutput } from "./schema";

/**
 * Longest side the reader is given. A code filling an eighth of a 4096-pixel photo is 256 px
 * here, 4 px a module even at version 10; ZXing needs ~2. Decided in the tests, which read a
 * small code in a 4096×4096 image.
 */
export const READ_SIDE = 2048;

/** The pixels the reader gets: the image, shrunk to READ_SIDE if larger, and the factor back to its own size. */
export function readablePixels(image: PhotonImage): { pixels: RgbaPixels; scale: number } {
  const width = image.get_width();
  const height = image.get_height();
  const longest = Math.max(width, height);
  if (longest <= READ_SIDE) return { pixels: toPixels(image), scale: 1 };
  const factor = READ_SIDE / longest;
  const small = resize(
    image,
    Math.max(1, Math.round(width * factor)),
    Math.max(1, Math.round(height * factor)),
    SamplingFilter.Triangle,
  );
  try {
    const pixels = toPixels(small);
    return { pixels, scale: width / pixels.width };
  } finally {
    small.free();
  }
}

/** Lays the pixels over an opaque colour in their own buffer (a second canvas is another copy of the image). */
export function flattenInPlace(pixels: RgbaPixels, background: Rgba): void {
  const data = pixels.data;
  for (let index = 0; index < data.length; index += 4) {
    const alpha = data[index + 3] ?? 255;
    if (alpha === 255) continue;
    for (let channel = 0; channel < 3; channel += 1) {
      const under = channel === 0 ? background.r : channel === 1 ? background.g : background.b;
      data[index + channel] = Math.round(((data[index + channel] ?? 0) * alpha + under * (255 - alpha)) / 255);
    }
    data[index + 3] = 255;
  }
}

const scaled = (point: { x: number; y: number }, scale: number) => ({
  x: Math.round(point.x * scale),
  y: Math.round(point.y * scale),
});

/** `read` is the reader (a test gives one whose WebAssembly fails to start). */
export async function handleQrDecode(
  input: QrDecodeInput,
  ctx: OperationContext,
  read: (pixels: RgbaPixels) => Promise<FoundCode[]> = readQrCodes,
): Promise<HandlerResult> {
  const loaded = await loadImage(input, ctx);
  if (!loaded.ok) return loaded.problem;
  let readable;
  try {
    readable = readablePixels(loaded.value.image);
  } finally {
    loaded.value.image.free();
  }
  const { pixels, scale } = readable;
  // ZXing reads luminance from RGB alone; a transparent pixel's RGB is arbitrary (often black),
  // so transparency is laid over white, as a page shows it to a camera.
  if (hasTransparency(pixels)) flattenInPlace(pixels, WHITE);

  let found: FoundCode[];
  try {
    found = await read(pixels);
  } catch (error) {
    console.error("qrcode: reader failed", ctx.requestId, error);
    if (error instanceof QrReaderUnavailableError) {
      return problemResult(
        "service-unavailable",
        "The QR code reader could not be started just now; nothing is wrong with your image. Retry in a moment.",
      );
    }
    return problemResult("engine-failed", "The QR code reader failed on this image.");
  }
  if (found.length === 0) {
    return problemResult(
      "invalid-input",
      "No QR code was found in the image. Send a sharper or larger picture with the whole code and its quiet zone (the light border) in view.",
    );
  }
  const body: QrDecodeOutput = {
    count: found.length,
    codes: found.map(({ text, errorCorrection, version, format, position }) => ({
      text,
      errorCorrection,
      version,
      format,
      // Where the code sits in the image as sent, not in the reader's smaller copy.
      position: {
        topLeft: scaled(position.topLeft, scale),
        topRight: scaled(position.topRight, scale),
        bottomRight: scaled(position.bottomRight, scale),
        bottomLeft: scaled(position.bottomLeft, scale),
      },
    })),
  };
  return json(body);
}
