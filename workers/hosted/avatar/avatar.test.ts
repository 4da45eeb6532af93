import { Avatar } from "@dicebear/core";
import fc from "fast-check";
import { decode as decodeWithImageJs } from "image-js";
import { describe, expect, it } from "vitest";
import { createTestContext } from "../../../tests/hosted-context";
import { decodePng, parseXmlRoot, pixelAt, readPngSize } from "../_render/image-test-helpers";
import type { HandlerResult, Operation } from "../definition";
import { definition } from "./index";
import { AVATAR_STYLE_META, AVATAR_STYLES, attributionHeaders, type AvatarStyle, type AvatarStyleMeta } from "./styles";

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

/**
 * Every definition @dicebear/styles ships, read straight from the package (not through our
 * styles module), so a style added by an upgrade shows up here even if nobody lists it.
 */
const PACKAGE_DEFINITIONS = import.meta.glob<{ meta: AvatarStyleMeta & { license: { text: string } } }>(
  "/node_modules/@dicebear/styles/dist/*.min.json",
  { eager: true, import: "default" },
);
const PACKAGE_STYLES = new Map(
  Object.entries(PACKAGE_DEFINITIONS).map(([path, definition]) => [
    path.replace(/^.*\/([^/]+)\.min\.json$/, "$1"),
    definition,
  ]),
);

/**
 * Licences read and judged for images generated in a commercial product. A licence not in this
 * table fails the test until someone reads it. "allowed" styles must be offered; "refused" ones
 * must not (none today: no DiceBear style carries a non-commercial licence such as CC BY-NC).
 */
const LICENSE_REVIEW: Record<string, { verdict: "allowed" | "refused"; credit: boolean; why: string }> = {
  "CC0 1.0": { verdict: "allowed", credit: false, why: "public-domain dedication" },
  "CC BY 4.0": { verdict: "allowed", credit: true, why: "commercial use allowed with attribution (§3(a))" },
  MIT: { verdict: "allowed", credit: true, why: "any use, keeping the copyright notice" },
  "Free for personal and commercial use": { verdict: "allowed", credit: false, why: "the artist's own terms" },
  "Free for personal and commercial use.": { verdict: "allowed", credit: false, why: "the same, with a full stop" },
};

