/**
 * Encoding results. Photon's PNG and JPEG encoders take what we need; its WebP encoder writes
 * lossless WebP only, so WebP goes through libwebp (`./webp.ts`) to honour `quality`.
 */
import type { PhotonImage } from "@cf-wasm/photon/workerd";
import { z } from "zod";
import { WHITE, type Rgba } from "./color";
import { flatten, hasTransparency, toPhoton, toPixels } from "./pixels";
import { encodeLossyWebp } from "./webp";

export const OUTPUT_FORMATS = ["png", "jpeg", "webp"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const OUTPUT_MIME_TYPES: Record<OutputFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

export const QualitySchema = z
  .number()
  .int()
  .min(1)
  .max(100)
  .describe(
    "JPEG and WebP quality, 1–100 (WebP output is lossy, libwebp's scale). PNG output is lossless, so it has no effect there.",
  );

export const DEFAULT_QUALITY = 85;

/**
 * Encodes `image` (not freed here). JPEG has no alpha channel, so transparent pixels are laid
 * over `matte` first; otherwise they would come out as whatever colour their RGB held.
 */
export async function encodeImage(
  image: PhotonImage,
  format: OutputFormat,
  quality: number,
  matte: Rgba = WHITE,
): Promise<{ bytes: Uint8Array; mimeType: string }> {
  const mimeType = OUTPUT_MIME_TYPES[format];
  if (format === "png") return { bytes: image.get_bytes(), mimeType };
  // WebP keeps alpha, so unlike JPEG nothing is laid over the matte.
  if (format === "webp") return { bytes: await encodeLossyWebp(toPixels(image), quality), mimeType };
  const pixels = toPixels(image);
  if (!hasTransparency(pixels)) return { bytes: image.get_bytes_jpeg(quality), mimeType };
  const opaque = toPhoton(flatten(pixels, matte.a === 255 ? matte : WHITE));
  try {
    return { bytes: opaque.get_bytes_jpeg(quality), mimeType };
  } finally {
    opaque.free();
  }
}
