/**
 * The classic cut-out against true masks: synthetic subjects (a circle, a star, a ring whose
 * hole is enclosed, a C whose hole opens to the outside, a subject of several colours) on plain,
 * mildly graded and noisy backgrounds, where it must reach an intersection over union of 0.95;
 * and the images it must refuse (a photo-like texture, a border of two halves, a subject
 * filling the frame, nothing to cut out). The scores are printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { segmentClassic } from "./segment";
import {
  circle,
  drawScene,
  intersectionOverUnion,
  minus,
  plain,
  rect,
  ring,
  star,
  texture,
  union,
  verticalGradient,
  type Background,
  type Paint,
  type Rgb,
  type Shape,
} from "./synthetic";

const SIZE = 256;
const LIGHT_GREY: Rgb = [236, 236, 240];
const RED: Paint = () => [196, 38, 44];
const NAVY: Paint = () => [28, 46, 130];
const GREEN: Paint = () => [40, 150, 70];
/** Dark outside, with a light centre close to the backdrop's colour: enclosed, so it stays subject. */
const BADGE: Paint = (x, y) => ((x - 128) ** 2 + (y - 128) ** 2 < 40 ** 2 ? [230, 232, 236] : [60, 30, 90]);

const SHAPES: Record<string, { shape: Shape; paint: Paint; expected?: Shape }> = {
  circle: { shape: circle(128, 128, 70), paint: RED },
  star: { shape: star(128, 132, 100, 42), paint: NAVY },
  // The ring's hole shows the backdrop but is enclosed: the classic engine keeps it (decision 062).
  "ring (enclosed hole kept)": { shape: ring(128, 128, 80, 40), paint: GREEN, expected: circle(128, 128, 80) },
  // A C: the same ring with a slit, so its hole joins the outside and is background.
  "C (open hole removed)": { shape: minus(ring(128, 128, 80, 40), rect(150, 118, 80, 20)), paint: GREEN },
  "badge with a backdrop-coloured centre": { shape: circle(128, 128, 75), paint: BADGE },
  "two subjects": { shape: union(circle(80, 90, 40), rect(150, 140, 70, 80)), paint: RED },
};

const BACKGROUNDS: Record<string, { background: Background; noise?: number }> = {
  plain: { background: plain(LIGHT_GREY) },
  "mild gradient": { background: verticalGradient([214, 222, 236], [248, 248, 252], SIZE) },
  "noisy (±18 a channel)": { background: plain(LIGHT_GREY), noise: 18 },
  "gradient and noise": { background: verticalGradient([200, 214, 230], [244, 244, 250], SIZE), noise: 10 },
};

const scores: string[] = [];
afterAll(() => console.log(`classic cut-out, intersection over union:\n${scores.join("\n")}`));

describe("classic cut-out: accepted images match their true masks", () => {
  for (const [shapeName, { shape, paint, expected }] of Object.entries(SHAPES)) {
    for (const [backgroundName, { background, noise }] of Object.entries(BACKGROUNDS)) {
      it(`${shapeName} on a ${backgroundName} background: IoU ≥ 0.95`, () => {
        const scene = drawScene(SIZE, SIZE, background, shape, paint, { noise, seed: 11 });
        const truth = expected ? drawScene(SIZE, SIZE, background, expected, paint).truth : scene.truth;
        const cut = segmentClassic(scene.image);
        if (!cut.ok) throw new Error(`refused: ${cut.detail}`);
        const iou = intersectionOverUnion(cut.alpha, truth);
        scores.push(`  ${`${shapeName} / ${backgroundName}`.padEnd(60)} ${iou.toFixed(4)}`);
        expect(iou).toBeGreaterThanOrEqual(0.95);
      });
    }
  }

  it("a subject touching one edge (a portrait cut off at the bottom) is still cut", () => {
    const shape = union(circle(128, 90, 45), rect(70, 140, 116, 116));
    const scene = drawScene(SIZE, SIZE, plain(LIGHT_GREY), shape, NAVY);
    const cut = segmentClassic(scene.image);
    if (!cut.ok) throw new Error(cut.detail);
    expect(intersectionOverUnion(cut.alpha, scene.truth)).toBeGreaterThanOrEqual(0.95);
  });

  it("feathers the edge over one or two pixels, and boxes the subject", () => {
    const scene = drawScene(SIZE, SIZE, plain(LIGHT_GREY), rect(64, 80, 100, 60), RED);
    const cut = segmentClassic(scene.image);
    if (!cut.ok) throw new Error(cut.detail);
    const row = 110;
    const across = Array.from({ length: 8 }, (_, i) => cut.alpha[row * SIZE + 60 + i]!);
    // Outside, a ramp, then inside: not a staircase from 0 to 255.
    expect(across[0]).toBe(0);
    expect(across.at(-1)).toBe(255);
    expect(across.some((value) => value > 0 && value < 255)).toBe(true);
    expect(across.filter((value) => value > 0 && value < 255).length).toBeLessThanOrEqual(2);
    expect(cut.box.left).toBeGreaterThanOrEqual(62);
    expect(cut.box.left).toBeLessThanOrEqual(64);
    expect(cut.box.width).toBeGreaterThanOrEqual(100);
    expect(cut.box.width).toBeLessThanOrEqual(103);
  });
});

