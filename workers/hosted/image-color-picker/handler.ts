/**
 * Palette extraction: photon decodes (and, for large images, downsamples with nearest-
 * neighbour sampling, which keeps the image's own colours instead of inventing blends at
 * edges); `quantize.ts` finds the colours.
 */
import { crop, resize, SamplingFilter, type PhotonImage } from "@cf-wasm/photon/workerd";
import { json, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { toHex } from "../_image/color";
import { describeColor } from "../colorconvert/convert-color";
import { loadImage } from "../_image/input";
import { quantize, mostCommonColor } from "./quantize";
import type { ImageColorPickerInput, ImageColorPickerOutput } from "./schema";

/** Pixels sampled for the palette; 256² keeps a 4096² image's palette under ~50 ms. */
export const SAMPLE_PIXELS = 256 * 256;

function samplePixels(image: PhotonImage): Uint8Array {
  const width = image.get_width();
  const height = image.get_height();
  if (width * height <= SAMPLE_PIXELS) return image.get_raw_pixels();
  const scale = Math.sqrt(SAMPLE_PIXELS / (width * height));
  const small = resize(
    image,
    Math.max(1, Math.round(width * scale)),
    Math.max(1, Math.round(height * scale)),
    SamplingFilter.Nearest,
  );
  try {
    return small.get_raw_pixels();
  } finally {
    small.free();
  }
}

/** The edge pixels at full resolution, cut out as four strips so the whole image is never copied out. */
function edgePixels(image: PhotonImage): Uint8Array {
  const width = image.get_width();
  const height = image.get_height();
  if (width <= 2 || height <= 2) return image.get_raw_pixels(); // every pixel is on the edge
  const strips = [
    crop(image, 0, 0, width, 1),
    crop(image, 0, height - 1, width, height),
    crop(image, 0, 1, 1, height - 1),
    crop(image, width - 1, 1, width, height - 1),
  ];
  try {
    const parts = strips.map((strip) => strip.get_raw_pixels());
    const edge = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      edge.set(part, offset);
      offset += part.length;
    }
    return edge;
  } finally {
    for (const strip of strips) strip.free();
  }
}

export function describeColors(image: PhotonImage, count: number): HandlerResult {
  const clusters = quantize(samplePixels(image), count);
  if (clusters.length === 0)
    return problemResult("invalid-input", "The image is fully transparent: there are no colours to pick.");
  // Two clusters can round to the same hex; they are one colour to the caller.
  const byHex = new Map<string, number>();
  for (const cluster of clusters) {
    const hex = toHex(cluster);
    byHex.set(hex, (byHex.get(hex) ?? 0) + cluster.count);
  }
  const pixels = clusters.reduce((sum, cluster) => sum + cluster.count, 0);
  const palette = [...byHex.entries()]
    .sort(([hexA, a], [hexB, b]) => b - a || hexA.localeCompare(hexB))
    .map(([hex, pixelCount]) => {
      const rgb = {
        r: Number.parseInt(hex.slice(1, 3), 16),
        g: Number.parseInt(hex.slice(3, 5), 16),
        b: Number.parseInt(hex.slice(5, 7), 16),
      };
      return { hex, rgb, share: Math.round((pixelCount / pixels) * 10_000) / 10_000, name: describeColor(rgb).name };
    });
  const edge = mostCommonColor(edgePixels(image));
  const body: ImageColorPickerOutput = {
    palette,
    dominant: palette[0]?.hex ?? "#000000",
    background: edge ? toHex(edge) : "transparent",
  };
  return json(body);
}

export async function pickColors(input: ImageColorPickerInput, ctx: OperationContext): Promise<HandlerResult> {
  const loaded = await loadImage(input, ctx);
  if (!loaded.ok) return loaded.problem;
  const { image } = loaded.value;
  try {
    return describeColors(image, input.count);
  } catch {
    return problemResult("engine-failed", "The image engine failed while reading the image's colours.");
  } finally {
    image.free();
  }
}
