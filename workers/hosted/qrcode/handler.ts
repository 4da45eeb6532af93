import { PhotonImage } from "@cf-wasm/photon/workerd";
import { parseColor, WHITE } from "../_image/color";
import { DEFAULT_QUALITY, encodeImage } from "../_image/encode";
import { toPixels } from "../_image/pixels";
import { renderSvgToPng } from "../_render/svg-to-png";
import { binary, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { createQrMatrix, QrCapacityError, type QrMatrix } from "./engine";
import { encodeGif } from "./gif";
import { renderQrSvg } from "./render-svg";
import type { QrCodeInput } from "./schema";

/** Below this, antialiasing merges neighbouring modules and the PNG no longer scans. */
const MIN_PIXELS_PER_MODULE = 2;

export async function handleQrCode(
  input: QrCodeInput,
  ctx: Pick<OperationContext, "requestId">,
): Promise<HandlerResult> {
  if (input.background === input.foreground) {
    return problemResult("invalid-input", "foreground and background must differ, or the code cannot be read.");
  }
  // A logo hides modules; only level H leaves enough redundancy to restore them.
  const errorCorrection = input.logo ? "H" : input.errorCorrection;

  let matrix: QrMatrix;
  try {
    matrix = createQrMatrix(input.text, errorCorrection, input.charset);
  } catch (error) {
    if (error instanceof QrCapacityError) {
      const hint = input.logo
        ? " A logo forces level H, which holds the least; shorten the text or drop the logo."
        : " Shorten the text or choose a lower level.";
      return problemResult("invalid-input", error.message + hint);
    }
    console.error("qrcode: encoder failed", ctx.requestId, error);
    return problemResult("engine-failed", "The QR code could not be encoded.");
  }

  const modulesAcross = matrix.size + 2 * input.margin;
  if (input.format !== "svg" && input.size < modulesAcross * MIN_PIXELS_PER_MODULE) {
    return problemResult(
      "invalid-input",
      `size ${input.size} px is too small for this code (${modulesAcross} modules across with the margin); use at least ${modulesAcross * MIN_PIXELS_PER_MODULE} px, a smaller margin, or shorter text.`,
    );
  }

  const svg = renderQrSvg(matrix, {
    size: input.size,
    margin: input.margin,
    foreground: input.foreground,
    background: input.background,
    dotStyle: input.dotStyle,
    logo: input.logo ? { dataUrl: input.logo.dataUrl, marginPx: input.logoMargin } : undefined,
  });
  const headers = { "x-qr-version": String(matrix.version), "x-qr-error-correction": errorCorrection };
  if (input.format === "svg") return binary(svg, "image/svg+xml", headers);
  let png: Uint8Array;
  try {
    png = await renderSvgToPng(svg, { width: input.size });
  } catch (error) {
    // A logo resvg cannot decode is skipped, not thrown, so a throw here is the renderer's fault.
    console.error("qrcode: resvg failed", ctx.requestId, error);
    return problemResult("engine-failed", "The QR code could not be rendered to PNG.");
  }
  if (input.format === "png") return binary(png, "image/png", headers);
  // JPEG, WebP and GIF re-encode resvg's PNG through the encoder the image APIs share, so the QR code
  // and the image APIs agree on what a quality means. JPEG has no alpha: a transparent background
  // is laid over white, the colour a scanner expects between dark modules.
  const matte = parseColor(input.background) ?? WHITE;
  let image: PhotonImage | undefined;
  try {
    image = PhotonImage.new_from_byteslice(png);
    // GIF takes resvg's pixels as they are: a palette of exactly their colours where 256 suffice.
    if (input.format === "gif") return binary(encodeGif(toPixels(image)), "image/gif", headers);
    const encoded = await encodeImage(image, input.format, input.quality ?? DEFAULT_QUALITY, matte);
    return binary(encoded.bytes, encoded.mimeType, headers);
  } catch (error) {
    console.error("qrcode: encoding failed", ctx.requestId, input.format, error);
    return problemResult("engine-failed", `The QR code could not be encoded as ${input.format}.`);
  } finally {
    image?.free();
  }
}
