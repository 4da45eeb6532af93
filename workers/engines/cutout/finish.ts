/**
 * From a cut-out (RGBA, its alpha the subject's mask) to the answer the caller asked for: the
 * same steps whichever engine cut it (the classic engine here, Cloudflare Images' segmentation
 * in production), so `size`, `crop`, `channels`, `bg_color` and `format` mean one thing.
 *
 * PNG goes through fast-png (image-js's encoder), JPEG through jpeg-js, WebP through libwebp
 * (`_image/webp.ts`, loaded on the first WebP asked for). All three are JavaScript or
 * WebAssembly whose buffers the garbage collector takes back.
 */
import { encodePng, Image } from "image-js";
import { encode as encodeJpegData } from "jpeg-js";
import {
  CUTOUT_MAX_PIXELS,
  documentFailure,
  type CutoutBox,
  type CutoutOutcome,
  type CutoutRequest,
  type DocumentFailure,
} from "~workers/hosted/capabilities";
import { encodeLossyWebp } from "~workers/hosted/_image/webp";

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, straight (not premultiplied) alpha. */
  data: Uint8Array;
}

export type FinishOptions = Omit<CutoutRequest, "image" | "timeoutMs">;

/** JPEG and WebP quality: a cut-out's edge is what shows compression first. */
const QUALITY = 90;

const MIME_TYPES = { png: "image/png", webp: "image/webp", jpg: "image/jpeg" } as const;

/**
 * Scaled down to at most `maxPixels`, averaging premultiplied colours so no background bleeds
 * into the edge. OCR's `scaleDown` (ocr/image.ts) is the same box average without the alpha
 * weighting: right for its opaque pages, wrong here, where a transparent pixel's colour is
 * whatever the engine left and must not tint the subject's edge.
 */
export function fitWithin(image: RgbaImage, maxPixels: number): RgbaImage {
  const pixels = image.width * image.height;
  if (pixels <= maxPixels) return image;
  const factor = Math.sqrt(maxPixels / pixels);
  const width = Math.max(1, Math.floor(image.width * factor));
  const height = Math.max(1, Math.floor(image.height * factor));
  const data = new Uint8Array(width * height * 4);
  const xRatio = image.width / width;
  const yRatio = image.height / height;
  for (let y = 0; y < height; y++) {
    const top = Math.floor(y * yRatio);
    const bottom = Math.max(top + 1, Math.floor((y + 1) * yRatio));
    for (let x = 0; x < width; x++) {
      const left = Math.floor(x * xRatio);
      const right = Math.max(left + 1, Math.floor((x + 1) * xRatio));
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = top; sy < bottom; sy++) {
        let offset = (sy * image.width + left) * 4;
        for (let sx = left; sx < right; sx++, offset += 4) {
          const alpha = image.data[offset + 3]!;
          r += image.data[offset]! * alpha;
          g += image.data[offset + 1]! * alpha;
          b += image.data[offset + 2]! * alpha;
          a += alpha;
        }
      }
      const out = (y * width + x) * 4;
      const area = (bottom - top) * (right - left);
      if (a > 0) {
        data[out] = Math.round(r / a);
        data[out + 1] = Math.round(g / a);
        data[out + 2] = Math.round(b / a);
      }
      data[out + 3] = Math.round(a / area);
    }
  }
  return { width, height, data };
}

/**
 * The least alpha that counts as subject for the box (`X-Foreground-*` and `crop`): 8 of 255, a
 * pixel about 3 % opaque. A matting model's mask is soft, and leaves a faint haze over the
 * background (JPEG halos, a shadow); counting any alpha above 0 would make the box the whole
 * image and `crop` do nothing. Pixels fainter than this are invisible over any backdrop, and a
 * crop that drops them loses nothing that shows.
 */
export const BOX_MIN_ALPHA = 8;

/** The box of the pixels at least BOX_MIN_ALPHA opaque, or null when there are none. */
export function subjectBox(image: RgbaImage): CutoutBox | null {
  let left = image.width,
    right = -1,
    top = image.height,
    bottom = -1;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[(y * image.width + x) * 4 + 3]! < BOX_MIN_ALPHA) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  return right < 0 ? null : { left, top, width: right - left + 1, height: bottom - top + 1 };
}

