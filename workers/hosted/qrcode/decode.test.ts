/**
 * The decode operation against independent references: every code here is made by the `qrcode`
 * package's encoder directly (its own matrix, drawn to pixels in this file, never through our
 * renderer), so what it holds, its level and its version are known before zxing reads it; jsQR,
 * a second reader, must read the same text from the same pixels.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import jsQR from "jsqr";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { createTestContext, expectProblem, jsonBody } from "../../../tests/hosted-context";
import type { HandlerResult, Operation } from "../definition";
import { MAX_SIDE } from "../_image/limits";
import { handleQrDecode, READ_SIDE, readablePixels } from "./decode";
import { encodeGif } from "./gif";
import { definition } from "./index";
import { createQrReader } from "./reader";
import { QrDecodeOutputSchema, type QrDecodeInput } from "./schema";

function operation(id: string): Operation {
  const found = definition.operations.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

const decodeQrCode = operation("decodeQrCode");
const createQrCode = operation("createQrCode");

type Level = "L" | "M" | "Q" | "H";

interface Drawn {
  width: number;
  height: number;
  data: Uint8Array;
}

const SCALE = 6;
const MARGIN = 4;

/** The reference code's modules drawn black on white, SCALE px a module with a MARGIN-module quiet zone. */
function drawCode(
  code: QRCode.QRCode,
  canvas?: { target: Drawn; left: number; top: number },
  scale: number = SCALE,
): Drawn {
  const { size, data } = code.modules;
  const side = (size + 2 * MARGIN) * scale;
  const target = canvas?.target ?? { width: side, height: side, data: new Uint8Array(side * side * 4).fill(255) };
  const [left, top] = canvas ? [canvas.left, canvas.top] : [0, 0];
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      if (!data[row * size + column]) continue;
      for (let y = 0; y < scale; y += 1) {
        for (let x = 0; x < scale; x += 1) {
          const offset = ((top + (MARGIN + row) * scale + y) * target.width + left + (MARGIN + column) * scale + x) * 4;
          target.data.fill(0, offset, offset + 3);
        }
      }
    }
  }
  return target;
}

type InputFormat = "png" | "jpeg" | "gif" | "webp";

function encodeAs(drawn: Drawn, format: InputFormat): Uint8Array {
  if (format === "gif") return encodeGif(drawn);
  const image = new PhotonImage(drawn.data, drawn.width, drawn.height);
  try {
    if (format === "png") return image.get_bytes();
    if (format === "jpeg") return image.get_bytes_jpeg(90);
    return image.get_bytes_webp();
  } finally {
    image.free();
  }
}

async function decode(bytes: Uint8Array, name = "code.png"): Promise<HandlerResult> {
  const input = decodeQrCode.input.parse({ image: new File([bytes as Uint8Array<ArrayBuffer>], name) });
  return decodeQrCode.handler(input, createTestContext());
}

async function decoded(bytes: Uint8Array) {
  return jsonBody(await decode(bytes), QrDecodeOutputSchema);
}

function jsqrText(drawn: Drawn): string | undefined {
  return jsQR(new Uint8ClampedArray(drawn.data), drawn.width, drawn.height)?.data;
}

const latin1 = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));

