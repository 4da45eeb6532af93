import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestContext } from "../../../tests/hosted-context";
import { decodePng, parseXmlRoot, pixelAt, readPngSize } from "../_render/image-test-helpers";
import type { HandlerResult, Operation } from "../definition";
import { definition } from "./index";
import { AVATAR_STYLE_DEFINITIONS, AVATAR_STYLE_LICENSES, AVATAR_STYLES, type AvatarStyle } from "./styles";

function operation(id: string): Operation {
  const found = definition.operations.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

const createAvatar = operation("createAvatar");
const getAvatar = operation("getAvatar");

async function call(op: Operation, raw: unknown): Promise<HandlerResult> {
  return op.handler(op.input.parse(raw), createTestContext());
}

async function svgOf(raw: Record<string, unknown>): Promise<string> {
  const result = await call(createAvatar, { ...raw, format: "svg" });
  if (result.kind !== "binary" || typeof result.body !== "string")
    throw new Error(`expected an SVG, got ${JSON.stringify(result)}`);
  expect(result.contentType).toBe("image/svg+xml");
  return result.body;
}

async function pngOf(raw: Record<string, unknown>, op: Operation = createAvatar): Promise<Uint8Array> {
  const result = await call(op, { ...raw, format: "png" });
  if (result.kind !== "binary" || typeof result.body === "string")
    throw new Error(`expected a PNG, got ${JSON.stringify(result)}`);
  expect(result.contentType).toBe("image/png");
  return result.body;
}

describe("avatar styles", () => {
  // Licences that allow commercial use of the images without a credit line on each one.
  const COMMERCIAL_WITHOUT_ATTRIBUTION = new Set(["CC0 1.0", "MIT", "Free for personal and commercial use"]);

  it.each(AVATAR_STYLES)("%s declares the licence we list, and it allows commercial use", (style) => {
    const meta = (AVATAR_STYLE_DEFINITIONS[style] as { meta?: { license?: { name?: string } } }).meta;
    expect(meta?.license?.name).toBe(AVATAR_STYLE_LICENSES[style]);
    expect(COMMERCIAL_WITHOUT_ATTRIBUTION.has(AVATAR_STYLE_LICENSES[style])).toBe(true);
  });

  it.each(AVATAR_STYLES)("%s draws well-formed SVG at the requested size", async (style: AvatarStyle) => {
    const svg = await svgOf({ seed: "ada@example.com", style, size: 96 });
    const root = parseXmlRoot(svg);
    expect(root.name).toBe("svg");
    expect(root.attributes.xmlns).toBe("http://www.w3.org/2000/svg");
    expect(root.attributes.width).toBe("96");
    expect(root.attributes.height).toBe("96");
  });
});

describe("avatar output", () => {
  it("PNG has the requested dimensions in its IHDR, and decodes to that many pixels", async () => {
    for (const size of [16, 200, 1024]) {
      const png = await pngOf({ seed: "dimensions", style: "shapes", size });
      expect(readPngSize(png)).toEqual({ width: size, height: size });
      const image = decodePng(png);
      expect([image.width, image.height]).toEqual([size, size]);
    }
  });

  it("the same seed and options give identical bytes; a different seed gives different ones", async () => {
    const options = { style: "bottts-neutral", size: 64, radius: 10, rotate: 15, flip: true };
    expect(await svgOf({ ...options, seed: "same" })).toBe(await svgOf({ ...options, seed: "same" }));
    expect(await svgOf({ ...options, seed: "same" })).not.toBe(await svgOf({ ...options, seed: "other" }));
    const png = await pngOf({ ...options, seed: "same" });
    expect(png).toEqual(await pngOf({ ...options, seed: "same" }));
    expect(png).not.toEqual(await pngOf({ ...options, seed: "other" }));
  });

  it("a transparent background leaves the corner clear; a colour fills it", async () => {
    const base = { seed: "corner", style: "initials", size: 64, radius: 0 };
    const clear = decodePng(await pngOf({ ...base, backgroundColor: "transparent" }));
    const red = decodePng(await pngOf({ ...base, backgroundColor: "#ff0000" }));
    expect(pixelAt(clear, 0, 0)[3]).toBe(0);
    expect(pixelAt(red, 0, 0)).toEqual([255, 0, 0, 255]);
  });

  it("radius 50 makes a circle: the corner is clear even on a coloured background", async () => {
    const round = decodePng(
      await pngOf({ seed: "round", style: "initials", size: 64, radius: 50, backgroundColor: "#00ff00" }),
    );
    expect(pixelAt(round, 0, 0)[3]).toBe(0);
    expect(pixelAt(round, 32, 2)).toEqual([0, 255, 0, 255]);
  });

  it("flip and rotate change the drawing", async () => {
    const base = { seed: "asymmetric", style: "thumbs", size: 64 };
    const plain = await svgOf(base);
    expect(await svgOf({ ...base, flip: true })).not.toBe(plain);
    expect(await svgOf({ ...base, rotate: 90 })).not.toBe(plain);
  });

  it("the initials style renders its letters in PNG with the bundled font", async () => {
    const image = decodePng(
      await pngOf({ seed: "Ada Lovelace", style: "initials", size: 100, backgroundColor: "#336699" }),
    );
    let inked = 0;
    for (let y = 25; y < 75; y += 1) {
      for (let x = 15; x < 85; x += 1) {
        const [red, green, blue] = pixelAt(image, x, y);
        if (Math.abs(red - 0x33) + Math.abs(green - 0x66) + Math.abs(blue - 0x99) > 60) inked += 1;
      }
    }
    // "AL" at 50 px covers several hundred pixels; with no font resvg would draw nothing.
    expect(inked).toBeGreaterThan(300);
  });

  it("GET reads the same fields from query strings", async () => {
    const fromQuery = await pngOf(
      { seed: "query", style: "rings", size: "48", flip: "true", rotate: "45", radius: "20" },
      getAvatar,
    );
    const fromJson = await pngOf({ seed: "query", style: "rings", size: 48, flip: true, rotate: 45, radius: 20 });
    expect(readPngSize(fromQuery)).toEqual({ width: 48, height: 48 });
    expect(fromQuery).toEqual(fromJson);
  });

  it("the documented examples run", async () => {
    for (const op of [createAvatar, getAvatar]) {
      const result = await call(op, op.example);
      expect(result.kind).toBe("binary");
    }
  });
});

describe("avatar input", () => {
  it.each([
    ["an unknown style", { style: "adventurer" }],
    ["a style name with different case", { style: "Identicon" }],
    ["a size below 16", { size: 15 }],
    ["a size above 1024", { size: 1025 }],
    ["a fractional size", { size: 100.5 }],
    ["a size as a string in JSON", { size: "128" }],
    ["a named colour", { backgroundColor: "red" }],
    ["a five-digit hex colour", { backgroundColor: "#12345" }],
    ["a non-hex colour", { backgroundColor: "#ggg" }],
    ["a seed over 200 characters", { seed: "x".repeat(201) }],
    ["a radius over 50", { radius: 51 }],
    ["a negative rotation", { rotate: -1 }],
    ["a rotation over 360", { rotate: 361 }],
    ["an unknown format", { format: "gif" }],
  ])("the JSON schema refuses %s", (_name, raw) => {
    expect(createAvatar.input.safeParse({ seed: "x", ...raw }).success).toBe(false);
  });

  it.each([
    ["a non-numeric size", { size: "abc" }],
    ["an empty size", { size: "" }],
    ["an exponent", { size: "1e3" }],
    ["a size out of range", { size: "2048" }],
    ["a flip that is not a boolean word", { flip: "maybe" }],
  ])("the query schema refuses %s", (_name, raw) => {
    expect(getAvatar.input.safeParse({ seed: "x", ...raw }).success).toBe(false);
  });

  it("accepts the edges of every range", () => {
    for (const raw of [
      { size: 16, radius: 0, rotate: 0 },
      { size: 1024, radius: 50, rotate: 360 },
      { seed: "x".repeat(200), backgroundColor: "ABC" },
    ]) {
      expect(createAvatar.input.safeParse(raw).success).toBe(true);
    }
  });
});

describe("avatar properties", () => {
  const hostileString = fc.oneof(
    fc.string(),
    fc.string({ unit: "grapheme", maxLength: 250 }),
    fc.constantFrom(
      "<script>alert(1)</script>",
      '"/><svg onload=alert(1)>',
      "&amp;&#0;",
      "\u0000",
      "transparent",
      "#fff",
      "../../etc/passwd",
    ),
  );
  const field = <T>(valid: fc.Arbitrary<T>) =>
    fc.option(
      fc.oneof(valid, hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue()),
      { nil: undefined },
    );
  const avatarLike = fc.record(
    {
      seed: field(fc.string({ maxLength: 200 })),
      style: field(fc.constantFrom(...AVATAR_STYLES)),
      size: field(fc.integer({ min: 16, max: 256 })),
      backgroundColor: field(fc.constantFrom("transparent", "#000", "#a1b2c3", "FFFFFF")),
      radius: field(fc.double({ min: 0, max: 50, noNaN: true })),
      flip: field(fc.boolean()),
      rotate: field(fc.double({ min: 0, max: 360, noNaN: true })),
      format: field(fc.constantFrom("svg", "png")),
    },
    { requiredKeys: [] },
  );

  it("no JSON the schema accepts makes the handler throw, and every answer is an image or a problem", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(avatarLike, fc.jsonValue(), fc.dictionary(hostileString, fc.jsonValue())),
        async (raw) => {
          const parsed = createAvatar.input.safeParse(raw);
          if (!parsed.success) return;
          const result = await createAvatar.handler(parsed.data, createTestContext());
          expect(["binary", "problem"]).toContain(result.kind);
          if (result.kind === "binary") expect(result.body.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("hostile seeds never break the SVG's markup", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileString.filter((seed) => seed.length <= 200),
        fc.constantFrom(...AVATAR_STYLES),
        async (seed, style) => {
          const svg = await svgOf({ seed, style, size: 32 });
          expect(parseXmlRoot(svg).name).toBe("svg");
        },
      ),
      { numRuns: 60 },
    );
  });
});
