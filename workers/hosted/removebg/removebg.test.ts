/**
 * Remove Background through its handler: the classic engine in the real engine Worker (the
 * test environment's default), Cloudflare Images through a fake of its binding (segmentation
 * answered with a known mask, finished by the real engine Worker), every option checked on the
 * decoded answer, hostile files, and the gateway's own path with a key.
 */
import { env, SELF } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { decode as decodeJpeg } from "jpeg-js";
import { describe, expect, it } from "vitest";
import type { CutoutEngines, CutoutRequest } from "~workers/hosted/capabilities";
import type { HandlerResult } from "~workers/hosted/definition";
import {
  circle,
  drawScene,
  intersectionOverUnion,
  plain,
  rect,
  star,
  texture,
  union,
  type Rgb,
} from "~workers/engines/cutout/synthetic";
import { mediaEnginesFor } from "~workers/gateway/services";
import {
  callHosted,
  createAccountWithKey,
  expectProblem as expectHttpProblem,
  multipartOf,
} from "../../../tests/factories";
import { fakeImagesBinding, FakeImagesError } from "../../../tests/fakes/cloudflare-images";
import { createTestContext, expectProblem, runParsed } from "../../../tests/hosted-context";
import { bytesToBase64 } from "../_image/base64";
import { SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { definition } from "./index";
import { RemoveBgInputSchema } from "./schema";
import { classicForegroundSegmenter, foregroundSegmenterFor, rpcCutoutEngines } from "./segmenters";
import { imagesForegroundSegmenter } from "~workers/providers/cloudflare-images/foreground";

const operation = definition.operations[0]!;
const BACKDROP: Rgb = [236, 236, 240];

const asFile = (bytes: Uint8Array, name = "photo.png", type = "image/png") =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type });

function encodePng(image: { width: number; height: number; data: Uint8Array }): Uint8Array<ArrayBuffer> {
  const photon = new PhotonImage(image.data, image.width, image.height);
  try {
    return new Uint8Array(photon.get_bytes());
  } finally {
    photon.free();
  }
}

/** The answer's pixels (PNG, WebP or JPEG), RGBA. */
function decodeAnswer(result: HandlerResult): { width: number; height: number; data: Uint8Array } {
  if (result.kind !== "binary") {
    throw new Error(`expected an image, got ${result.kind}: ${result.kind === "problem" ? result.detail : ""}`);
  }
  const bytes = result.body as Uint8Array;
  if (result.contentType === "image/jpeg") {
    const decoded = decodeJpeg(bytes, { useTArray: true, formatAsRGBA: true });
    return { width: decoded.width, height: decoded.height, data: decoded.data };
  }
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
  } finally {
    image.free();
  }
}

const alphaOf = (image: { data: Uint8Array }) =>
  Uint8Array.from({ length: image.data.length / 4 }, (_, i) => image.data[i * 4 + 3]!);

const pixel = (image: { width: number; data: Uint8Array }, x: number, y: number) =>
  Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));

const headers = (result: HandlerResult) => (result.kind === "binary" ? (result.headers ?? {}) : {});

const run = (raw: Record<string, unknown>, ctx = createTestContext()): Promise<HandlerResult> =>
  runParsed(operation, raw, ctx);

/** A disc and a star on a light backdrop, 320×240. */
const SCENE = drawScene(320, 240, plain(BACKDROP), union(circle(100, 120, 60), star(230, 125, 70, 30)), () => [
  190, 40, 50,
]);
const SCENE_PNG = encodePng(SCENE.image);

