/**
 * The spec-era `POST /api/qrcode` body, shaped after qr-code-styling's options:
 *
 *   { text, width, height, qrOptions: { errorCorrectionLevel }, imageOptions: { margin },
 *     dotsOptions: { color, type }, backgroundOptions: { color }, image | logo }
 *
 * mapped onto `createQrCode`'s input. Values pass through unchanged where the meaning is the
 * same, so the operation's schema refuses bad ones with the same messages as on the new path.
 *
 * Colours are the exception. qr-code-styling writes them into SVG `fill` attributes, so those
 * clients send any CSS colour ("black", "rgb(0 0 0)", "#0008"), while our renderer takes hex
 * only (it writes the value into our own SVG, where free text has no place). The adapter reads
 * the CSS forms and hands the renderer the colour a browser would paint (`foregroundForEngine`).
 */
import type { LegacyInput } from "../definition";
import { CSS_NAMED_COLORS } from "../colorconvert/css-named-colors";
import { QR_SIZE, QR_TEXT_MAX } from "./schema";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function member(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/**
 * qr-code-styling's dot types onto ours, by look: "extra-rounded" and "classy-rounded" are
 * rounder variants of "rounded"; "classy" rounds only two opposite corners of a module and
 * otherwise keeps its square outline, so "square" is its nearest. Unknown types pass through
 * and the schema refuses them.
 */
const DOT_TYPES: Record<string, "square" | "dots" | "rounded"> = {
  square: "square",
  dots: "dots",
  rounded: "rounded",
  "extra-rounded": "rounded",
  classy: "square",
  "classy-rounded": "rounded",
};

interface Rgba {
  /** 0–255, unrounded. */
  r: number;
  g: number;
  b: number;
  /** 0–1. */
  alpha: number;
}

/** qr-code-styling's and our default background. */
const DEFAULT_BACKGROUND = "#ffffff";

const NAMED_HEX = new Map<string, string>(CSS_NAMED_COLORS);
const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTION = /^(rgba?|hsla?)\(([^()]*)\)$/i;
const NUMBER = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)(%|deg|grad|rad|turn)?$/i;
const DEGREES_PER_UNIT = { deg: 1, grad: 0.9, rad: 180 / Math.PI, turn: 360 } as const;
/** Longer than any colour ("hsla(359.999deg, 100.000%, 100.000%, 0.999)" is 44), short enough to split cheaply. */
const COLOUR_MAX_LENGTH = 100;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

type Component = { value: number; unit: string } | "none";

function readComponent(token: string): Component | null {
  if (token.toLowerCase() === "none") return "none";
  const match = NUMBER.exec(token);
  const value = Number(match?.[1]);
  return match && Number.isFinite(value) ? { value, unit: (match[2] ?? "").toLowerCase() } : null;
}

/**
 * The arguments of rgb()/hsl() in either CSS syntax: legacy `1, 2, 3[, a]` or modern
 * `1 2 3[ / a]`; three components and an optional alpha.
 */
function readArguments(args: string): { components: Component[]; alpha: Component | undefined } | null {
  let tokens: string[];
  let alphaToken: string | undefined;
  if (args.includes(",")) {
    tokens = args.split(/\s*,\s*/);
    alphaToken = tokens.length === 4 ? tokens.pop() : undefined;
  } else {
    const [colour = "", alpha, ...extra] = args.split(/\s*\/\s*/);
    if (extra.length > 0) return null;
    tokens = colour.split(/\s+/);
    alphaToken = alpha;
  }
  if (tokens.length !== 3) return null;
  const components = tokens.map(readComponent);
  const alpha = alphaToken === undefined ? undefined : readComponent(alphaToken);
  if (components.some((component) => component === null) || alpha === null) return null;
  return { components: components as Component[], alpha };
}

function alphaOf(component: Component | undefined): number | null {
  if (component === undefined) return 1;
  if (component === "none") return 0;
  if (component.unit === "%") return clamp(component.value / 100, 0, 1);
  return component.unit === "" ? clamp(component.value, 0, 1) : null;
}

