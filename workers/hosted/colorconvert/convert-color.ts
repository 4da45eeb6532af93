/**
 * The colour engine: parses any of the accepted notations into 8-bit sRGB, then derives every
 * other form from that one value, so the outputs always agree with the hex they print.
 */
import { CSS_NAMED_COLORS } from "./css-named-colors";
import type { Color, ColorInput } from "./schema";

interface Rgb {
  r: number;
  g: number;
  b: number;
}

type Parsed = { ok: true; rgb: Rgb; name?: string } | { ok: false; message: string };

type Notation = "rgb" | "hsl" | "hsv" | "cmyk";

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;
const FUNCTIONAL = /^([a-z]+)\((.*)\)$/is;
const NUMBER_TOKEN = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)(%|deg)?$/i;
const FUNCTION_NAMES: Record<string, Notation> = {
  rgb: "rgb",
  rgba: "rgb",
  hsl: "hsl",
  hsla: "hsl",
  hsv: "hsv",
  hsb: "hsv",
  cmyk: "cmyk",
};

const fail = (message: string): Parsed => ({ ok: false, message });
const clampByte = (value: number) => Math.min(255, Math.max(0, Math.round(value)));
/** Rounds to `digits` decimals without ever answering -0, which JSON would print as 0 anyway. */
const roundTo = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits || 0;

/** Six hex digits, already validated. */
function rgbOfHexDigits(digits: string): Rgb {
  return {
    r: Number.parseInt(digits.slice(0, 2), 16),
    g: Number.parseInt(digits.slice(2, 4), 16),
    b: Number.parseInt(digits.slice(4, 6), 16),
  };
}

function parseHex(value: string): Parsed {
  const digits = HEX.exec(value.trim())?.[1];
  if (!digits) return fail(`"${value}" is not a hex colour: use #rrggbb or #rgb`);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits;
  return { ok: true, rgb: rgbOfHexDigits(full) };
}

/** CSS names ignore case; people also write "Rebecca Purple" or "light-blue". */
const NAME_INDEX = new Map(CSS_NAMED_COLORS.map(([name, hex]) => [name, rgbOfHexDigits(hex.slice(1))]));

function parseName(value: string): Parsed {
  const name = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, "");
  const rgb = NAME_INDEX.get(name);
  return rgb ? { ok: true, rgb, name } : fail(`"${value}" is not a CSS named colour`);
}

interface Token {
  value: number;
  unit: "" | "%" | "deg";
}

function tokenize(args: string): Token[] | string {
  if (args.includes("/")) return "alpha is not supported: give an opaque colour";
  const parts = args.trim().split(/\s*,\s*|\s+/);
  const tokens: Token[] = [];
  for (const part of parts) {
    const match = NUMBER_TOKEN.exec(part);
    const value = Number(match?.[1]);
    if (!match || !Number.isFinite(value)) return `"${part}" is not a number`;
    tokens.push({ value, unit: (match[2]?.toLowerCase() ?? "") as Token["unit"] });
  }
  return tokens;
}

function percentOf(token: Token, label: string): number | string {
  if (token.unit === "deg") return `${label} cannot be an angle`;
  if (token.value < 0 || token.value > 100) return `${label} must be between 0 and 100%`;
  return token.value / 100;
}

function parseArguments(notation: Notation, args: string): Parsed {
  const tokens = tokenize(args);
  if (typeof tokens === "string") return fail(tokens);
  const expected = notation === "cmyk" ? 4 : 3;
  if (tokens.length !== expected) {
    return fail(
      `${notation} takes ${expected} values, got ${tokens.length}${tokens.length === 4 ? " (alpha is not supported)" : ""}`,
    );
  }
  if (notation === "rgb") {
    const channels: number[] = [];
    for (const [index, token] of tokens.entries()) {
      const label = "rgb"[index] ?? "channel";
      if (token.unit === "deg") return fail(`${label} cannot be an angle`);
      const value = token.unit === "%" ? token.value * 2.55 : token.value;
      if (value < 0 || value > 255) return fail(`${label} must be between 0 and 255 (or 0 and 100%)`);
      channels.push(value);
    }
    const [r = 0, g = 0, b = 0] = channels;
    return { ok: true, rgb: { r: clampByte(r), g: clampByte(g), b: clampByte(b) } };
  }
  if (notation === "cmyk") {
    const fractions: number[] = [];
    for (const [index, token] of tokens.entries()) {
      const fraction = percentOf(token, "cmyk"[index] ?? "channel");
      if (typeof fraction === "string") return fail(fraction);
      fractions.push(fraction);
    }
    const [c = 0, m = 0, y = 0, k = 0] = fractions;
    return { ok: true, rgb: rgbFromCmyk(c, m, y, k) };
  }
  const [hueToken, secondToken, thirdToken] = tokens;
  if (!hueToken || !secondToken || !thirdToken) return fail(`${notation} takes 3 values`);
  if (hueToken.unit === "%") return fail("hue is an angle, not a percentage");
  const second = percentOf(secondToken, "saturation");
  const third = percentOf(thirdToken, notation === "hsl" ? "lightness" : "value");
  if (typeof second === "string") return fail(second);
  if (typeof third === "string") return fail(third);
  const rgb =
    notation === "hsl" ? rgbFromHsl(hueToken.value, second, third) : rgbFromHsv(hueToken.value, second, third);
  return { ok: true, rgb };
}

