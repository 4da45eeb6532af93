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
    [{ hex: "#ff00ff80" }, "not a hex colour"],
    [{ rgb: "rgb(300, 0, 0)" }, "between 0 and 255"],
    [{ hsl: "hsl(0, 120%, 50%)" }, "between 0 and 100%"],
    [{ color: "rgba(255, 0, 0, 0.5)" }, "alpha"],
    [{ color: "rgb(255 0 0 / 50%)" }, "alpha"],
    [{ color: "lab(50% 40 59)" }, "not supported"],
    [{ name: "notacolour" }, "not a CSS named colour"],
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
