/**
 * The operations pipeline. Photon does every operation except rotation: its `rotate()` returns
 * a blank image for 90° (INTEGRATIONS.md), so rotation goes through image-js, which rotates
 * multiples of 90° exactly and other angles with bilinear interpolation.
 *
 * Photon panics (a WebAssembly trap) on some inputs it does not guard against: a crop outside
 * the image, a Gaussian blur of an image one pixel wide or tall (and at two or three pixels
 * the blur silently does nothing). Those cases are checked or worked around here, so a trap
 * means a real engine failure, not bad input.
 *
 * Brightness and greyscale are done here in JavaScript, not by photon: photon's brightness
 * loop stops one pixel short (`0..len - 4`), so the last pixel of every image kept its colour,
 * and its greyscale has one fixed formula (0.3, 0.59, 0.11, truncated) where the API offers
 * three, each computed exactly as documented in schema.ts.
 */
import {
  adjust_contrast,
  apply_sharpening,
  crop,
  desaturate_hsl,
  fliph,
  flipv,
  gaussian_blur,
  hue_rotate_hsl,
  invert,
  PhotonImage,
  resize,
  SamplingFilter,
  saturate_hsl,
  sepia,
} from "@cf-wasm/photon/workerd";
import { Image } from "image-js";
import { problemResult, type HandlerResult } from "~workers/hosted/definition";
import type { Rgba } from "../_image/color";
import { MAX_SIDE } from "../_image/limits";
import { failure, success, type Outcome } from "../_image/outcome";
import { createCanvas, drawOver, toPhoton, toPixels } from "../_image/pixels";
import type { GrayscaleMethod, ImageOperation } from "./schema";

type ResizeOperation = Extract<ImageOperation, { op: "resize" }>;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How a resize is carried out: an optional crop of the source, a scale, an optional pad. */
export interface ResizePlan {
  crop?: Rect;
  scale: { width: number; height: number };
  pad?: Rect & { background: Rgba };
}

const invalid = (detail: string) => failure(problemResult("invalid-input", detail));

const atLeastOne = (value: number) => Math.max(1, Math.round(value));

export function planResize(sourceWidth: number, sourceHeight: number, operation: ResizeOperation): Outcome<ResizePlan> {
  const { width, height, fit } = operation;
  let plan: ResizePlan;
  if (width !== undefined && height !== undefined) {
    const fitScale = Math.min(width / sourceWidth, height / sourceHeight);
    const fitted = {
      width: Math.min(width, atLeastOne(sourceWidth * fitScale)),
      height: Math.min(height, atLeastOne(sourceHeight * fitScale)),
    };
    if (fit === "fill") plan = { scale: { width, height } };
    else if (fit === "inside") plan = { scale: fitted };
    else if (fit === "contain") {
      const pad = {
        x: Math.floor((width - fitted.width) / 2),
        y: Math.floor((height - fitted.height) / 2),
        width,
        height,
        background: operation.background,
      };
      plan = { scale: fitted, pad };
    } else {
      // Cover crops the source to the box's aspect ratio before scaling, so the intermediate
      // image is never larger than the result (scaling first could overshoot any limit).
      const wider = sourceWidth * height > width * sourceHeight;
      const cropWidth = wider ? Math.min(sourceWidth, atLeastOne((sourceHeight * width) / height)) : sourceWidth;
      const cropHeight = wider ? sourceHeight : Math.min(sourceHeight, atLeastOne((sourceWidth * height) / width));
      const region = {
        x: Math.floor((sourceWidth - cropWidth) / 2),
        y: Math.floor((sourceHeight - cropHeight) / 2),
        width: cropWidth,
        height: cropHeight,
      };
      plan = { crop: region, scale: { width, height } };
    }
  } else if (width !== undefined) {
    plan = { scale: { width, height: atLeastOne((sourceHeight * width) / sourceWidth) } };
  } else if (height !== undefined) {
    plan = { scale: { width: atLeastOne((sourceWidth * height) / sourceHeight), height } };
  } else {
    return invalid("resize needs a width, a height or both.");
  }
  if (plan.scale.width > MAX_SIDE || plan.scale.height > MAX_SIDE) {
    return invalid(
      `Keeping the aspect ratio, that resize would make a ${plan.scale.width}×${plan.scale.height} image; the limit is ${MAX_SIDE} per side.`,
    );
  }
  return success(plan);
}

