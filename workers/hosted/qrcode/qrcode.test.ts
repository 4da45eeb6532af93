import { PhotonImage } from "@cf-wasm/photon/workerd";
import fc from "fast-check";
import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { createTestContext } from "../../../tests/hosted-context";
import {
  decodePng,
  decodeQrPng,
  flattenOnWhite,
  parseXmlRoot,
  pixelAt,
  readPngSize,
} from "../_render/image-test-helpers";
import { renderSvgToPng } from "../_render/svg-to-png";
import type { HandlerResult, Operation } from "../definition";
import { createQrMatrix } from "./engine";
import { decodeGif, type GifImage } from "./gif-test-decoder";
import { definition } from "./index";
import { adaptLegacyQrCode } from "./legacy";
import { LOGO_MAX_BYTES } from "./logo";
import { logoPadModules } from "./render-svg";

function operation(id: string): Operation {
  const found = definition.operations.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

const createQrCode = operation("createQrCode");
const URL_TEXT = "https://portico.dev/docs/api/qrcode?utm_source=test&id=42";

async function call(raw: unknown): Promise<HandlerResult> {
  return createQrCode.handler(createQrCode.input.parse(raw), createTestContext());
}

async function binaryOf(raw: Record<string, unknown>): Promise<Extract<HandlerResult, { kind: "binary" }>> {
  const result = await call(raw);
  if (result.kind !== "binary") throw new Error(`expected an image, got ${JSON.stringify(result)}`);
  return result;
}

async function pngOf(raw: Record<string, unknown>): Promise<Uint8Array> {
  const result = await binaryOf({ ...raw, format: "png" });
  expect(result.contentType).toBe("image/png");
  if (typeof result.body === "string") throw new Error("expected PNG bytes");
  return result.body;
}

async function svgOf(raw: Record<string, unknown>): Promise<string> {
  const result = await binaryOf({ ...raw, format: "svg" });
  expect(result.contentType).toBe("image/svg+xml");
  if (typeof result.body !== "string") throw new Error("expected SVG text");
  return result.body;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" fill="#e11d48"/></svg>';

async function redPngLogo(): Promise<string> {
  return `data:image/png;base64,${toBase64(await renderSvgToPng(LOGO_SVG))}`;
}

describe("qrcode decodes back to its text", () => {
  it.each(["L", "M", "Q", "H"] as const)("PNG at error correction %s", async (level) => {
    const result = await binaryOf({ text: URL_TEXT, errorCorrection: level, format: "png" });
    expect(result.headers?.["x-qr-error-correction"]).toBe(level);
    expect(decodeQrPng(result.body as Uint8Array)).toBe(URL_TEXT);
  });

  it.each(["square", "dots", "rounded"] as const)("PNG with %s modules", async (dotStyle) => {
    expect(decodeQrPng(await pngOf({ text: URL_TEXT, dotStyle }))).toBe(URL_TEXT);
  });

  it("with colours, and the colours are the ones asked for", async () => {
    const png = await pngOf({ text: URL_TEXT, foreground: "#1a237e", background: "#FFF59D", size: 330 });
    expect(decodeQrPng(png)).toBe(URL_TEXT);
    const image = decodePng(png);
    expect(pixelAt(image, 0, 0)).toEqual([0xff, 0xf5, 0x9d, 255]);
    // Two pixels inside the top-left finder's outer corner: square modules are drawn unantialiased.
    const corner = finderCorner(png);
    expect(pixelAt(image, corner + 2, corner + 2)).toEqual([0x1a, 0x23, 0x7e, 255]);
  });

  it("on a transparent background, which stays transparent", async () => {
    const png = await pngOf({ text: URL_TEXT, background: "transparent" });
    expect(pixelAt(decodePng(png), 0, 0)[3]).toBe(0);
    expect(decodeQrPng(png)).toBe(URL_TEXT);
  });

  it.each(["square", "dots", "rounded"] as const)(
    "with a PNG logo (%s), forcing level H and drawing the logo centred",
    async (dotStyle) => {
      const result = await binaryOf({
        text: URL_TEXT,
        errorCorrection: "L",
        logo: await redPngLogo(),
        dotStyle,
        format: "png",
        size: 400,
      });
      expect(result.headers?.["x-qr-error-correction"]).toBe("H");
      const png = result.body as Uint8Array;
      expect(decodeQrPng(png)).toBe(URL_TEXT);
      const centre = pixelAt(decodePng(png), 200, 200);
      expect(centre).toEqual([0xe1, 0x1d, 0x48, 255]);
    },
  );

  it("with an SVG logo, percent-encoded", async () => {
    const png = await pngOf({
      text: URL_TEXT,
      logo: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(LOGO_SVG)}`,
      size: 400,
    });
    expect(decodeQrPng(png)).toBe(URL_TEXT);
    expect(pixelAt(decodePng(png), 200, 200)).toEqual([0xe1, 0x1d, 0x48, 255]);
  });

  it("with a logo that is corrupt past its signature: resvg skips it and the code still decodes", async () => {
    const corrupt = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...new TextEncoder().encode("garbage"),
    ]);
    const png = await pngOf({ text: URL_TEXT, logo: `data:image/png;base64,${toBase64(corrupt)}`, size: 400 });
    expect(decodeQrPng(png)).toBe(URL_TEXT);
    // The white pad is still drawn where the logo would be.
    expect(pixelAt(decodePng(png), 200, 200)).toEqual([255, 255, 255, 255]);
  });

  it("the logo pad spans at most 20% of the symbol and sits on the module grid", () => {
    for (let symbolSize = 21; symbolSize <= 177; symbolSize += 4) {
      const pad = logoPadModules(symbolSize);
      expect(pad.length / symbolSize).toBeLessThanOrEqual(0.2);
      expect(Number.isInteger(pad.start)).toBe(true);
      expect(pad.start * 2 + pad.length).toBe(symbolSize);
    }
  });

  it("non-ASCII text", async () => {
    const text = "Grüße aus Köln — 東京 ✓";
    expect(decodeQrPng(await pngOf({ text, size: 400 }))).toBe(text);
  });

  it("a long text at a large size", async () => {
    const text = "portico ".repeat(125).trim();
    expect(decodeQrPng(await pngOf({ text, errorCorrection: "L", size: 1024, margin: 2 }))).toBe(text);
  });

  it("SVG output is well-formed, sized as asked, and renders to a code that decodes", async () => {
    for (const dotStyle of ["square", "dots", "rounded"] as const) {
      const svg = await svgOf({ text: URL_TEXT, size: 360, dotStyle, logo: await redPngLogo() });
      const root = parseXmlRoot(svg);
      expect(root.name).toBe("svg");
      expect(root.attributes.width).toBe("360");
      expect(root.attributes.height).toBe("360");
      const png = await renderSvgToPng(svg);
      expect(readPngSize(png)).toEqual({ width: 360, height: 360 });
      expect(decodeQrPng(png)).toBe(URL_TEXT);
    }
  });

  it("keeps the finder and alignment patterns square in the dots style, and draws other modules as dots", async () => {
    const text = "https://portico.dev/q/0123456789";
    const matrix = createQrMatrix(text, "M");
    const margin = 4;
    const modulePx = 10;
    const size = (matrix.size + 2 * margin) * modulePx;
    const images = {
      dots: decodePng(await pngOf({ text, dotStyle: "dots", size, margin, errorCorrection: "M" })),
      square: decodePng(await pngOf({ text, dotStyle: "square", size, margin, errorCorrection: "M" })),
    };
    const isDark = (pixel: number[]) => (pixel[0] ?? 255) < 128;
    // The top-left finder's very first pixel is dark in both styles: it is a square ring.
    const finderStart = margin * modulePx;
    expect(isDark(pixelAt(images.dots, finderStart, finderStart))).toBe(true);
    expect(isDark(pixelAt(images.square, finderStart, finderStart))).toBe(true);
    // So is the bottom-right alignment pattern's corner (centre at size - 7, corner two modules up and left).
    expect(matrix.version).toBeGreaterThanOrEqual(2);
    const alignmentCorner = (margin + matrix.size - 9) * modulePx;
    expect(isDark(pixelAt(images.dots, alignmentCorner, alignmentCorner))).toBe(true);
    // A data module away from the finders: a dot leaves its corner light, a square fills it.
    let found = false;
    for (let row = 9; row < matrix.size - 9 && !found; row += 1) {
      for (let column = 9; column < matrix.size - 9 && !found; column += 1) {
        if (!matrix.isDark(row, column)) continue;
        found = true;
        const x = (margin + column) * modulePx;
        const y = (margin + row) * modulePx;
        expect(isDark(pixelAt(images.dots, x + 5, y + 5))).toBe(true);
        expect(isDark(pixelAt(images.dots, x, y))).toBe(false);
        expect(isDark(pixelAt(images.square, x, y))).toBe(true);
      }
    }
    expect(found).toBe(true);
  });

  it("the documented example runs and decodes", async () => {
    const example = createQrCode.example as { text: string };
    const result = await call(example);
    if (result.kind !== "binary" || typeof result.body === "string") throw new Error(JSON.stringify(result));
    expect(decodeQrPng(result.body)).toBe(example.text);
  });

  it("the same input gives the same bytes, and a different text different ones", async () => {
    const png = await pngOf({ text: URL_TEXT, dotStyle: "rounded" });
    expect(png).toEqual(await pngOf({ text: URL_TEXT, dotStyle: "rounded" }));
    expect(png).not.toEqual(await pngOf({ text: `${URL_TEXT}&v=2`, dotStyle: "rounded" }));
  });

  it("PNG has the requested dimensions", async () => {
    for (const size of [64, 300, 2048]) {
      expect(readPngSize(await pngOf({ text: "hi", size, margin: 1 }))).toEqual({ width: size, height: size });
    }
  });
});

/** Where the top-left finder starts, in pixels: the first dark pixel on the diagonal. */
function finderCorner(png: Uint8Array): number {
  const image = decodePng(png);
  let offset = 0;
  while (offset < image.width && (pixelAt(image, offset, offset)[0] ?? 255) >= 128) offset += 1;
  return offset;
}

/**
 * JPEG and WebP are read back by photon (the Rust `image` crate's decoders, not the encoders that
 * wrote them), laid over white as a scanner sees them, and scanned by jsQR.
 */
function decodeQrRaster(bytes: Uint8Array): string | null {
  const image = PhotonImage.new_from_byteslice(bytes);
  const width = image.get_width();
  const height = image.get_height();
  const data = image.get_raw_pixels();
  image.free();
  const pixels = new Uint8ClampedArray(data.length);
  for (let index = 0; index < data.length; index += 4) {
    const alpha = (data[index + 3] ?? 0) / 255;
    for (let channel = 0; channel < 3; channel++) {
      pixels[index + channel] = Math.round((data[index + channel] ?? 0) * alpha + 255 * (1 - alpha));
    }
    pixels[index + 3] = 255;
  }
  return jsQR(pixels, width, height, { inversionAttempts: "dontInvert" })?.data ?? null;
}

describe("qrcode in JPEG and WebP", () => {
  const levels = ["L", "M", "Q", "H"] as const;
  const cases = levels.flatMap((level) =>
    (
      [
        ["jpeg", "image/jpeg"],
        ["webp", "image/webp"],
      ] as const
    ).map(([format, mimeType]) => ({ level, format, mimeType })),
  );

  it.each(cases)("$format at error correction $level decodes back to its text", async ({ level, format, mimeType }) => {
    const result = await binaryOf({ text: URL_TEXT, errorCorrection: level, format });
    expect(result.contentType).toBe(mimeType);
    expect(result.headers?.["x-qr-error-correction"]).toBe(level);
    expect(decodeQrRaster(result.body as Uint8Array)).toBe(URL_TEXT);
  });

  it("JPEG of a transparent background is flattened onto white, not black", async () => {
    const result = await binaryOf({ text: URL_TEXT, background: "transparent", format: "jpeg" });
    const image = PhotonImage.new_from_byteslice(result.body as Uint8Array);
    const corner = Array.from(image.get_raw_pixels().slice(0, 4));
    image.free();
    for (const channel of corner.slice(0, 3)) expect(channel).toBeGreaterThan(245);
    expect(decodeQrRaster(result.body as Uint8Array)).toBe(URL_TEXT);
  });

  it("JPEG takes the background colour asked for", async () => {
    const result = await binaryOf({ text: URL_TEXT, background: "#fff59d", format: "jpeg" });
    const image = PhotonImage.new_from_byteslice(result.body as Uint8Array);
    const [r, g, b] = Array.from(image.get_raw_pixels().slice(0, 4));
    image.free();
    expect(Math.abs((r ?? 0) - 0xff)).toBeLessThan(8);
    expect(Math.abs((g ?? 0) - 0xf5)).toBeLessThan(8);
    expect(Math.abs((b ?? 0) - 0x9d)).toBeLessThan(8);
  });

  it("WebP keeps a transparent background transparent", async () => {
    const result = await binaryOf({ text: URL_TEXT, background: "transparent", format: "webp" });
    const image = PhotonImage.new_from_byteslice(result.body as Uint8Array);
    const alpha = image.get_raw_pixels()[3];
    image.free();
    expect(alpha).toBe(0);
  });

  it("a lower quality gives a smaller WebP that still decodes", async () => {
    const low = await binaryOf({ text: URL_TEXT, format: "webp", quality: 40 });
    const high = await binaryOf({ text: URL_TEXT, format: "webp", quality: 100 });
    expect(low.body.length).toBeLessThan(high.body.length);
    expect(decodeQrRaster(low.body as Uint8Array)).toBe(URL_TEXT);
  });
});

describe("qrcode in GIF", () => {
  /** A size on the module grid (8 px a module), so every module's centre pixel is unambiguous. */
  function gridSize(text: string, level: "L" | "M" | "Q" | "H", margin = 4): number {
    return (createQrMatrix(text, level).size + 2 * margin) * 8;
  }

  async function gifOf(
    raw: Record<string, unknown>,
  ): Promise<{ result: Extract<HandlerResult, { kind: "binary" }>; image: GifImage }> {
    const result = await binaryOf({ ...raw, format: "gif" });
    expect(result.contentType).toBe("image/gif");
    if (typeof result.body === "string") throw new Error("expected GIF bytes");
    return { result, image: decodeGif(result.body) };
  }

  it.each(["L", "M", "Q", "H"] as const)(
    "at error correction %s: read by a decoder written from the GIF spec, every module is where the matrix puts it, and jsQR reads the text",
    async (level) => {
      const size = gridSize(URL_TEXT, level);
      const { result, image } = await gifOf({ text: URL_TEXT, errorCorrection: level, size });
      expect(result.headers?.["x-qr-error-correction"]).toBe(level);
      expect([image.width, image.height]).toEqual([size, size]);
      const matrix = createQrMatrix(URL_TEXT, level);
      for (let row = 0; row < matrix.size; row += 1) {
        for (let column = 0; column < matrix.size; column += 1) {
          const centre = pixelAt(image, (4 + column) * 8 + 4, (4 + row) * 8 + 4);
          expect(centre, `module ${row},${column}`).toEqual(
            matrix.isDark(row, column) ? [0, 0, 0, 255] : [255, 255, 255, 255],
          );
        }
      }
      expect(jsQR(image.pixels, image.width, image.height, { inversionAttempts: "dontInvert" })?.data).toBe(URL_TEXT);
    },
  );

  it("has exactly the PNG's pixels for a two-colour square code", async () => {
    const input = { text: URL_TEXT, foreground: "#1a237e", background: "#fff59d", size: gridSize(URL_TEXT, "M") };
    const { image } = await gifOf(input);
    const png = decodePng(await pngOf(input));
    expect(Array.from(image.pixels)).toEqual(Array.from(png.pixels));
  });

  it("keeps a transparent background transparent (GIF's one transparent index)", async () => {
    const { image } = await gifOf({ text: URL_TEXT, background: "transparent" });
    expect(pixelAt(image, 0, 0)[3]).toBe(0);
    const flat = flattenOnWhite(image);
    expect(jsQR(flat.pixels, flat.width, flat.height, { inversionAttempts: "dontInvert" })?.data).toBe(URL_TEXT);
  });

  it.each(["dots", "rounded"] as const)(
    "antialiased %s modules fit GIF's 256 colours and still decode",
    async (dotStyle) => {
      const { image } = await gifOf({ text: URL_TEXT, dotStyle, foreground: "#0f172a", background: "#fde68a" });
      expect(image.paletteSize).toBeLessThanOrEqual(256);
      expect(jsQR(image.pixels, image.width, image.height, { inversionAttempts: "dontInvert" })?.data).toBe(URL_TEXT);
    },
  );

  it("takes a logo, and the code still decodes", async () => {
    const { image } = await gifOf({ text: URL_TEXT, logo: await redPngLogo(), size: 400 });
    expect(pixelAt(image, 200, 200)).toEqual([0xe1, 0x1d, 0x48, 255]);
    expect(jsQR(image.pixels, image.width, image.height, { inversionAttempts: "dontInvert" })?.data).toBe(URL_TEXT);
  });
});

describe("qrcode charset", () => {
  const LATIN1_TEXT = "Café crème à Zürich, ½ × 3 ¿sí?";

  /** The code's bytes as jsQR reads them (its `data` is UTF-8 only, empty when the bytes are not). */
  function scannedBytes(png: Uint8Array): number[] {
    const image = flattenOnWhite(decodePng(png));
    const scanned = jsQR(image.pixels, image.width, image.height, { inversionAttempts: "dontInvert" });
    if (!scanned) throw new Error("jsQR found no code");
    return scanned.binaryData;
  }

  it("a Latin-1 text round-trips through jsQR in UTF-8", async () => {
    const png = await pngOf({ text: LATIN1_TEXT, charset: "UTF-8" });
    expect(decodeQrPng(png)).toBe(LATIN1_TEXT);
    expect(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(scannedBytes(png)))).toBe(LATIN1_TEXT);
  });

  it("a Latin-1 text round-trips through jsQR in ISO-8859-1, one byte per character", async () => {
    const bytes = scannedBytes(await pngOf({ text: LATIN1_TEXT, charset: "ISO-8859-1" }));
    expect(bytes).toHaveLength(LATIN1_TEXT.length);
    expect(String.fromCharCode(...bytes)).toBe(LATIN1_TEXT);
  });

  it("ISO-8859-1 stores one byte per character, UTF-8 two for each accented one", async () => {
    // 160 Latin-1 letters: 160 bytes in ISO-8859-1, 320 in UTF-8, which needs a larger version.
    const text = "é".repeat(160);
    const latin1 = await binaryOf({ text, charset: "ISO-8859-1", format: "svg" });
    const utf8 = await binaryOf({ text, charset: "UTF-8", format: "svg" });
    expect(Number(latin1.headers?.["x-qr-version"])).toBeLessThan(Number(utf8.headers?.["x-qr-version"]));
  });

  it("defaults to UTF-8, so text beyond Latin-1 still encodes", async () => {
    expect(decodeQrPng(await pngOf({ text: "Grüße, 東京 🚀" }))).toBe("Grüße, 東京 🚀");
  });

  it("refuses text outside Latin-1 for ISO-8859-1, naming the field", () => {
    const parsed = createQrCode.input.safeParse({ text: "Tokyo 東京", charset: "ISO-8859-1" });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const issue = parsed.error.issues[0];
    expect(issue?.path).toEqual(["text"]);
    expect(issue?.message).toMatch(/ISO-8859-1/);
    expect(issue?.message).toContain("東");
  });

  it("refuses a charset it does not know", () => {
    expect(createQrCode.input.safeParse({ text: "x", charset: "Shift_JIS" }).success).toBe(false);
  });
});

describe("qrcode answers bad requests with a problem", () => {
  it("refuses a text too long for level H when a logo forces it", async () => {
    const result = await call({ text: "x".repeat(2000), logo: await redPngLogo() });
    expect(result).toMatchObject({ kind: "problem", type: "invalid-input" });
  });

  it("refuses text with half a surrogate pair, which has no UTF-8 bytes to encode", () => {
    const parsed = createQrCode.input.safeParse({ text: "a\ud800b" });
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["text", expect.stringMatching(/lone surrogate/)],
    ]);
  });

  it("refuses a text too long for any QR code", async () => {
    const result = await call({ text: "€".repeat(1500), errorCorrection: "L" });
    expect(result).toMatchObject({ kind: "problem", type: "invalid-input" });
  });

  it("fits the byte-mode maximum at level L (version 40)", async () => {
    const result = await binaryOf({ text: "x".repeat(2953), errorCorrection: "L", format: "svg" });
    expect(result.headers?.["x-qr-version"]).toBe("40");
  });

  it("refuses a PNG too small to hold its modules", async () => {
    const result = await call({ text: "x".repeat(1000), size: 64 });
    expect(result).toMatchObject({ kind: "problem", type: "invalid-input" });
  });

  it("refuses the same foreground and background", async () => {
    const result = await call({ text: "hi", foreground: "#fff", background: "#FFFFFF" });
    expect(result).toMatchObject({ kind: "problem", type: "invalid-input" });
  });
});

describe("qrcode input schema", () => {
  const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const oversizedPng = new Uint8Array(LOGO_MAX_BYTES + 1);
  oversizedPng.set(pngSignature);

  it.each([
    ["an empty text", { text: "" }],
    ["an oversized text", { text: "x".repeat(2954) }],
    ["a missing text", { text: undefined }],
    ["a size below 64", { size: 63 }],
    ["a size above 2048", { size: 2049 }],
    ["a margin above 20", { margin: 21 }],
    ["an unknown error correction level", { errorCorrection: "X" }],
    ["a named foreground", { foreground: "red" }],
    ["a short background", { background: "#12" }],
    ["a legacy-only dot style", { dotStyle: "classy" }],
    ["a logo that is plain text", { logo: `data:image/png;base64,${btoa("hello, not an image")}` }],
    ["a logo that is a URL", { logo: "https://example.com/logo.png" }],
    ["a logo of another type", { logo: `data:text/html;base64,${btoa("<script>alert(1)</script>")}` }],
    [
      "a JPEG labelled as PNG",
      { logo: `data:image/png;base64,${toBase64(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]))}` },
    ],
    [
      "an SVG logo with entities",
      {
        logo: `data:image/svg+xml;base64,${btoa('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>')}`,
      },
    ],
    [
      "an SVG logo that is not SVG",
      { logo: `data:image/svg+xml,${encodeURIComponent("<html><body>hi</body></html>")}` },
    ],
    [
      // A comment ends at its first "-->", as XML says; what follows must be the root.
      "an SVG logo with text after a comment",
      { logo: `data:image/svg+xml,${encodeURIComponent(`<!-- a --> junk --> ${LOGO_SVG}`)}` },
    ],
    [
      "an SVG logo whose XML declaration does not end in ?>",
      { logo: `data:image/svg+xml,${encodeURIComponent(`<?xml version="1.0">${LOGO_SVG}`)}` },
    ],
    [
      "an SVG logo whose root only starts with svg",
      { logo: `data:image/svg+xml,${encodeURIComponent("<svgx></svg>")}` },
    ],
    ["a logo over 200 KB", { logo: `data:image/png;base64,${toBase64(oversizedPng)}` }],
    ["a logo with broken base64", { logo: "data:image/png;base64,iVBORw0KGgo!!!" }],
    ["a logo margin out of range", { logoMargin: -1 }],
  ])("refuses %s", (_name, raw) => {
    expect(createQrCode.input.safeParse({ text: "hello", ...raw }).success).toBe(false);
  });

  it.each([
    ["a byte order mark", `\uFEFF${LOGO_SVG}`],
    [
      "an XML declaration and comments",
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- made by hand -->\n<!---->${LOGO_SVG}`,
    ],
    ["white space", `\r\n\t ${LOGO_SVG}`],
  ])("accepts an SVG logo with %s before its root", (_name, svg) => {
    const parsed = createQrCode.input.safeParse({
      text: "hello",
      logo: `data:image/svg+xml,${encodeURIComponent(svg)}`,
    });
    expect(parsed.success).toBe(true);
  });

  it("accepts a PNG logo and normalises colours", async () => {
    const parsed = createQrCode.input.parse({ text: "hello", logo: await redPngLogo(), foreground: "ABC" }) as {
      foreground: string;
      logo: { mimeType: string };
    };
    expect(parsed.foreground).toBe("#aabbcc");
    expect(parsed.logo.mimeType).toBe("image/png");
  });
});