describe("qrcode decode reads codes made by the reference encoder", () => {
  const texts = [
    { name: "a URL", text: "https://portico.dev/docs/api/qrcode?x=1" },
    { name: "digits (numeric mode)", text: "31415926535897932384626433832795028841971" },
    { name: "UTF-8 beyond Latin-1", text: "Grüße aus 東京 — ½ €" },
  ];
  const cases = (["L", "M", "Q", "H"] as const).flatMap((level) => texts.map((entry) => ({ ...entry, level })));

  it.each(cases)("$name at level $level: text, level and version as made", async ({ text, level }) => {
    const code = QRCode.create(text, { errorCorrectionLevel: level });
    const drawn = drawCode(code);
    expect(jsqrText(drawn)).toBe(text);
    const body = await decoded(encodeAs(drawn, "png"));
    expect(body.codes).toHaveLength(1);
    expect(body.codes[0]).toMatchObject({ text, errorCorrection: level, version: code.version });
  });

  it.each([1, 7, 15, 25] as const)("version %i, forced, is answered as that version", async (version) => {
    const text = `version ${version}`;
    const code = QRCode.create(text, { errorCorrectionLevel: "Q", version });
    expect(code.version).toBe(version);
    const body = await decoded(encodeAs(drawCode(code), "png"));
    expect(body.codes[0]).toMatchObject({ text, errorCorrection: "Q", version });
  });

  it("an ISO-8859-1 byte segment (no ECI) reads as Latin-1 text", async () => {
    const text = "Café crème à Zürich ¿sí?";
    const code = QRCode.create([{ data: latin1(text), mode: "byte" }], { errorCorrectionLevel: "M" });
    const drawn = drawCode(code);
    // jsQR's `data` is UTF-8 only; its bytes are the reference here.
    expect(jsQR(new Uint8ClampedArray(drawn.data), drawn.width, drawn.height)?.binaryData).toEqual(
      Array.from(latin1(text)),
    );
    const body = await decoded(encodeAs(drawn, "png"));
    expect(body.codes[0]?.text).toBe(text);
  });

  it.each(["png", "jpeg", "gif", "webp"] as const)("reads %s input", async (format) => {
    const text = `format ${format}: https://portico.dev`;
    const code = QRCode.create(text, { errorCorrectionLevel: "H" });
    const body = await decoded(encodeAs(drawCode(code), format));
    expect(body.codes[0]).toMatchObject({ text, errorCorrection: "H", version: code.version });
  });

  it("answers the corners of the code where it was drawn", async () => {
    const code = QRCode.create("where am I", { errorCorrectionLevel: "M" });
    const body = await decoded(encodeAs(drawCode(code), "png"));
    const { topLeft, bottomRight } = body.codes[0]?.position ?? {};
    const start = MARGIN * SCALE;
    const end = (MARGIN + code.modules.size) * SCALE - 1;
    expect(Math.abs((topLeft?.x ?? -99) - start)).toBeLessThanOrEqual(SCALE);
    expect(Math.abs((topLeft?.y ?? -99) - start)).toBeLessThanOrEqual(SCALE);
    expect(Math.abs((bottomRight?.x ?? -99) - end)).toBeLessThanOrEqual(SCALE);
    expect(Math.abs((bottomRight?.y ?? -99) - end)).toBeLessThanOrEqual(SCALE);
  });

  it("several codes in one image come back as a list, each with its own level", async () => {
    const first = QRCode.create("first code", { errorCorrectionLevel: "L" });
    const second = QRCode.create("second code, longer", { errorCorrectionLevel: "H" });
    const side = (Math.max(first.modules.size, second.modules.size) + 2 * MARGIN) * SCALE;
    const target: Drawn = { width: side * 2, height: side, data: new Uint8Array(side * 2 * side * 4).fill(255) };
    drawCode(first, { target, left: 0, top: 0 });
    drawCode(second, { target, left: side, top: 0 });
    const body = await decoded(encodeAs(target, "png"));
    const found = body.codes.map((entry) => [entry.text, entry.errorCorrection]).sort();
    expect(found).toEqual([
      ["first code", "L"],
      ["second code, longer", "H"],
    ]);
    expect(body.count).toBe(2);
  });

  it("reads our own GIF output, at the level asked for", async () => {
    const text = "https://portico.dev/gif";
    const made = await createQrCode.handler(
      createQrCode.input.parse({ text, format: "gif", errorCorrection: "Q" }),
      createTestContext(),
    );
    if (made.kind !== "binary" || typeof made.body === "string") throw new Error("expected GIF bytes");
    const body = await decoded(made.body);
    expect(body.codes[0]).toMatchObject({ text, errorCorrection: "Q" });
  });

  it("the documented example decodes to what the docs say", async () => {
    const example = decodeQrCode.example as { image: string };
    const result = await decodeQrCode.handler(decodeQrCode.input.parse(example), createTestContext());
    const body = jsonBody(result, QrDecodeOutputSchema);
    expect(body).toEqual((decodeQrCode.output as { example: unknown }).example);
  });
});

