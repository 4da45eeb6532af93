/**
 * The classic cut-out: what can honestly be cut without a model. It assumes the subject stands
 * on a plain or gently shaded backdrop (a studio sweep, a product on white, a logo on a flat
 * colour) that shows all round the image's border, and refuses anything else rather than
 * answering a bad cut (decision 062).
 *
 * 1. Background model, seeded from the border: the border band's colours in CIELAB, fitted
 *    with a plane per channel (a flat colour, or a linear gradient across the image), robustly
 *    (samples far off the fit — where the subject touches the border — are dropped and the
 *    fit redone). The fit's spread on what remains is the backdrop's noise.
 * 2. Refusal: a border whose colours the plane does not explain (a scene, a texture, two
 *    halves of different colours) is too varied; so is a border mostly covered by the subject.
 * 3. Region growing: every pixel within the tolerance (from the noise) of the backdrop's
 *    colour at its place that connects to the border through such pixels is background.
 *    Distances are measured on a 3×3 box-blurred copy, so a noisy backdrop does not break
 *    into specks. Backdrop-coloured areas enclosed by the subject (between a mug and its
 *    handle, the inside of a ring) are not connected to the border and stay subject; a gap
 *    that joins them to the outside makes them background.
 * 4. Specks (subject islands under 0.01 % of the image) are noise and become background; no
 *    subject left is a refusal too.
 * 5. The edge: pixels on either side of the region's edge take an alpha from their colour (how
 *    far from the backdrop, against the subject beside them), which puts the edge where the
 *    subject covers half a pixel and feathers it over 1–2 pixels.
 */

import { MAX_BACKDROP_GRADIENT, MAX_BACKDROP_NOISE, MAX_BORDER_SUBJECT, MIN_BORDER_COVERAGE } from "./limits";

export interface Pixels {
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA, opaque. */
  data: Uint8Array;
}

export interface SubjectBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What the backdrop looked like, for the refusal's message and the tests. */
export interface BackdropMeasures {
  /** 90th percentile of the inlying border samples' distance from the fitted backdrop (ΔE). */
  noise: number;
  /** Share of the border samples within `tolerance` of the backdrop, 0–1. */
  coverage: number;
  /** A pixel this close to the backdrop (ΔE, on the blurred image) may be background. */
  tolerance: number;
  /** The fitted backdrop's largest change between two corners (ΔE): its gradient's strength. */
  gradient: number;
}

export type Segmentation =
  | { ok: true; alpha: Uint8Array; box: SubjectBox; measures: BackdropMeasures }
  | {
      ok: false;
      reason: "border-too-varied" | "no-foreground";
      detail: string;
      measures?: BackdropMeasures;
      /** What the cut left on the border, when that is why it was refused. */
      border?: BorderSubject;
    };

export type Side = "top" | "right" | "bottom" | "left";

/** What is not backdrop on the border: the subject's pixels on the outermost rows and columns after the cut, or a second colour among the border's. */
export interface BorderSubject {
  /** Its share of the border, 0–1. */
  share: number;
  /** The sides it reaches (at least 1 % of the side). */
  sides: Side[];
}

const MIN_TOLERANCE = 8;
const MAX_TOLERANCE = 28;

// ---- colour ----

const SRGB_TO_LINEAR = Float64Array.from({ length: 256 }, (_, value) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

const labF = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);

