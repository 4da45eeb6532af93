/**
 * Remove Background's input, under remove.bg's names (`image_file`, `image_url`,
 * `image_file_b64`, `size`, `format`, `bg_color`, `crop`, `channels`), in multipart or JSON
 * (remove.bg's form-encoded bodies are not read: the gateway reads JSON and multipart only, the
 * same for every API). remove.bg's older size names map onto ours; its
 * parameters that would change the answer in ways no engine here does (a background image, a
 * shadow, a region of interest) are refused at their field rather than silently ignored; its
 * hints (`type`, `type_level`, `semitransparency`) are accepted and have no effect.
 */
import { z } from "zod";
import type { CutoutFormat, CutoutRequest, CutoutSize } from "~workers/hosted/capabilities";
import { CSS_NAMED_COLORS } from "../colorconvert/css-named-colors";
import { parseColor, type Rgba } from "../_image/color";
import { ImageFileSchema, ImageUrlSchema } from "../_image/input";
import { MAX_DATA_URL_LENGTH, MAX_IMAGE_BYTES } from "../_image/limits";

const MAX_MB = MAX_IMAGE_BYTES / (1024 * 1024);

/** JSON sends booleans; a multipart form and remove.bg's clients send "true"/"false". */
const BooleanInput = z.union([z.boolean(), z.stringbool()]);

const NAMED = new Map(CSS_NAMED_COLORS.map(([name, hex]) => [name, hex]));

/** remove.bg's `bg_color`: hex with or without `#` (`81d4fa`, `fff`, `81d4fa77`) or a CSS colour name. */
export function parseBackgroundColour(text: string): Rgba | null {
  const value = text.trim().toLowerCase();
  return parseColor(NAMED.get(value) ?? value);
}

const BackgroundColourSchema = z
  .string()
  .max(32)
  .transform((text, ctx) => {
    const colour = parseBackgroundColour(text);
    if (!colour) {
      ctx.addIssue({
        code: "custom",
        message: "A hex colour (`81d4fa`, `#fff`, `81d4fa77` with alpha) or a CSS colour name (`skyblue`).",
      });
      return z.NEVER;
    }
    return colour;
  })
  .describe(
    "Fills the removed background: a hex colour as remove.bg takes it (`81d4fa`, `fff`, with or without `#`; `81d4fa77` or `fff7` with alpha) or a CSS colour name (`skyblue`, `white`). Absent or `transparent`: transparent.",
  );

/** remove.bg's size names, and which of ours each is. */
export const SIZE_NAMES: Record<string, CutoutSize> = {
  preview: "preview",
  small: "preview",
  regular: "preview",
  medium: "medium",
  full: "full",
  hd: "full",
  "4k": "full",
  auto: "full",
  "50mp": "full",
};

const SizeSchema = z
  .string()
  .transform((text, ctx) => {
    const size = SIZE_NAMES[text.trim().toLowerCase()];
    if (!size) {
      ctx.addIssue({
        code: "custom",
        message: "preview, medium, full or auto (remove.bg's small, regular, hd, 4k and 50MP too).",
      });
      return z.NEVER;
    }
    return size;
  })
  .describe(
    "The answer's largest size: `preview` (remove.bg's `small` and `regular` too) up to 0.25 megapixels; `medium` up to 1.5; `full` (`auto`, `hd`, `4k`, `50MP`) the image's own size up to 3 megapixels, the most the engines hold. A larger image is scaled down, keeping its shape; a smaller one is never enlarged. Default `auto`.",
  );

const FormatSchema = z
  .enum(["auto", "png", "webp", "jpg", "jpeg"])
  .describe(
    "`png` (transparent), `webp` (lossy, transparent) or `jpg` (no transparency, so `bg_color` is required; one with alpha is laid over white). `auto` (the default, as remove.bg's): `jpg` when `bg_color` is an opaque colour, else `png`. `jpeg` is taken for `jpg`.",
  );

/** remove.bg's parameters no engine here honours: refused, since ignoring them would answer something else. */
const UNSUPPORTED = ["bg_image_url", "bg_image_file", "roi", "scale", "position", "crop_margin", "add_shadow"] as const;

const unsupportedShape = Object.fromEntries(
  UNSUPPORTED.map((name) => [
    name,
    z
      .unknown()
      .optional()
      .describe(
        `remove.bg's \`${name}\`: not supported here, and refused when given (\`add_shadow: false\` is accepted).`,
      ),
  ]),
) as Record<(typeof UNSUPPORTED)[number], z.ZodOptional<z.ZodUnknown>>;