function resizeImage(image: PhotonImage, plan: ResizePlan): PhotonImage {
  let current = image;
  // Each step makes a new image; intermediates are freed, the caller's `image` is not.
  const replace = (next: PhotonImage) => {
    if (current !== image) current.free();
    current = next;
  };
  try {
    if (plan.crop) {
      const { x, y, width, height } = plan.crop;
      replace(crop(current, x, y, x + width, y + height));
    }
    if (current.get_width() !== plan.scale.width || current.get_height() !== plan.scale.height) {
      replace(resize(current, plan.scale.width, plan.scale.height, SamplingFilter.CatmullRom));
    }
    if (plan.pad) {
      const canvas = createCanvas(plan.pad.width, plan.pad.height, plan.pad.background);
      drawOver(canvas, toPixels(current), plan.pad.x, plan.pad.y);
      replace(toPhoton(canvas));
    }
    return current;
  } catch (error) {
    if (current !== image) current.free();
    throw error;
  }
}

/** The size of the canvas that holds the whole image rotated by `degrees`. */
export function rotatedSize(width: number, height: number, degrees: number): { width: number; height: number } {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  return { width: atLeastOne(width * cos + height * sin), height: atLeastOne(width * sin + height * cos) };
}

function rotateImage(image: PhotonImage, degrees: number, background: Rgba): Outcome<PhotonImage> {
  const turn = ((degrees % 360) + 360) % 360;
  if (turn === 0) return success(image);
  const width = image.get_width();
  const height = image.get_height();
  const source = new Image(width, height, { colorModel: "RGBA", data: image.get_raw_pixels() });
  let rotated: Image;
  if (turn === 90 || turn === 180 || turn === 270) {
    rotated = source.rotate(turn);
  } else {
    const size = rotatedSize(width, height, turn);
    if (size.width > MAX_SIDE || size.height > MAX_SIDE) {
      return invalid(
        `Rotating by ${degrees}° would make a ${size.width}×${size.height} image; the limit is ${MAX_SIDE} per side.`,
      );
    }
    // image-js turns anti-clockwise for positive angles; the API's angles are clockwise.
    rotated = source.transformRotate(-turn, {
      fullImage: true,
      borderType: "constant",
      borderValue: [background.r, background.g, background.b, background.a],
      interpolationType: "bilinear",
    });
  }
  const { data } = rotated.getRawImage();
  if (!(data instanceof Uint8Array)) throw new TypeError("image-js returned a non-8-bit image");
  return success(new PhotonImage(data, rotated.width, rotated.height));
}

/** Photon's Gaussian blur needs at least this many pixels on each side (measured, any radius). */
const MIN_BLUR_SIDE = 4;

/**
 * Photon's Gaussian blur traps on an image one pixel wide or tall and silently does nothing
 * when a side is 2 or 3 pixels. Such an image is blurred as a copy padded to 4 pixels by
 * repeating its last row and column (the same edge clamping photon uses), then cropped back;
 * for a single row or column that is exactly the 1-D blur along it.
 */
function blurImage(image: PhotonImage, radius: number): PhotonImage {
  const width = image.get_width();
  const height = image.get_height();
  if (width >= MIN_BLUR_SIDE && height >= MIN_BLUR_SIDE) {
    gaussian_blur(image, radius);
    return image;
  }
  const source = toPixels(image);
  const paddedWidth = Math.max(MIN_BLUR_SIDE, width);
  const paddedHeight = Math.max(MIN_BLUR_SIDE, height);
  const padded = createCanvas(paddedWidth, paddedHeight, { r: 0, g: 0, b: 0, a: 0 });
  for (let y = 0; y < paddedHeight; y++) {
    for (let x = 0; x < paddedWidth; x++) {
      const from = (Math.min(y, height - 1) * width + Math.min(x, width - 1)) * 4;
      padded.data.set(source.data.subarray(from, from + 4), (y * paddedWidth + x) * 4);
    }
  }
  const work = toPhoton(padded);
  try {
    gaussian_blur(work, radius);
    return crop(work, 0, 0, width, height);
  } finally {
    work.free();
  }
}

const clampByte = (value: number) => (value <= 0 ? 0 : value >= 255 ? 255 : value);

/** Adds `delta` to r, g and b of every pixel, the last one included, clamped to 0–255; alpha kept. */
function brightnessImage(image: PhotonImage, delta: number): PhotonImage {
  const curve = Uint8Array.from({ length: 256 }, (_, value) => clampByte(value + delta));
  const pixels = toPixels(image);
  const { data } = pixels;
  for (let index = 0; index < data.length; index += 4) {
    data[index] = curve[data[index] ?? 0] ?? 0;
    data[index + 1] = curve[data[index + 1] ?? 0] ?? 0;
    data[index + 2] = curve[data[index + 2] ?? 0] ?? 0;
  }
  return toPhoton(pixels);
}

