/**
 * A domain name as callers type it (any case, Unicode or A-labels, a trailing dot, full-width
 * dots) into the two forms the answer gives: the A-label name registries are asked about and
 * its Unicode form. Unicode to A-labels is the URL parser's IDNA (UTS #46, the mapping
 * browsers use); A-labels back to Unicode is RFC 3492 Punycode, decoded here because the
 * runtime has no decoder of its own. A name the registries could not hold is refused with a
 * sentence for the caller.
 */

export interface DomainName {
  /** A-labels, lower case, no trailing dot: what RDAP and port 43 are asked. */
  ascii: string;
  /** The same name with each A-label decoded (equal to `ascii` for an all-ASCII name). */
  unicode: string;
}

export type DomainParse = { ok: true; name: DomainName } | { ok: false; message: string };

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Generous for Unicode input: the A-label form is checked against 253 after conversion. */
export const MAX_DOMAIN_INPUT = 1024;

export function parseDomainName(input: string): DomainParse {
  // Bounded before any pattern or the URL parser sees it.
  if (input.length > MAX_DOMAIN_INPUT) {
    return { ok: false, message: `A domain name is at most ${MAX_DOMAIN_INPUT} characters as typed.` };
  }
  const trimmed = input.trim();
  if (trimmed === "") return { ok: false, message: "Give a domain name, such as example.com." };
  // Only a bare name: a URL's parts would be read by the URL parser and silently dropped.
  if (/[\s/\\?#@:%[\]<>"'`^{}|]/.test(trimmed) || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    return { ok: false, message: "Give a bare domain name (example.com), not a URL or an address." };
  }
  let hostname: string;
  try {
    hostname = new URL(`http://${trimmed}/`).hostname;
  } catch {
    return { ok: false, message: "That is not a domain name." };
  }
  const ascii = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (ascii.length > 253) return { ok: false, message: "A domain name is at most 253 characters." };
  const labels = ascii.split(".");
  if (labels.length < 2) return { ok: false, message: "Give a name under a top-level domain, such as example.com." };
  for (const label of labels) {
    if (!LDH_LABEL.test(label)) return { ok: false, message: `"${label}" is not a valid label of a domain name.` };
  }
  const tld = labels.at(-1) ?? "";
  // A top-level domain is letters or an IDN's A-label; digits there mean an IP address.
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) {
    return { ok: false, message: "Give a domain name, not an IP address." };
  }
  const unicodeLabels: string[] = [];
  for (const label of labels) {
    if (!label.startsWith("xn--")) {
      unicodeLabels.push(label);
      continue;
    }
    const decoded = decodePunycode(label.slice(4));
    if (decoded === null) return { ok: false, message: `"${label}" is not a valid internationalised label.` };
    unicodeLabels.push(decoded);
  }
  return { ok: true, name: { ascii, unicode: unicodeLabels.join(".") } };
}

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digitOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return -1;
}

/** RFC 3492 §6.2 decoding; null for input that is not valid Punycode. */
export function decodePunycode(input: string): string | null {
  const output: number[] = [];
  const delimiter = input.lastIndexOf("-");
  for (let index = 0; index < Math.max(delimiter, 0); index++) {
    const code = input.charCodeAt(index);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = INITIAL_N;
  let i = 0;
  let bias = INITIAL_BIAS;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
    const oldI = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const digit = digitOf(input.charCodeAt(index++));
      if (digit < 0) return null;
      i += digit * w;
      if (i > 0x7fffffff) return null;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
      if (w > 0x7fffffff) return null;
    }
    bias = adapt(i - oldI, output.length + 1, oldI === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}