function rgbChannel(component: Component): number | null {
  if (component === "none") return 0;
  // value / 100 * 255, not value * 2.55: 50 * 2.55 is 127.4999…, and browsers paint 50% as 128.
  if (component.unit === "%") return clamp((component.value / 100) * 255, 0, 255);
  return component.unit === "" ? clamp(component.value, 0, 255) : null;
}

/** Saturation and lightness in percent (the modern syntax lets the `%` be left out). */
function percentage(component: Component): number | null {
  if (component === "none") return 0;
  return component.unit === "%" || component.unit === "" ? clamp(component.value, 0, 100) / 100 : null;
}

function hueDegrees(component: Component): number | null {
  if (component === "none") return 0;
  if (component.unit === "%") return null;
  const degrees = component.value * DEGREES_PER_UNIT[(component.unit || "deg") as keyof typeof DEGREES_PER_UNIT];
  // 1e308turn is a finite number but an infinite angle.
  return Number.isFinite(degrees) ? ((degrees % 360) + 360) % 360 : null;
}

/** CSS Color 4's hsl-to-rgb, channels 0–255. */
function rgbOfHsl(hue: number, saturation: number, lightness: number): [number, number, number] {
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const a = saturation * Math.min(lightness, 1 - lightness);
    return 255 * (lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return [channel(0), channel(8), channel(4)];
}

/**
 * A CSS colour as qr-code-styling's clients write it: a named colour, "transparent", `#rgb`,
 * `#rgba`, `#rrggbb`, `#rrggbbaa`, or rgb()/rgba()/hsl()/hsla() in either syntax. Out-of-range
 * components are clamped, as CSS itself does. Null for anything else.
 */
export function parseCssColor(input: string): Rgba | null {
  if (input.length > COLOUR_MAX_LENGTH) return null;
  const value = input.trim().toLowerCase();
  if (value === "transparent") return { r: 0, g: 0, b: 0, alpha: 0 };
  const named = NAMED_HEX.get(value);
  if (named) return parseCssColor(named);
  const hex = HEX.exec(value)?.[1];
  if (hex) {
    const digits = hex.length <= 4 ? [...hex].map((digit) => digit + digit) : (hex.match(/../g) ?? []);
    const [r = 0, g = 0, b = 0, alpha = 255] = digits.map((pair) => Number.parseInt(pair, 16));
    return { r, g, b, alpha: alpha / 255 };
  }
  const match = FUNCTION.exec(value);
  const parsed = match ? readArguments((match[2] ?? "").trim()) : null;
  if (!match || !parsed) return null;
  const [first, second, third] = parsed.components as [Component, Component, Component];
  const alpha = alphaOf(parsed.alpha);
  if (alpha === null) return null;
  if ((match[1] ?? "").startsWith("rgb")) {
    const [r, g, b] = [rgbChannel(first), rgbChannel(second), rgbChannel(third)];
    return r === null || g === null || b === null ? null : { r, g, b, alpha };
  }
  const [hue, saturation, lightness] = [hueDegrees(first), percentage(second), percentage(third)];
  if (hue === null || saturation === null || lightness === null) return null;
  const [r, g, b] = rgbOfHsl(hue, saturation, lightness);
  return { r, g, b, alpha };
}

function toHex({ r, g, b }: Pick<Rgba, "r" | "g" | "b">): string {
  return `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * What the renderer should draw for a CSS colour is what a browser paints of qr-code-styling's
 * output: opaque colours as hex, a fully transparent background as "transparent", and a
 * translucent foreground blended over an opaque background (source-over in sRGB, as a canvas
 * composites). What the renderer cannot draw (a translucent background, a translucent
 * foreground on a transparent one) and anything that is not a CSS colour pass through
 * unchanged for the schema to refuse; so does hex without `#`, which the schema takes.
 */
function backgroundForEngine(value: unknown): unknown {
  const colour = typeof value === "string" ? parseCssColor(value) : null;
  if (!colour) return value;
  if (colour.alpha === 1) return toHex(colour);
  return colour.alpha === 0 ? "transparent" : value;
}

function foregroundForEngine(value: unknown, background: unknown): unknown {
  const colour = typeof value === "string" ? parseCssColor(value) : null;
  if (!colour) return value;
  if (colour.alpha === 1) return toHex(colour);
  const backdrop = typeof background === "string" ? parseCssColor(background) : null;
  if (!backdrop || backdrop.alpha !== 1) return value;
  const blend = (top: number, bottom: number) => top * colour.alpha + bottom * (1 - colour.alpha);
  return toHex({ r: blend(colour.r, backdrop.r), g: blend(colour.g, backdrop.g), b: blend(colour.b, backdrop.b) });
}

export function adaptLegacyQrCode(raw: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) input[key] = value;
  };

  // qr-code-styling calls the content `data`; the spec-era API called it `text`.
  set("text", raw.text ?? raw.data);
  // The code is square: `width` wins, `height` stands in when it is the only one given.
  set("size", raw.width ?? raw.height);
  set("errorCorrection", member(raw.qrOptions, "errorCorrectionLevel"));
  const background = backgroundForEngine(member(raw.backgroundOptions, "color"));
  set("background", background);
  set("foreground", foregroundForEngine(member(raw.dotsOptions, "color"), background ?? DEFAULT_BACKGROUND));
  const dotType = member(raw.dotsOptions, "type");
  set("dotStyle", typeof dotType === "string" ? (DOT_TYPES[dotType] ?? dotType) : dotType);
  set("logo", raw.image ?? raw.logo);
  // In qr-code-styling `imageOptions.margin` is the space around the logo in pixels, not the quiet
  // zone, so it maps to `logoMargin` (also pixels), not to `margin` (modules). Its top-level
  // `margin` (quiet zone in pixels) is not part of the old shape; our default of 4 modules applies.
  set("logoMargin", member(raw.imageOptions, "margin"));
  set("format", raw.format);
  return input;
}

