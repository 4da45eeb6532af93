/**
 * The decode operation: an image in, every QR code in it out, with the text, the level it was
 * made at, its version and where it sits. The image arrives and is checked the way every image
 * API takes one (`_image/input.ts`: file, data URL or fetched URL; 10 MB, 4096×4096).
 */
import { WHITE } from "../_image/color";
import { loadImage } from "../_image/input";
import { hasTransparency, toPixels } from "../_image/pixels";
import { flatten } from "../_image/pixels";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { readQrCodes } from "./reader";
import type { QrDecodeInput, QrDecodeOutput } from "./schema";

export async function handleQrDecode(input: QrDecodeInput, ctx: OperationContext): Promise<HandlerResult> {
  const loaded = await loadImage(input, ctx);
  if (!loaded.ok) return loaded.problem;
  let pixels;
  try {
    pixels = toPixels(loaded.value.image);
  } finally {
    loaded.value.image.free();
  }
  // ZXing reads luminance from RGB alone; a transparent pixel's RGB is arbitrary (often black),
  // so transparency is laid over white, as a page shows it to a camera.
  if (hasTransparency(pixels)) pixels = flatten(pixels, WHITE);

  let found;
  try {
    found = await readQrCodes(pixels);
  } catch (error) {
    console.error("qrcode: reader failed", ctx.requestId, error);
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
      position,
    })),
  };
  return json(body);
}
