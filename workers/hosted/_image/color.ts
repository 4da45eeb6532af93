/**
 * Colours the image APIs read and write: parsing the colours callers send (hex or
 * `transparent`) and writing hex. Naming a colour is the Color Converter's job
 * (`describeColor`), which measures nearness in CIELAB.
 */
import { z } from "zod";

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
