/**
 * Test-only helpers shared by the avatar and qrcode tests: read a PNG's header, decode it to
 * RGBA with photon, and read a QR code back with jsQR. Production code never imports this file.
 */
import { PhotonImage } from "@cf-wasm/photon";
import jsQR from "jsqr";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk, which the PNG format requires to come first. */
export function readPngSize(bytes: Uint8Array): { width: number; height: number } {
  if (!PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) throw new Error("not a PNG: bad signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunkType = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunkType !== "IHDR") throw new Error(`not a PNG: first chunk is ${chunkType}`);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

export interface RgbaImage {
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

export function decodePng(bytes: Uint8Array): RgbaImage {
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    return {
      width: image.get_width(),
      height: image.get_height(),
      pixels: new Uint8ClampedArray(image.get_raw_pixels()),
    };
  } finally {
    image.free();
  }
}

export function pixelAt(image: RgbaImage, x: number, y: number): [number, number, number, number] {
  const offset = (y * image.width + x) * 4;
  const channel = (index: number) => image.pixels[offset + index] ?? Number.NaN;
  return [channel(0), channel(1), channel(2), channel(3)];
}

/** Transparent pixels decode as black; a scanner sees them on whatever the page is, so put them on white. */
export function flattenOnWhite(image: RgbaImage): RgbaImage {
  const pixels = new Uint8ClampedArray(image.pixels.length);
  for (let offset = 0; offset < pixels.length; offset += 4) {
    const alpha = (image.pixels[offset + 3] ?? 0) / 255;
    for (let channel = 0; channel < 3; channel += 1) {
      pixels[offset + channel] = Math.round((image.pixels[offset + channel] ?? 0) * alpha + 255 * (1 - alpha));
    }
    pixels[offset + 3] = 255;
  }
  return { width: image.width, height: image.height, pixels };
}

/** The text of the QR code in a PNG, or null when jsQR finds none. */
export function decodeQrPng(bytes: Uint8Array): string | null {
  const image = flattenOnWhite(decodePng(bytes));
  return jsQR(image.pixels, image.width, image.height, { inversionAttempts: "dontInvert" })?.data ?? null;
}

const XML_TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<\/([A-Za-z_][\w:.-]*)\s*>|<([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|[^<]+|</g;
const XML_ATTRIBUTE = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g;
const XML_TEXT_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;

export interface XmlRoot {
  name: string;
  attributes: Record<string, string>;
}

/**
 * A strict well-formedness check (no DOMParser in workerd): one root element, every tag closed
 * in order, attributes quoted and not repeated, no bare `&` or `<` in text or attribute values.
 * Answers the root element; throws on the first fault.
 */
export function parseXmlRoot(xml: string): XmlRoot {
  const open: string[] = [];
  let root: XmlRoot | undefined;
  let rootClosed = false;
  for (const match of xml.matchAll(XML_TOKEN)) {
    const [token, closeName, openName, attributeText, selfClosing] = match;
    if (token === "<") throw new Error(`malformed markup at ${match.index}`);
    if (closeName !== undefined) {
      const expected = open.pop();
      if (expected !== closeName) throw new Error(`</${closeName}> closes <${expected ?? "nothing"}>`);
      if (open.length === 0) rootClosed = true;
      continue;
    }
    if (openName !== undefined) {
      if (rootClosed || (root && open.length === 0)) throw new Error(`second root element <${openName}>`);
      const attributes: Record<string, string> = {};
      for (const attribute of (attributeText ?? "").matchAll(XML_ATTRIBUTE)) {
        const [, name = "", doubleQuoted, singleQuoted] = attribute;
        if (name in attributes) throw new Error(`<${openName}> repeats attribute ${name}`);
        const value = doubleQuoted ?? singleQuoted ?? "";
        if (XML_TEXT_AMPERSAND.test(value)) throw new Error(`bare & in attribute ${name}`);
        attributes[name] = value;
      }
      root ??= { name: openName, attributes };
      if (selfClosing === "/") {
        if (open.length === 0) rootClosed = true;
      } else {
        open.push(openName);
      }
      continue;
    }
    if (token.startsWith("<")) continue;
    if (open.length === 0 && token.trim() !== "") throw new Error("text outside the root element");
    if (XML_TEXT_AMPERSAND.test(token)) throw new Error("bare & in text");
  }
  if (!root) throw new Error("no root element");
  if (open.length > 0) throw new Error(`<${open.at(-1) ?? ""}> is never closed`);
  return root;
}
