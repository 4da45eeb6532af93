/**
 * Input and output of the colour picker. The image arrives as a multipart `File`, a data URL
 * or a `url` (`_image/input.ts` describes the forms); in a multipart form `count` is text.
 */
import { z } from "zod";
import { HEX_PATTERN } from "../_image/color";
import { hasExactlyOneImage, imageInputShape, numberFromText, ONE_IMAGE_MESSAGE } from "../_image/input";

export const MAX_COLORS = 16;

export const ImageColorPickerInputSchema = z
  .object({
    ...imageInputShape,
    count: numberFromText(z.number().int().min(1).max(MAX_COLORS).default(5)).describe(
      `Most colours to return, 1–${MAX_COLORS} (default 5). Fewer come back when the image has fewer distinct colours.`,
    ),
  })
  .refine(hasExactlyOneImage, { message: ONE_IMAGE_MESSAGE, path: ["image"] });

export type ImageColorPickerInput = z.output<typeof ImageColorPickerInputSchema>;

const HexSchema = z.string().regex(HEX_PATTERN).describe("`#rrggbb`, lower case.");
const ChannelSchema = z.number().int().min(0).max(255);

export const SwatchSchema = z.object({
  hex: HexSchema,
  rgb: z.object({ r: ChannelSchema, g: ChannelSchema, b: ChannelSchema }),
  share: z.number().min(0).max(1).describe("Fraction of the image's visible pixels closest to this colour."),
  name: z.string().describe("The nearest CSS named colour (by CIELAB distance)."),
});

export const ImageColorPickerOutputSchema = z.object({
  palette: z
    .array(SwatchSchema)
    .min(1)
    .max(MAX_COLORS)
    .describe("Ordered by share, largest first; shares sum to 1 (±0.001)."),
  dominant: HexSchema.describe("The palette's first colour."),
  background: z
    .union([HexSchema, z.literal("transparent")])
    .describe("The most common colour along the image's edge, or `transparent` when the whole edge is."),
});

export type ImageColorPickerOutput = z.output<typeof ImageColorPickerOutputSchema>;
