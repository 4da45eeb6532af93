/**
 * Remove Background's input: what an uploaded image is and whether an engine may take it, from
 * its header alone, before anything is decoded or sent on. Light enough for the main Worker,
 * and read by the engine Worker and the Cloudflare Images provider too (the engine's RPC
 * methods can be called on their own), so it lives here with the other shared image pieces
 * rather than in the API's folder, which imports the engines' side.
 *
 * Remove Background reads PNG, JPEG and WebP, remove.bg's formats and the ones Cloudflare Images
 * and the classic engine both read, so an image accepted locally is accepted in production.
 */
import { documentFailure, type DocumentFailure } from "~workers/hosted/capabilities";
import { identifyPage, type PageHeader } from "../image-to-text/page";
import { detectFormat, readImageHeader, type ImageFormat } from "./sniff";

/** The classic engine's `X-Engine` name. */
export const CLASSIC_ENGINE = "classic";

export const CUTOUT_INPUT_FORMATS: readonly ImageFormat[] = ["png", "jpeg", "webp"];
export const CUTOUT_FORMATS_TEXT = "PNG, JPEG or WebP";

/** Cloudflare Images' input bound here: remove.bg's `full` (25 megapixels), and 12 000 pixels a side. */
export const IMAGES_MAX_INPUT_PIXELS = 25_000_000;
export const IMAGES_MAX_INPUT_SIDE = 12_000;

export interface CutoutHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** The format and size, or the problem: 415 for what is not a PNG, JPEG or WebP, 422 for a header that cannot be read. */
export function identifyCutoutInput(bytes: Uint8Array): { ok: true; header: CutoutHeader } | DocumentFailure {
  if (bytes.length === 0) return documentFailure("invalid-input", "The image is empty.");
  const format = detectFormat(bytes);
  if (!format || !CUTOUT_INPUT_FORMATS.includes(format)) {
    const what = format ? `That is a ${format.toUpperCase()}` : "That is not an image we read";
    return documentFailure(
      "unsupported-media-type",
      `${what}: Remove Background reads ${CUTOUT_FORMATS_TEXT} (the type is read from the file's bytes).`,
    );
  }
  const header = readImageHeader(bytes, format);
  if (!header || header.width < 1 || header.height < 1) {
    return documentFailure(
      "unreadable-document",
      `The file starts like a ${format.toUpperCase()} but its header cannot be read.`,
      { reason: "malformed" },
    );
  }
  return { ok: true, header: { format, width: header.width, height: header.height } };
}

/** Cloudflare Images' bounds, from the header. */
export function checkImagesInput(header: CutoutHeader): DocumentFailure | null {
  const { width, height } = header;
  if (width <= IMAGES_MAX_INPUT_SIDE && height <= IMAGES_MAX_INPUT_SIDE && width * height <= IMAGES_MAX_INPUT_PIXELS) {
    return null;
  }
  return documentFailure(
    "unreadable-document",
    `The image is ${width}×${height} pixels; Remove Background takes images of up to ${IMAGES_MAX_INPUT_PIXELS / 1_000_000} megapixels and ${IMAGES_MAX_INPUT_SIDE} pixels a side. Scale it down.`,
    { reason: "too-large", width, height },
  );
}

/**
 * OCR's header and decoding refusals (the classic engine decodes with OCR's decoders and
 * limits) name OCR and its limits' reasons ("300 dpi is plenty for text"); a cut-out's caller
 * reads them as the classic engine's. Other refusals read the same for both.
 */
export function asCutoutFailure(failure: DocumentFailure): DocumentFailure {
  if (!/\bOCR\b/.test(failure.detail)) return failure;
  const detail = failure.detail
    .replace(/ \(300 dpi is plenty for text\)/, "")
    .replace(/\bOCR\b/g, "the classic cut-out engine");
  return { ...failure, detail };
}

/** The classic engine's decoding limits (OCR's decoders: 9 MP PNG, ~4 MP colour JPEG, 3 MP WebP), from the header. */
export function checkClassicInput(bytes: Uint8Array): PageHeader | DocumentFailure {
  const header = identifyPage(bytes);
  return header.ok ? header : asCutoutFailure(header);
}