describe("legacy POST /api/qrcode", () => {
  it("is declared against createQrCode", () => {
    expect(definition.legacyRoutes).toEqual([
      expect.objectContaining({ method: "POST", path: "/api/qrcode", operationId: "createQrCode" }),
    ]);
  });

  it("maps the qr-code-styling shape onto the new input", async () => {
    const logo = await redPngLogo();
    expect(
      adaptLegacyQrCode({
        text: URL_TEXT,
        width: 320,
        height: 320,
        qrOptions: { errorCorrectionLevel: "Q" },
        imageOptions: { margin: 6 },
        dotsOptions: { color: "#123456", type: "extra-rounded" },
        backgroundOptions: { color: "#fafafa" },
        image: logo,
      }),
    ).toEqual({
      text: URL_TEXT,
      size: 320,
      errorCorrection: "Q",
      logoMargin: 6,
      foreground: "#123456",
      dotStyle: "rounded",
      background: "#fafafa",
      logo,
    });
  });

  it.each([
    ["square", "square"],
    ["dots", "dots"],
    ["rounded", "rounded"],
    ["extra-rounded", "rounded"],
    ["classy", "square"],
    ["classy-rounded", "rounded"],
  ])("maps dot type %s to %s", (type, dotStyle) => {
    expect(adaptLegacyQrCode({ text: "x", dotsOptions: { type } }).dotStyle).toBe(dotStyle);
  });

  it("takes `logo` as well as `image`, `data` for `text`, and `height` when there is no width", () => {
    expect(adaptLegacyQrCode({ data: "x", height: 200, logo: "data:..." })).toEqual({
      text: "x",
      size: 200,
      logo: "data:...",
    });
  });

  it("passes unknown values through so the schema refuses them", () => {
    const adapted = adaptLegacyQrCode({ text: "x", dotsOptions: { type: "stars" }, qrOptions: "H" });
    expect(adapted).toEqual({ text: "x", dotStyle: "stars" });
    expect(createQrCode.input.safeParse(adapted).success).toBe(false);
  });

  it.each([
    ["black", "#000000"],
    ["RebeccaPurple", "#663399"],
    [" navy ", "#000080"],
    ["#FFF", "#ffffff"],
    ["#1e3a8aff", "#1e3a8a"],
    ["#0000", "transparent"],
    ["rgb(255, 0, 0)", "#ff0000"],
    ["rgba(0, 0, 255, 1)", "#0000ff"],
    ["rgb(0 128 255)", "#0080ff"],
    ["rgb(100%, 50%, 0%)", "#ff8000"],
    ["rgb(300, -5, 0)", "#ff0000"],
    ["rgb(0 0 0 / 0%)", "transparent"],
    ["hsl(120, 100%, 25%)", "#008000"],
    ["hsla(0.5turn 100% 50% / 1)", "#00ffff"],
    ["transparent", "transparent"],
  ])("reads the CSS colour %j as %s, as qr-code-styling would paint it", (color, engineColor) => {
    expect(adaptLegacyQrCode({ text: "x", backgroundOptions: { color } }).background).toBe(engineColor);
    if (engineColor !== "transparent") {
      expect(adaptLegacyQrCode({ text: "x", dotsOptions: { color } }).foreground).toBe(engineColor);
    }
  });

  it("blends a translucent foreground over the background, as a browser composites it", () => {
    expect(adaptLegacyQrCode({ text: "x", dotsOptions: { color: "rgba(0, 0, 0, 0.5)" } }).foreground).toBe("#808080");
    expect(
      adaptLegacyQrCode({ text: "x", dotsOptions: { color: "#00ff0088" }, backgroundOptions: { color: "white" } })
        .foreground,
    ).toBe("#77ff77");
    expect(
      adaptLegacyQrCode({
        text: "x",
        dotsOptions: { color: "hsl(0 100% 50% / 25%)" },
        backgroundOptions: { color: "black" },
      }).foreground,
    ).toBe("#400000");
  });

  it.each([
    ["a translucent background, which the PNG cannot carry", { background: "rgba(0, 0, 0, 0.5)" }],
    ["a translucent foreground on a transparent background", { foreground: "#0008", background: "transparent" }],
    ["a name CSS does not have", { foreground: "light blue" }],
    ["a keyword that is not a colour", { foreground: "currentColor" }],
    ["a notation CSS does not have", { foreground: "hsv(0, 100%, 100%)" }],
    ["an rgb() with a missing channel", { foreground: "rgb(0, 0)" }],
    ["an angle in rgb()", { foreground: "rgb(0deg 0 0)" }],
    ["an infinite hue", { foreground: "hsl(1e308turn 50% 50%)" }],
    ["markup", { foreground: '"/><script>alert(1)</script>' }],
  ])("passes %s through for the schema to refuse", (_, colours: { foreground?: string; background?: string }) => {
    const adapted = adaptLegacyQrCode({
      text: "x",
      dotsOptions: { color: colours.foreground },
      backgroundOptions: { color: colours.background },
    });
    const [role, refused] = colours.foreground
      ? ["foreground", colours.foreground]
      : ["background", colours.background];
    expect(adapted[role]).toBe(refused);
    const parsed = createQrCode.input.safeParse(adapted);
    expect(parsed.error?.issues.map((issue) => issue.path[0])).toEqual([role]);
  });

  it("draws named colours with the colours they name", async () => {
    const png = await pngOf(
      adaptLegacyQrCode({
        text: URL_TEXT,
        width: 330,
        dotsOptions: { color: "darkslateblue", type: "square" },
        backgroundOptions: { color: "lightyellow" },
      }),
    );
    expect(decodeQrPng(png)).toBe(URL_TEXT);
    const image = decodePng(png);
    expect(pixelAt(image, 0, 0)).toEqual([0xff, 0xff, 0xe0, 255]);
    const corner = finderCorner(png);
    expect(pixelAt(image, corner + 2, corner + 2)).toEqual([0x48, 0x3d, 0x8b, 255]);
  });

  it("produces a decodable QR code from the old shape, logo included", async () => {
    const adapted = adaptLegacyQrCode({
      text: URL_TEXT,
      width: 360,
      height: 360,
      qrOptions: { errorCorrectionLevel: "M" },
      imageOptions: { margin: 4 },
      dotsOptions: { color: "#1e3a8a", type: "classy-rounded" },
      backgroundOptions: { color: "#ffffff" },
      image: await redPngLogo(),
    });
    const result = await call(adapted);
    if (result.kind !== "binary") throw new Error(JSON.stringify(result));
    expect(result.contentType).toBe("image/png");
    expect(readPngSize(result.body as Uint8Array)).toEqual({ width: 360, height: 360 });
    expect(decodeQrPng(result.body as Uint8Array)).toBe(URL_TEXT);
  });
});