describe("qrcode decode holds a largest image within the isolate's memory", () => {
  // workerd under vitest does not enforce the 128 MB limit, so memory itself cannot be measured
  // here; what is asserted is the size the reader works at (decode.ts gives the bytes per stage)
  // and that a small code in a largest image still reads at that size.
  it(`gives the reader at most ${READ_SIDE} px a side of a ${MAX_SIDE}×${MAX_SIDE} image`, () => {
    const image = new PhotonImage(new Uint8Array(MAX_SIDE * (MAX_SIDE / 2) * 4).fill(255), MAX_SIDE, MAX_SIDE / 2);
    try {
      const { pixels, scale } = readablePixels(image);
      expect([pixels.width, pixels.height, scale]).toEqual([READ_SIDE, READ_SIDE / 2, MAX_SIDE / READ_SIDE]);
      expect(pixels.data.length).toBe(READ_SIDE * (READ_SIDE / 2) * 4);
    } finally {
      image.free();
    }
  });

  it(`reads a version 7 code filling an eighth of a ${MAX_SIDE}×${MAX_SIDE} image, and says where it is in that image`, async () => {
    const text = "https://portico.dev/docs/api/qrcode — a code an eighth as wide as the photo it is in";
    const code = QRCode.create(text, { errorCorrectionLevel: "M", version: 7 });
    const scale = Math.round(MAX_SIDE / 8 / (code.modules.size + 2 * MARGIN)); // 10 px a module
    const target: Drawn = {
      width: MAX_SIDE,
      height: MAX_SIDE,
      data: new Uint8Array(MAX_SIDE * MAX_SIDE * 4).fill(255),
    };
    const [left, top] = [3000, 3100];
    drawCode(code, { target, left, top }, scale);
    const body = await decoded(encodeAs(target, "png"));
    expect(body.codes).toHaveLength(1);
    expect(body.codes[0]).toMatchObject({ text, errorCorrection: "M", version: 7 });
    const { topLeft, bottomRight } = body.codes[0]?.position ?? {};
    const start = MARGIN * scale;
    const end = (MARGIN + code.modules.size) * scale - 1;
    // Within two modules of the corners as drawn, in the sent image's own coordinates.
    expect(Math.abs((topLeft?.x ?? -99) - (left + start))).toBeLessThanOrEqual(2 * scale);
    expect(Math.abs((topLeft?.y ?? -99) - (top + start))).toBeLessThanOrEqual(2 * scale);
    expect(Math.abs((bottomRight?.x ?? -99) - (left + end))).toBeLessThanOrEqual(2 * scale);
    expect(Math.abs((bottomRight?.y ?? -99) - (top + end))).toBeLessThanOrEqual(2 * scale);
  });

  it("reads a code drawn on a transparent background (laid over white in place)", async () => {
    const code = QRCode.create("transparent background", { errorCorrectionLevel: "Q" });
    const drawn = drawCode(code);
    // Light modules become transparent black, as many editors export them.
    for (let index = 0; index < drawn.data.length; index += 4) {
      if (drawn.data[index] === 255) drawn.data.fill(0, index, index + 4);
    }
    const body = await decoded(encodeAs(drawn, "png"));
    expect(body.codes[0]).toMatchObject({ text: "transparent background", errorCorrection: "Q" });
  });
});

describe("qrcode decode when the reader's WebAssembly fails to start", () => {
  it("answers service-unavailable at once, and the next call starts the reader again", async () => {
    let attempts = 0;
    const read = createQrReader((module, imports) => {
      attempts += 1;
      return attempts === 1
        ? Promise.reject(new Error("instantiation refused"))
        : WebAssembly.instantiate(module, imports);
    });
    const text = "read after a failed start";
    const bytes = encodeAs(drawCode(QRCode.create(text, { errorCorrectionLevel: "M" })), "png");
    const input = decodeQrCode.input.parse({ image: new File([bytes as Uint8Array<ArrayBuffer>], "code.png") });
    const hung = new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 5_000));
    const first = await Promise.race([handleQrDecode(input as QrDecodeInput, createTestContext(), read), hung]);
    if (first === "hung") throw new Error("the decode waited for ever on a reader that failed to start");
    expectProblem(first, "service-unavailable", /could not be started/);
    const second = await handleQrDecode(input as QrDecodeInput, createTestContext(), read);
    expect(jsonBody(second, QrDecodeOutputSchema).codes[0]?.text).toBe(text);
    expect(attempts).toBe(2);
  });
});

describe("qrcode decode refuses what it cannot read", () => {
  it("an image with no code is a 422 saying so", async () => {
    const blank: Drawn = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(255) };
    expectProblem(await decode(encodeAs(blank, "png")), "invalid-input", /no QR code/i);
  });

  it("a file that is not an image", async () => {
    expectProblem(await decode(new TextEncoder().encode("not an image at all")), "invalid-input", /not an image/i);
  });

  it("no image at all", () => {
    expect(decodeQrCode.input.safeParse({}).success).toBe(false);
  });
});
