/**
 * Test images for OCR, made in the test: text rendered with resvg in known typefaces (DejaVu
 * Sans, Serif and Mono from npm's dejavu-fonts-ttf, and the repo's Open Sans), a scanned-looking
 * noisy copy (grey paper, a slight blur, salt-and-pepper specks), turned copies, an uncompressed
 * TIFF writer, and the character error rate the quality bar is measured with.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { Resvg } from "@resvg/resvg-wasm";
import { OPEN_SANS_FAMILY, OPEN_SANS_TTF_GZIP_BASE64 } from "~workers/hosted/_render/open-sans-font";
import { mulberry32 } from "~workers/engines/cutout/synthetic";
import { renderSvgToPng } from "~workers/hosted/_render/svg-to-png";

// Read by vite when the test is transformed, as data URLs: the fonts never depend on the machine.
const DEJAVU = import.meta.glob<string>("/node_modules/dejavu-fonts-ttf/ttf/DejaVu{Sans,Serif,SansMono}.ttf", {
  query: "?inline",
  import: "default",
  eager: true,
});

export const FONT_FAMILIES = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", OPEN_SANS_FAMILY] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

function dataUrlBytes(dataUrl: string): Uint8Array {
  const base64 = dataUrl.slice(dataUrl.indexOf(",") + 1);
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

async function gunzipBase64(base64: string): Promise<Uint8Array> {
  const gzipped = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  const stream = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

let fonts: Promise<Uint8Array[]> | undefined;

function loadFonts(): Promise<Uint8Array[]> {
  fonts ??= (async () => {
    const dejavu = Object.values(DEJAVU).map(dataUrlBytes);
    if (dejavu.length !== 3) throw new Error(`expected DejaVu Sans, Serif and Sans Mono, found ${dejavu.length} fonts`);
    // resvg keeps one instance per isolate and throws when initialised twice: let its owner do it.
    await renderSvgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    return [...dejavu, await gunzipBase64(OPEN_SANS_TTF_GZIP_BASE64)];
  })();
  return fonts;
}

export interface TextImageOptions {
  lines: string[];
  font: FontFamily;
  /** Font size in pixels. */
  size: number;
  width?: number;
  /** Left margin and (unless `top`) the first line's top margin, in pixels. */
  margin?: number;
  top?: number;
  height?: number;
  background?: string;
  ink?: string;
}

export interface TextImage {
  png: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
  /** Where each line's baseline starts: a word rendered at a known place. */
  baselines: { x: number; y: number }[];
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Text on a page, one `<text>` per line at 1.6 × the size apart. */
export async function renderText(options: TextImageOptions): Promise<TextImage> {
  const fontBuffers = await loadFonts();
  const margin = options.margin ?? Math.round(options.size);
  const leading = Math.round(options.size * 1.6);
  const longest = Math.max(...options.lines.map((line) => line.length));
  const width = options.width ?? Math.ceil(margin * 2 + longest * options.size * 0.68);
  const top = options.top ?? margin;
  const height = options.height ?? top + margin + leading * options.lines.length;
  const baselines = options.lines.map((_, index) => ({ x: margin, y: top + leading * index + options.size }));
  const texts = options.lines
    .map(
      (line, index) =>
        `<text x="${margin}" y="${baselines[index]?.y}" font-family="${options.font}" font-size="${options.size}" fill="${options.ink ?? "#111"}">${escapeXml(line)}</text>`,
    )
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${options.background ?? "#fff"}"/>${texts}</svg>`;
  const resvg = new Resvg(svg, {
    font: { fontBuffers, loadSystemFonts: false, defaultFontFamily: options.font },
  });
  const rendered = resvg.render();
  try {
    return { png: new Uint8Array(rendered.asPng()), width, height, baselines };
  } finally {
    rendered.free();
    resvg.free();
  }
}

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

export function decodeRgba(png: Uint8Array): Rgba {
  const image = PhotonImage.new_from_byteslice(png);
  try {
    return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
  } finally {
    image.free();
  }
}

export function encodePng(rgba: Rgba): Uint8Array<ArrayBuffer> {
  const image = new PhotonImage(rgba.data, rgba.width, rgba.height);
  try {
    return new Uint8Array(image.get_bytes());
  } finally {
    image.free();
  }
}

export function encodeJpeg(rgba: Rgba, quality = 90): Uint8Array<ArrayBuffer> {
  const image = new PhotonImage(rgba.data, rgba.width, rgba.height);
  try {
    return new Uint8Array(image.get_bytes_jpeg(quality));
  } finally {
    image.free();
  }
}

/**
 * A scanned look: a 3×3 box blur (ink bleeding into the paper), then `specks` of the pixels
 * turned black or white at random (dust and dropouts). Render on grey paper for the rest.
 */
export function scanned(rgba: Rgba, specks = 0.01, seed = 15): Rgba {
  const { width, height } = rgba;
  const blurred = new Uint8Array(rgba.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let channel = 0; channel < 3; channel++) {
        let sum = 0;
        let count = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const sx = x + dx;
            const sy = y + dy;
            if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
            sum += rgba.data[(sy * width + sx) * 4 + channel] ?? 0;
            count += 1;
          }
        }
        blurred[(y * width + x) * 4 + channel] = Math.round(sum / count);
      }
      blurred[(y * width + x) * 4 + 3] = 255;
    }
  }
  const next = mulberry32(seed);
  for (let pixel = 0; pixel < width * height; pixel++) {
    if (next() >= specks) continue;
    const value = next() < 0.5 ? 0 : 255;
    blurred.fill(value, pixel * 4, pixel * 4 + 3);
  }
  return { width, height, data: blurred };
}

