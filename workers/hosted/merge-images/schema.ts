/**
 * Input of the merge API: 2–8 images and how to lay them out. The images are sources only
 * (a file, `{ url }` or `{ data }`); where each one goes in an overlay is a separate
 * `placements` list matched by position, so JSON and multipart calls describe it the same way
 * (a multipart file field cannot carry an x and a y of its own).
 */
import { z } from "zod";
import { ColorSchema } from "../_image/color";
import { DEFAULT_QUALITY, OUTPUT_FORMATS, QualitySchema } from "../_image/encode";
import { ImageDataUrlSchema, ImageFileSchema, ImageUrlSchema, jsonFromText, numberFromText } from "../_image/input";
import { MAX_SIDE } from "../_image/limits";

export const MIN_IMAGES = 2;
export const MAX_IMAGES = 8;

/** All images together, so eight 10 MB files cannot fill the isolate's memory. */
export const MAX_TOTAL_BYTES = 20 * 1024 * 1024;

/** 20 MB of images as base64 in JSON is ~26.7 MB; multipart needs less. */
export const MERGE_BODY_BYTES = 28 * 1024 * 1024;

export const LAYOUTS = ["horizontal", "vertical", "grid", "overlay"] as const;

export const MergeImageSchema = z.union([
  ImageFileSchema,
  z.object({ url: ImageUrlSchema }).strict(),
  z.object({ data: ImageDataUrlSchema }).strict(),
]);

export type MergeImage = z.output<typeof MergeImageSchema>;

/**
 * Multipart: one file arrives as a `File`, a repeated file field as an array of them, and a
 * list of `{ url }` / `{ data }` as JSON text. JSON: an array as is.
 */
const toImageList = (value: unknown): unknown => {
  if (value instanceof File) return [value];
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

const OffsetSchema = z.number().int().min(-MAX_SIDE).max(MAX_SIDE);

export const PlacementSchema = z.object({
  x: OffsetSchema.default(0),
  y: OffsetSchema.default(0),
  opacity: z.number().min(0).max(1).default(1),
});

export const MergeImagesInputSchema = z
  .object({
    images: z
      .preprocess(toImageList, z.array(MergeImageSchema).min(MIN_IMAGES).max(MAX_IMAGES))
      .describe(
        `${MIN_IMAGES}–${MAX_IMAGES} images, drawn in order: multipart files named \`images\`, or a JSON list of \`{ "url": … }\` and \`{ "data": "data:image/png;base64,…" }\`. PNG, JPEG, GIF, WebP or BMP, each up to 10 MB and ${MAX_SIDE}×${MAX_SIDE}, ${MAX_TOTAL_BYTES / 1024 / 1024} MB together.`,
      ),
    layout: z
      .enum(LAYOUTS)
      .default("horizontal")
      .describe(
        "`horizontal` (a row), `vertical` (a column), `grid` (rows of `columns` equal cells) or `overlay` (drawn on top of the first image).",
      ),
    gap: numberFromText(z.number().int().min(0).max(1024).default(0)).describe(
      "Pixels between images (not used by overlay).",
    ),
    columns: numberFromText(z.number().int().min(1).max(MAX_IMAGES).optional()).describe(
      "Columns of a grid; default the square root of the image count, rounded up.",
    ),
    align: z
      .enum(["start", "center", "end"])
      .default("start")
      .describe("Where a smaller image sits across the row, column or grid cell."),
    background: ColorSchema.prefault("transparent").describe(
      "Canvas colour: hex or `transparent` (JPEG output uses white for transparent).",
    ),
    placements: jsonFromText(z.array(PlacementSchema).max(MAX_IMAGES))
      .optional()
      .describe(
        "Overlay only: `{ x, y, opacity }` for each image in order (missing entries are 0, 0, 1). The canvas is the first image's size; whatever falls outside is clipped. In a multipart form, the list as JSON text.",
      ),
    format: z
      .enum(OUTPUT_FORMATS)
      .default("png")
      .describe("Output format: `png` (lossless), `jpeg` or `webp` (lossy, at `quality`; keeps transparency)."),
    quality: numberFromText(QualitySchema.default(DEFAULT_QUALITY)),
  })
  .refine((input) => input.placements === undefined || input.layout === "overlay", {
    message: "`placements` only apply to the overlay layout.",
    path: ["placements"],
  })
  .refine((input) => input.placements === undefined || input.placements.length <= input.images.length, {
    message: "There are more placements than images.",
    path: ["placements"],
  });

export type MergeImagesInput = z.output<typeof MergeImagesInputSchema>;
