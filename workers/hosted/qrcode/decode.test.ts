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
import { encodeGif } from "./gif";
import { definition } from "./index";
import { QrDecodeOutputSchema } from "./schema";

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
function drawCode(code: QRCode.QRCode, canvas?: { target: Drawn; left: number; top: number }): Drawn {
  const { size, data } = code.modules;
  const side = (size + 2 * MARGIN) * SCALE;
  const target = canvas?.target ?? { width: side, height: side, data: new Uint8Array(side * side * 4).fill(255) };
  const [left, top] = canvas ? [canvas.left, canvas.top] : [0, 0];
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      if (!data[row * size + column]) continue;
      for (let y = 0; y < SCALE; y += 1) {
        for (let x = 0; x < SCALE; x += 1) {
          const offset = ((top + (MARGIN + row) * SCALE + y) * target.width + left + (MARGIN + column) * SCALE + x) * 4;
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
