/**
 * Colour quantisation: median cut for a first split of the colour space, then a few rounds of
 * k-means to move each colour to the centre of the pixels it stands for. Median cut alone
 * leaves box means that straddle clusters; k-means alone depends on its seeds, and median cut
 * gives it good, deterministic ones.
 *
 * Both run on a histogram, not on pixels: each pixel falls in one of 32³ bins (5 bits a
 * channel), and a bin keeps its pixel count and the exact sum of its colours. A flat colour
 * therefore comes out exactly, and the work is bounded by the number of bins, not pixels.
 */
import type { Rgb } from "../_image/color";

export interface ColorCluster extends Rgb {
  /** Pixels assigned to this colour. */
  count: number;
}

/** Pixels with less alpha than this are not part of what the image shows. */
const VISIBLE_ALPHA = 128;
const KMEANS_ROUNDS = 8;

interface Bin extends Rgb {
  count: number;
}

/** The non-empty histogram bins of the visible pixels of an RGBA buffer, each at its mean colour. */
export function histogram(rgba: Uint8Array): Bin[] {
  const counts = new Uint32Array(1 << 15);
  const sums = new Float64Array((1 << 15) * 3);
  for (let index = 0; index + 3 < rgba.length; index += 4) {
    if ((rgba[index + 3] ?? 0) < VISIBLE_ALPHA) continue;
    const r = rgba[index] ?? 0;
    const g = rgba[index + 1] ?? 0;
    const b = rgba[index + 2] ?? 0;
    const bin = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    counts[bin] = (counts[bin] ?? 0) + 1;
    sums[bin * 3] = (sums[bin * 3] ?? 0) + r;
    sums[bin * 3 + 1] = (sums[bin * 3 + 1] ?? 0) + g;
    sums[bin * 3 + 2] = (sums[bin * 3 + 2] ?? 0) + b;
  }
  const bins: Bin[] = [];
  for (let bin = 0; bin < counts.length; bin++) {
    const count = counts[bin] ?? 0;
    if (count === 0) continue;
    bins.push({
      r: (sums[bin * 3] ?? 0) / count,
      g: (sums[bin * 3 + 1] ?? 0) / count,
      b: (sums[bin * 3 + 2] ?? 0) / count,
      count,
    });
  }
  return bins;
}

const CHANNELS = ["r", "g", "b"] as const;
type Channel = (typeof CHANNELS)[number];

function widestChannel(bins: readonly Bin[]): { channel: Channel; range: number } {
  let best: { channel: Channel; range: number } = { channel: "r", range: 0 };
  for (const channel of CHANNELS) {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (const bin of bins) {
      low = Math.min(low, bin[channel]);
      high = Math.max(high, bin[channel]);
    }
    if (high - low > best.range) best = { channel, range: high - low };
  }
  return best;
}

const total = (bins: readonly Bin[]) => bins.reduce((sum, bin) => sum + bin.count, 0);

function mean(bins: readonly Bin[]): ColorCluster {
  const count = total(bins);
  const sum = (channel: Channel) => bins.reduce((acc, bin) => acc + bin[channel] * bin.count, 0) / count;
  return { r: sum("r"), g: sum("g"), b: sum("b"), count };
}

/** Median cut: split the box with the most pixels × spread at its weighted median until there are `colors` boxes. */
function medianCut(bins: Bin[], colors: number): Bin[][] {
  const boxes: Bin[][] = [bins];
  while (boxes.length < colors) {
    let chosen = -1;
    let bestScore = 0;
    for (const [index, box] of boxes.entries()) {
      if (box.length < 2) continue;
      const score = total(box) * widestChannel(box).range;
      if (score > bestScore) {
        bestScore = score;
        chosen = index;
      }
    }
    if (chosen < 0) break; // every box holds a single colour: nothing left to split
    const box = boxes[chosen] ?? [];
    const { channel } = widestChannel(box);
    const sorted = [...box].sort((a, b) => a[channel] - b[channel]);
    const half = total(sorted) / 2;
    let running = 0;
    let cut = 1;
    for (let index = 0; index < sorted.length - 1; index++) {
      running += sorted[index]?.count ?? 0;
      cut = index + 1;
      if (running >= half) break;
    }
    boxes.splice(chosen, 1, sorted.slice(0, cut), sorted.slice(cut));
  }
  return boxes;
}

const distance = (a: Rgb, b: Rgb) => (a.r - b.r) ** 2 + (a.g - b.g) ** 2 + (a.b - b.b) ** 2;

/** Lloyd's k-means over the bins, seeded with the median-cut boxes' means. */
function refine(bins: readonly Bin[], seeds: ColorCluster[]): ColorCluster[] {
  let centres = seeds;
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    const sums = centres.map(() => ({ r: 0, g: 0, b: 0, count: 0 }));
    for (const bin of bins) {
      let nearest = 0;
      let nearestDistance = Number.POSITIVE_INFINITY;
      for (const [index, centre] of centres.entries()) {
        const d = distance(bin, centre);
        if (d < nearestDistance) {
          nearestDistance = d;
          nearest = index;
        }
      }
      const sum = sums[nearest];
      if (!sum) continue;
      sum.r += bin.r * bin.count;
      sum.g += bin.g * bin.count;
      sum.b += bin.b * bin.count;
      sum.count += bin.count;
    }
    const next = sums
      .filter((sum) => sum.count > 0)
      .map((sum) => ({ r: sum.r / sum.count, g: sum.g / sum.count, b: sum.b / sum.count, count: sum.count }));
    const settled =
      next.length === centres.length &&
      next.every((centre, index) => distance(centre, centres[index] ?? centre) < 0.25);
    centres = next;
    if (settled) break;
  }
  return centres;
}

/**
 * Up to `colors` representative colours of the visible pixels of an RGBA buffer, largest
 * first; empty when no pixel is visible.
 */
export function quantize(rgba: Uint8Array, colors: number): ColorCluster[] {
  const bins = histogram(rgba);
  if (bins.length === 0) return [];
  const seeds = medianCut(bins, colors).map(mean);
  const clusters = refine(bins, seeds);
  return clusters.sort((a, b) => b.count - a.count || a.r - b.r || a.g - b.g || a.b - b.b);
}

/**
 * The most common visible colour among the given pixels, binned coarsely (4 bits a channel)
 * so that noise and JPEG artefacts along a plain edge still count as one colour; null when
 * none is visible.
 */
export function mostCommonColor(rgba: Uint8Array): Rgb | null {
  const counts = new Uint32Array(1 << 12);
  const sums = new Float64Array((1 << 12) * 3);
  let best = -1;
  for (let index = 0; index + 3 < rgba.length; index += 4) {
    if ((rgba[index + 3] ?? 0) < VISIBLE_ALPHA) continue;
    const r = rgba[index] ?? 0;
    const g = rgba[index + 1] ?? 0;
    const b = rgba[index + 2] ?? 0;
    const bin = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    counts[bin] = (counts[bin] ?? 0) + 1;
    sums[bin * 3] = (sums[bin * 3] ?? 0) + r;
    sums[bin * 3 + 1] = (sums[bin * 3 + 1] ?? 0) + g;
    sums[bin * 3 + 2] = (sums[bin * 3 + 2] ?? 0) + b;
    if (best < 0 || (counts[bin] ?? 0) > (counts[best] ?? 0)) best = bin;
  }
  if (best < 0) return null;
  const count = counts[best] ?? 1;
  return {
    r: (sums[best * 3] ?? 0) / count,
    g: (sums[best * 3 + 1] ?? 0) / count,
    b: (sums[best * 3 + 2] ?? 0) / count,
  };
}
