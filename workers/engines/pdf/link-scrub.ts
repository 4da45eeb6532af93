/**
 * The links a printed PDF may keep. Chromium writes each `<a href>` of the page (and of its
 * frames, shadow trees and SVG) as a link annotation whose action is `/URI (address)`, where a
 * reader may follow it: a `javascript:` or `file:` address would run or open something on the
 * reader's machine. Each `/URI` string whose address is not http, https, mailto or tel is blanked
 * in place, `()` then spaces to its old length, so every byte offset (the xref table) still
 * holds, and the page looks as it did (the link's text is untouched; it just goes nowhere).
 * The PDF's bytes are scanned rather than the page's DOM, so no frame, shadow root or late
 * script can slip a link past it.
 */

import { objectDictionarySpan, readXref } from "./page-count";

const SAFE_SCHEME = /^(?:https?|mailto|tel):/i;
const URI_KEY = [0x2f, 0x55, 0x52, 0x49]; // "/URI"

/**
 * Blanks the unsafe `/URI` strings of `pdf` in place; answers how many, or undefined when the PDF
 * is not laid out as Chromium writes one (no xref table to find its objects by). Only object
 * dictionaries are searched, never a stream's (compressed) data, which could hold the bytes
 * `/URI (` by chance.
 */
export function dropUnsafeLinks(pdf: Uint8Array): number | undefined {
  const table = readXref(pdf);
  if (!table) return undefined;
  let dropped = 0;
  for (const offset of table.offsets.values()) {
    const span = objectDictionarySpan(pdf, offset);
    if (span) dropped += scrub(pdf, span.start, span.end);
  }
  return dropped;
}

function scrub(pdf: Uint8Array, from: number, to: number): number {
  let dropped = 0;
  let at = pdf.indexOf(URI_KEY[0]!, from);
  while (at >= 0 && at + 4 < to) {
    if (URI_KEY.every((byte, i) => pdf[at + i] === byte) && !isNameChar(pdf[at + 4]!)) {
      let start = at + 4;
      while (start < pdf.byteLength && isSpace(pdf[start]!)) start++;
      const string = readString(pdf, start);
      if (string && !SAFE_SCHEME.test(string.value.trimStart())) {
        pdf[start] = 0x28; // (
        pdf[start + 1] = 0x29; // )
        pdf.fill(0x20, start + 2, string.end);
        dropped++;
      }
      at = string ? string.end : at + 4;
    } else {
      at += 1;
    }
    at = pdf.indexOf(URI_KEY[0]!, at);
  }
  return dropped;
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
const isNameChar = (byte: number) => !isSpace(byte) && !"()<>[]{}/%".includes(String.fromCharCode(byte));

/** The PDF string starting at `start` (literal `( )` or hex `< >`), decoded to Latin-1, and the offset past it. */
function readString(pdf: Uint8Array, start: number): { value: string; end: number } | undefined {
  if (pdf[start] === 0x3c && pdf[start + 1] !== 0x3c) {
    const end = pdf.indexOf(0x3e, start);
    if (end < 0) return undefined;
    const hex = String.fromCharCode(...pdf.subarray(start + 1, end)).replace(/\s+/g, "");
    const padded = hex.length % 2 ? `${hex}0` : hex;
    let value = "";
    for (let i = 0; i < padded.length; i += 2) value += String.fromCharCode(Number.parseInt(padded.slice(i, i + 2), 16));
    return { value, end: end + 1 };
  }
  if (pdf[start] !== 0x28) return undefined;
  let value = "";
  let depth = 0;
  for (let i = start; i < pdf.byteLength; i++) {
    const byte = pdf[i]!;
    if (byte === 0x5c) {
      const next = pdf[i + 1];
      if (next === undefined) return undefined;
      const octal = /^[0-7]{1,3}/.exec(String.fromCharCode(...pdf.subarray(i + 1, i + 4)))?.[0];
      if (octal) {
        value += String.fromCharCode(Number.parseInt(octal, 8) & 0xff);
        i += octal.length;
      } else {
        const escaped: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
        const character = String.fromCharCode(next);
        value += escaped[character] ?? (next === 0x0a || next === 0x0d ? "" : character);
        i += 1;
      }
    } else if (byte === 0x28) {
      if (depth++ > 0) value += "(";
    } else if (byte === 0x29) {
      if (--depth === 0) return { value, end: i + 1 };
      value += ")";
    } else {
      value += String.fromCharCode(byte);
    }
  }
  return undefined;
}