describe("removebg: the classic engine, end to end", () => {
  it("cuts the docs' example: transparent backdrop, opaque subject, remove.bg's headers", async () => {
    const result = await run(operation.example as Record<string, unknown>);
    const image = decodeAnswer(result);
    expect(result.kind === "binary" && result.contentType).toBe("image/png");
    expect(headers(result)).toMatchObject({ "X-Engine": "classic", "X-Width": "240", "X-Height": "160" });
    expect([image.width, image.height]).toEqual([240, 160]);
    expect(pixel(image, 5, 5)[3]).toBe(0); // backdrop
    expect(pixel(image, 78, 82)).toEqual([206, 52, 58, 255]); // the disc's centre, colour kept
    expect(pixel(image, 170, 84)[3]).toBe(255); // the star's centre
    // The subject's box: the disc's left edge (x 28) to the star's right tip (x ~223).
    const box = headers(result);
    expect(Number(box["X-Foreground-Left"])).toBeGreaterThanOrEqual(26);
    expect(Number(box["X-Foreground-Left"])).toBeLessThanOrEqual(29);
    expect(Number(box["X-Foreground-Width"])).toBeGreaterThan(190);
  });

  it("matches the true mask through the engine Worker (IoU ≥ 0.95), from an upload, plain base64 and a data URL", async () => {
    for (const raw of [
      { image_file: asFile(SCENE_PNG) },
      { image_file_b64: bytesToBase64(SCENE_PNG) },
      { image_file_b64: `data:image/png;base64,${bytesToBase64(SCENE_PNG)}` },
    ]) {
      const image = decodeAnswer(await run(raw));
      expect(intersectionOverUnion(alphaOf(image), SCENE.truth)).toBeGreaterThanOrEqual(0.95);
    }
  });

  it("fetches image_url through the guard and refuses a private address at image_url", async () => {
    const ctx = createTestContext({
      dns: { "photos.example.com": ["93.184.216.34"], "intranet.example.com": ["10.0.0.5"] },
      routes: {
        "https://photos.example.com/shoe.png": () =>
          new Response(SCENE_PNG, { headers: { "content-type": "image/png" } }),
      },
    });
    const image = decodeAnswer(await run({ image_url: "https://photos.example.com/shoe.png" }, ctx));
    expect(intersectionOverUnion(alphaOf(image), SCENE.truth)).toBeGreaterThanOrEqual(0.95);
    const refused = await run({ image_url: "https://intranet.example.com/shoe.png" }, ctx);
    expectProblem(refused, "invalid-input", /private address/);
    expect(refused.kind === "problem" && refused.extensions?.errors).toHaveProperty("image_url");
  });

  it("reads a JPEG and answers WebP with the transparency kept", async () => {
    const photon = new PhotonImage(SCENE.image.data, 320, 240);
    const jpeg = new Uint8Array(photon.get_bytes_jpeg(92));
    photon.free();
    const result = await run({ image_file: asFile(jpeg, "a.jpg", "image/jpeg"), format: "webp" });
    expect(result.kind === "binary" && result.contentType).toBe("image/webp");
    const image = decodeAnswer(result);
    expect(pixel(image, 4, 4)[3]).toBeLessThan(8);
    expect(pixel(image, 100, 120)[3]).toBeGreaterThan(247);
    expect(intersectionOverUnion(alphaOf(image), SCENE.truth)).toBeGreaterThanOrEqual(0.95);
  });

  it("fills the background with bg_color: JPEG on an opaque colour, PNG keeping a colour's alpha, CSS names", async () => {
    const jpeg = await run({ image_file: asFile(SCENE_PNG), format: "jpg", bg_color: "81d4fa" });
    expect(jpeg.kind === "binary" && jpeg.contentType).toBe("image/jpeg");
    const flat = decodeAnswer(jpeg);
    const [r, g, b] = pixel(flat, 5, 5);
    expect([Math.abs(r! - 0x81), Math.abs(g! - 0xd4), Math.abs(b! - 0xfa)].every((error) => error <= 4)).toBe(true);
    // `auto` is JPEG on an opaque colour, as remove.bg's.
    const auto = await run({ image_file: asFile(SCENE_PNG), bg_color: "#fff" });
    expect(auto.kind === "binary" && auto.contentType).toBe("image/jpeg");

    const translucent = decodeAnswer(await run({ image_file: asFile(SCENE_PNG), format: "png", bg_color: "81d4fa77" }));
    expect(pixel(translucent, 5, 5)).toEqual([0x81, 0xd4, 0xfa, 0x77]);
    expect(pixel(translucent, 100, 120)).toEqual([190, 40, 50, 255]);

    const named = decodeAnswer(await run({ image_file: asFile(SCENE_PNG), format: "png", bg_color: "SkyBlue" }));
    expect(pixel(named, 5, 5)).toEqual([0x87, 0xce, 0xeb, 255]);
  });

  it("crops to the subject, and X-Foreground-* then span the whole answer", async () => {
    const result = await run({ image_file: asFile(SCENE_PNG), crop: "true" });
    const image = decodeAnswer(result);
    // The disc's left edge at 40 to the star's right tip near 297; top at the star's tip (55) and bottom at the disc's (180).
    expect(image.width).toBeGreaterThanOrEqual(255);
    expect(image.width).toBeLessThanOrEqual(262);
    expect(image.height).toBeGreaterThanOrEqual(124);
    expect(image.height).toBeLessThanOrEqual(130);
    expect(headers(result)).toMatchObject({
      "X-Width": String(image.width),
      "X-Height": String(image.height),
      "X-Foreground-Left": "0",
      "X-Foreground-Top": "0",
      "X-Foreground-Width": String(image.width),
    });
    // Every edge row or column holds some of the subject.
    const alpha = alphaOf(image);
    const column = (x: number) => Array.from({ length: image.height }, (_, y) => alpha[y * image.width + x]!);
    const row = (y: number) => Array.from(alpha.subarray(y * image.width, (y + 1) * image.width));
    for (const edge of [column(0), column(image.width - 1), row(0), row(image.height - 1)]) {
      expect(Math.max(...edge)).toBeGreaterThan(0);
    }
  });

  it("answers the mask alone with channels: alpha, white on black, whatever bg_color says", async () => {
    const image = decodeAnswer(await run({ image_file: asFile(SCENE_PNG), channels: "alpha", bg_color: "red" }));
    expect(pixel(image, 5, 5)).toEqual([0, 0, 0, 255]);
    expect(pixel(image, 100, 120)).toEqual([255, 255, 255, 255]);
    const grey = Uint8Array.from({ length: 320 * 240 }, (_, i) => image.data[i * 4]!);
    expect(intersectionOverUnion(grey, SCENE.truth)).toBeGreaterThanOrEqual(0.95);
  });

  it("scales to the size asked, never up: preview ≤ 0.25 MP, full keeps a small image's size", async () => {
    const big = drawScene(800, 600, plain(BACKDROP), circle(400, 300, 180), () => [30, 60, 150]);
    const result = await run({ image_file: asFile(encodePng(big.image)), size: "preview" });
    const image = decodeAnswer(result);
    expect(image.width * image.height).toBeLessThanOrEqual(250_000);
    expect(image.width / image.height).toBeCloseTo(800 / 600, 1);
    expect(headers(result)).toMatchObject({ "X-Width": String(image.width), "X-Height": String(image.height) });
    const small = await run({ image_file: asFile(SCENE_PNG), size: "4k" });
    expect(headers(small)).toMatchObject({ "X-Width": "320", "X-Height": "240" });
  });

  it("cuts a 1024² product shot through the engine Worker (the bench's input), and prints its time", async () => {
    const scene = drawScene(
      1024,
      1024,
      plain(BACKDROP),
      union(circle(360, 512, 240), star(720, 520, 280, 120)),
      () => [190, 40, 50],
      { noise: 6 },
    );
    const png = encodePng(scene.image);
    const times: number[] = [];
    let alpha = new Uint8Array();
    for (let call = 0; call < 3; call++) {
      const started = performance.now();
      const image = decodeAnswer(await run({ image_file: asFile(png) }));
      times.push(performance.now() - started);
      alpha = alphaOf(image);
    }
    console.log(`classic cut-out of a 1024² PNG, handler to answer: ${times.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    expect(intersectionOverUnion(alpha, scene.truth)).toBeGreaterThanOrEqual(0.95);
  });

  it("cuts the largest PNG it takes (9 megapixels) to the full size's 3 megapixels without the engine isolate failing", async () => {
    // Painted directly (no supersampling): 9 million pixels through drawScene would take long.
    const side = 3000;
    const data = new Uint8Array(side * side * 4);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const inside = (x - 1500) ** 2 + (y - 1400) ** 2 < 900 ** 2;
        data.set(inside ? [30, 60, 150, 255] : [236, 236, 240, 255], (y * side + x) * 4);
      }
    }
    const result = await run({ image_file: asFile(encodePng({ width: side, height: side, data })) });
    const image = decodeAnswer(result);
    expect(image.width * image.height).toBeLessThanOrEqual(3_000_000);
    expect(image.width).toBe(image.height);
    expect(pixel(image, 2, 2)[3]).toBe(0);
    expect(pixel(image, image.width >> 1, image.height >> 1)).toEqual([30, 60, 150, 255]);
  });

  it("refuses a photo-like image with 422 reason border-too-varied rather than a bad cut", async () => {
    const result = await run({ image_file: asFile(encodePng(texture(300, 200))) });
    expectProblem(result, "invalid-input", /border is not a plain or gently shaded background/);
    expect(result.kind === "problem" && result.extensions).toMatchObject({
      reason: "border-too-varied",
      engine: "classic",
    });
  });

  it("refuses a wall over a floor (two backdrops) rather than keep the floor as subject, naming the sides it reached", async () => {
    const line = 170;
    const scene = drawScene(
      320,
      240,
      (_x, y) => (y >= line ? [170, 170, 175] : BACKDROP),
      rect(130, 60, 60, line - 50),
      () => [196, 38, 44],
    );
    const result = await run({ image_file: asFile(encodePng(scene.image)) });
    expectProblem(result, "invalid-input", /left side to its right/);
    const extensions = (result.kind === "problem" && result.extensions) || {};
    expect(extensions).toMatchObject({ reason: "border-too-varied", engine: "classic" });
    expect(String(extensions.borderSides).split(",")).toEqual(expect.arrayContaining(["left", "right"]));
  });

  it("says by how much the backdrop changes when two halves are refused (backdropGradient)", async () => {
    const halves = drawScene(
      320,
      240,
      (x) => (x < 160 ? [30, 30, 30] : [240, 240, 240]),
      circle(160, 120, 50),
      () => [40, 150, 70],
    );
    const result = await run({ image_file: asFile(encodePng(halves.image)) });
    expectProblem(result, "invalid-input");
    const extensions = (result.kind === "problem" && result.extensions) || {};
    expect(extensions).toMatchObject({ reason: "border-too-varied", engine: "classic" });
    expect(extensions.backdropGradient).toBeGreaterThan(40);
  });

  it("refuses an image with nothing on its background: reason no-foreground", async () => {
    const blank = drawScene(
      200,
      150,
      plain(BACKDROP),
      () => false,
      () => [0, 0, 0],
      { noise: 4 },
    );
    const result = await run({ image_file: asFile(encodePng(blank.image)) });
    expectProblem(result, "invalid-input", /No subject/);
    expect(result.kind === "problem" && result.extensions).toMatchObject({ reason: "no-foreground" });
  });
});

describe("removebg: input and hostile files", () => {
  const parse = (raw: Record<string, unknown>) => RemoveBgInputSchema.safeParse(raw);
  const fieldsOf = (raw: Record<string, unknown>) => {
    const parsed = parse(raw);
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join("."));
  };

  it("takes remove.bg's names and values", () => {
    const parsed = RemoveBgInputSchema.parse({
      image_url: "https://example.com/a.png",
      size: "regular",
      format: "jpg",
      bg_color: "fff7",
      crop: "true",
      channels: "rgba",
      type: "product",
    });
    expect(parsed).toMatchObject({
      size: "preview",
      format: "jpg",
      crop: true,
      bg_color: { r: 255, g: 255, b: 255, a: 0x77 },
    });
    expect(RemoveBgInputSchema.parse({ image_url: "https://example.com/a.png", size: "HD" }).size).toBe("full");
    expect(RemoveBgInputSchema.parse({ image_url: "https://example.com/a.png" }).size).toBe("full");
  });

  it("refuses jpg without bg_color at format, and remove.bg's unsupported options at their fields", () => {
    expect(fieldsOf({ image_url: "https://example.com/a.png", format: "jpg" })).toEqual(["format"]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", format: "jpg", bg_color: "transparent" })).toEqual([
      "format",
    ]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", format: "jpg", channels: "alpha" })).toEqual([]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", bg_image_url: "https://example.com/b.png" })).toEqual([
      "bg_image_url",
    ]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", add_shadow: "true" })).toEqual(["add_shadow"]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", add_shadow: "false" })).toEqual([]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", bg_color: "nope" })).toEqual(["bg_color"]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", size: "huge" })).toEqual(["size"]);
    expect(fieldsOf({})).toEqual(["image_file"]);
    expect(fieldsOf({ image_url: "https://example.com/a.png", image_file_b64: "aGk=" })).toEqual(["image_file"]);
  });

  it("names the field of bytes that are not an image: bad base64, an empty data URL, an empty download", async () => {
    const badBase64 = await run({ image_file_b64: "abcde" });
    expectProblem(badBase64, "invalid-input");
    expect(badBase64.kind === "problem" && badBase64.extensions?.errors).toHaveProperty("image_file_b64");

    const empty = await run({ image_file_b64: "data:image/png;base64," });
    expectProblem(empty, "invalid-input", /empty/);
    expect(empty.kind === "problem" && empty.extensions?.errors).toHaveProperty("image_file_b64");

    const ctx = createTestContext({
      dns: { "photos.example.com": ["93.184.216.34"] },
      routes: {
        "https://photos.example.com/empty.png": () =>
          new Response(new Uint8Array(), { headers: { "content-type": "image/png" } }),
      },
    });
    const download = await run({ image_url: "https://photos.example.com/empty.png" }, ctx);
    expectProblem(download, "invalid-input", /empty/);
    expect(download.kind === "problem" && download.extensions?.errors).toHaveProperty("image_url");
  });

  it("refuses an upload over 10 MB at image_file", () => {
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], "big.png", { type: "image/png" });
    expect(fieldsOf({ image_file: big })).toEqual(["image_file"]);
  });

  it("refuses what is not a PNG, JPEG or WebP with 415", async () => {
    for (const bytes of [
      new TextEncoder().encode("%PDF-1.4\n"),
      Uint8Array.from(atob("R0lGODlhAQABAAAAACw="), (c) => c.charCodeAt(0)),
    ]) {
      expectProblem(await run({ image_file: asFile(bytes) }), "unsupported-media-type", /PNG, JPEG or WebP/);
    }
  });

  /** A PNG whose header claims 100000×100000 pixels, with a few bytes of data. */
  function hugePngHeader(): Uint8Array<ArrayBuffer> {
    const png = new Uint8Array(SCENE_PNG);
    const view = new DataView(png.buffer);
    view.setUint32(16, 100_000);
    view.setUint32(20, 100_000);
    // The IHDR's CRC is left wrong: nothing may read past the header to notice.
    return png;
  }

  it("refuses a header claiming 100000×100000 before anything decodes it, on either engine", async () => {
    const asked: CutoutRequest[] = [];
    const recording: CutoutEngines = {
      cutOut: async (request) => {
        asked.push(request as CutoutRequest);
        throw new Error("the engine must not be asked");
      },
      finishCutout: async () => {
        throw new Error("the engine must not be asked");
      },
    };
    const classic = createTestContext({ media: { foreground: classicForegroundSegmenter(recording) } });
    const refused = await run({ image_file: asFile(hugePngHeader()) }, classic);
    expectProblem(refused, "unreadable-document", /100000×100000/);
    expect(refused.kind === "problem" && refused.extensions).toMatchObject({ reason: "too-large" });
    expect(asked).toHaveLength(0);

    const images = fakeImagesBinding({ mask: () => 255 });
    const production = createTestContext({
      media: { foreground: foregroundSegmenterFor({ IMAGES: images.binding, ENGINES: env.ENGINES }) },
    });
    expectProblem(
      await run({ image_file: asFile(hugePngHeader()) }, production),
      "unreadable-document",
      /25 megapixels/,
    );
    expect(images.calls).toHaveLength(0);

    // And the engine Worker, asked directly, refuses it too: its RPC method can be called on its own.
    const direct = await env.ENGINES.cutOut({
      image: hugePngHeader(),
      format: "png",
      size: "full",
      crop: false,
      channels: "rgba",
      timeoutMs: 5_000,
    });
    expect(direct).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } });
  });

  it("answers 503 engine-unavailable naming IMAGES where neither engine exists", async () => {
    expect(foregroundSegmenterFor({})).toBeUndefined();
    expect(
      mediaEnginesFor({ ...env, ENGINES: undefined } as unknown as Parameters<typeof mediaEnginesFor>[0]).foreground,
    ).toBeUndefined();
    const result = await run({ image_file: asFile(SCENE_PNG) }, createTestContext({ media: {} }));
    expectProblem(result, "engine-unavailable", /IMAGES/);
    expect(result.kind === "problem" && result.extensions).toMatchObject({ binding: "IMAGES" });
  });

  it("picks Cloudflare Images where IMAGES is bound, else the classic engine", () => {
    const images = fakeImagesBinding({ mask: () => 255 });
    expect(mediaEnginesFor({ ...env, IMAGES: images.binding }).foreground?.engine).toBe("cloudflare-images");
    expect(mediaEnginesFor(env).foreground?.engine).toBe("classic");
  });
});

describe("removebg: Cloudflare Images through a fake binding", () => {
  /** The fake segments a centred ellipse: the known mask the answer must carry. */
  const ELLIPSE = (u: number, v: number) => (((u - 0.5) / 0.3) ** 2 + ((v - 0.5) / 0.35) ** 2 <= 1 ? 255 : 0);

  function imagesContext(fail?: FakeImagesError) {
    const images = fakeImagesBinding({ mask: ELLIPSE, ...(fail && { fail }) });
    const segmenter = foregroundSegmenterFor({ IMAGES: images.binding, ENGINES: env.ENGINES })!;
    return { images, ctx: createTestContext({ media: { foreground: segmenter } }) };
  }

  it("asks Images for segment: foreground as PNG, and answers its mask, finished by the engine Worker", async () => {
    const { images, ctx } = imagesContext();
    // A photograph the classic engine refuses is no problem for the model.
    const photo = encodePng(texture(320, 240));
    const result = await run({ image_file: asFile(photo) }, ctx);
    const image = decodeAnswer(result);
    expect(images.calls).toHaveLength(1);
    expect(images.calls[0]!.transforms).toEqual([{ segment: "foreground" }]);
    expect(images.calls[0]!.output).toEqual({ format: "image/png" });
    expect(headers(result)).toMatchObject({ "X-Engine": "cloudflare-images", "X-Width": "320", "X-Height": "240" });
    const truth = Uint8Array.from({ length: 320 * 240 }, (_, i) =>
      ELLIPSE(((i % 320) + 0.5) / 320, (Math.floor(i / 320) + 0.5) / 240) ? 1 : 0,
    );
    expect(intersectionOverUnion(alphaOf(image), truth)).toBe(1);
    // The subject keeps the photograph's colours.
    const source = texture(320, 240);
    expect(pixel(image, 160, 120)).toEqual([...pixel(source, 160, 120).slice(0, 3), 255]);
  });

  it("asks Images to scale within the size, and finishes crop, channels and bg_color the same way", async () => {
    const { images, ctx } = imagesContext();
    const big = encodePng(texture(1000, 800));
    const preview = await run({ image_file: asFile(big), size: "preview" }, ctx);
    expect(images.calls[0]!.transforms).toEqual([
      { segment: "foreground", width: 559, height: 447, fit: "scale-down" },
    ]);
    expect(headers(preview)).toMatchObject({ "X-Width": "559", "X-Height": "447" });

    const cropped = decodeAnswer(await run({ image_file: asFile(SCENE_PNG), crop: true, channels: "alpha" }, ctx));
    // The ellipse spans 60 % of the width and 70 % of the height.
    expect(cropped.width).toBe(192);
    expect(cropped.height).toBe(168);
    expect(pixel(cropped, 96, 84)).toEqual([255, 255, 255, 255]);
    expect(pixel(cropped, 0, 0)).toEqual([0, 0, 0, 255]);

    const filled = decodeAnswer(await run({ image_file: asFile(SCENE_PNG), format: "png", bg_color: "000000" }, ctx));
    expect(pixel(filled, 2, 2)).toEqual([0, 0, 0, 255]);
  });

  it("a soft mask's faint haze over the background (alpha 1–4) widens neither X-Foreground-* nor the crop", async () => {
    const sharp = imagesContext();
    const hazy = fakeImagesBinding({ mask: ELLIPSE, haze: true });
    const ctx = createTestContext({
      media: { foreground: foregroundSegmenterFor({ IMAGES: hazy.binding, ENGINES: env.ENGINES })! },
    });
    const box = (result: HandlerResult) =>
      ["Top", "Left", "Width", "Height"].map((side) => headers(result)[`X-Foreground-${side}`]);
    const expected = box(await run({ image_file: asFile(SCENE_PNG) }, sharp.ctx));
    expect(box(await run({ image_file: asFile(SCENE_PNG) }, ctx))).toEqual(expected);
    const cropped = decodeAnswer(await run({ image_file: asFile(SCENE_PNG), crop: true, channels: "alpha" }, ctx));
    expect([cropped.width, cropped.height]).toEqual([192, 168]);
  });

  it("answers engine-failed when Images does not answer within the time limit", async () => {
    const slow = fakeImagesBinding({ mask: ELLIPSE, delayMs: 400 });
    const segmenter = imagesForegroundSegmenter(slow.binding, rpcCutoutEngines(env.ENGINES));
    const outcome = await segmenter.cutOut({
      image: SCENE_PNG,
      format: "png",
      size: "full",
      crop: false,
      channels: "rgba",
      timeoutMs: 50,
    });
    expect(outcome).toMatchObject({ ok: false, problem: "engine-failed" });
    expect(!outcome.ok && outcome.detail).toMatch(/did not answer within 0.05 s/);
  });

  it("gives the finishing step the time Images left of the limit, not the whole limit again", async () => {
    const slow = fakeImagesBinding({ mask: ELLIPSE, delayMs: 150 });
    const asked: number[] = [];
    const engines = rpcCutoutEngines(env.ENGINES);
    const segmenter = imagesForegroundSegmenter(slow.binding, {
      finishCutout: (request) => {
        asked.push(request.timeoutMs);
        return engines.finishCutout(request);
      },
    });
    const outcome = await segmenter.cutOut({
      image: SCENE_PNG,
      format: "png",
      size: "full",
      crop: false,
      channels: "rgba",
      timeoutMs: 5_000,
    });
    expect(outcome.ok).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeLessThanOrEqual(4_850);
    expect(asked[0]).toBeGreaterThan(1_000);
  });

  it("answers Images' errors as problems: not an image 422, allowance used up 503", async () => {
    const unreadable = imagesContext(new FakeImagesError(9412, "not an image"));
    expectProblem(
      await run({ image_file: asFile(SCENE_PNG) }, unreadable.ctx),
      "unreadable-document",
      /could not read/,
    );
    const quota = imagesContext(new FakeImagesError(9423, "quota"));
    const result = await run({ image_file: asFile(SCENE_PNG) }, quota.ctx);
    expectProblem(result, "engine-unavailable", /allowance/);
    expect(result.kind === "problem" && result.extensions).toMatchObject({ binding: "IMAGES" });
    const broken = imagesContext(new FakeImagesError(9999, "internal"));
    expectProblem(
      await run({ image_file: asFile(SCENE_PNG) }, broken.ctx),
      "engine-failed",
      /Cloudflare Images failed/,
    );
  });
});

describe("removebg: the engine Worker keeps its time limit", () => {
  const OPTIONS = { format: "png", size: "full", crop: false, channels: "rgba" } as const;

  it("the classic engine stops between its steps once the limit has passed: engine-failed, reason timeout", async () => {
    const scene = drawScene(1000, 1000, plain(BACKDROP), circle(500, 500, 300), () => [30, 60, 150]);
    const png = encodePng(scene.image);
    const late = await env.ENGINES.cutOut({ image: png, ...OPTIONS, timeoutMs: 1 });
    expect(late).toMatchObject({ ok: false, problem: "engine-failed", extensions: { reason: "timeout" } });
    expect(!late.ok && late.detail).toMatch(/longer than/);
    // The same image within a sensible limit is cut.
    expect((await env.ENGINES.cutOut({ image: png, ...OPTIONS, timeoutMs: 20_000 })).ok).toBe(true);
  });

  it("finishing another engine's cut keeps the limit too", async () => {
    const segmented = encodePng(drawScene(800, 800, plain(BACKDROP), circle(400, 400, 200), () => [30, 60, 150]).image);
    const late = await env.ENGINES.finishCutout({ segmented, engine: "cloudflare-images", ...OPTIONS, timeoutMs: 1 });
    expect(late).toMatchObject({ ok: false, problem: "engine-failed", extensions: { reason: "timeout" } });
  });
});

describe("removebg: through the gateway", () => {
  it("cuts an upload with a premium key: the PNG with X-Width and X-Height, or JSON with ?as=json", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const form = multipartOf(
      { size: "auto", crop: "false" },
      { name: "image_file", filename: "photo.png", type: "image/png", bytes: SCENE_PNG },
    );
    const response = await callHosted(SELF, "POST", "/api/v1/removebg", { key, ...form });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-width")).toBe("320");
    expect(response.headers.get("x-height")).toBe("240");
    expect(response.headers.get("x-engine")).toBe("classic");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Array.from(bytes.subarray(1, 4))).toEqual([0x50, 0x4e, 0x47]);

    const json = await callHosted(SELF, "POST", "/api/v1/removebg?as=json", { key, ...form });
    expect(json.status).toBe(200);
    expect(json.headers.get("x-width")).toBe("320");
    const body = (await json.json()) as { data: string; mimeType: string; size: number };
    expect(body.mimeType).toBe("image/png");
    expect(body.size).toBe(bytes.length);

    const pdf = multipartOf(
      {},
      { name: "image_file", filename: "a.png", type: "image/png", bytes: new TextEncoder().encode("%PDF-1.4\n") },
    );
    await expectHttpProblem(
      await callHosted(SELF, "POST", "/api/v1/removebg", { key, ...pdf }),
      415,
      "unsupported-media-type",
    );
  });

  it("refuses a call without a key (401) and a body over the operation's own limit (413)", async () => {
    const form = multipartOf({}, { name: "image_file", filename: "photo.png", type: "image/png", bytes: SCENE_PNG });
    await expectHttpProblem(await callHosted(SELF, "POST", "/api/v1/removebg", form), 401, "missing-api-key");
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const huge = new Uint8Array(SINGLE_IMAGE_BODY_BYTES + 1024);
    await expectHttpProblem(
      await callHosted(SELF, "POST", "/api/v1/removebg", {
        key,
        rawBody: huge,
        contentType: "multipart/form-data; boundary=x",
      }),
      413,
      "body-too-large",
    );
  });

  it("answers a form-encoded call (remove.bg's other body type, not taken here) with a problem saying what to send", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const response = await callHosted(SELF, "POST", "/api/v1/removebg", {
      key,
      rawBody: "image_url=https%3A%2F%2Fphotos.example.com%2Fshoe.png&size=auto",
      contentType: "application/x-www-form-urlencoded",
    });
    const body = await expectHttpProblem(response, 400, "malformed-body");
    expect(body.detail).toMatch(/form-encoded.*JSON.*multipart\/form-data/);
  });

  it("the docs promise what the API gives: remove.bg's names in multipart or JSON, the image's bytes back", () => {
    expect(operation.description).toMatch(/multipart or JSON/);
    expect(operation.description).toMatch(/not form-encoded/);
    expect(operation.description).not.toMatch(/works by changing the address and the key header/);
  });

  it("is premium: a free key is refused", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "free" });
    const form = multipartOf({}, { name: "image_file", filename: "photo.png", type: "image/png", bytes: SCENE_PNG });
    const response = await callHosted(SELF, "POST", "/api/v1/removebg", { key, ...form });
    expect(response.status).toBe(403);
  });
});
