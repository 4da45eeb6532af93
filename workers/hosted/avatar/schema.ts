/**
 * Avatar input, once for a JSON body and once for a query string. The query version reads the
 * same fields from strings; it is strict about them ("abc", "" and "1e3" are refused) rather
 * than using `z.coerce`, which would turn "" into 0 and `true` into 1.
 */
import { z } from "zod";
import { HexOrTransparentSchema } from "../_render/color";
import { AVATAR_STYLES, RASTER_SIZE_CAP, type AvatarStyle } from "./styles";

export const AVATAR_SIZE = { min: 16, max: 1024, default: 128 } as const;

const SeedSchema = z.string().max(200).default("").describe("Any text; the same seed and options give the same image.");
const StyleSchema = z.enum(AVATAR_STYLES).default("identicon");
const FormatSchema = z.enum(["svg", "png"]).default("svg");
const BackgroundSchema = HexOrTransparentSchema.optional().describe(
  'Hex colour or "transparent"; absent: the style\'s own background palette, picked by the seed.',
);

const SizeNumber = z.number().int().min(AVATAR_SIZE.min).max(AVATAR_SIZE.max);
const RadiusNumber = z.number().min(0).max(50);
const RotateNumber = z.number().min(0).max(360);

/**
 * Styles with heavy filters are capped in raster formats (their measurements are in styles.ts);
 * a larger size is the caller's to change, so it is a field error on `size`, not an engine failure.
 */
function checkRasterCap(input: { style: AvatarStyle; size: number; format: string }, ctx: z.RefinementCtx): void {
  const cap = RASTER_SIZE_CAP[input.style];
  if (cap === undefined || input.format === "svg" || input.size <= cap) return;
  ctx.addIssue({
    code: "custom",
    path: ["size"],
    message: `style ${input.style} renders ${input.format.toUpperCase()} up to ${cap} px (its filters take seconds at larger sizes); use size ${cap} or less, or format svg.`,
  });
}

export const AvatarJsonInputSchema = z
  .object({
    seed: SeedSchema,
    style: StyleSchema,
    size: SizeNumber.default(AVATAR_SIZE.default).describe("Width and height in pixels."),
    backgroundColor: BackgroundSchema,
    radius: RadiusNumber.default(0).describe("Corner radius in percent of the size (50 is a circle)."),
    flip: z.boolean().default(false).describe("Mirror horizontally."),
    rotate: RotateNumber.default(0).describe("Rotation in degrees."),
    format: FormatSchema,
  })
  .superRefine(checkRasterCap);

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

/** A plain decimal number in a query string, then the same bounds as the JSON field. */
function queryNumber(schema: z.ZodNumber) {
  return z.string().trim().regex(DECIMAL, "must be a number").transform(Number).pipe(schema);
}

export const AvatarQueryInputSchema = z
  .object({
    seed: SeedSchema,
    style: StyleSchema,
    size: queryNumber(SizeNumber).default(AVATAR_SIZE.default),
    backgroundColor: BackgroundSchema,
    radius: queryNumber(RadiusNumber).default(0),
    // "true"/"false", "1"/"0", "yes"/"no", "on"/"off".
    flip: z.stringbool().default(false),
    rotate: queryNumber(RotateNumber).default(0),
    format: FormatSchema,
  })
  .superRefine(checkRasterCap);

/** What the engine takes: both schemas parse to this shape. */
export type AvatarInput = z.output<typeof AvatarJsonInputSchema>;
