/**
 * Avatar input, once for a JSON body and once for a query string. The query version reads the
 * same fields from strings; it is strict about them ("abc", "" and "1e3" are refused) rather
 * than using `z.coerce`, which would turn "" into 0 and `true` into 1.
 *
 * The option names, ranges and list forms are DiceBear's HTTP API's (9.x, api.dicebear.com), so
 * a DiceBear URL's query is accepted here as it is (drawn by DiceBear 10, so the picture can
 * differ from api.dicebear.com's): `scale` in percent 0–200, `translateX/Y` in
 * percent -100–100, `clip`, `backgroundType` solid/gradientLinear and `backgroundRotation`
 * -360–360, lists comma-separated in a query string (decision 044).
 */
import { z } from "zod";
import { QualitySchema } from "../_image/encode";
import { HexOrTransparentSchema } from "../_render/color";
import { AVATAR_STYLES, RASTER_SIZE_CAP, type AvatarStyle } from "./styles";

export const AVATAR_SIZE = { min: 16, max: 1024, default: 128 } as const;
export const BACKGROUND_TYPES = ["solid", "gradientLinear"] as const;
/** The longest list a list option takes: more than a palette needs, short enough to stay cheap. */
const MAX_LIST = 10;

const SeedSchema = z.string().max(200).default("").describe("Any text; the same seed and options give the same image.");
const StyleSchema = z.enum(AVATAR_STYLES).default("identicon");
export const AVATAR_FORMATS = ["svg", "png", "jpeg", "webp"] as const;
export type AvatarFormat = (typeof AVATAR_FORMATS)[number];

/**
 * svg, png, jpeg (or DiceBear's "jpg") and webp. AVIF is not offered: no AVIF encoder is in the
 * Worker and adding one is a new dependency (decision 044); asking for it gets a message that
 * says so rather than the generic list of options.
 */
const FormatSchema = z
  .enum([...AVATAR_FORMATS, "jpg"], {
    error: (issue) =>
      issue.input === "avif"
        ? "AVIF is not offered: no AVIF encoder runs in the Worker; use webp (smaller than PNG, with transparency) or png."
        : undefined,
  })
  .transform((format): AvatarFormat => (format === "jpg" ? "jpeg" : format))
  .default("svg")
  .describe(
    'svg (default), png, jpeg ("jpg" also read) or webp (lossy, keeps transparency). JPEG has no transparency: clear areas such as a round avatar\'s corners come out white. No AVIF: no encoder for it runs in the Worker.',
  );

const SizeNumber = z.number().int().min(AVATAR_SIZE.min).max(AVATAR_SIZE.max);
const RadiusNumber = z.number().min(0).max(50);
const RotateNumber = z.number().min(0).max(360);
const ScaleNumber = z.number().min(0).max(200);
const TranslateNumber = z.number().min(-100).max(100);
const BackgroundRotationNumber = z.number().min(-360).max(360);
const BackgroundTypeSchema = z.enum(BACKGROUND_TYPES);

const DOCS = {
  size: "Width and height in pixels.",
  backgroundColor:
    'Hex colour or "transparent", or a list of up to 10 (comma-separated in a query string, e.g. b6e3f4,c0aede): the seed picks one, or two for a gradient. Absent: the style\'s own background palette.',
  backgroundType:
    "solid (default) or gradientLinear, or a list of both for the seed to pick from (comma-separated in a query string). A gradient runs between two of the background colours.",
  backgroundRotation:
    "Angle of a gradient background in degrees, -360–360: one number, or two (comma-separated in a query string, e.g. 0,90) for a range the seed picks from. Default 0,360.",
  radius: "Corner radius in percent of the size (50 is a circle).",
  flip: "Mirror horizontally.",
  rotate: "Rotation in degrees, 0–360.",
  scale: "Size of the drawing in percent, 0–200, about its centre (default 100); the background stays whole.",
  translate: "Shift of the drawing in percent of the size, -100–100 (default 0).",
  clip: "Clip the drawing to the canvas (default true). With false and no radius, a drawing moved by scale or translate may overflow an inline SVG; a radius always clips.",
};

