/**
 * Remove Background's engines in the engine Worker (decision 062): the classic cut-out
 * (segment.ts) whole, and the finishing of a cut another engine made (Cloudflare Images'
 * segmented PNG), both through finish.ts.
 *
 * Decoding reuses OCR's decoders (workers/engines/ocr/image.ts): the header is judged before
 * anything is allocated (a PNG up to 9 megapixels, a colour JPEG about 4, WebP 3), and the
 * pixels are scaled down to the size asked (3 megapixels at most) before the cut, which costs
 * a few hundred milliseconds a megapixel. Transparent pixels are read as white. The request's
 * time limit is checked between the steps (deadlineOf), as OCR's engine does.
 */
import {
  CUTOUT_MAX_PIXELS,
  documentFailure,
  type CutoutOutcome,
  type CutoutRequest,
  type DocumentFailure,
} from "~workers/hosted/capabilities";
import { identifyPage } from "~workers/hosted/image-to-text/page";
import { asCutoutFailure, CLASSIC_ENGINE, identifyCutoutInput } from "~workers/hosted/_image/cutout-input";
import { decodePage, scaleDown } from "../ocr/image";
import { checkPngData } from "../ocr/png";
import { decodePng, type Image } from "image-js";
import { finishCutout, type RgbaImage } from "./finish";
import { segmentClassic } from "./segment";

/**
 * The time limit, checked between the steps: each is synchronous, so nothing can stop one
 * midway, but a step that ends past the limit is the last (the caller's own bound ends its
 * wait; this ends the engine isolate's work too).
 */
export function deadlineOf(timeoutMs: number): () => DocumentFailure | null {
  const deadline = Date.now() + timeoutMs;
  return () =>
    Date.now() < deadline
      ? null
      : documentFailure(
          "engine-failed",
          `Cutting the subject out took longer than ${Math.round(timeoutMs / 100) / 10} s and was stopped. Send a smaller image, or ask for a smaller size.`,
          { reason: "timeout" },
        );
}

/** The classic engine: decode, cut, finish. */
export async function cutOutClassic(request: CutoutRequest): Promise<CutoutOutcome> {
  const late = deadlineOf(request.timeoutMs);
  const header = identifyCutoutInput(request.image);
  if (!header.ok) return header;
  const decoded = decodePage(request.image);
  if (!decoded.ok) return asCutoutFailure(decoded);
  let pixels = decoded.page.pixels;
  const limit = CUTOUT_MAX_PIXELS[request.size];
  if (pixels.width * pixels.height > limit) {
    const stopped = late();
    if (stopped) return stopped;
    pixels = scaleDown(pixels, Math.sqrt(limit / (pixels.width * pixels.height)));
  }
  const beforeCut = late();
  if (beforeCut) return beforeCut;
  const cut = segmentClassic(pixels);
  if (!cut.ok) {
    return documentFailure("invalid-input", cut.detail, {
      reason: cut.reason,
      engine: CLASSIC_ENGINE,
      ...(cut.measures && {
        backdropNoise: Math.round(cut.measures.noise * 10) / 10,
        borderCoverage: Math.round(cut.measures.coverage * 100) / 100,
        backdropGradient: Math.round(cut.measures.gradient),
      }),
      // The sides as one value (a problem's extensions are flat): `right,bottom,left`.
      ...(cut.border && { borderSubject: cut.border.share, borderSides: cut.border.sides.join(",") }),
    });
  }
  const afterCut = late();
  if (afterCut) return afterCut;
  // The mask becomes the alpha channel of the pixels (opaque until now), in place.
  for (let index = 0; index < cut.alpha.length; index++) pixels.data[index * 4 + 3] = cut.alpha[index]!;
  return finishCutout(pixels, request, CLASSIC_ENGINE, late);
}

/** A PNG decoded keeping its alpha (Cloudflare Images' segmented output), with OCR's header limits and bounded inflation. */
export function decodeRgbaPng(bytes: Uint8Array): { ok: true; image: RgbaImage } | DocumentFailure {
  const header = identifyPage(bytes);
  if (!header.ok) return asCutoutFailure(header);
  if (!header.png) {
    return documentFailure("engine-failed", "The segmentation engine answered something other than a PNG.");
  }
  const checked = checkPngData(bytes, header.width, header.height, header.png);
  if (!checked.ok) return documentFailure("engine-failed", "The segmentation engine answered a damaged PNG.");
  let image: Image;
  try {
    image = decodePng(checked.bytes);
  } catch {
    return documentFailure("engine-failed", "The segmentation engine answered a PNG that cannot be decoded.");
  }
  if (image.bitDepth !== 8) image = image.convertBitDepth(8);
  if (image.colorModel !== "RGBA") image = image.convertColor("RGBA");
  const raw = image.getRawImage();
  return { ok: true, image: { width: raw.width, height: raw.height, data: Uint8Array.from(raw.data) } };
}

/** Finishes another engine's cut: `segmented` is an RGBA PNG whose alpha is the mask. */
export async function finishSegmented(
  request: Omit<CutoutRequest, "image"> & { segmented: Uint8Array; engine: string },
): Promise<CutoutOutcome> {
  const late = deadlineOf(request.timeoutMs);
  const decoded = decodeRgbaPng(request.segmented);
  if (!decoded.ok) return decoded;
  const { segmented: _segmented, engine, timeoutMs: _timeoutMs, ...options } = request;
  return finishCutout(decoded.image, options, engine, late);
}