const cssColour = (what: string) => ({
  type: "string",
  description: `${what}: any CSS colour (a name, \`#rgb\`, \`#rrggbb\`, \`rgb()\`, \`hsl()\`).`,
});

/** The old body as the docs and OpenAPI show it; `adaptLegacyQrCode` above is what reads it. */
export const LEGACY_QR_INPUT: LegacyInput = {
  summary:
    "qr-code-styling's options: `text` (or `data`), `width`, `qrOptions.errorCorrectionLevel`, `dotsOptions.{color,type}`, `backgroundOptions.color` and a logo in `image` (or `logo`). Colours may be any CSS colour.",
  schema: {
    type: "object",
    anyOf: [{ required: ["text"] }, { required: ["data"] }],
    properties: {
      text: { type: "string", maxLength: QR_TEXT_MAX, description: "What the code holds." },
      data: { type: "string", maxLength: QR_TEXT_MAX, description: "qr-code-styling's name for `text`." },
      width: {
        type: "integer",
        minimum: QR_SIZE.min,
        maximum: QR_SIZE.max,
        description: "Width and height in pixels (the code is square).",
      },
      height: { type: "integer", minimum: QR_SIZE.min, maximum: QR_SIZE.max, description: "Used when `width` is not." },
      qrOptions: {
        type: "object",
        properties: { errorCorrectionLevel: { enum: ["L", "M", "Q", "H"] } },
      },
      imageOptions: {
        type: "object",
        properties: { margin: { type: "integer", minimum: 0, maximum: 200, description: "Pixels around the logo." } },
      },
      dotsOptions: {
        type: "object",
        properties: { color: cssColour("The modules"), type: { enum: Object.keys(DOT_TYPES) } },
      },
      backgroundOptions: { type: "object", properties: { color: cssColour("The background") } },
      image: { type: "string", description: "A logo for the centre, as a `data:image/…;base64,` URL." },
      logo: { type: "string", description: "The same as `image`." },
      format: { enum: ["png", "svg"] },
    },
  },
  example: {
    text: "https://portico.dev",
    width: 300,
    qrOptions: { errorCorrectionLevel: "Q" },
    dotsOptions: { color: "rebeccapurple", type: "extra-rounded" },
    backgroundOptions: { color: "#fff" },
  },
};
