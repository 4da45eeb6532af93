/**
 * Merging: read every image's bytes and header first (so the layout is known before any
 * pixels exist), then decode, draw and drop the images one at a time, so at most one decoded
 * input sits in memory beside the canvas. Photon decodes and encodes; drawing is our own
 * "source over" with opacity (`_image/pixels.ts`), which photon's `watermark` lacks.
 */
import type { PhotonImage } from "@cf-wasm/photon/workerd";
import { binary, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { encodeImage } from "../_image/encode";
import { checkDecodableSize, decodeImage, identifyImage, loadImageBytes, type ImageSource } from "../_image/input";
import { MAX_IMAGE_BYTES } from "../_image/limits";
import type { ImageHeader } from "../_image/sniff";
import { createCanvas, drawOver, toPhoton, toPixels } from "../_image/pixels";
import { planLayout } from "./layout";
import { MAX_TOTAL_BYTES, type MergeImage, type MergeImagesInput } from "./schema";

const toSource = (image: MergeImage): { image?: ImageSource; url?: string } =>
  image instanceof File ? { image } : "url" in image ? { url: image.url } : { image: image.data };

const withIndex = (result: HandlerResult, index: number): HandlerResult =>
  result.kind === "problem" ? { ...result, detail: `Image ${index + 1}: ${result.detail}` } : result;

export async function mergeImages(input: MergeImagesInput, ctx: OperationContext): Promise<HandlerResult> {
  const loaded: { bytes: Uint8Array; header: ImageHeader }[] = [];
  let total = 0;
  for (const [index, image] of input.images.entries()) {
    const remaining = MAX_TOTAL_BYTES - total;
    const bytes = await loadImageBytes(toSource(image), ctx, {
      maxBytes: Math.min(MAX_IMAGE_BYTES, remaining),
      message:
        remaining < MAX_IMAGE_BYTES
          ? `The images may be at most ${MAX_TOTAL_BYTES / 1024 / 1024} MB together.`
          : `An image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`,
    });
    if (!bytes.ok) return withIndex(bytes.problem, index);
    const header = identifyImage(bytes.value);
    if (!header.ok) return withIndex(header.problem, index);
    const size = checkDecodableSize(header.value);
    if (!size.ok) return withIndex(size.problem, index);
    total += bytes.value.length;
    loaded.push({ bytes: bytes.value, header: header.value });
  }

  const layout = planLayout(
    loaded.map(({ header }) => header),
    input,
  );
  if (!layout.ok) return layout.problem;

  const canvas = createCanvas(layout.value.width, layout.value.height, input.background);
  for (const [index, { bytes, header }] of loaded.entries()) {
    const decoded = decodeImage(bytes, header);
    if (!decoded.ok) return withIndex(decoded.problem, index);
    const position = layout.value.positions[index] ?? { x: 0, y: 0, opacity: 1 };
    try {
      drawOver(canvas, toPixels(decoded.value), position.x, position.y, position.opacity);
    } catch {
      return problemResult("engine-failed", `The image engine failed while drawing image ${index + 1}.`);
    } finally {
      decoded.value.free();
    }
  }

  let merged: PhotonImage;
  try {
    merged = toPhoton(canvas);
  } catch {
    return problemResult("engine-failed", "The image engine could not take the merged canvas.");
  }
  try {
    const encoded = await encodeImage(merged, input.format, input.quality, input.background);
    return binary(encoded.bytes, encoded.mimeType);
  } catch {
    return problemResult(
      "engine-failed",
      `The image engine could not encode the result as ${input.format.toUpperCase()}.`,
    );
  } finally {
    merged.free();
  }
}
