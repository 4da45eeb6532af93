/**
 * Colours: parsing the colours callers send (hex or `transparent`), writing hex, and naming a
 * colour after the nearest CSS named colour. Nearness is measured in CIELAB (ΔE 1976) rather
 * than RGB, because equal RGB steps are not equal steps to the eye: in RGB, dark blues and
 * greens would be named after each other far too often.
 */
import { z } from "zod";
import { CSS_COLORS } from "./css-colors";

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface Rgba extends Rgb {
  /** 0–255, straight (not premultiplied). */
  a: number;
}

export const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 };
export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 255 };

const COLOR_PATTERN = /^(?:transparent|#?(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8}))$/i;

/** Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (the `#` optional) or `transparent`. */
export function parseColor(text: string): Rgba | null {
  const value = text.trim().toLowerCase();
  if (!COLOR_PATTERN.test(value)) return null;
  if (value === "transparent") return { ...TRANSPARENT };
  let hex = value.replace(/^#/, "");
  if (hex.length <= 4) hex = Array.from(hex, (digit) => digit + digit).join("");
  const channel = (index: number) => Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return { r: channel(0), g: channel(1), b: channel(2), a: hex.length === 8 ? channel(3) : 255 };
}

export const ColorSchema = z
  .string()
  .max(16)
  .transform((text, ctx) => {
    const color = parseColor(text);
    if (!color) {
      ctx.addIssue({ code: "custom", message: "Use a hex colour (#rgb, #rrggbb, #rrggbbaa) or `transparent`." });
      return z.NEVER;
    }
    return color;
  })
  .describe("A hex colour (`#rgb`, `#rrggbb`, `#rrggbbaa`) or `transparent`.");

export const HEX_PATTERN = /^#[0-9a-f]{6}$/;

export const toHex = ({ r, g, b }: Rgb): string =>
  `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;

function toLinear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** sRGB to CIELAB under D65. */
export function toLab({ r, g, b }: Rgb): [number, number, number] {
  const [lr, lg, lb] = [toLinear(r), toLinear(g), toLinear(b)];
  const x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047;
  const y = 0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb;
  const z = (0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const CSS_LABS = CSS_COLORS.map(([name, hex]) => {
  const rgb = parseColor(hex) ?? TRANSPARENT;
  return { name, lab: toLab(rgb) };
});

/** The CSS named colour closest to `color` (first in alphabetical order on a tie). */
export function nearestCssName(color: Rgb): string {
  const [l, a, b] = toLab(color);
  let best = "black";
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const { name, lab } of CSS_LABS) {
    const distance = (lab[0] - l) ** 2 + (lab[1] - a) ** 2 + (lab[2] - b) ** 2;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  return best;
}
