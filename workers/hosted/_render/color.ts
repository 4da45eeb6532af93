/**
 * Colours as the image APIs accept them: `#rgb` or `#rrggbb` (the `#` optional, any case),
 * normalised to lowercase `#rrggbb` so the same colour always renders the same bytes. Named
 * colours and `rgb()` are refused: they would reach the SVG as free text.
 */
import { z } from "zod";

const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function normalizeHexColor(value: string): string {
  const hex = value.replace(/^#/, "").toLowerCase();
  if (hex.length === 3) return `#${[...hex].map((digit) => digit + digit).join("")}`;
  return `#${hex}`;
}

export const HexColorSchema = z
  .string()
  .regex(HEX_COLOR, "must be a hex colour such as #1a2b3c or #fff")
  .transform(normalizeHexColor);

/** A hex colour, or "transparent" (kept as that word). */
export const HexOrTransparentSchema = z.union([z.literal("transparent"), HexColorSchema]);