/** The image turned clockwise by a multiple of 90°. */
export function turnClockwise(rgba: Rgba, degrees: 90 | 180 | 270): Rgba {
  const { width, height } = rgba;
  const outWidth = degrees === 180 ? width : height;
  const outHeight = degrees === 180 ? height : width;
  const data = new Uint8Array(rgba.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [tx, ty] =
        degrees === 90 ? [height - 1 - y, x] : degrees === 180 ? [width - 1 - x, height - 1 - y] : [y, width - 1 - x];
      data.set(rgba.data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4), (ty * outWidth + tx) * 4);
    }
  }
  return { width: outWidth, height: outHeight, data };
}

/** A baseline little-endian TIFF: one strip of 8-bit RGB, uncompressed. */
export function encodeTiff(rgba: Rgba): Uint8Array<ArrayBuffer> {
  const { width, height } = rgba;
  const entries: [tag: number, type: number, count: number, value: number][] = [];
  const pixelBytes = width * height * 3;
  const ifdOffset = 8;
  const entryCount = 10;
  const bitsOffset = ifdOffset + 2 + entryCount * 12 + 4;
  const dataOffset = bitsOffset + 6;
  entries.push(
    [256, 4, 1, width],
    [257, 4, 1, height],
    [258, 3, 3, bitsOffset],
    [259, 3, 1, 1],
    [262, 3, 1, 2],
    [273, 4, 1, dataOffset],
    [277, 3, 1, 3],
    [278, 4, 1, height],
    [279, 4, 1, pixelBytes],
    [284, 3, 1, 1],
  );
  const bytes = new Uint8Array(dataOffset + pixelBytes);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 0x2a, 0x00]);
  view.setUint32(4, ifdOffset, true);
  view.setUint16(ifdOffset, entryCount, true);
  entries.forEach(([tag, type, count, value], index) => {
    const at = ifdOffset + 2 + index * 12;
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, count, true);
    if (type === 3 && count === 1) view.setUint16(at + 8, value, true);
    else view.setUint32(at + 8, value, true);
  });
  view.setUint32(ifdOffset + 2 + entryCount * 12, 0, true);
  for (let sample = 0; sample < 3; sample++) view.setUint16(bitsOffset + sample * 2, 8, true);
  for (let pixel = 0; pixel < width * height; pixel++) {
    bytes.set(rgba.data.subarray(pixel * 4, pixel * 4 + 3), dataOffset + pixel * 3);
  }
  return bytes;
}

/** Whitespace runs as one space, ends trimmed: line breaks and spacing are not what is measured. */
export const normaliseWhitespace = (text: string) => text.replace(/\s+/g, " ").trim();

export function levenshtein(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

/** Character error rate: edits from the reference to what was read, over the reference's length. */
export function characterErrorRate(reference: string, read: string): number {
  const expected = normaliseWhitespace(reference);
  return levenshtein(expected, normaliseWhitespace(read)) / [...expected].length;
}