describe("avatar styles and their licences", () => {
  it("the package ships definitions, each with a licence somebody reviewed", () => {
    expect(PACKAGE_STYLES.size).toBeGreaterThanOrEqual(61);
    const unreviewed = [...PACKAGE_STYLES]
      .filter(([, definition]) => !(definition.meta.license.name in LICENSE_REVIEW))
      .map(([name, definition]) => `${name}: ${definition.meta.license.name}`);
    expect(unreviewed).toEqual([]);
  });

  it("offers exactly the styles whose licence allows commercial use", () => {
    const allowed = [...PACKAGE_STYLES]
      .filter(([, definition]) => LICENSE_REVIEW[definition.meta.license.name]?.verdict === "allowed")
      .map(([name]) => name)
      .sort();
    expect([...AVATAR_STYLES].sort()).toEqual(allowed);
    // The CC BY styles the first version left out are in.
    for (const style of ["adventurer", "big-smile", "micah", "toon-head", "personas", "fun-emoji"])
      expect(AVATAR_STYLES).toContain(style);
  });

  it.each(AVATAR_STYLES)("%s: the credit we publish is the definition's own meta", (style) => {
    const meta = PACKAGE_STYLES.get(style)?.meta;
    const { license, creator, source } = AVATAR_STYLE_META[style];
    expect({ license, creator, source }).toEqual({
      license: { name: meta?.license.name, url: meta?.license.url },
      creator: meta?.creator,
      source: meta?.source,
    });
  });

  it.each(AVATAR_STYLES)(
    "%s draws well-formed SVG at the requested size, with its licence as metadata",
    async (style: AvatarStyle) => {
      const svg = await svgOf({ seed: "ada@example.com", style, size: 96 });
      const root = parseXmlRoot(svg);
      expect(root.name).toBe("svg");
      expect(root.attributes.xmlns).toBe("http://www.w3.org/2000/svg");
      expect(root.attributes.width).toBe("96");
      expect(root.attributes.height).toBe("96");
      const meta = AVATAR_STYLE_META[style];
      expect(svg).toContain(`<dcterms:license xsi:type="dcterms:URI">${meta.license.url}</dcterms:license>`);
      expect(svg).toContain(`<dc:creator>${meta.creator.name.replace(/&/g, "&amp;")}</dc:creator>`);
    },
  );

  it("a CC BY style answers with its licence in a Link header and a credit line, in PNG and SVG", async () => {
    for (const format of ["png", "svg"]) {
      const result = await call(createAvatar, { seed: "credit", style: "adventurer", size: 64, format });
      if (result.kind !== "binary") throw new Error(`expected an image, got ${JSON.stringify(result)}`);
      expect(result.headers?.link).toBe('<https://creativecommons.org/licenses/by/4.0/>; rel="license"');
      const credit = result.headers?.["x-avatar-attribution"] ?? "";
      expect(credit).toContain("Lisa Wischofsky");
      expect(credit).toContain("CC BY 4.0");
      expect(credit).toContain("https://www.figma.com/community/file/1184595184137881796");
    }
  });

  it.each(AVATAR_STYLES)("%s: the credit headers are plain ASCII, as HTTP headers must be", (style) => {
    for (const value of Object.values(attributionHeaders(style))) expect(value).toMatch(/^[\x20-\x7e]+$/);
  });

  it("the docs name every style with its creator, source and licence, linked", () => {
    const description = createAvatar.description ?? "";
    for (const style of AVATAR_STYLES) {
      const { license, creator, source } = AVATAR_STYLE_META[style];
      expect(description).toContain(`\`${style}\``);
      expect(description).toContain(`[${creator.name}](${creator.url})`);
      expect(description).toContain(`[${source.name}](${source.url})`);
      expect(description).toContain(`[${license.name}](${license.url})`);
    }
  });

  it("glass (blur filters) renders rasters up to 256 px and refuses larger ones with a clear problem; SVG has no cap", async () => {
    expect(readPngSize(await pngOf({ seed: "glass", style: "glass", size: 256 }))).toEqual({ width: 256, height: 256 });
    for (const op of [createAvatar, getAvatar]) {
      const refused = op.input.safeParse({
        seed: "glass",
        style: "glass",
        size: op === getAvatar ? "512" : 512,
        format: "png",
      });
      expect(refused.success).toBe(false);
      expect(refused.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["size", expect.stringMatching(/glass.*256/)],
      ]);
    }
    expect(parseXmlRoot(await svgOf({ seed: "glass", style: "glass", size: 1024 })).attributes.width).toBe("1024");
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

/** The same avatar drawn by DiceBear core directly, from the package's own definition. */
function referenceSvg(style: AvatarStyle, options: Record<string, unknown>): string {
  const definition = PACKAGE_STYLES.get(style);
  if (!definition) throw new Error(`no definition for ${style}`);
  return new Avatar(definition, { idRandomization: false, ...options }).toString();
}

/** How many pixels differ from `color` by more than `tolerance` in any channel (alpha included). */
function pixelsOtherThan(png: Uint8Array, color: [number, number, number, number], tolerance = 2): number {
  const image = decodePng(png);
  let count = 0;
  for (let y = 0; y < image.height; y += 1)
    for (let x = 0; x < image.width; x += 1)
      if (pixelAt(image, x, y).some((channel, index) => Math.abs(channel - color[index]!) > tolerance)) count += 1;
  return count;
}

describe("avatar options, as DiceBear's HTTP API names them", () => {
  it("scale, translateX/Y, rotate, flip and radius give what DiceBear core draws with the same options", async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ scale: 50 }, { scale: 0.5 }],
      [
        { scale: 200, translateX: -25, translateY: 40 },
        { scale: 2, translateX: -25, translateY: 40 },
      ],
      [
        { translateX: 100, translateY: -100 },
        { translateX: 100, translateY: -100 },
      ],
      [
        { rotate: 30, flip: true, radius: 20 },
        { rotate: 30, flip: "horizontal", borderRadius: 20 },
      ],
    ];
    for (const style of ["adventurer", "shapes", "initials"] as const) {
      for (const [ours, core] of cases) {
        const svg = await svgOf({ seed: "options", style, size: 80, ...ours });
        expect(svg).toBe(referenceSvg(style, { seed: "options", size: 80, ...core }));
      }
    }
  });

  it("scale and translate are the transforms they say, about the canvas centre and in percent of it", async () => {
    // The shapes canvas is 100 × 100 (its viewBox), whatever the pixel size.
    const svg = await svgOf({
      seed: "geometry",
      style: "shapes",
      size: 64,
      scale: 150,
      translateX: 10,
      translateY: -20,
    });
    expect(parseXmlRoot(svg).attributes.viewBox).toBe("0 0 100 100");
    expect(svg).toContain(
      '<g transform="translate(10, -20)"><g transform="translate(50, 50) scale(1.5) translate(-50, -50)">',
    );
    // At scale 100 and no shift, DiceBear adds no wrapper at all.
    const plain = await svgOf({ seed: "geometry", style: "shapes", size: 64, scale: 100, translateX: 0 });
    expect(plain).not.toContain('<g transform="translate(');
  });

  it("translateX 100 moves the whole drawing off the canvas: only the background is left, in every pixel", async () => {
    const base = { seed: "off-canvas", style: "identicon", size: 48, backgroundColor: "#ffffff" };
    expect(pixelsOtherThan(await pngOf(base), [255, 255, 255, 255])).toBeGreaterThan(50);
    expect(pixelsOtherThan(await pngOf({ ...base, translateX: 100 }), [255, 255, 255, 255])).toBe(0);
    expect(pixelsOtherThan(await pngOf({ ...base, translateY: -100 }), [255, 255, 255, 255])).toBe(0);
    expect(pixelsOtherThan(await pngOf({ ...base, scale: 0 }), [255, 255, 255, 255])).toBe(0);
  });

  it("clip (default true) wraps the drawing in the canvas clip path; clip=false leaves it out when there is no radius", async () => {
    const base = { seed: "clip", style: "adventurer", size: 64, scale: 180 };
    const clipped = await svgOf(base);
    const clipId = /<clipPath id="([^"]+)"><rect width="762" height="762" rx="0" ry="0"\/><\/clipPath>/.exec(
      clipped,
    )?.[1];
    expect(clipId).toBeDefined();
    expect(clipped).toContain(`<g clip-path="url(#${clipId})">`);
    const unclipped = await svgOf({ ...base, clip: false });
    expect(unclipped).not.toContain("clipPath");
    expect(unclipped).not.toContain("clip-path");
    expect(parseXmlRoot(unclipped).name).toBe("svg");
    // Everything else is DiceBear's drawing, unchanged: the clipped body sits inside the wrapper.
    const body = (svg: string) => svg.slice(svg.indexOf("</defs>"));
    expect(body(clipped)).toBe(
      body(unclipped)
        .replace("</defs>", `</defs><g clip-path="url(#${clipId})">`)
        .replace(/<\/svg>$/, "</g></svg>"),
    );
    // A radius needs its clip, so it stays.
    expect(await svgOf({ ...base, clip: false, radius: 20 })).toContain("clip-path");
  });

  it("backgroundType gradientLinear draws a linear gradient from the colours given, turned by backgroundRotation", async () => {
    const options = {
      seed: "gradient",
      style: "initials",
      size: 64,
      backgroundColor: ["#ff0000", "#0000ff"],
      backgroundType: "gradientLinear",
      backgroundRotation: 90,
    };
    const svg = await svgOf(options);
    expect(svg).toBe(
      referenceSvg("initials", {
        seed: "gradient",
        size: 64,
        backgroundColor: ["#ff0000", "#0000ff"],
        backgroundColorFill: "linear",
        backgroundColorAngle: 90,
      }),
    );
    const gradient =
      /<linearGradient id="([^"]+)" gradientTransform="rotate\(90, 0\.5, 0\.5\)">(.*?)<\/linearGradient>/.exec(svg);
    expect(gradient).not.toBeNull();
    const stops = [...(gradient?.[2] ?? "").matchAll(/<stop offset="([^"]+)" stop-color="([^"]+)"\/>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(stops.map(([offset]) => offset)).toEqual(["0%", "100%"]);
    expect(stops.map(([, color]) => color).sort()).toEqual(["#0000ff", "#ff0000"]);
    expect(svg).toContain(`fill="url(#${gradient?.[1]})"`);
    // solid (the default) draws one colour, no gradient.
    expect(await svgOf({ ...options, backgroundType: "solid" })).not.toContain("Gradient");
  });

  it("a gradient background in PNG runs from one colour to the other along the rotation", async () => {
    const base = {
      seed: "gradient-png",
      style: "identicon",
      size: 64,
      translateX: 100, // the drawing off the canvas: only the background is left
      backgroundColor: ["#ff0000", "#0000ff"],
      backgroundType: "gradientLinear",
    };
    const across = decodePng(await pngOf({ ...base, backgroundRotation: 0 }));
    const left = pixelAt(across, 0, 32);
    const right = pixelAt(across, 63, 32);
    // One end red, the other blue (DiceBear shuffles the order by seed), a mix in between.
    expect([left[0] > 240 && left[2] < 15, right[0] > 240 && right[2] < 15].filter(Boolean)).toHaveLength(1);
    expect(Math.abs(left[0] - right[0])).toBeGreaterThan(230);
    expect(pixelAt(across, 0, 0)).toEqual(pixelAt(across, 0, 63));
    const middle = pixelAt(across, 32, 32);
    expect(middle[0]).toBeGreaterThan(80);
    expect(middle[2]).toBeGreaterThan(80);
    const down = decodePng(await pngOf({ ...base, backgroundRotation: 90 }));
    expect(pixelAt(down, 0, 32)).toEqual(pixelAt(down, 63, 32));
    expect(Math.abs(pixelAt(down, 32, 0)[0] - pixelAt(down, 32, 63)[0])).toBeGreaterThan(230);
  });

  it("GET takes lists comma-separated and signed numbers, as DiceBear's URLs write them", async () => {
    const query = {
      seed: "query-lists",
      style: "initials",
      size: "48",
      scale: "80",
      translateX: "-10",
      translateY: "5.5",
      clip: "false",
      backgroundColor: "ff0000,00ff00",
      backgroundType: "gradientLinear,solid",
      backgroundRotation: "-30,60",
    };
    const json = {
      seed: "query-lists",
      style: "initials",
      size: 48,
      scale: 80,
      translateX: -10,
      translateY: 5.5,
      clip: false,
      backgroundColor: ["#ff0000", "#00ff00"],
      backgroundType: ["gradientLinear", "solid"],
      backgroundRotation: [-30, 60],
    };
    expect(await call(getAvatar, { ...query, format: "svg" })).toEqual(
      await call(createAvatar, { ...json, format: "svg" }),
    );
  });

  it.each([
    ["scale below 0", { scale: -1 }, "scale"],
    ["scale above 200", { scale: 201 }, "scale"],
    ["translateX below -100", { translateX: -101 }, "translateX"],
    ["translateY above 100", { translateY: 101 }, "translateY"],
    ["an unknown backgroundType", { backgroundType: "gradientRadial" }, "backgroundType"],
    ["backgroundRotation below -360", { backgroundRotation: -361 }, "backgroundRotation"],
    ["backgroundRotation with eleven values", { backgroundRotation: Array(11).fill(0) }, "backgroundRotation"],
    ["an empty backgroundColor list", { backgroundColor: [] }, "backgroundColor"],
    ["a bad colour in the list", { backgroundColor: ["#fff", "red"] }, "backgroundColor"],
    ["clip as a string in JSON", { clip: "false" }, "clip"],
  ])("the JSON schema refuses %s, naming the field", (_name, raw, path) => {
    const parsed = createAvatar.input.safeParse({ seed: "x", ...raw });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toContain(path);
  });

  it.each([
    ["a scale that is not a number", { scale: "big" }, "scale"],
    ["translateX out of range", { translateX: "-150" }, "translateX"],
    ["a backgroundRotation that is not a number", { backgroundRotation: "0,abc" }, "backgroundRotation"],
    ["a bad colour in the list", { backgroundColor: "ff0000,nope" }, "backgroundColor"],
    ["clip that is not a boolean word", { clip: "maybe" }, "clip"],
  ])("the query schema refuses %s, naming the field", (_name, raw, path) => {
    const parsed = getAvatar.input.safeParse({ seed: "x", ...raw });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => String(issue.path[0]))).toContain(path);
  });

  it("reads a backgroundRotation list as DiceBear 9 does: from its smallest to its largest value", async () => {
    const base = {
      seed: "range",
      style: "initials",
      backgroundType: "gradientLinear",
      backgroundColor: ["#000", "#fff"],
    };
    const ordered = await svgOf({ ...base, backgroundRotation: [10, 80] });
    expect(await svgOf({ ...base, backgroundRotation: [80, 10] })).toBe(ordered);
    expect(await svgOf({ ...base, backgroundRotation: [80, 30, 10] })).toBe(ordered);
    const angle = Number(/gradientTransform="rotate\(([-\d.]+), 0\.5, 0\.5\)"/.exec(ordered)?.[1]);
    expect(angle).toBeGreaterThanOrEqual(10);
    expect(angle).toBeLessThanOrEqual(80);
  });

  it("accepts the edges of DiceBear's ranges", () => {
    for (const raw of [
      { scale: 0, translateX: -100, translateY: -100, backgroundRotation: -360 },
      { scale: 200, translateX: 100, translateY: 100, backgroundRotation: [360, 360], clip: false },
      { backgroundType: ["solid", "gradientLinear"], backgroundColor: ["transparent", "#abc"] },
    ]) {
      expect(createAvatar.input.safeParse(raw).error?.issues ?? []).toEqual([]);
    }
  });
});