describe("classic cut-out: refusals instead of bad cuts", () => {
  it("refuses a photo-like texture", () => {
    const cut = segmentClassic(texture(SIZE, SIZE));
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.reason).toBe("border-too-varied");
  });

  it("refuses a subject on a texture", () => {
    const scene = texture(SIZE, SIZE, 3);
    const subject = drawScene(SIZE, SIZE, plain(LIGHT_GREY), circle(128, 128, 60), RED);
    for (let i = 0; i < SIZE * SIZE; i++) {
      if (subject.truth[i]) scene.data.set(subject.image.data.subarray(i * 4, i * 4 + 4), i * 4);
    }
    expect(segmentClassic(scene).ok).toBe(false);
  });

  for (const [name, background] of Object.entries({
    "left and right": ((x: number) => (x < SIZE / 2 ? [30, 30, 30] : [240, 240, 240])) as Background,
    "top and bottom": ((_x: number, y: number) => (y < SIZE / 2 ? [200, 60, 60] : [60, 60, 200])) as Background,
  })) {
    it(`refuses a border of two halves (${name})`, () => {
      const scene = drawScene(SIZE, SIZE, background, circle(128, 128, 50), GREEN);
      const cut = segmentClassic(scene.image);
      expect(cut.ok).toBe(false);
      if (!cut.ok) expect(cut.reason).toBe("border-too-varied");
    });
  }

  it("refuses a border of two similar halves where the gradient test alone would not", () => {
    const halves: Background = (x) => (x < SIZE / 2 ? [120, 120, 124] : [236, 236, 240]);
    const cut = segmentClassic(drawScene(SIZE, SIZE, halves, circle(128, 128, 50), RED).image);
    expect(cut.ok).toBe(false);
  });

  it("refuses a many-coloured subject that covers most of the border (a close-up)", () => {
    const pattern = texture(SIZE, SIZE, 5);
    const paint: Paint = (x, y) => {
      const offset = (Math.floor(y) * SIZE + Math.floor(x)) * 4;
      return [pattern.data[offset]!, pattern.data[offset + 1]!, pattern.data[offset + 2]!];
    };
    const scene = drawScene(SIZE, SIZE, plain(LIGHT_GREY), minus(rect(0, 0, SIZE, SIZE), rect(0, 0, 90, 90)), paint);
    const cut = segmentClassic(scene.image);
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.reason).toBe("border-too-varied");
  });

  it("refuses strong noise, which no tolerance separates from a subject", () => {
    const scene = drawScene(SIZE, SIZE, plain([128, 128, 128]), circle(128, 128, 60), RED, { noise: 90 });
    expect(segmentClassic(scene.image).ok).toBe(false);
  });

  it("refuses an image with nothing on its background", () => {
    const scene = drawScene(SIZE, SIZE, plain(LIGHT_GREY), () => false, RED, { noise: 6 });
    const cut = segmentClassic(scene.image);
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.reason).toBe("no-foreground");
  });
});