/** sRGB's transfer function (IEC 61966-2-1): a stored 0–255 value to linear light 0–1. */
const SRGB_TO_LINEAR = Float64Array.from({ length: 256 }, (_, value) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Its inverse: linear light 0–1 back to a stored 0–255 value, rounded. */
const linearToSrgb = (y: number) =>
  Math.round(clampByte((y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055) * 255));

/** The grey level of one pixel for each method (schema.ts documents the formulas). */
const GREY: Record<GrayscaleMethod, (r: number, g: number, b: number) => number> = {
  luma601: (r, g, b) => Math.round(clampByte(0.299 * r + 0.587 * g + 0.114 * b)),
  luma709: (r, g, b) => Math.round(clampByte(0.2126 * r + 0.7152 * g + 0.0722 * b)),
  luminance: (r, g, b) =>
    linearToSrgb(
      0.2126 * (SRGB_TO_LINEAR[r] ?? 0) + 0.7152 * (SRGB_TO_LINEAR[g] ?? 0) + 0.0722 * (SRGB_TO_LINEAR[b] ?? 0),
    ),
};

/** Sets r = g = b to the method's grey level on every pixel; alpha kept. */
function grayscaleImage(image: PhotonImage, method: GrayscaleMethod): PhotonImage {
  const grey = GREY[method];
  const pixels = toPixels(image);
  const { data } = pixels;
  for (let index = 0; index < data.length; index += 4) {
    const level = grey(data[index] ?? 0, data[index + 1] ?? 0, data[index + 2] ?? 0);
    data[index] = level;
    data[index + 1] = level;
    data[index + 2] = level;
  }
  return toPhoton(pixels);
}

/** Applies one operation; returns the same image (changed in place) or a new one. */
function applyOperation(image: PhotonImage, operation: ImageOperation): Outcome<PhotonImage> {
  switch (operation.op) {
    case "grayscale":
      return success(grayscaleImage(image, operation.method));
    case "blur":
      return success(blurImage(image, operation.radius));
    case "sharpen":
      // Not photon's `sharpen()`: that 3×3 kernel leaves a transparent black 1-pixel frame.
      apply_sharpening(image, operation.amount, operation.radius, 0, 0);
      return success(image);
    case "brightness":
      return success(brightnessImage(image, Math.round(operation.amount * 2.55)));
    case "contrast":
      adjust_contrast(image, operation.amount * 2.55);
      return success(image);
    case "saturation":
      if (operation.amount > 0) saturate_hsl(image, operation.amount / 100);
      if (operation.amount < 0) desaturate_hsl(image, -operation.amount / 100);
      return success(image);
    case "hue": {
      // Photon takes the rotation as a fraction of a turn.
      const turn = (((operation.degrees % 360) + 360) % 360) / 360;
      if (turn !== 0) hue_rotate_hsl(image, turn);
      return success(image);
    }
    case "invert":
      invert(image);
      return success(image);
    case "sepia":
      sepia(image);
      return success(image);
    case "flip":
      if (operation.direction === "horizontal") fliph(image);
      else flipv(image);
      return success(image);
    case "crop": {
      const width = image.get_width();
      const height = image.get_height();
      const { x, y } = operation;
      if (x + operation.width > width || y + operation.height > height) {
        return invalid(
          `The crop ${operation.width}×${operation.height} at (${x}, ${y}) does not fit inside the ${width}×${height} image.`,
        );
      }
      return success(crop(image, x, y, x + operation.width, y + operation.height));
    }
    case "resize": {
      const plan = planResize(image.get_width(), image.get_height(), operation);
      if (!plan.ok) return plan;
      return success(resizeImage(image, plan.value));
    }
    case "rotate":
      return rotateImage(image, operation.degrees, operation.background);
  }
}

/**
 * Runs the operations in order. Takes ownership of `image`: it is freed here unless it is
 * the returned image, which the caller then owns.
 */
export function runOperations(image: PhotonImage, operations: readonly ImageOperation[]): Outcome<PhotonImage> {
  let current = image;
  for (const [index, operation] of operations.entries()) {
    let next: Outcome<PhotonImage>;
    try {
      next = applyOperation(current, operation);
    } catch {
      current.free();
      return failure(
        problemResult(
          "engine-failed",
          `The image engine failed on operation ${index + 1} (${operation.op}); nothing was produced.`,
        ),
      );
    }
    if (!next.ok) {
      current.free();
      return failure(withStep(next.problem, index, operation.op));
    }
    if (next.value !== current) current.free();
    current = next.value;
  }
  return success(current);
}

/** Prefixes a problem's detail with the step it came from, so a caller can find it in a long list. */
function withStep(problem: HandlerResult, index: number, op: string): HandlerResult {
  return problem.kind === "problem"
    ? { ...problem, detail: `Operation ${index + 1} (${op}): ${problem.detail}` }
    : problem;
}
