/**
 * Remove Background in production: Cloudflare Images' foreground segmentation (BiRefNet, run
 * by Cloudflare) on the IMAGES binding, `segment: "foreground"`, answered as an RGBA PNG whose
 * alpha is the mask. Images does the cut and the resize in one transformation (billed as one
 * unique transformation: 5,000 a month included, then $0.50 per 1,000); everything after it
 * (`crop`, `channels`, `bg_color`, the format) is the engine Worker's finishing step
 * (workers/engines/cutout/finish.ts), the same code that finishes the classic engine's cut, so
 * the options mean one thing on either engine (decision 062).
 *
 * The binding has no local simulation of `segment` (Miniflare's sharp backend ignores it and
 * answers the image unchanged), so it is declared for production only; tests use a fake of the
 * binding's chained API (tests/fakes/cloudflare-images.ts).
 */
import {
  CUTOUT_MAX_PIXELS,
  documentFailure,
  type CutoutEngines,
  type CutoutOutcome,
  type CutoutRequest,
  type ForegroundSegmenter,
} from "~workers/hosted/capabilities";
import { checkImagesInput, identifyCutoutInput } from "~workers/hosted/_image/cutout-input";

export const IMAGES_ENGINE = "cloudflare-images";

/** Images' error codes that are the caller's image, not the service (Images' docs, "Errors"). */
const NOT_AN_IMAGE = new Set([9412, 9520]);
/** The account's free allowance of transformations is used up (Images answers 9423 until the month turns). */
const QUOTA_EXHAUSTED = 9423;

const errorCode = (error: unknown): number | null =>
  typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "number"
    ? (error as { code: number }).code
    : null;

/** The size Images is asked for: within the size's pixel bound, keeping the image's shape; never enlarged. */
export function targetSize(width: number, height: number, maxPixels: number): { width: number; height: number } | null {
  if (width * height <= maxPixels) return null;
  const factor = Math.sqrt(maxPixels / (width * height));
  return { width: Math.max(1, Math.floor(width * factor)), height: Math.max(1, Math.floor(height * factor)) };
}

async function segment(images: ImagesBinding, request: CutoutRequest, size: { width: number; height: number } | null) {
  const result = await images
    .input(new Blob([request.image as Uint8Array<ArrayBuffer>]).stream())
    .transform({ segment: "foreground", ...(size && { width: size.width, height: size.height, fit: "scale-down" }) })
    .output({ format: "image/png" });
  return new Uint8Array(await new Response(result.image()).arrayBuffer());
}

export function imagesForegroundSegmenter(
  images: ImagesBinding,
  finisher: Pick<CutoutEngines, "finishCutout">,
): ForegroundSegmenter {
  return {
    engine: IMAGES_ENGINE,
    async cutOut(request: CutoutRequest): Promise<CutoutOutcome> {
      const started = Date.now();
      const identified = identifyCutoutInput(request.image);
      if (!identified.ok) return identified;
      const tooLarge = checkImagesInput(identified.header);
      if (tooLarge) return tooLarge;
      const { width, height } = identified.header;
      let segmented: Uint8Array;
      try {
        segmented = await withTimeout(
          segment(images, request, targetSize(width, height, CUTOUT_MAX_PIXELS[request.size])),
          request.timeoutMs,
        );
      } catch (error) {
        const code = errorCode(error);
        if (code !== null && NOT_AN_IMAGE.has(code)) {
          return documentFailure(
            "unreadable-document",
            "Cloudflare Images could not read this image: it is damaged or uses a variant of its format Images does not decode.",
            { reason: "malformed" },
          );
        }
        if (code === QUOTA_EXHAUSTED) {
          return documentFailure(
            "engine-unavailable",
            "This deployment's Cloudflare Images allowance of transformations is used up for the month.",
            { binding: "IMAGES" },
          );
        }
        console.error("Cloudflare Images segmentation failed", error);
        return documentFailure(
          "engine-failed",
          error instanceof TimeoutError
            ? `Cloudflare Images did not answer within ${request.timeoutMs / 1000} s. Retry, or send a smaller image.`
            : "Cloudflare Images failed to segment this image. Retry shortly.",
          { engine: IMAGES_ENGINE },
        );
      }
      // The finishing step gets what is left of the limit, not the whole limit again.
      const left = request.timeoutMs - (Date.now() - started);
      if (left <= 0) {
        return documentFailure(
          "engine-failed",
          `Cloudflare Images did not answer within ${request.timeoutMs / 1000} s. Retry, or send a smaller image.`,
          { engine: IMAGES_ENGINE },
        );
      }
      const { image: _image, ...options } = request;
      return finisher.finishCutout({ ...options, timeoutMs: left, segmented, engine: IMAGES_ENGINE });
    },
  };
}

class TimeoutError extends Error {}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