async function rasterOf(raw: Record<string, unknown>, op: Operation = createAvatar) {
  const result = await call(op, raw);
  if (result.kind !== "binary" || typeof result.body === "string")
    throw new Error(`expected raster bytes, got ${JSON.stringify(result)}`);
  return { contentType: result.contentType, headers: result.headers, body: result.body };
}

type Rgba = [number, number, number, number];

/** JPEG read back by image-js (jpeg-js), not by photon, which wrote it. */
function readJpeg(bytes: Uint8Array): { width: number; height: number; at(x: number, y: number): Rgba } {
  const image = decodeWithImageJs(bytes);
  return {
    width: image.width,
    height: image.height,
    at: (x, y) => {
      const [r = -1, g = -1, b = -1] = image.getPixel(x, y);
      return [r, g, b, 255];
    },
  };
}

/** WebP read back by photon (the Rust image crate's VP8 decoder), not by libwebp, which wrote it. */
function readWebp(bytes: Uint8Array): { width: number; height: number; at(x: number, y: number): Rgba } {
  const image = decodePng(bytes); // photon's decoder sniffs the format; the name is historical
  return { width: image.width, height: image.height, at: (x, y) => pixelAt(image, x, y) };
}

/** Mean absolute difference per colour channel between a decoded image and the PNG of the same avatar. */
function meanErrorAgainstPng(
  png: Uint8Array,
  other: { width: number; height: number; at(x: number, y: number): Rgba },
) {
  const reference = decodePng(png);
  expect([other.width, other.height]).toEqual([reference.width, reference.height]);
  let total = 0;
  for (let y = 0; y < reference.height; y += 1)
    for (let x = 0; x < reference.width; x += 1) {
      const expected = pixelAt(reference, x, y);
      const actual = other.at(x, y);
      for (let channel = 0; channel < 3; channel += 1) total += Math.abs(expected[channel]! - actual[channel]!);
    }
  return total / (reference.width * reference.height * 3);
}

