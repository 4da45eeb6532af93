/**
 * Synthetic cut-out subjects for the tests and the benchmark: shapes drawn with 4×4 supersampled
 * (anti-aliased) edges on plain, gradient and noisy backgrounds, with their true masks (a pixel
 * is subject when the shape covers at least half of it). Deterministic: the noise is seeded.
 */
import type { Pixels } from "./segment";

export type Rgb = readonly [number, number, number];

/** Is the point (in pixels, fractional) inside the shape? */
export type Shape = (x: number, y: number) => boolean;

/** What colour the subject has at a point inside it (a flat colour, or a pattern). */
export type Paint = (x: number, y: number) => Rgb;

/** A deterministic pseudo-random sequence (mulberry32): the same noise every run (the OCR fixtures use it too). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

/** A ring: its hole is enclosed, so the classic engine keeps it as subject. */
export const ring =
  (cx: number, cy: number, outer: number, inner: number): Shape =>
  (x, y) => {
    const d = (x - cx) ** 2 + (y - cy) ** 2;
    return d <= outer * outer && d > inner * inner;
  };

/** A polygon by the even-odd rule. */
export function polygon(points: readonly (readonly [number, number])[]): Shape {
  return (x, y) => {
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i]!;
      const [xj, yj] = points[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
}

export function star(cx: number, cy: number, outer: number, inner: number, spikes = 5): Shape {
  const points: [number, number][] = [];
  for (let i = 0; i < spikes * 2; i++) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = (Math.PI * i) / spikes - Math.PI / 2;
    points.push([cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]);
  }
  return polygon(points);
}

export const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    shapes.some((shape) => shape(x, y));

export const minus =
  (shape: Shape, cut: Shape): Shape =>
  (x, y) =>
    shape(x, y) && !cut(x, y);

export const rect =
  (left: number, top: number, width: number, height: number): Shape =>
  (x, y) =>
    x >= left && x < left + width && y >= top && y < top + height;

export type Background = (x: number, y: number) => Rgb;

export const plain =
  (colour: Rgb): Background =>
  () =>
    colour;

/** A linear gradient from `from` at the top to `to` at the bottom. */
export const verticalGradient =
  (from: Rgb, to: Rgb, height: number): Background =>
  (_x, y) => {
    const t = y / Math.max(1, height - 1);
    return [0, 1, 2].map((c) => from[c]! + (to[c]! - from[c]!) * t) as unknown as Rgb;
  };

/** A linear gradient from `from` at the top left corner to `to` at the point `towards` (x, y), along that direction. */
export const linearGradient = (from: Rgb, to: Rgb, towards: readonly [number, number]): Background => {
  const length2 = towards[0] ** 2 + towards[1] ** 2;
  return (x, y) => {
    const t = Math.min(1, Math.max(0, (x * towards[0] + y * towards[1]) / length2));
    return [0, 1, 2].map((c) => from[c]! + (to[c]! - from[c]!) * t) as unknown as Rgb;
  };
};

/** A radial vignette: `centre` in the middle, darker by `darkening` (per channel) at the corners, quadratically. */
export const vignette =
  (centre: Rgb, darkening: number, width: number, height: number): Background =>
  (x, y) => {
    const d2 = ((x - width / 2) ** 2 + (y - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2);
    return centre.map((value) => value - darkening * d2) as unknown as Rgb;
  };

export interface Scene {
  image: Pixels;
  /** 1 where the shape covers at least half the pixel. */
  truth: Uint8Array;
}

/**
 * Draws `shape` painted with `paint` on `background`, then adds uniform noise of ±`noise` per
 * channel to every pixel (seeded).
 */
export function drawScene(
  width: number,
  height: number,
  background: Background,
  shape: Shape,
  paint: Paint,
  options: { noise?: number; seed?: number } = {},
): Scene {
  const data = new Uint8Array(width * height * 4);
  const truth = new Uint8Array(width * height);
  const random = mulberry32(options.seed ?? 1);
  const noise = options.noise ?? 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let covered = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) if (shape(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) covered++;
      }
      const coverage = covered / 16;
      const back = background(x, y);
      const front = covered > 0 ? paint(x + 0.5, y + 0.5) : back;
      const index = y * width + x;
      truth[index] = coverage >= 0.5 ? 1 : 0;
      for (let c = 0; c < 3; c++) {
        const value = back[c]! * (1 - coverage) + front[c]! * coverage + (noise ? (random() * 2 - 1) * noise : 0);
        data[index * 4 + c] = Math.max(0, Math.min(255, Math.round(value)));
      }
      data[index * 4 + 3] = 255;
    }
  }
  return { image: { width, height, data }, truth };
}

/** A photo-like texture: smooth random colour blobs over the whole frame (value noise, seeded). */
export function texture(width: number, height: number, seed = 7, cell = 24): Pixels {
  const random = mulberry32(seed);
  const gw = Math.ceil(width / cell) + 2;
  const gh = Math.ceil(height / cell) + 2;
  const grid = Array.from({ length: gw * gh }, () => [random() * 255, random() * 255, random() * 255] as const);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const gx = x / cell;
      const gy = y / cell;
      const x0 = Math.floor(gx);
      const y0 = Math.floor(gy);
      const tx = gx - x0;
      const ty = gy - y0;
      for (let c = 0; c < 3; c++) {
        const at = (i: number, j: number) => grid[j * gw + i]![c]!;
        const top = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx;
        const bottom = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx;
        data[(y * width + x) * 4 + c] = Math.round(top * (1 - ty) + bottom * ty);
      }
      data[(y * width + x) * 4 + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Intersection over union of a predicted alpha (subject where ≥ 128) and a true mask. */
export function intersectionOverUnion(alpha: Uint8Array, truth: Uint8Array): number {
  let intersection = 0;
  let union = 0;
  for (let i = 0; i < truth.length; i++) {
    const predicted = alpha[i]! >= 128;
    const real = truth[i] === 1;
    if (predicted && real) intersection++;
    if (predicted || real) union++;
  }
  return union === 0 ? 1 : intersection / union;
}