/** "rgb(…)"-style notation; with `notation` given, the bare arguments ("255, 0, 0") are accepted too. */
function parseFunctional(value: string, notation?: Notation): Parsed {
  const match = FUNCTIONAL.exec(value.trim());
  if (!match) {
    return notation ? parseArguments(notation, value) : fail(`"${value}" is not a colour notation this API reads`);
  }
  const found = FUNCTION_NAMES[(match[1] ?? "").toLowerCase()];
  if (!found) return fail(`${match[1]}() is not supported: use rgb(), hsl(), hsv() or cmyk()`);
  if (notation && found !== notation) return fail(`expected ${notation}(…), got ${match[1]}(…)`);
  return parseArguments(found, match[2] ?? "");
}

/** `color`: any notation. Names first, since no CSS name is also a valid hex string. */
function parseAny(value: string): Parsed {
  const trimmed = value.trim();
  const named = parseName(trimmed);
  if (named.ok) return named;
  if (HEX.test(trimmed)) return parseHex(trimmed);
  if (FUNCTIONAL.test(trimmed)) return parseFunctional(trimmed);
  return fail(`"${value}" is not a hex colour, a CSS name or an rgb()/hsl()/hsv()/cmyk() notation`);
}

function rgbFromHueChroma(hue: number, chroma: number, offset: number): Rgb {
  const h = (((hue % 360) + 360) % 360) / 60;
  const x = chroma * (1 - Math.abs((h % 2) - 1));
  const sector = Math.floor(h);
  const [r, g, b] =
    sector === 0
      ? [chroma, x, 0]
      : sector === 1
        ? [x, chroma, 0]
        : sector === 2
          ? [0, chroma, x]
          : sector === 3
            ? [0, x, chroma]
            : sector === 4
              ? [x, 0, chroma]
              : [chroma, 0, x];
  return { r: clampByte((r + offset) * 255), g: clampByte((g + offset) * 255), b: clampByte((b + offset) * 255) };
}

/** s and l are fractions (0–1). */
function rgbFromHsl(hue: number, s: number, l: number): Rgb {
  const chroma = (1 - Math.abs(2 * l - 1)) * s;
  return rgbFromHueChroma(hue, chroma, l - chroma / 2);
}

/** s and v are fractions (0–1). */
function rgbFromHsv(hue: number, s: number, v: number): Rgb {
  const chroma = v * s;
  return rgbFromHueChroma(hue, chroma, v - chroma);
}

/** Fractions (0–1); the naive, profile-free conversion every web tool uses. */
function rgbFromCmyk(c: number, m: number, y: number, k: number): Rgb {
  return {
    r: clampByte(255 * (1 - c) * (1 - k)),
    g: clampByte(255 * (1 - m) * (1 - k)),
    b: clampByte(255 * (1 - y) * (1 - k)),
  };
}

/** Turns the one given field of the input into sRGB. */
export function parseColorInput(input: ColorInput): Parsed {
  if (input.hex !== undefined) return parseHex(input.hex);
  if (input.name !== undefined) return parseName(input.name);
  if (input.color !== undefined) return parseAny(input.color);
  if (input.rgb !== undefined) {
    if (typeof input.rgb === "string") return parseFunctional(input.rgb, "rgb");
    return { ok: true, rgb: { r: clampByte(input.rgb.r), g: clampByte(input.rgb.g), b: clampByte(input.rgb.b) } };
  }
  if (input.hsl !== undefined) {
    if (typeof input.hsl === "string") return parseFunctional(input.hsl, "hsl");
    return { ok: true, rgb: rgbFromHsl(input.hsl.h, input.hsl.s / 100, input.hsl.l / 100) };
  }
  if (input.hsv !== undefined) {
    if (typeof input.hsv === "string") return parseFunctional(input.hsv, "hsv");
    return { ok: true, rgb: rgbFromHsv(input.hsv.h, input.hsv.s / 100, input.hsv.v / 100) };
  }
  if (input.cmyk !== undefined) {
    if (typeof input.cmyk === "string") return parseFunctional(input.cmyk, "cmyk");
    const { c, m, y, k } = input.cmyk;
    return { ok: true, rgb: rgbFromCmyk(c / 100, m / 100, y / 100, k / 100) };
  }
  return fail("give one of hex, rgb, hsl, hsv, cmyk, name or color");
}