describe("qrcode properties", () => {
  const hostileString = fc.oneof(
    fc.string(),
    fc.string({ unit: "grapheme", maxLength: 300 }),
    fc.constantFrom(
      "<svg onload=alert(1)>",
      '"/><script>',
      "data:image/png;base64,",
      "data:image/svg+xml,<svg/>",
      "transparent",
      "#000",
    ),
  );
  const field = <T>(valid: fc.Arbitrary<T>) =>
    fc.option(
      fc.oneof(valid, hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue()),
      { nil: undefined },
    );
  const qrLike = fc.record(
    {
      text: field(fc.string({ minLength: 1, maxLength: 400, unit: "grapheme" })),
      size: field(fc.integer({ min: 64, max: 512 })),
      margin: field(fc.integer({ min: 0, max: 20 })),
      errorCorrection: field(fc.constantFrom("L", "M", "Q", "H")),
      foreground: field(fc.constantFrom("#000", "#123456", "ffffff")),
      background: field(fc.constantFrom("transparent", "#fff", "#000000")),
      format: field(fc.constantFrom("png", "svg", "jpeg", "webp", "gif")),
      charset: field(fc.constantFrom("UTF-8", "ISO-8859-1")),
      dotStyle: field(fc.constantFrom("square", "dots", "rounded")),
      logo: field(
        fc.constantFrom(
          `data:image/svg+xml,${encodeURIComponent(LOGO_SVG)}`,
          `data:image/svg+xml;base64,${btoa(LOGO_SVG)}`,
        ),
      ),
      logoMargin: field(fc.integer({ min: 0, max: 200 })),
    },
    { requiredKeys: [] },
  );

  it("no JSON the schema accepts makes the handler throw, and every answer is an image or a problem", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(qrLike, fc.jsonValue(), fc.dictionary(hostileString, fc.jsonValue())), async (raw) => {
        const parsed = createQrCode.input.safeParse(raw);
        if (!parsed.success) return;
        const result = await createQrCode.handler(parsed.data, createTestContext());
        expect(["binary", "problem"]).toContain(result.kind);
        if (result.kind === "problem") expect(result.type).toBe("invalid-input");
        if (result.kind === "binary") expect(result.body.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });

  it("the legacy adapter never throws on hostile JSON objects", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            "text",
            "data",
            "width",
            "height",
            "qrOptions",
            "imageOptions",
            "dotsOptions",
            "backgroundOptions",
            "image",
            "logo",
            "format",
          ),
          fc.jsonValue(),
        ),
        (raw) => {
          const adapted = adaptLegacyQrCode(raw);
          expect(typeof adapted).toBe("object");
          createQrCode.input.safeParse(adapted);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("any text that encodes decodes back exactly (PNG, square, level M)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 120, unit: "grapheme-ascii" }), async (text) => {
        expect(decodeQrPng(await pngOf({ text, size: 400 }))).toBe(text);
      }),
      { numRuns: 25 },
    );
  });
});
