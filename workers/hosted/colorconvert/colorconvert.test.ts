import { colornames } from "color-name-list/bestof";
import { clampRgb, converter, differenceEuclidean, formatHex, parse } from "culori";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  callOperation,
  expectExampleIsReal,
  expectJson,
  expectNeverThrows,
  expectProblem,
  findOperation,
} from "../_data/operation-test-helpers";
import { CSS_NAMED_COLORS } from "./css-named-colors";
import { definition } from "./index";
import type { Color } from "./schema";

const getColor = findOperation(definition, "convertColor");
const postColor = findOperation(definition, "convertColorJson");

async function convert(raw: Record<string, unknown>): Promise<Color> {
  return expectJson(await callOperation(postColor, raw)) as Color;
}

describe("colorconvert: known colours", () => {
  it("#ff0000 is rgb(255,0,0), hsl(0,100%,50%), hsv(0,100%,100%), cmyk(0,100,100,0) and exactly red", async () => {
    const red = await convert({ hex: "#ff0000" });
    expect(red).toMatchObject({
      hex: "#ff0000",
      rgb: { r: 255, g: 0, b: 0 },
      hsl: { h: 0, s: 100, l: 50 },
      hsv: { h: 0, s: 100, v: 100 },
      cmyk: { c: 0, m: 100, y: 100, k: 0 },
      name: "red",
      distance: 0,
      exactName: true,
    });
  });

  it.each([
    { rgb: "rgb(255, 0, 0)" },
    { rgb: "rgb(255 0 0)" },
    { rgb: "255,0,0" },
    { rgb: { r: 255, g: 0, b: 0 } },
    { hsl: "hsl(0, 100%, 50%)" },
    { hsl: "hsl(360deg 100% 50%)" },
    { hsl: { h: 0, s: 100, l: 50 } },
    { hsv: "hsv(0, 100%, 100%)" },
    { hsv: { h: 720, s: 100, v: 100 } },
    { cmyk: "cmyk(0, 100, 100, 0)" },
    { cmyk: "cmyk(0%, 100%, 100%, 0%)" },
    { lab: "lab(54.29 80.8 69.89)" },
    { lab: { l: 54.29, a: 80.8, b: 69.89 } },
    { lch: "lch(54.29 106.84 40.86)" },
    { lch: { l: 54.29, c: 106.84, h: 40.86 } },
    { oklab: "oklab(0.628 0.2249 0.1258)" },
    { oklab: { l: 0.628, a: 0.2249, b: 0.1258 } },
    { oklch: "oklch(62.8% 0.2577 29.23deg)" },
    { oklch: { l: 0.628, c: 0.2577, h: 29.23 } },
    { xyz: "color(xyz-d65 0.4124 0.2126 0.0193)" },
    { xyz: { x: 0.4124, y: 0.2126, z: 0.0193 } },
    { color: "color(xyz 0.4124 0.2126 0.0193)" },
    { color: "color(srgb 1 0 0)" },
    { color: "#ff0000ff" },
    { cmyk: { c: 0, m: 100, y: 100, k: 0 } },
    { name: "Red" },
    { color: "#F00" },
    { color: "rgb(100% 0% 0%)" },
    { color: "hsl(0, 100%, 50%)" },
    { color: "red" },
  ])("%j is #ff0000", async (raw) => {
    expect((await convert(raw)).hex).toBe("#ff0000");
  });

  it("rebeccapurple is #663399, and #663399 is rebeccapurple", async () => {
    expect(await convert({ name: "rebeccapurple" })).toMatchObject({ hex: "#663399", rgb: { r: 102, g: 51, b: 153 } });
    expect(await convert({ hex: "#663399" })).toMatchObject({
      name: "rebeccapurple",
      exactName: true,
      hsl: { h: 270, s: 50, l: 40 },
    });
  });

  it("white against black has the maximum contrast of 21, against white the minimum of 1", async () => {
    const white = await convert({ name: "white" });
    expect(white.contrast).toEqual({ black: 21, white: 1 });
    expect(white.readableOn).toBe("black");
    const black = await convert({ hex: "#000" });
    expect(black.contrast).toEqual({ black: 1, white: 21 });
    expect(black.readableOn).toBe("white");
  });

  it("#777777 on white is 4.48:1, just under WCAG AA for body text", async () => {
    expect((await convert({ hex: "#777777" })).contrast.white).toBe(4.48);
  });

  it("the nearest name of #fe0000 is red, close but not exact", async () => {
    const almostRed = await convert({ hex: "#fe0000" });
    expect(almostRed.name).toBe("red");
    expect(almostRed.exactName).toBe(false);
    expect(almostRed.distance).toBeGreaterThan(0);
    expect(almostRed.distance).toBeLessThan(1);
  });

  it("of two names with one value, the first is reported unless the caller named the other", async () => {
    expect((await convert({ hex: "#00ffff" })).name).toBe("aqua");
    expect((await convert({ name: "cyan" })).name).toBe("cyan");
  });

  it("lists the 148 CSS named colours, each once", () => {
    expect(CSS_NAMED_COLORS).toHaveLength(148);
    expect(new Set(CSS_NAMED_COLORS.map(([name]) => name)).size).toBe(148);
  });
});