/** One value or a list of 1–10 in JSON; always a list once parsed. */
function oneOrList<Item extends z.ZodType>(item: Item, what: string) {
  return z.union([item.transform((value) => [value]), z.array(item).min(1).max(MAX_LIST)], {
    error: `must be ${what}, or a list of 1–${MAX_LIST} of them`,
  });
}

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
    size: SizeNumber.default(AVATAR_SIZE.default).describe(DOCS.size),
    backgroundColor: oneOrList(HexOrTransparentSchema, 'a hex colour or "transparent"')
      .optional()
      .describe(DOCS.backgroundColor),
    backgroundType: oneOrList(BackgroundTypeSchema, "solid or gradientLinear")
      .default(["solid"])
      .describe(DOCS.backgroundType),
    backgroundRotation: oneOrList(BackgroundRotationNumber, "a number from -360 to 360")
      .default([0, 360])
      .describe(DOCS.backgroundRotation),
    radius: RadiusNumber.default(0).describe(DOCS.radius),
    flip: z.boolean().default(false).describe(DOCS.flip),
    rotate: RotateNumber.default(0).describe(DOCS.rotate),
    scale: ScaleNumber.default(100).describe(DOCS.scale),
    translateX: TranslateNumber.default(0).describe(DOCS.translate),
    translateY: TranslateNumber.default(0).describe(DOCS.translate),
    clip: z.boolean().default(true).describe(DOCS.clip),
    format: FormatSchema,
    quality: QualitySchema.optional(),
  })
  .superRefine(checkRasterCap);

const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** A plain decimal number in a query string (a sign allowed), then the same bounds as the JSON field. */
function queryNumber(schema: z.ZodNumber) {
  return z.string().trim().regex(DECIMAL, "must be a number").transform(Number).pipe(schema);
}

/** A comma-separated list in a query string, as DiceBear's URLs write arrays. */
function queryList<Item extends z.ZodType<unknown, string>>(item: Item) {
  return z
    .string()
    .transform((text) => text.split(",").map((part) => part.trim()))
    .pipe(z.array(item).min(1).max(MAX_LIST));
}

export const AvatarQueryInputSchema = z
  .object({
    seed: SeedSchema,
    style: StyleSchema,
    size: queryNumber(SizeNumber).default(AVATAR_SIZE.default).describe(DOCS.size),
    backgroundColor: queryList(HexOrTransparentSchema).optional().describe(DOCS.backgroundColor),
    backgroundType: queryList(BackgroundTypeSchema).default(["solid"]).describe(DOCS.backgroundType),
    backgroundRotation: queryList(queryNumber(BackgroundRotationNumber))
      .default([0, 360])
      .describe(DOCS.backgroundRotation),
    radius: queryNumber(RadiusNumber).default(0).describe(DOCS.radius),
    // "true"/"false", "1"/"0", "yes"/"no", "on"/"off".
    flip: z.stringbool().default(false).describe(DOCS.flip),
    rotate: queryNumber(RotateNumber).default(0).describe(DOCS.rotate),
    scale: queryNumber(ScaleNumber).default(100).describe(DOCS.scale),
    translateX: queryNumber(TranslateNumber).default(0).describe(DOCS.translate),
    translateY: queryNumber(TranslateNumber).default(0).describe(DOCS.translate),
    clip: z.stringbool().default(true).describe(DOCS.clip),
    format: FormatSchema,
    quality: queryNumber(QualitySchema)
      .optional()
      .describe(QualitySchema.description ?? ""),
  })
  .superRefine(checkRasterCap);

/** What the engine takes: both schemas parse to this shape. */
export type AvatarInput = z.output<typeof AvatarJsonInputSchema>;
