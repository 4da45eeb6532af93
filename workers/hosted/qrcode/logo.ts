/**
 * The optional centred logo: a `data:` URL holding a PNG, JPEG or SVG of at most 200 KB. The bytes
 * must be what the declared type says (checked by signature), so a renamed file or a text blob
 * is refused before it reaches the renderer. The logo always reaches the output as a base64
 * `data:` URL inside an SVG `<image>`: browsers draw SVG images there without running scripts,
 * and resvg decodes it the same way, so a caller's SVG is never inlined into ours.
 */
import { z } from "zod";

export const LOGO_MAX_BYTES = 200 * 1024;
// Base64 is 4/3 of the bytes, and a percent-encoded SVG at most 3×; the body limit caps the rest.
const LOGO_MAX_URL_CHARACTERS = 3 * LOGO_MAX_BYTES + 100;

export type LogoMimeType = "image/png" | "image/jpeg" | "image/svg+xml";

export interface Logo {
  mimeType: LogoMimeType;
  bytes: Uint8Array;
  /** Canonical `data:<type>;base64,<data>`. */
  dataUrl: string;
}

const DATA_URL = /^data:(image\/(?:png|jpeg|jpg|svg\+xml))((?:;[\w.+-]+=[\w.+-]+)*)(;base64)?,([\s\S]*)$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
// XML white space (the S production): what may stand between a document's BOM, declaration,
// comments and root. Wider Unicode spaces there make a document resvg will not parse.
const XML_WHITESPACE = new Set([" ", "\t", "\r", "\n"]);
// Entities are how XML "billion laughs" documents expand; a logo has no use for a DOCTYPE.
const SVG_DOCTYPE = /<!DOCTYPE|<!ENTITY/i;

type LogoParse = { ok: true; logo: Logo } | { ok: false; reason: string };

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

function skipXmlWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && XML_WHITESPACE.has(text.charAt(at))) at += 1;
  return at;
}

/**
 * Whether the text opens as an SVG document: an optional BOM, XML declaration and comments,
 * then the `<svg` root. A forward scan, not a regular expression: the pattern this replaced,
 * `(?:<!--[\s\S]*?-->\s*)*<svg`, let a comment's body swallow `--><!--`, so a failing match
 * tried every way of joining the comments, and 40 empty comments (281 bytes) held the isolate for
 * hours (issue #10). Here each comment ends at its first `-->`, as in XML, and every character
 * is looked at a bounded number of times.
 */
function opensAsSvg(text: string): boolean {
  let at = skipXmlWhitespace(text, text.startsWith("\uFEFF") ? 1 : 0);
  if (text.startsWith("<?xml", at)) {
    // The declaration runs to its first `>`, which must close `?>`.
    const close = text.indexOf(">", at);
    if (close === -1 || close < at + "<?xml?".length || text.charAt(close - 1) !== "?") return false;
    at = skipXmlWhitespace(text, close + 1);
  }
  while (text.startsWith("<!--", at)) {
    const close = text.indexOf("-->", at + "<!--".length);
    if (close === -1) return false;
    at = skipXmlWhitespace(text, close + "-->".length);
  }
  if (!text.startsWith("<svg", at)) return false;
  const next = text.charAt(at + "<svg".length);
  return next === ">" || XML_WHITESPACE.has(next);
}

function decodeBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, "");
  if (!BASE64.test(compact) || compact.length % 4 === 1) return undefined;
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  // Chunks keep String.fromCharCode's argument list far below engine limits.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

export function parseLogoDataUrl(url: string): LogoParse {
  const match = DATA_URL.exec(url);
  if (!match) return { ok: false, reason: "must be a data: URL of type image/png, image/jpeg or image/svg+xml" };
  const [, declaredType = "", , base64Flag, payload = ""] = match;
  const lowerType = declaredType.toLowerCase();
  const mimeType: LogoMimeType = lowerType === "image/jpg" ? "image/jpeg" : (lowerType as LogoMimeType);

  let bytes: Uint8Array | undefined;
  if (base64Flag) {
    bytes = decodeBase64(payload);
    if (!bytes) return { ok: false, reason: "has invalid base64 data" };
  } else if (mimeType === "image/svg+xml") {
    try {
      bytes = new TextEncoder().encode(decodeURIComponent(payload));
    } catch {
      return { ok: false, reason: "has invalid percent-encoding" };
    }
  } else {
    return { ok: false, reason: "must be base64-encoded (data:image/png;base64,…)" };
  }

  if (bytes.length === 0) return { ok: false, reason: "is empty" };
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, reason: `is larger than ${LOGO_MAX_BYTES / 1024} KB` };

  if (mimeType === "image/png" && !startsWith(bytes, PNG_SIGNATURE)) return { ok: false, reason: "is not a PNG image" };
  if (mimeType === "image/jpeg" && !startsWith(bytes, JPEG_SIGNATURE))
    return { ok: false, reason: "is not a JPEG image" };
  if (mimeType === "image/svg+xml") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, reason: "is not UTF-8 SVG text" };
    }
    if (!opensAsSvg(text) || !text.includes("</svg>")) return { ok: false, reason: "is not an SVG image" };
    if (SVG_DOCTYPE.test(text)) return { ok: false, reason: "must not contain a DOCTYPE or entities" };
  }
  return { ok: true, logo: { mimeType, bytes, dataUrl: `data:${mimeType};base64,${encodeBase64(bytes)}` } };
}

export const LogoSchema = z
  .string()
  .max(LOGO_MAX_URL_CHARACTERS)
  .transform((url, context): Logo => {
    const parsed = parseLogoDataUrl(url.trim());
    if (!parsed.ok) {
      context.addIssue({ code: "custom", message: `logo ${parsed.reason}` });
      return z.NEVER;
    }
    return parsed.logo;
  })
  .describe(`A data: URL (image/png, image/jpeg or image/svg+xml) of at most ${LOGO_MAX_BYTES / 1024} KB.`);
