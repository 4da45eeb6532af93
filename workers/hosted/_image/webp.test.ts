/**
 * Lossy WebP, checked with a decoder that is not the encoder: libwebp writes the files, photon
 * (the Rust `image` crate's VP8 decoder) reads them back, and the RIFF chunks are read here.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import { encodeImage } from "./encode";
import { decodePixels, paintRgba, webpChunks } from "./fixtures";
import { identifyImage } from "./input";

const WIDTH = 64;
const HEIGHT = 48;

/** Smooth gradients with a wave across them: detail that a lower quality visibly gives up. */
const source = paintRgba(WIDTH, HEIGHT, (x, y) => [
  x * 4,
  y * 5,
  Math.round(128 + 100 * Math.sin(x / 5) * Math.cos(y / 7)),
  255,
]);

async function encodeSource(pixels: Uint8Array, quality: number): Promise<Uint8Array> {
  const image = new PhotonImage(pixels, WIDTH, HEIGHT);
  try {
    const encoded = await encodeImage(image, "webp", quality);
    expect(encoded.mimeType).toBe("image/webp");
    return encoded.bytes;
  } finally {
    image.free();
  }
}

/** Mean absolute difference per colour channel (0–255) between the source and a decoded file. */
function meanError(bytes: Uint8Array, pixels: Uint8Array): number {
  const decoded = decodePixels(bytes);
  let total = 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const [r, g, b] = decoded.at(x, y);
      const index = (y * WIDTH + x) * 4;
      total += Math.abs(r - (pixels[index] ?? 0));
      total += Math.abs(g - (pixels[index + 1] ?? 0));
      total += Math.abs(b - (pixels[index + 2] ?? 0));
    }
  }
  return total / (WIDTH * HEIGHT * 3);
}

describe("lossy WebP", () => {
  it("honours quality: VP8 (not VP8L) at 90 and 10, the same size, smaller at 10, close to the source at 90", async () => {
    const high = await encodeSource(source, 90);
    const low = await encodeSource(source, 10);
    // An opaque image is the simple format: one lossy `VP8 ` chunk, no lossless `VP8L`.
    expect(webpChunks(high)).toEqual(["VP8 "]);
    expect(webpChunks(low)).toEqual(["VP8 "]);
    for (const bytes of [high, low]) {
      const decoded = decodePixels(bytes);
      expect([decoded.width, decoded.height]).toEqual([WIDTH, HEIGHT]);
      const header = identifyImage(bytes);
      expect(header.ok && [header.value.format, header.value.width, header.value.height]).toEqual([
        "webp",
        WIDTH,
        HEIGHT,
      ]);
    }
    expect(low.length).toBeLessThan(high.length);
    const highError = meanError(high, source);
    const lowError = meanError(low, source);
    // Lossy but faithful at 90: libwebp gives about 3.3 levels of mean error here (most of it
    // the 4:2:0 chroma subsampling of the blue wave), so 5 (2% of the range) leaves room for
    // encoder updates while still failing on a broken encoder. Worse at 10: a real quality dial.
    expect(highError).toBeGreaterThan(0);
    expect(highError).toBeLessThan(5);
    expect(lowError).toBeGreaterThan(highError);
  });

  it("keeps transparency: an ALPH chunk beside the lossy VP8 data, alpha read back intact", async () => {
    const halfClear = paintRgba(WIDTH, HEIGHT, (x, y) => [x * 4, y * 5, 90, x < WIDTH / 2 ? 0 : 255]);
    const bytes = await encodeSource(halfClear, 80);
    expect(webpChunks(bytes)).toEqual(["VP8X", "ALPH", "VP8 "]);
    const decoded = decodePixels(bytes);
    expect(decoded.at(0, 0)[3]).toBe(0);
    expect(decoded.at(WIDTH - 1, HEIGHT - 1)[3]).toBe(255);
  });
});
