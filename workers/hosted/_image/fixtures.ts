/**
 * Test fixtures made in code rather than binary files: images painted pixel by pixel and
 * encoded with photon, and helpers that decode a handler's output back to pixels.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import type { HandlerResult } from "~workers/hosted/definition";
import { bytesToBase64 } from "./base64";

export type Pixel = readonly [r: number, g: number, b: number, a?: number];

export const RED: Pixel = [255, 0, 0, 255];
export const GREEN: Pixel = [0, 255, 0, 255];
export const BLUE: Pixel = [0, 0, 255, 255];
export const WHITE_PIXEL: Pixel = [255, 255, 255, 255];

export function paintRgba(width: number, height: number, paint: (x: number, y: number) => Pixel): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = paint(x, y);
      data.set([r, g, b, a], (y * width + x) * 4);
    }
  }
  return data;
}

function encodeWith(
  width: number,
  height: number,
  paint: (x: number, y: number) => Pixel,
  encode: (image: PhotonImage) => Uint8Array,
): Uint8Array<ArrayBuffer> {
  const image = new PhotonImage(paintRgba(width, height, paint), width, height);
  try {
    // A copy on a plain ArrayBuffer, so fixtures can be Response and File bodies.
    return new Uint8Array(encode(image));
  } finally {
    image.free();
  }
}

export const makePng = (
  width: number,
  height: number,
  paint: (x: number, y: number) => Pixel,
): Uint8Array<ArrayBuffer> => encodeWith(width, height, paint, (image) => image.get_bytes());

export const makeJpeg = (
  width: number,
  height: number,
  paint: (x: number, y: number) => Pixel,
  quality = 95,
): Uint8Array<ArrayBuffer> => encodeWith(width, height, paint, (image) => image.get_bytes_jpeg(quality));

export const makeWebp = (
  width: number,
  height: number,
  paint: (x: number, y: number) => Pixel,
): Uint8Array<ArrayBuffer> => encodeWith(width, height, paint, (image) => image.get_bytes_webp());

export const solid = (width: number, height: number, pixel: Pixel): Uint8Array<ArrayBuffer> =>
  makePng(width, height, () => pixel);

export const toDataUrl = (bytes: Uint8Array, mimeType = "image/png"): string =>
  `data:${mimeType};base64,${bytesToBase64(bytes)}`;

export interface DecodedImage {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number, number];
}

export function decodePixels(bytes: Uint8Array): DecodedImage {
  const image = PhotonImage.new_from_byteslice(bytes);
  const width = image.get_width();
  const height = image.get_height();
  const data = image.get_raw_pixels();
  image.free();
  return {
    width,
    height,
    at(x, y) {
      if (x < 0 || y < 0 || x >= width || y >= height)
        throw new RangeError(`(${x}, ${y}) is outside ${width}×${height}`);
      const index = (y * width + x) * 4;
      return [data[index] ?? -1, data[index + 1] ?? -1, data[index + 2] ?? -1, data[index + 3] ?? -1];
    },
  };
}

/**
 * The FourCCs of a RIFF/WEBP file's chunks, in order: `VP8 ` is lossy image data, `VP8L`
 * lossless, `VP8X` the extended header that precedes an `ALPH` (alpha) chunk.
 */
export function webpChunks(bytes: Uint8Array): string[] {
  const fourCc = (start: number) => String.fromCharCode(...bytes.slice(start, start + 4));
  if (fourCc(0) !== "RIFF" || fourCc(8) !== "WEBP") throw new Error("not a RIFF/WEBP file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: string[] = [];
  for (let offset = 12; offset + 8 <= bytes.length;) {
    chunks.push(fourCc(offset));
    const size = view.getUint32(offset + 4, true);
    offset += 8 + size + (size % 2);
  }
  return chunks;
}

/** The bytes of a binary result; fails loudly (with the problem's detail) for anything else. */
export function binaryBody(result: HandlerResult): Uint8Array {
  if (result.kind !== "binary") {
    throw new Error(`expected a binary result, got ${result.kind}: ${result.kind === "problem" ? result.detail : ""}`);
  }
  if (typeof result.body === "string") throw new Error("expected bytes, got a string body");
  return result.body;
}

/** Lets a File stand in for a multipart upload. */
export const asFile = (bytes: Uint8Array, name = "upload.bin", type = "application/octet-stream"): File =>
  new File([new Uint8Array(bytes)], name, { type });