function hueOf(r: number, g: number, b: number, max: number, delta: number): number {
  if (delta === 0) return 0;
  const hue = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  const degrees = roundTo((hue * 60 + 360) % 360, 1);
  // 359.96° rounds to 360.0, which is the same angle as 0.
  return degrees === 360 ? 0 : degrees;
}

/** Undoes the sRGB transfer curve (IEC 61966-2-1): an 8-bit channel to linear light, 0–1. */
function linearize(channel: number): number {
  const c = channel / 255;
  // WCAG 2.x prints 0.03928 (from an sRGB draft); no 8-bit value falls between it and 0.04045.
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

type Lab = readonly [l: number, a: number, b: number];

/** CIELAB through XYZ, with the sRGB matrix and the D65 white point of IEC 61966-2-1. */
function labOf({ r, g, b }: Rgb): Lab {
  const [lr, lg, lb] = [linearize(r), linearize(g), linearize(b)];
  const x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047;
  const y = 0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb;
  const z = (0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883;
  const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const NAMED_LAB = [...NAME_INDEX].map(([name, rgb]) => ({ name, rgb, lab: labOf(rgb) }));

function nearestName(rgb: Rgb): { name: string; distance: number } {
  const lab = labOf(rgb);
  let best = { name: "black", distance: Number.POSITIVE_INFINITY };
  for (const named of NAMED_LAB) {
    const distance = Math.hypot(lab[0] - named.lab[0], lab[1] - named.lab[1], lab[2] - named.lab[2]);
    // Strictly less keeps the first of two names with one value (aqua before cyan).
    if (distance < best.distance) best = { name: named.name, distance };
  }
  return best;
}

/** WCAG 2.x relative luminance. */
function luminance({ r, g, b }: Rgb): number {
  return 0.2126 * linearize(r) + 0.7152 * linearize(g) + 0.0722 * linearize(b);
}

/** Every form of one sRGB colour. `givenName` is kept when the caller named the colour. */
export function describeColor(rgb: Rgb, givenName?: string): Color {
  const { r, g, b } = rgb;
  const [rf, gf, bf] = [r / 255, g / 255, b / 255];
  const max = Math.max(rf, gf, bf);
  const min = Math.min(rf, gf, bf);
  const delta = max - min;
  const hue = hueOf(rf, gf, bf, max, delta);
  const lightness = (max + min) / 2;
  const key = 1 - max;

  const nearest = nearestName(rgb);
  const exact = NAMED_LAB.some((named) => named.rgb.r === r && named.rgb.g === g && named.rgb.b === b);
  const relative = luminance(rgb);
  const onBlack = (relative + 0.05) / 0.05;
  const onWhite = 1.05 / (relative + 0.05);

  return {
    hex: `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, "0")).join("")}`,
    rgb: { r, g, b },
    hsl: {
      h: hue,
      s: roundTo(delta === 0 ? 0 : (delta / (1 - Math.abs(2 * lightness - 1))) * 100, 1),
      l: roundTo(lightness * 100, 1),
    },
    hsv: { h: hue, s: roundTo(max === 0 ? 0 : (delta / max) * 100, 1), v: roundTo(max * 100, 1) },
    cmyk:
      key === 1
        ? { c: 0, m: 0, y: 0, k: 100 }
        : {
            c: roundTo(((1 - rf - key) / (1 - key)) * 100, 1),
            m: roundTo(((1 - gf - key) / (1 - key)) * 100, 1),
            y: roundTo(((1 - bf - key) / (1 - key)) * 100, 1),
            k: roundTo(key * 100, 1),
          },
    name: givenName ?? nearest.name,
    distance: givenName ? 0 : roundTo(nearest.distance, 2),
    exactName: givenName !== undefined || exact,
    contrast: { black: roundTo(onBlack, 2), white: roundTo(onWhite, 2) },
    readableOn: onBlack >= onWhite ? "black" : "white",
  };
}