function cropTo(image: RgbaImage, box: CutoutBox): RgbaImage {
  const data = new Uint8Array(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * image.width + box.left) * 4;
    data.set(image.data.subarray(from, from + box.width * 4), y * box.width * 4);
  }
  return { width: box.width, height: box.height, data };
}

type Colour = NonNullable<CutoutRequest["background"]>;

/** `over` laid on `under`, straight alpha, Porter-Duff source-over, in place on `image`. */
function layOver(image: RgbaImage, under: Colour): void {
  const underAlpha = under.a / 255;
  for (let offset = 0; offset < image.data.length; offset += 4) {
    const overAlpha = image.data[offset + 3]! / 255;
    const alpha = overAlpha + underAlpha * (1 - overAlpha);
    if (alpha === 0) continue;
    const mix = (top: number, bottom: number) =>
      Math.round((top * overAlpha + bottom * underAlpha * (1 - overAlpha)) / alpha);
    image.data[offset] = mix(image.data[offset]!, under.r);
    image.data[offset + 1] = mix(image.data[offset + 1]!, under.g);
    image.data[offset + 2] = mix(image.data[offset + 2]!, under.b);
    image.data[offset + 3] = Math.round(alpha * 255);
  }
}

/** The mask as an opaque greyscale image (white subject, black background), RGBA. */
function alphaMatte(image: RgbaImage): RgbaImage {
  const data = new Uint8Array(image.data.length);
  for (let offset = 0; offset < data.length; offset += 4) {
    const alpha = image.data[offset + 3]!;
    data[offset] = alpha;
    data[offset + 1] = alpha;
    data[offset + 2] = alpha;
    data[offset + 3] = 255;
  }
  return { width: image.width, height: image.height, data };
}

function encodePngImage(image: RgbaImage, grey: boolean): Uint8Array {
  if (grey) {
    const data = new Uint8Array(image.width * image.height);
    for (let i = 0; i < data.length; i++) data[i] = image.data[i * 4]!;
    return encodePng(new Image(image.width, image.height, { data, colorModel: "GREY" }));
  }
  return encodePng(new Image(image.width, image.height, { data: image.data, colorModel: "RGBA" }));
}

async function encode(image: RgbaImage, format: FinishOptions["format"], grey: boolean): Promise<Uint8Array> {
  if (format === "png") return encodePngImage(image, grey);
  if (format === "webp") return encodeLossyWebp(image, QUALITY);
  return new Uint8Array(encodeJpegData({ data: image.data, width: image.width, height: image.height }, QUALITY).data);
}

/**
 * The answer from a cut-out `image` (consumed: its buffer is changed in place). A `jpg` without
 * a background is refused by the API before this; here it is laid over white rather than
 * failing, since JPEG has no alpha.
 */
export async function finishCutout(
  image: RgbaImage,
  options: FinishOptions,
  engine: string,
  /** The caller's time limit: a failure once it has passed, checked between the steps. */
  late: () => DocumentFailure | null = () => null,
): Promise<CutoutOutcome> {
  const before = late();
  if (before) return before;
  let result = fitWithin(image, CUTOUT_MAX_PIXELS[options.size]);
  const box = subjectBox(result);
  if (!box) {
    return documentFailure(
      "invalid-input",
      "No subject was found in the image: nothing in it stands out from its background.",
      { reason: "no-foreground", engine },
    );
  }
  let foreground = box;
  if (options.crop) {
    result = cropTo(result, box);
    foreground = { left: 0, top: 0, width: box.width, height: box.height };
  }
  const grey = options.channels === "alpha";
  if (grey) {
    result = alphaMatte(result);
  } else {
    if (options.background && options.background.a > 0) layOver(result, options.background);
    // JPEG has no alpha: whatever is still see-through is laid over white.
    if (options.format === "jpg") layOver(result, { r: 255, g: 255, b: 255, a: 255 });
  }
  const stopped = late();
  if (stopped) return stopped;
  const bytes = await encode(result, options.format, grey);
  return {
    ok: true,
    image: bytes,
    contentType: MIME_TYPES[options.format],
    width: result.width,
    height: result.height,
    foreground,
    engine,
  };
}