const RAW_BASE64 = /^[A-Za-z0-9+/=\s]+$/;
const DATA_URL = /^data:[^,;]*(?:;[^,;]*)*;base64,/i;

export const RemoveBgInputSchema = z
  .object({
    image_file: ImageFileSchema.optional().describe(
      `The image, uploaded as a file field of a multipart form: PNG, JPEG or WebP up to ${MAX_MB} MB (the type is read from the bytes).`,
    ),
    image_url: ImageUrlSchema.optional().describe(
      `An http(s) URL of the image, fetched by us (public addresses only, up to ${MAX_MB} MB).`,
    ),
    image_file_b64: z
      .string()
      .max(MAX_DATA_URL_LENGTH, `An image may be at most ${MAX_MB} MB.`)
      .refine(
        (text) => DATA_URL.test(text) || RAW_BASE64.test(text),
        "Base64 of the image's bytes, plain as remove.bg takes it or as a data URL (`data:image/png;base64,…`).",
      )
      .optional()
      .describe(
        "The image's bytes in base64: plain, as remove.bg takes it, or a data URL (`data:image/png;base64,…`).",
      ),
    size: SizeSchema.default("full"),
    format: FormatSchema.default("auto"),
    bg_color: BackgroundColourSchema.optional(),
    crop: BooleanInput.default(false).describe(
      "Crop the answer to the subject's box (with its feathered edge). `X-Foreground-*` then describe the whole image. Default false.",
    ),
    channels: z
      .enum(["rgba", "alpha"])
      .default("rgba")
      .describe(
        "`rgba` (default): the subject in colour on transparency or `bg_color`; `alpha`: the mask alone as a greyscale image, white for the subject, black for the background (`bg_color` does not apply).",
      ),
    type: z
      .string()
      .max(32)
      .optional()
      .describe("remove.bg's subject hint (`auto`, `person`, `product`, …): accepted, no effect."),
    type_level: z.string().max(16).optional().describe("remove.bg's classification level: accepted, no effect."),
    semitransparency: z.unknown().optional().describe("remove.bg's semi-transparency switch: accepted, no effect."),
    ...unsupportedShape,
  })
  .superRefine((value, ctx) => {
    const sources = [value.image_file, value.image_url, value.image_file_b64].filter((source) => source !== undefined);
    if (sources.length !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["image_file"],
        message: "Send exactly one image: `image_file` (a file), `image_url` or `image_file_b64`.",
      });
    }
    for (const name of UNSUPPORTED) {
      const given = value[name];
      if (given === undefined || given === "" || (name === "add_shadow" && (given === false || given === "false")))
        continue;
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: `remove.bg's \`${name}\` is not supported: no engine here does it. Leave it out.`,
      });
    }
    const coloured = value.bg_color !== undefined && value.bg_color.a > 0;
    if ((value.format === "jpg" || value.format === "jpeg") && value.channels === "rgba" && !coloured) {
      ctx.addIssue({
        code: "custom",
        path: ["format"],
        message: "JPEG has no transparency: give a `bg_color` with `jpg`, or ask for `png` or `webp`.",
      });
    }
  });

export type RemoveBgInput = z.output<typeof RemoveBgInputSchema>;

/** The format answered: `auto` is `jpg` on an opaque background (a mask is greyscale PNG), else `png`. */
export function resolveFormat(input: RemoveBgInput): CutoutFormat {
  if (input.format === "jpeg") return "jpg";
  if (input.format !== "auto") return input.format;
  if (input.channels === "alpha") return "png";
  return input.bg_color?.a === 255 ? "jpg" : "png";
}

/** The engine's options from the parsed input (the image's bytes are loaded by the handler). */
export function cutoutOptions(input: RemoveBgInput, timeoutMs: number): Omit<CutoutRequest, "image"> {
  const background = input.bg_color && input.bg_color.a > 0 ? input.bg_color : undefined;
  return {
    format: resolveFormat(input),
    ...(background && { background }),
    size: input.size,
    crop: input.crop,
    channels: input.channels,
    timeoutMs,
  };
}

/** `image_file_b64` as bytes' data URL: remove.bg's plain base64 gets a prefix. */
export const asDataUrl = (base64: string): string =>
  DATA_URL.test(base64) ? base64 : `data:application/octet-stream;base64,${base64}`;
