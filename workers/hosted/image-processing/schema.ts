/**
 * Input of the image filters API: one image and an ordered list of operations applied in
 * turn, then the output format. Ranges follow imgix's (`bri`, `con`, `sat` in -100…100, hue
 * in degrees) so callers coming from there need no conversion. In a multipart form the image
 * is a `File`, `operations` JSON text and `quality` text (`_image/input.ts` describes the forms).
 */
import { z } from "zod";
import { ColorSchema } from "../_image/color";
import { DEFAULT_QUALITY, OUTPUT_FORMATS, QualitySchema } from "../_image/encode";
import { hasExactlyOneImage, imageInputShape, jsonFromText, numberFromText, ONE_IMAGE_MESSAGE } from "../_image/input";
import { MAX_SIDE } from "../_image/limits";

export const MAX_OPERATIONS = 20;

const SideSchema = z.number().int().min(1).max(MAX_SIDE);
const PercentSchema = z.number().min(-100).max(100);
const DegreesSchema = z.number().min(-360).max(360);
const BackgroundSchema = ColorSchema.prefault("transparent");

export const RESIZE_FITS = ["cover", "contain", "fill", "inside"] as const;

export const GRAYSCALE_METHODS = ["luma601", "luma709", "luminance"] as const;
export type GrayscaleMethod = (typeof GRAYSCALE_METHODS)[number];

export const OperationSchema = z.discriminatedUnion("op", [
  z
    .object({
      op: z.literal("grayscale"),
      method: z
        .enum(GRAYSCALE_METHODS)
        .default("luma601")
        .describe(
          "How the grey level is computed. `luma601` (default): Rec.601 luma of the stored sRGB values, round(0.299·R + 0.587·G + 0.114·B). `luma709`: Rec.709 luma of the stored values, round(0.2126·R + 0.7152·G + 0.0722·B). `luminance`: relative luminance in linear light, as perceptual tools compute it: each channel decoded from sRGB to linear (IEC 61966-2-1), Y = 0.2126·R + 0.7152·G + 0.0722·B, encoded back to sRGB and rounded (pure red → 127, where luma601 gives 76).",
        ),
    })
    .describe("Greyscale: r = g = b = the grey level given by `method` (default Rec.601 luma); alpha kept."),
  z
    .object({ op: z.literal("blur"), radius: z.number().int().min(1).max(100) })
    .describe("Gaussian blur with a radius of 1–100 pixels."),
  z
    .object({
      op: z.literal("sharpen"),
      amount: z.number().min(1).max(150).default(80),
      radius: z.number().min(0.5).max(3).default(1),
    })
    .describe("Unsharp mask: strength 1–150 (default 80), radius 0.5–3 pixels (default 1)."),
  z
    .object({ op: z.literal("brightness"), amount: PercentSchema })
    .describe(
      "Brightness, -100 (black) to 100 (white): round(2.55 × amount) is added to r, g and b of every pixel, clamped to 0–255; alpha kept.",
    ),
  z.object({ op: z.literal("contrast"), amount: PercentSchema }).describe("Contrast, -100 (flat grey) to 100."),
  z
    .object({ op: z.literal("saturation"), amount: PercentSchema })
    .describe(
      "Saturation in HSL, -100 (greyscale) to 100: a positive amount moves each pixel's saturation that percentage of the way to full, a negative one that percentage of the way to none.",
    ),
  z.object({ op: z.literal("hue"), degrees: DegreesSchema }).describe("Hue rotation in degrees (red → green at 120)."),
  z.object({ op: z.literal("invert") }).describe("Negative of each colour channel; alpha kept."),
  z.object({ op: z.literal("sepia") }).describe("Sepia tone."),
  z
    .object({
      op: z.literal("resize"),
      width: SideSchema.optional(),
      height: SideSchema.optional(),
      fit: z.enum(RESIZE_FITS).default("cover"),
      background: BackgroundSchema,
    })
    .refine((value) => value.width !== undefined || value.height !== undefined, {
      message: "resize needs a width, a height or both.",
      path: ["width"],
    })
    .describe(
      "Resize to at most 4096 per side. With one side only, the other keeps the aspect ratio. With both: `cover` fills the box and crops the overflow (centred), `contain` fits inside and pads with `background`, `fill` stretches, `inside` fits inside without padding.",
    ),
  z
    .object({
      op: z.literal("crop"),
      x: z
        .number()
        .int()
        .min(0)
        .max(MAX_SIDE - 1),
      y: z
        .number()
        .int()
        .min(0)
        .max(MAX_SIDE - 1),
      width: SideSchema,
      height: SideSchema,
    })
    .describe("Keep the rectangle with its top-left corner at (x, y); it must lie inside the image."),
  z
    .object({ op: z.literal("rotate"), degrees: DegreesSchema, background: BackgroundSchema })
    .describe(
      "Rotate clockwise by any angle. Multiples of 90° are exact; other angles enlarge the canvas to hold the whole image and fill the corners with `background` (default transparent).",
    ),
  z
    .object({ op: z.literal("flip"), direction: z.enum(["horizontal", "vertical"]) })
    .describe("Mirror left-right (horizontal) or top-bottom (vertical)."),
]);

export type ImageOperation = z.output<typeof OperationSchema>;

export const ImageProcessingInputSchema = z
  .object({
    ...imageInputShape,
    // In a multipart form this field is the JSON text of the list.
    operations: jsonFromText(
      z
        .array(OperationSchema)
        .min(1, "Give at least one operation.")
        .max(MAX_OPERATIONS, `At most ${MAX_OPERATIONS} operations per call.`),
    ).describe(`Operations applied in order, 1–${MAX_OPERATIONS}. In a multipart form, the list as JSON text.`),
    format: z
      .enum(OUTPUT_FORMATS)
      .optional()
      .describe(
        "Output format. Default: the input's format when it is PNG, JPEG or WebP, otherwise PNG. JPEG and WebP output is lossy, at `quality`; PNG is lossless.",
      ),
    quality: numberFromText(QualitySchema.default(DEFAULT_QUALITY)),
  })
  .refine(hasExactlyOneImage, { message: ONE_IMAGE_MESSAGE, path: ["image"] });

export type ImageProcessingInput = z.output<typeof ImageProcessingInputSchema>;