describe("avatar in JPEG and WebP", () => {
  const opaque = { seed: "raster", style: "adventurer", size: 128, backgroundColor: "#b6e3f4" };

  it("JPEG is a JPEG of the requested size whose pixels match the PNG's", async () => {
    const jpeg = await rasterOf({ ...opaque, format: "jpeg", quality: 92 });
    expect(jpeg.contentType).toBe("image/jpeg");
    expect([...jpeg.body.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const png = await pngOf(opaque);
    expect(meanErrorAgainstPng(png, readJpeg(jpeg.body))).toBeLessThan(4);
  });

  it("WebP is lossy WebP of the requested size whose pixels match the PNG's", async () => {
    const webp = await rasterOf({ ...opaque, format: "webp", quality: 92 });
    expect(webp.contentType).toBe("image/webp");
    expect(new TextDecoder().decode(webp.body.slice(8, 16))).toBe("WEBPVP8 ");
    const png = await pngOf(opaque);
    expect(meanErrorAgainstPng(png, readWebp(webp.body))).toBeLessThan(4);
  });

  it("quality trades size for fidelity, in JPEG and WebP", async () => {
    const png = await pngOf(opaque);
    for (const [format, read] of [
      ["jpeg", readJpeg],
      ["webp", readWebp],
    ] as const) {
      const low = await rasterOf({ ...opaque, format, quality: 10 });
      const high = await rasterOf({ ...opaque, format, quality: 95 });
      expect(low.body.length).toBeLessThan(high.body.length);
      expect(meanErrorAgainstPng(png, read(low.body))).toBeGreaterThan(meanErrorAgainstPng(png, read(high.body)));
    }
  });

  it("transparency: WebP keeps a round avatar's clear corners, JPEG lays them on white", async () => {
    const round = { seed: "round-raster", style: "initials", size: 64, radius: 50, backgroundColor: "#336699" };
    const webp = readWebp((await rasterOf({ ...round, format: "webp" })).body);
    expect(webp.at(0, 0)[3]).toBe(0);
    expect(webp.at(32, 4)[3]).toBe(255);
    const jpeg = readJpeg((await rasterOf({ ...round, format: "jpeg" })).body);
    for (const channel of jpeg.at(0, 0).slice(0, 3)) expect(channel).toBeGreaterThan(245);
    const [r, g, b] = jpeg.at(32, 4);
    expect(Math.abs(r - 0x33) + Math.abs(g - 0x66) + Math.abs(b - 0x99)).toBeLessThan(24);
  });

  it("JPEG and WebP carry the same credit headers, and GET takes format and quality from the query", async () => {
    const result = await rasterOf(
      { seed: "q", style: "big-smile", size: "64", format: "webp", quality: "70" },
      getAvatar,
    );
    expect(result.contentType).toBe("image/webp");
    expect(result.headers?.link).toBe('<https://creativecommons.org/licenses/by/4.0/>; rel="license"');
    expect(result.body).toEqual(
      (await rasterOf({ seed: "q", style: "big-smile", size: 64, format: "webp", quality: 70 })).body,
    );
    expect(
      (await rasterOf({ seed: "q", style: "big-smile", size: 64, format: "jpeg" })).headers?.["x-avatar-attribution"],
    ).toContain("Ashley Seo");
  });

  it("jpg is read as jpeg, as DiceBear's URLs write it", async () => {
    const jpg = await rasterOf({ ...opaque, size: 32, format: "jpg" });
    expect(jpg.contentType).toBe("image/jpeg");
    expect(jpg.body).toEqual((await rasterOf({ ...opaque, size: 32, format: "jpeg" })).body);
  });

  it("AVIF is refused with a message that says why, and quality out of range is refused", () => {
    const avif = createAvatar.input.safeParse({ seed: "x", format: "avif" });
    expect(avif.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["format", expect.stringMatching(/AVIF.*not offered.*webp/i)],
    ]);
    for (const quality of [0, 101, 50.5])
      expect(createAvatar.input.safeParse({ format: "jpeg", quality }).success).toBe(false);
    expect(getAvatar.input.safeParse({ format: "webp", quality: "abc" }).success).toBe(false);
  });

  it("the raster cap of filter-heavy styles holds for JPEG and WebP too", () => {
    for (const format of ["jpeg", "webp"])
      expect(createAvatar.input.safeParse({ style: "marbles", size: 300, format }).success).toBe(false);
  });
});

describe("avatar input", () => {
  it.each([
    ["an unknown style", { style: "adventurer-classic" }],
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
      backgroundColor: field(
        fc.constantFrom("transparent", "#000", "#a1b2c3", "FFFFFF", ["#000", "fff", "transparent"]),
      ),
      radius: field(fc.double({ min: 0, max: 50, noNaN: true })),
      flip: field(fc.boolean()),
      rotate: field(fc.double({ min: 0, max: 360, noNaN: true })),
      scale: field(fc.double({ min: 0, max: 200, noNaN: true })),
      translateX: field(fc.double({ min: -100, max: 100, noNaN: true })),
      translateY: field(fc.double({ min: -100, max: 100, noNaN: true })),
      clip: field(fc.boolean()),
      backgroundType: field(fc.constantFrom("solid", "gradientLinear", ["gradientLinear", "solid"])),
      backgroundRotation: field(
        fc.array(fc.double({ min: -360, max: 360, noNaN: true }), { minLength: 1, maxLength: 3 }),
      ),
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