describe("colorconvert: refusals", () => {
  it("the query string form takes notation strings only, not objects", async () => {
    expect(getColor.input.safeParse({ rgb: { r: 255, g: 0, b: 0 } }).success).toBe(false);
    expect((expectJson(await callOperation(getColor, { rgb: "255 0 0" })) as Color).hex).toBe("#ff0000");
  });

  it.each([
    {},
    { hex: "#ff0000", name: "red" },
    { rgb: { r: 256, g: 0, b: 0 } },
    { cmyk: { c: 101, m: 0, y: 0, k: 0 } },
  ])("the schema refuses %j", (raw) => {
    expect(postColor.input.safeParse(raw).success).toBe(false);
  });

  it.each([
    [{ hex: "#ggg" }, "not a hex colour"],
    [{ hex: "#ff00ff8" }, "not a hex colour"],
    [{ rgb: "rgb(300, 0, 0)" }, "between 0 and 255"],
    [{ hsl: "hsl(0, 120%, 50%)" }, "between 0 and 100%"],
    [{ color: "rgb(255 0 0 / 1.5)" }, "alpha must be between 0 and 1"],
    [{ color: "rgb(255 0 0 / 1 / 1)" }, "at most one"],
    [{ color: "rgb(255 0 0 / 1 1)" }, "one alpha value"],
    [{ color: "lab(101 0 0)" }, "lightness must be between 0 and 100"],
    [{ color: "oklch(0.5 -0.1 20)" }, "chroma cannot be negative"],
    [{ color: "lch(50 20 50%)" }, "hue is an angle"],
    [{ color: "color(display-p3 1 0 0)" }, "color() reads the spaces"],
    [{ color: "color(srgb 2 0 0)" }, "between 0 and 1"],
    [{ color: "lab(1e308 1e308 1e308)" }, "lightness"],
    [{ color: "oklab(1 1e308 0)" }, "out of range"],
    [{ color: "wat(1 2 3)" }, "not supported"],
    [{ lab: "oklab(0.5 0 0)" }, "expected lab"],
    [{ oklch: "color(xyz 0 0 0)" }, "expected oklch"],
    [{ name: "notacolour" }, "neither a CSS named colour nor a name in color-name-list"],
    [{ rgb: "hsl(0, 100%, 50%)" }, "expected rgb"],
  ])("%j is refused as invalid input (%s)", async (raw, message) => {
    expect(expectProblem(await callOperation(postColor, raw), "invalid-input")).toContain(message);
  });
});

describe("colorconvert: properties", () => {
  const byte = fc.integer({ min: 0, max: 255 });

  it("every form it prints converts back to the same colour, within one step per channel", async () => {
    await fc.assert(
      fc.asyncProperty(byte, byte, byte, async (r, g, b) => {
        const color = await convert({ rgb: { r, g, b } });
        expect(color.rgb).toEqual({ r, g, b });
        for (const form of [{ hsl: color.hsl }, { hsv: color.hsv }, { cmyk: color.cmyk }, { hex: color.hex }]) {
          const back = (await convert(form)).rgb;
          expect(Math.abs(back.r - r)).toBeLessThanOrEqual(1);
          expect(Math.abs(back.g - g)).toBeLessThanOrEqual(1);
          expect(Math.abs(back.b - b)).toBeLessThanOrEqual(1);
        }
        expect(color.contrast.black * color.contrast.white).toBeCloseTo(21, 0);
      }),
      { numRuns: 200 },
    );
  });

  it.each([getColor, postColor])("$id never throws on arbitrary or hostile input", async (operation) => {
    const notation = fc.oneof(
      fc.string(),
      fc.constantFrom("rgb(1,2,3)", "hsl(10 20% 30%)", "cmyk(1,2,3,4)", "#abc", "navy", "rgb(", "hsl(1e400, 1%, 1%)"),
    );
    await expectNeverThrows(operation, {
      hex: notation,
      rgb: fc.oneof(notation, fc.record({ r: fc.double(), g: fc.double(), b: fc.double() })),
      hsl: fc.oneof(notation, fc.record({ h: fc.double(), s: fc.double(), l: fc.double() })),
      hsv: notation,
      cmyk: notation,
      name: notation,
      color: notation,
    });
  });
});