/** sRGB (D65) to CIELAB into `out` (L, a, b). */
function toLab(r: number, g: number, b: number, out: Float64Array): void {
  const R = SRGB_TO_LINEAR[r]!;
  const G = SRGB_TO_LINEAR[g]!;
  const B = SRGB_TO_LINEAR[b]!;
  const fx = labF((0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047);
  const fy = labF(0.2126729 * R + 0.7151522 * G + 0.072175 * B);
  const fz = labF((0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883);
  out[0] = 116 * fy - 16;
  out[1] = 500 * (fx - fy);
  out[2] = 200 * (fy - fz);
}

/**
 * The 3×3 box mean of the RGB channels (edges clamped), 3 bytes a pixel. The rows' horizontal
 * sums are kept for three rows at a time, not the whole image: at 3 megapixels a full copy
 * would be 18 MB more of the isolate's 128.
 */
function blurRgb({ width, height, data }: Pixels): Uint8Array {
  const rowSums = [new Uint16Array(width * 3), new Uint16Array(width * 3), new Uint16Array(width * 3)];
  const summed = [-1, -1, -1];
  const sumsOf = (y: number): Uint16Array => {
    const slot = y % 3;
    const sums = rowSums[slot]!;
    if (summed[slot] === y) return sums;
    summed[slot] = y;
    for (let x = 0; x < width; x++) {
      const left = (y * width + Math.max(0, x - 1)) * 4;
      const centre = (y * width + x) * 4;
      const right = (y * width + Math.min(width - 1, x + 1)) * 4;
      for (let c = 0; c < 3; c++) sums[x * 3 + c] = data[left + c]! + data[centre + c]! + data[right + c]!;
    }
    return sums;
  };
  const blurred = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const up = sumsOf(Math.max(0, y - 1));
    const row = sumsOf(y);
    const down = sumsOf(Math.min(height - 1, y + 1));
    const out = y * width * 3;
    for (let i = 0; i < width * 3; i++) blurred[out + i] = Math.round((up[i]! + row[i]! + down[i]!) / 9);
  }
  return blurred;
}

// ---- the backdrop's model ----

/** L, a and b each as p0 + p1·u + p2·v, u and v the pixel's position scaled to 0–1. */
type Plane = [Float64Array, Float64Array, Float64Array];

interface BorderSamples {
  count: number;
  u: Float64Array;
  v: Float64Array;
  lab: Float64Array; // 3 per sample
}

const MAX_SAMPLES = 40_000;

/** The border band's thickness in pixels: 1 % of the shorter side, at least 1. */
function borderBand(width: number, height: number): number {
  return Math.max(1, Math.min(Math.round(Math.min(width, height) * 0.01), Math.floor(Math.min(width, height) / 4)));
}

/** The colours of a band around the border, at most MAX_SAMPLES of them, evenly spread. */
function borderSamples(blurred: Uint8Array, width: number, height: number): BorderSamples {
  const band = borderBand(width, height);
  const inBand = (x: number, y: number) => x < band || y < band || x >= width - band || y >= height - band;
  const total = width * height - Math.max(0, width - 2 * band) * Math.max(0, height - 2 * band);
  const stride = Math.max(1, Math.ceil(total / MAX_SAMPLES));
  const capacity = Math.ceil(total / stride) + 1;
  const samples: BorderSamples = {
    count: 0,
    u: new Float64Array(capacity),
    v: new Float64Array(capacity),
    lab: new Float64Array(capacity * 3),
  };
  const lab = new Float64Array(3);
  let seen = 0;
  const take = (x: number, y: number) => {
    if (seen++ % stride !== 0 || samples.count >= capacity) return;
    const offset = (y * width + x) * 3;
    toLab(blurred[offset]!, blurred[offset + 1]!, blurred[offset + 2]!, lab);
    const index = samples.count++;
    samples.u[index] = width > 1 ? x / (width - 1) : 0;
    samples.v[index] = height > 1 ? y / (height - 1) : 0;
    samples.lab.set(lab, index * 3);
  };
  for (let y = 0; y < height; y++) {
    if (y < band || y >= height - band) {
      for (let x = 0; x < width; x++) take(x, y);
    } else {
      for (let x = 0; x < band; x++) take(x, y);
      for (let x = Math.max(band, width - band); x < width; x++) if (inBand(x, y)) take(x, y);
    }
  }
  return samples;
}

/** Least squares of each channel on (1, u, v) over the samples `use` marks. */
function fitPlane(samples: BorderSamples, use: Uint8Array): Plane {
  let n = 0,
    su = 0,
    sv = 0,
    suu = 0,
    suv = 0,
    svv = 0;
  const sc = [new Float64Array(3), new Float64Array(3), new Float64Array(3)]; // per channel: Σc, Σcu, Σcv
  for (let i = 0; i < samples.count; i++) {
    if (!use[i]) continue;
    const u = samples.u[i]!;
    const v = samples.v[i]!;
    n++;
    su += u;
    sv += v;
    suu += u * u;
    suv += u * v;
    svv += v * v;
    for (let c = 0; c < 3; c++) {
      const value = samples.lab[i * 3 + c]!;
      sc[c]![0]! += value;
      sc[c]![1]! += value * u;
      sc[c]![2]! += value * v;
    }
  }
  const plane: Plane = [new Float64Array(3), new Float64Array(3), new Float64Array(3)];
  // [n su sv; su suu suv; sv suv svv] p = [Σc Σcu Σcv], by Cramer's rule; a degenerate layout
  // (a one-pixel strip) falls back to the mean colour.
  const det = n * (suu * svv - suv * suv) - su * (su * svv - suv * sv) + sv * (su * suv - suu * sv);
  for (let c = 0; c < 3; c++) {
    const [b0, b1, b2] = sc[c]!;
    if (Math.abs(det) < 1e-9 * Math.max(1, n * n * n)) {
      plane[c]![0] = n > 0 ? b0! / n : 0;
      continue;
    }
    plane[c]![0] = (b0! * (suu * svv - suv * suv) - su * (b1! * svv - suv * b2!) + sv * (b1! * suv - suu * b2!)) / det;
    plane[c]![1] = (n * (b1! * svv - suv * b2!) - b0! * (su * svv - suv * sv) + sv * (su * b2! - b1! * sv)) / det;
    plane[c]![2] = (n * (suu * b2! - b1! * suv) - su * (su * b2! - b1! * sv) + b0! * (su * suv - suu * sv)) / det;
  }
  return plane;
}

function residuals(samples: BorderSamples, plane: Plane): Float64Array {
  const out = new Float64Array(samples.count);
  for (let i = 0; i < samples.count; i++) {
    const u = samples.u[i]!;
    const v = samples.v[i]!;
    let sum = 0;
    for (let c = 0; c < 3; c++) {
      const p = plane[c]!;
      const d = samples.lab[i * 3 + c]! - (p[0]! + p[1]! * u + p[2]! * v);
      sum += d * d;
    }
    out[i] = Math.sqrt(sum);
  }
  return out;
}

function percentile(values: Float64Array, share: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/** The backdrop's plane and how well it explains the border. */
function modelBackdrop(
  blurred: Uint8Array,
  width: number,
  height: number,
): { plane: Plane; measures: BackdropMeasures; samples: BorderSamples; distance: Float64Array } {
  const samples = borderSamples(blurred, width, height);
  const use = new Uint8Array(samples.count).fill(1);
  let plane = fitPlane(samples, use);
  let distance = residuals(samples, plane);
  // Twice: drop what lies far off the fit (the subject where it touches the border), refit.
  for (let round = 0; round < 2; round++) {
    const bound = Math.max(4, 3 * percentile(distance, 0.5));
    for (let i = 0; i < samples.count; i++) use[i] = distance[i]! <= bound ? 1 : 0;
    plane = fitPlane(samples, use);
    distance = residuals(samples, plane);
  }
  const bound = Math.max(4, 3 * percentile(distance, 0.5));
  const inliers = distance.filter((value) => value <= bound);
  const noise = percentile(inliers, 0.9);
  const tolerance = Math.min(MAX_TOLERANCE, Math.max(MIN_TOLERANCE, 2.5 * noise + 6));
  let within = 0;
  for (const value of distance) if (value <= tolerance) within++;
  const corners = [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ].map(([u, v]) => plane.map((p) => p[0]! + p[1]! * u! + p[2]! * v!));
  let gradient = 0;
  for (const a of corners) {
    for (const b of corners) gradient = Math.max(gradient, Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!));
  }
  return {
    plane,
    measures: { noise, coverage: samples.count ? within / samples.count : 0, tolerance, gradient },
    samples,
    distance,
  };
}

/**
 * A second colour on the border, as a wall and a floor (or a strip of another colour) make: the
 * border's colours split into two groups with next to nothing between them (a gradient fills
 * the space between its ends; a step leaves only the few pixels its edge blurs), the smaller
 * group's place on the border, or null when the colours do not split so. Needed beside the
 * check after the cut: when the second colour is near enough, the plane bends into a gradient
 * between the two that explains both within the tolerance, the background grows across the
 * step, and only broken specks of the step line are left, too small to reach the border.
 */
function secondColour(samples: BorderSamples, width: number, height: number): BorderSubject | null {
  const { count, lab } = samples;
  if (count < 16) return null;
  const distance2 = (i: number, c: Float64Array) =>
    (lab[i * 3]! - c[0]!) ** 2 + (lab[i * 3 + 1]! - c[1]!) ** 2 + (lab[i * 3 + 2]! - c[2]!) ** 2;
  const farthestFrom = (c: Float64Array) => {
    let best = 0;
    for (let i = 1; i < count; i++) if (distance2(i, c) > distance2(best, c)) best = i;
    return lab.slice(best * 3, best * 3 + 3);
  };
  const mean = new Float64Array(3);
  for (let i = 0; i < count * 3; i++) mean[i % 3]! += lab[i]! / count;
  // Two means, started from the two ends of the colours' spread.
  let second = farthestFrom(mean);
  let first = farthestFrom(second);
  const group = new Uint8Array(count);
  for (let round = 0; round < 8; round++) {
    const sums = [new Float64Array(4), new Float64Array(4)];
    for (let i = 0; i < count; i++) {
      group[i] = distance2(i, second) < distance2(i, first) ? 1 : 0;
      const sum = sums[group[i]!]!;
      for (let c = 0; c < 3; c++) sum[c]! += lab[i * 3 + c]!;
      sum[3]!++;
    }
    if (sums[0]![3] === 0 || sums[1]![3] === 0) return null;
    first = sums[0]!.slice(0, 3).map((value) => value / sums[0]![3]!);
    second = sums[1]!.slice(0, 3).map((value) => value / sums[1]![3]!);
  }
  const axis = second.map((value, c) => value - first[c]!);
  const length2 = axis[0]! ** 2 + axis[1]! ** 2 + axis[2]! ** 2;
  if (Math.sqrt(length2) < MIN_TOLERANCE) return null;
  let between = 0;
  let smaller = 0;
  for (let i = 0; i < count; i++) {
    let t = 0;
    for (let c = 0; c < 3; c++) t += (lab[i * 3 + c]! - first[c]!) * axis[c]!;
    t /= length2;
    if (t > 1 / 3 && t < 2 / 3) between++;
    smaller += group[i]!;
  }
  if (between > 0.02 * count) return null;
  const minority = smaller * 2 <= count ? 1 : 0;
  const band = borderBand(width, height);
  const totals = { top: 0, right: 0, bottom: 0, left: 0 };
  const inGroup = { top: 0, right: 0, bottom: 0, left: 0 };
  let members = 0;
  for (let i = 0; i < count; i++) {
    const x = samples.u[i]! * (width - 1);
    const y = samples.v[i]! * (height - 1);
    const mine = group[i] === minority;
    if (mine) members++;
    for (const [side, on] of [
      ["top", y < band],
      ["bottom", y >= height - band],
      ["left", x < band],
      ["right", x >= width - band],
    ] as const) {
      if (!on) continue;
      totals[side]++;
      if (mine) inGroup[side]++;
    }
  }
  const sides = (Object.keys(totals) as Side[]).filter((side) => inGroup[side] >= Math.max(2, 0.01 * totals[side]));
  return { share: members / count, sides };
}

/** The subject's share of the outermost rows and columns, and the sides it reaches. */
function borderSubject(state: Uint8Array, subject: number, width: number, height: number): BorderSubject {
  const runs = { top: 0, right: 0, bottom: 0, left: 0 };
  for (let x = 0; x < width; x++) {
    if (state[x] === subject) runs.top++;
    if (state[(height - 1) * width + x] === subject) runs.bottom++;
  }
  for (let y = 0; y < height; y++) {
    if (state[y * width] === subject) runs.left++;
    if (state[y * width + width - 1] === subject) runs.right++;
  }
  const perimeter = 2 * (width + height);
  const sides = (Object.keys(runs) as Side[]).filter(
    (side) => runs[side] >= Math.max(2, Math.ceil(0.01 * (side === "top" || side === "bottom" ? width : height))),
  );
  return { share: (runs.top + runs.right + runs.bottom + runs.left) / perimeter, sides };
}

/**
 * A subject cut off by the frame reaches one side (a portrait at the bottom) or two that meet (a
 * corner), over part of the border; a second backdrop (a floor or table under a wall, a strip
 * down one side) runs from one side to the opposite one, or covers much of the border. The
 * classic engine cannot tell a table from a subject that spans the frame, so it refuses both.
 */
function spansBorder(border: BorderSubject): boolean {
  const has = (side: Side) => border.sides.includes(side);
  return (has("left") && has("right")) || (has("top") && has("bottom")) || border.share > MAX_BORDER_SUBJECT;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

function borderRefusal(border: BorderSubject, measures: BackdropMeasures): Segmentation {
  const has = (side: Side) => border.sides.includes(side);
  const why =
    has("left") && has("right")
      ? "a second colour or the subject runs from its left side to its right"
      : has("top") && has("bottom")
        ? "a second colour or the subject runs from its top to its bottom"
        : `a second colour or the subject covers ${percent(border.share)} of it (the classic engine takes up to ${percent(MAX_BORDER_SUBJECT)})`;
  return {
    ok: false,
    reason: "border-too-varied",
    detail: `The image's border is not one plain or gently shaded background: ${why}, as a floor or table under a wall, a strip of another colour, or a subject filling the frame does. The classic engine cuts out subjects on one plain background that shows around them, and refuses rather than guess; production's Cloudflare Images engine handles photographs.`,
    measures,
    border: { share: Math.round(border.share * 100) / 100, sides: border.sides },
  };
}

// ---- the cut ----

/** Cuts the subject out of `pixels`: an alpha plane (255 subject, 0 background, a ramp between). */
export function segmentClassic(pixels: Pixels): Segmentation {
  const { width, height } = pixels;
  const count = width * height;
  const blurred = blurRgb(pixels);
  const { plane, measures, samples, distance: borderDistance } = modelBackdrop(blurred, width, height);
  const tooVaried =
    measures.noise > MAX_BACKDROP_NOISE ||
    measures.coverage < MIN_BORDER_COVERAGE ||
    measures.gradient > MAX_BACKDROP_GRADIENT;
  if (tooVaried) {
    const why =
      measures.noise > MAX_BACKDROP_NOISE
        ? `its colours vary too much to be one backdrop (a spread of ΔE ${measures.noise.toFixed(1)}, where the classic engine takes up to ${MAX_BACKDROP_NOISE})`
        : measures.coverage < MIN_BORDER_COVERAGE
          ? `only ${percent(measures.coverage)} of it matches one backdrop colour or gradient (the classic engine needs ${percent(MIN_BORDER_COVERAGE)}): the subject fills the frame, or the border is several colours`
          : `its colour changes by ΔE ${Math.round(measures.gradient)} from one side to the other, more than the gentle shading (up to ${MAX_BACKDROP_GRADIENT}) the classic engine takes for one backdrop: the border is two or more colours`;
    return {
      ok: false,
      reason: "border-too-varied",
      detail: `The image's border is not a plain or gently shaded background: ${why}. The classic engine cuts out subjects on plain backgrounds only, and refuses rather than guess; production's Cloudflare Images engine handles photographs.`,
      measures,
    };
  }

  // A second colour across the border is cut through only when the plane explains both colours
  // with room to spare (99 % of the border within three quarters of the tolerance): the
  // background then grows across the step cleanly. Closer to the tolerance, noise leaves broken
  // runs of the step line as subject, and the table of such backdrops in the tests cuts below
  // IoU 0.95 from about the full tolerance on.
  const second = secondColour(samples, width, height);
  if (second && spansBorder(second) && percentile(borderDistance, 0.99) > 0.75 * measures.tolerance) {
    return borderRefusal(second, measures);
  }

  // Distance of each pixel from the backdrop's colour at its place.
  const distance = new Float32Array(count);
  const lab = new Float64Array(3);
  const [pl, pa, pb] = plane;
  for (let y = 0; y < height; y++) {
    const v = height > 1 ? y / (height - 1) : 0;
    for (let x = 0; x < width; x++) {
      const u = width > 1 ? x / (width - 1) : 0;
      const index = y * width + x;
      toLab(blurred[index * 3]!, blurred[index * 3 + 1]!, blurred[index * 3 + 2]!, lab);
      const dl = lab[0]! - (pl[0]! + pl[1]! * u + pl[2]! * v);
      const da = lab[1]! - (pa[0]! + pa[1]! * u + pa[2]! * v);
      const db = lab[2]! - (pb[0]! + pb[1]! * u + pb[2]! * v);
      distance[index] = Math.sqrt(dl * dl + da * da + db * db);
    }
  }

  // Region growing from the border (4-connected): 1 = background.
  const BACKGROUND = 1;
  const SEEN_SUBJECT = 2;
  const state = new Uint8Array(count);
  const stack = new Int32Array(count);
  let top = 0;
  const seed = (index: number) => {
    if (state[index] === 0 && distance[index]! <= measures.tolerance) {
      state[index] = BACKGROUND;
      stack[top++] = index;
    }
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (top > 0) {
    const index = stack[--top]!;
    const x = index % width;
    if (x > 0) seed(index - 1);
    if (x < width - 1) seed(index + 1);
    if (index >= width) seed(index - width);
    if (index < count - width) seed(index + width);
  }

  // Specks: subject islands (8-connected) too small to be anything but noise.
  const minSpeck = Math.max(8, Math.round(count / 10_000));
  let subject = 0;
  for (let start = 0; start < count; start++) {
    if (state[start] !== 0) continue;
    let size = 0;
    top = 0;
    stack[top++] = start;
    state[start] = SEEN_SUBJECT;
    // The island's pixels are kept below `top`'s high-water mark: the stack is walked, not popped.
    let read = 0;
    while (read < top) {
      const index = stack[read++]!;
      size++;
      const x = index % width;
      const y = (index - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (state[next] === 0) {
            state[next] = SEEN_SUBJECT;
            stack[top++] = next;
          }
        }
      }
    }
    if (size < minSpeck) for (let i = 0; i < top; i++) state[stack[i]!] = BACKGROUND;
    else subject += size;
  }
  if (subject === 0) {
    return {
      ok: false,
      reason: "no-foreground",
      detail:
        "No subject was found: the whole image matches its background. The classic engine finds subjects that differ in colour from a plain background.",
      measures,
    };
  }

  // What the cut left on the border. A wall over a floor or a table, or a strip of another
  // colour down one side, can pass every test above: the robust fit drops the second colour as
  // "the subject touching the border", and the growing stops at the step, keeping the floor
  // (or, when the plane bent towards the floor, a band of wall) as subject (spansBorder).
  const border = borderSubject(state, SEEN_SUBJECT, width, height);
  if (spansBorder(border)) return borderRefusal(border, measures);

  // The edge: the blur moved the region's edge by up to a pixel, so each pixel on either side
  // of it takes an alpha from its colour, how far it is from the backdrop against how far the
  // subject beside it is (a pixel half covered by the subject is half as far). A symmetric blur
  // keeps the half-way point where the edge is; the ramp it leaves is the 1–2 pixel feather.
  const alpha = new Uint8Array(count);
  const isSubject = (index: number) => state[index] === SEEN_SUBJECT;
  const floor = measures.noise;
  let left = width,
    right = -1,
    topEdge = height,
    bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const index = y * width + x;
      const inside = isSubject(index);
      const edge =
        (x > 0 && isSubject(index - 1) !== inside) ||
        (x < width - 1 && isSubject(index + 1) !== inside) ||
        (y > 0 && isSubject(index - width) !== inside) ||
        (y < height - 1 && isSubject(index + width) !== inside);
      let value = inside ? 255 : 0;
      if (edge) {
        // The subject's own distance nearby: the mean over its pixels two steps away or less
        // that are not on its edge themselves.
        let sum = 0;
        let n = 0;
        let farthest = 0;
        for (let dy = -2; dy <= 2; dy++) {
          const ny = y + dy;
          if (ny < 1 || ny >= height - 1) continue;
          for (let dx = -2; dx <= 2; dx++) {
            const nx = x + dx;
            if (nx < 1 || nx >= width - 1) continue;
            const near = ny * width + nx;
            if (!isSubject(near)) continue;
            farthest = Math.max(farthest, distance[near]!);
            if (isSubject(near - 1) && isSubject(near + 1) && isSubject(near - width) && isSubject(near + width)) {
              sum += distance[near]!;
              n++;
            }
          }
        }
        const reference = n > 0 ? sum / n : farthest;
        if (reference > floor + 1) {
          const share = (distance[index]! - floor) / (reference - floor);
          value = Math.round(255 * Math.min(1, Math.max(0, share)));
        }
      }
      if (value === 0) continue;
      alpha[index] = value;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < topEdge) topEdge = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) {
    return {
      ok: false,
      reason: "no-foreground",
      detail: "No subject was found: the whole image matches its background.",
      measures,
    };
  }
  return {
    ok: true,
    alpha,
    box: { left, top: topEdge, width: right - left + 1, height: bottom - topEdge + 1 },
    measures,
  };
}
