/**
 * Straight-alpha RGBA buffers in JavaScript, for the work photon does not do the way we need:
 * compositing with opacity (photon's `watermark` has none and leaves alpha at 254 over an
 * opaque base), padding with a colour, flattening transparency before JPEG.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import type { Rgba } from "./color";

export interface RgbaPixels {
  width: number;
  height: number;
  /** width × height × 4 bytes, row-major, straight alpha. */
  data: Uint8Array;
}

export const toPixels = (image: PhotonImage): RgbaPixels => ({
  width: image.get_width(),
  height: image.get_height(),
  data: image.get_raw_pixels(),
});

export const toPhoton = (pixels: RgbaPixels): PhotonImage => new PhotonImage(pixels.data, pixels.width, pixels.height);

export function createCanvas(width: number, height: number, fill: Rgba): RgbaPixels {
  const data = new Uint8Array(width * height * 4);
  if (fill.r || fill.g || fill.b || fill.a) {
    for (let index = 0; index < data.length; index += 4) {
      data[index] = fill.r;
      data[index + 1] = fill.g;
      data[index + 2] = fill.b;
      data[index + 3] = fill.a;
    }
  }
  return { width, height, data };
}

/**
 * Draws `source` onto `target` with its top-left corner at (x, y), Porter-Duff "source over",
 * with the source's alpha scaled by `opacity` (0–1). Whatever falls outside `target` is clipped.
 */
export function drawOver(target: RgbaPixels, source: RgbaPixels, x: number, y: number, opacity = 1): void {
  const startX = Math.max(0, x);
  const startY = Math.max(0, y);
  const endX = Math.min(target.width, x + source.width);
  const endY = Math.min(target.height, y + source.height);
  if (startX >= endX || startY >= endY || opacity <= 0) return;
  const src = source.data;
  const dst = target.data;
  for (let row = startY; row < endY; row++) {
    let s = ((row - y) * source.width + (startX - x)) * 4;
    let d = (row * target.width + startX) * 4;
    for (let column = startX; column < endX; column++, s += 4, d += 4) {
      const sourceAlpha = ((src[s + 3] ?? 0) / 255) * opacity;
      if (sourceAlpha <= 0) continue;
      if (sourceAlpha >= 1) {
        dst[d] = src[s] ?? 0;
        dst[d + 1] = src[s + 1] ?? 0;
        dst[d + 2] = src[s + 2] ?? 0;
        dst[d + 3] = 255;
        continue;
      }
      const targetAlpha = (dst[d + 3] ?? 0) / 255;
      const below = targetAlpha * (1 - sourceAlpha);
      const outAlpha = sourceAlpha + below;
      for (let channel = 0; channel < 3; channel++) {
        dst[d + channel] = Math.round(
          ((src[s + channel] ?? 0) * sourceAlpha + (dst[d + channel] ?? 0) * below) / outAlpha,
        );
      }
      dst[d + 3] = Math.round(outAlpha * 255);
    }
  }
}

export function hasTransparency(pixels: RgbaPixels): boolean {
  for (let index = 3; index < pixels.data.length; index += 4) if (pixels.data[index] !== 255) return true;
  return false;
}

/** The image over an opaque background colour, every pixel opaque. */
export function flatten(pixels: RgbaPixels, background: Rgba): RgbaPixels {
  const canvas = createCanvas(pixels.width, pixels.height, { ...background, a: 255 });
  drawOver(canvas, pixels, 0, 0);
  return canvas;
}