describe("colorconvert: documentation", () => {
  it.each([getColor, postColor])("$id's example output is what the example input produces", async (operation) => {
    await expectExampleIsReal(operation);
  });
});

/*
 * culori (MIT) is the independent reference: its conversions were written from CSS Color 4 and
 * Ottosson's papers by other people, and it is used here only, never by the worker.
 */
const toLab = converter("lab");
const toLch = converter("lch");
const toOklab = converter("oklab");
const toOklch = converter("oklch");
const toXyz65 = converter("xyz65");
const toRgb = converter("rgb");

/** |ours − culori| is within half the output's last decimal plus 1e-3. */
function expectNear(ours: number, reference: number, decimals: number): void {
  expect(Math.abs(ours - reference)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-3);
}

/** Hues compared on the circle, only where the chroma makes the hue meaningful. */
function expectHueNear(ours: number, reference: number | undefined, chroma: number, minChroma: number): void {
  if (chroma < minChroma) return;
  const difference = Math.abs(((((ours - (reference ?? 0)) % 360) + 540) % 360) - 180);
  expect(difference).toBeLessThanOrEqual(0.005 + 0.01);
}

describe("colorconvert: Lab, LCH, OKLab, OKLCH and XYZ against culori", () => {
  const byte = fc.integer({ min: 0, max: 255 });

  it("every sRGB colour's lab, lch, oklab, oklch and xyz match culori's within 1e-3 after rounding", async () => {
    await fc.assert(
      fc.asyncProperty(byte, byte, byte, async (r, g, b) => {
        const color = await convert({ rgb: { r, g, b } });
        const source = { mode: "rgb" as const, r: r / 255, g: g / 255, b: b / 255 };
        const lab = toLab(source);
        const lch = toLch(source);
        const oklab = toOklab(source);
        const oklch = toOklch(source);
        const xyz = toXyz65(source);
        expectNear(color.lab.l, lab.l, 2);
        expectNear(color.lab.a, lab.a, 2);
        expectNear(color.lab.b, lab.b, 2);
        expectNear(color.lch.l, lch.l, 2);
        expectNear(color.lch.c, lch.c, 2);
        expectHueNear(color.lch.h, lch.h, lch.c, 0.5);
        expectNear(color.oklab.l, oklab.l, 5);
        expectNear(color.oklab.a, oklab.a, 5);
        expectNear(color.oklab.b, oklab.b, 5);
        expectNear(color.oklch.l, oklch.l, 5);
        expectNear(color.oklch.c, oklch.c, 5);
        expectHueNear(color.oklch.h, oklch.h, oklch.c, 0.005);
        expectNear(color.xyz.x, xyz.x, 5);
        expectNear(color.xyz.y, xyz.y, 5);
        expectNear(color.xyz.z, xyz.z, 5);
        expect(color.inGamut).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("each new form it prints, as an object and as its CSS string, reads back as the same hex", async () => {
    await fc.assert(
      fc.asyncProperty(byte, byte, byte, async (r, g, b) => {
        const color = await convert({ rgb: { r, g, b } });
        const forms = [
          { lab: color.lab },
          { lch: color.lch },
          { oklab: color.oklab },
          { oklch: color.oklch },
          { xyz: color.xyz },
          { color: color.css.lab },
          { color: color.css.lch },
          { color: color.css.oklab },
          { color: color.css.oklch },
          { color: color.css.xyz },
          { color: color.css.rgb },
          { color: color.css.hex },
        ];
        for (const form of forms) expect([form, (await convert(form)).hex]).toEqual([form, color.hex]);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    "lab(54.29 80.8 69.89)",
    "lab(54% 65% 56%)",
    "lab(29.2345% 39.3825 20.0664 / 0.5)",
    "lab(none 20 -30)",
    "lch(52.2345% 72.2 56.2)",
    "lch(60 60% 200deg / 25%)",
    "oklab(0.628 0.2249 0.1258)",
    "oklab(59.686% 0.1009 0.1192)",
    "oklab(0.5 -50% 50%)",
    "oklch(62.8% 0.2577 29.23)",
    "oklch(0.7 0.1 200 / 0.3)",
    "oklch(70% 40% 120)",
    "color(xyz-d65 0.4124 0.2126 0.0193)",
    "color(xyz 0.2 0.3 0.4 / 80%)",
    "color(xyz-d50 0.4361 0.2225 0.0139)",
    "color(srgb 0.2 0.4 0.6 / 0.5)",
    "rgb(10 20 30 / 40%)",
    "rgba(10, 20, 30, 0.4)",
    "hsl(200 50% 40% / 0.7)",
    "hsla(200, 50%, 40%, 0.7)",
    "#12345678",
    "#1234",
  ])("%s reads as culori reads it (hex and alpha)", async (notation) => {
    const reference = parse(notation);
    if (!reference) throw new Error(`culori cannot read ${notation}`);
    const color = await convert({ color: notation });
    expect(color.hex).toBe(formatHex(clampRgb(reference)));
    expect(color.alpha).toBeCloseTo(reference.alpha ?? 1, 3);
  });
});

describe("colorconvert: alpha", () => {
  it("#ff000080 keeps its alpha in alpha, hex8 and every CSS string", async () => {
    const color = await convert({ hex: "#ff000080" });
    expect(color).toMatchObject({ hex: "#ff0000", hex8: "#ff000080", alpha: 0.502 });
    expect(color.css).toMatchObject({
      hex: "#ff000080",
      rgb: "rgb(255 0 0 / 0.502)",
      hsl: "hsl(0 100% 50% / 0.502)",
      oklch: "oklch(0.62796 0.25768 29.234 / 0.502)",
    });
  });

  it.each([
    [{ rgb: "rgb(255 0 0 / 0.5)" }, 0.5],
    [{ rgb: "rgba(255, 0, 0, 0.25)" }, 0.25],
    [{ rgb: "255,0,0,0.75" }, 0.75],
    [{ hsl: "hsl(0 100% 50% / 40%)" }, 0.4],
    [{ hsl: { h: 0, s: 100, l: 50, alpha: 0.1 } }, 0.1],
    [{ rgb: { r: 255, g: 0, b: 0, alpha: 0 } }, 0],
    [{ lab: "lab(54.29 80.8 69.89 / 0.5)" }, 0.5],
    [{ oklch: { l: 0.628, c: 0.2577, h: 29.23, alpha: 0.9 } }, 0.9],
    [{ xyz: "color(xyz-d65 0.4124 0.2126 0.0193 / 50%)" }, 0.5],
    [{ hex: "#f008" }, 0.533],
    [{ name: "red" }, 1],
  ])("%j carries alpha %d through", async (raw, alpha) => {
    const color = await convert(raw);
    expect(color.hex).toBe("#ff0000");
    expect(color.alpha).toBe(alpha);
    expect(color.hex8).toBe(
      `#ff0000${Math.round(alpha * 255)
        .toString(16)
        .padStart(2, "0")}`,
    );
    expect(color.css.rgb.endsWith(alpha < 1 ? ` / ${alpha})` : "0 0)")).toBe(true);
  });

  it("an alpha above 1 in an object form is refused by the schema", () => {
    expect(postColor.input.safeParse({ rgb: { r: 1, g: 2, b: 3, alpha: 1.5 } }).success).toBe(false);
  });

  it("every #rrggbbaa reads back from its hex8 and its rgb() string unchanged", async () => {
    const byte = fc.integer({ min: 0, max: 255 });
    await fc.assert(
      fc.asyncProperty(byte, byte, byte, byte, async (r, g, b, a) => {
        const hex8 = `#${[r, g, b, a].map((value) => value.toString(16).padStart(2, "0")).join("")}`;
        const color = await convert({ hex: hex8 });
        expect(color.hex8).toBe(hex8);
        expect((await convert({ color: color.css.rgb })).hex8).toBe(hex8);
        expect((await convert({ color: color.css.oklch })).hex8).toBe(hex8);
      }),
      { numRuns: 100 },
    );
  });
});

describe("colorconvert: colours outside sRGB", () => {
  it("an OKLCH colour beyond sRGB is clipped as culori clips it and flagged inGamut: false", async () => {
    const color = await convert({ oklch: "oklch(0.9 0.4 150)" });
    expect(color.inGamut).toBe(false);
    const reference = parse("oklch(0.9 0.4 150)");
    if (!reference) throw new Error("culori cannot read oklch(0.9 0.4 150)");
    expect(color.hex).toBe(formatHex(clampRgb(reference)));
  });

  it("sRGB's own primaries, given as Lab, are in gamut", async () => {
    expect((await convert({ lab: "lab(54.29 80.8 69.89)" })).inGamut).toBe(true);
  });
});

/*
 * Schemes: the expected colours are built here from the definitions (complementary +180°, triad
 * ±120°, quad 90° steps, analogous 30° steps, monochrome even lightness), and culori turns each
 * expected HSL into sRGB, so neither the hue arithmetic nor the HSL conversion is our own.
 */
describe("colorconvert: schemes", () => {
  const getScheme = findOperation(definition, "colorScheme");
  type Scheme = { mode: string; seed: Color; colors: Color[] };
  const scheme = async (raw: Record<string, unknown>) => expectJson(await callOperation(getScheme, raw)) as Scheme;

  /** culori's sRGB bytes for an HSL with s and l in percent. */
  function referenceRgb(h: number, s: number, l: number) {
    const rgb = clampRgb(toRgb({ mode: "hsl", h, s: s / 100, l: l / 100 }));
    return [rgb.r, rgb.g, rgb.b].map((channel) => Math.round(channel * 255));
  }

  function expectColorsNear(colors: Color[], expected: { h: number; s: number; l: number }[]): void {
    expect(colors).toHaveLength(expected.length);
    for (const [index, want] of expected.entries()) {
      const got = colors[index]?.rgb ?? { r: -9, g: -9, b: -9 };
      const [r = 0, g = 0, b = 0] = referenceRgb(want.h, want.s, want.l);
      // Within one level per channel: each channel is rounded to a byte on its own, on both sides.
      const off = Math.max(Math.abs(got.r - r), Math.abs(got.g - g), Math.abs(got.b - b));
      expect(off, JSON.stringify(want)).toBeLessThanOrEqual(1);
    }
  }

  const wrap = (hue: number) => ((hue % 360) + 360) % 360;

  it("complementary of #3366cc is the seed and its opposite, #cc9933", async () => {
    const answer = await scheme({ hex: "#3366cc", mode: "complementary" });
    expect(answer.colors.map((color) => color.hex)).toEqual(["#3366cc", "#cc9933"]);
    expect(answer.seed.hex).toBe("#3366cc");
  });

  it("the default counts are 5, 5, 2, 3 and 4", async () => {
    const counts = [];
    for (const mode of ["monochrome", "analogous", "complementary", "triad", "quad"]) {
      counts.push((await scheme({ hex: "#3366cc", mode })).colors.length);
    }
    expect(counts).toEqual([5, 5, 2, 3, 4]);
  });

  it("every scheme of every seed and count follows its definition", async () => {
    const byte = fc.integer({ min: 0, max: 255 });
    const mode = fc.constantFrom("monochrome", "analogous", "complementary", "triad", "quad");
    await fc.assert(
      fc.asyncProperty(byte, byte, byte, mode, fc.integer({ min: 1, max: 24 }), async (r, g, b, chosen, count) => {
        const hex = `#${[r, g, b].map((value) => value.toString(16).padStart(2, "0")).join("")}`;
        const answer = await scheme({ hex, mode: chosen, count: String(count) });
        const { h, s, l } = answer.seed.hsl;
        const turns = { complementary: [0, 180], triad: [0, 120, -120], quad: [0, 90, 180, 270] };
        const expected = Array.from({ length: count }, (_, index) => {
          if (chosen === "monochrome") return { h, s, l: (100 * (index + 1)) / (count + 1) };
          if (chosen === "analogous") return { h: wrap(h + 30 * (index - Math.floor((count - 1) / 2))), s, l };
          const hues = turns[chosen as keyof typeof turns];
          const round = Math.floor(index / hues.length);
          // Round 0 at the seed's lightness, then +10, −10, +20, −20…
          const shift = [0, 10, -10, 20, -20, 30, -30, 40, -40, 50, -50, 60, -60][round] ?? 0;
          return { h: wrap(h + (hues[index % hues.length] ?? 0)), s, l: Math.min(100, Math.max(0, l + shift)) };
        });
        expectColorsNear(answer.colors, expected);
      }),
      // Found by this test: two channels each one level off (the check summed them before).
      { numRuns: 200, examples: [[62, 62, 186, "monochrome", 4]] },
    );
  });

  it("a scheme carries the seed's alpha to every colour", async () => {
    const answer = await scheme({ color: "oklch(0.6 0.1 250 / 0.4)", mode: "triad" });
    expect(answer.colors.map((color) => color.alpha)).toEqual([0.4, 0.4, 0.4]);
    expect(answer.colors.every((color) => color.css.rgb.endsWith(" / 0.4)"))).toBe(true);
  });

  it.each([
    [{ hex: "#3366cc" }],
    [{ hex: "#3366cc", mode: "tetrad" }],
    [{ hex: "#3366cc", mode: "triad", count: "0" }],
    [{ hex: "#3366cc", mode: "triad", count: "25" }],
    [{ hex: "#3366cc", mode: "triad", count: "2.5" }],
    [{ mode: "triad" }],
  ])("the schema refuses %j", (raw) => {
    expect(getScheme.input.safeParse(raw).success).toBe(false);
  });

  it("an unreadable seed is refused as invalid input beside its field", async () => {
    expect(expectProblem(await callOperation(getScheme, { hex: "#12", mode: "quad" }), "invalid-input")).toContain(
      "not a hex colour",
    );
  });

  it("the scheme's example output is what its example input produces", async () => {
    await expectExampleIsReal(getScheme);
  });
});

/*
 * The larger name list: checked against the package's own data (read here straight from
 * color-name-list) and, for nearness, against culori's CIELAB (D65) distance.
 */
describe("colorconvert: names from color-name-list's best of", () => {
  const normal = (name: string) => name.toLowerCase().replace(/[\s_-]/g, "");
  const cssNames = new Set(CSS_NAMED_COLORS.map(([name]) => name));
  const labDistance = differenceEuclidean("lab65");

  it("every name in the list that no CSS name or earlier spelling shadows reads as its own hex and names itself", async () => {
    const seen = new Set<string>();
    let checked = 0;
    for (const { name, hex } of colornames) {
      const key = normal(name);
      if (cssNames.has(key) || seen.has(key)) continue;
      seen.add(key);
      const color = await convert({ name });
      expect([name, color.hex]).toEqual([name, hex.toLowerCase()]);
      expect(color.extendedName).toMatchObject({ name, distance: 0 });
      checked += 1;
    }
    expect(checked).toBeGreaterThan(4800);
  });

  it("a CSS name wins over the same name in the larger list", async () => {
    const red = await convert({ name: "Red" });
    expect(red).toMatchObject({ hex: "#ff0000", name: "red", exactName: true });
  });

  it("names the list and its version in every answer", async () => {
    const color = await convert({ hex: "#3366cc" });
    expect(color.extendedName.list).toBe("color-name-list 14.51.0, best of (MIT)");
    expect(colornames).toHaveLength(4961);
  });

  it("the nearest name is as near as culori's nearest, by CIELAB (D65) distance", async () => {
    const byte = fc.integer({ min: 0, max: 255 });
    await fc.assert(
      fc.asyncProperty(byte, byte, byte, async (r, g, b) => {
        const color = await convert({ rgb: { r, g, b } });
        const target = { mode: "rgb" as const, r: r / 255, g: g / 255, b: b / 255 };
        const distances = colornames.map((entry) => labDistance(target, entry.hex));
        const best = Math.min(...distances);
        const ours = colornames.find((entry) => entry.name === color.extendedName.name);
        if (!ours) throw new Error(`${color.extendedName.name} is not in the list`);
        expect(labDistance(target, ours.hex)).toBeLessThanOrEqual(best + 0.02);
        expect(Math.abs(color.extendedName.distance - best)).toBeLessThanOrEqual(0.02);
      }),
      { numRuns: 100 },
    );
  });
});
