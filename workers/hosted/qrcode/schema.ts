import { z } from "zod";
import { HexColorSchema, HexOrTransparentSchema } from "../_render/color";
import { QualitySchema } from "../_image/encode";
import { LogoSchema } from "./logo";

/** Byte-mode capacity of version 40 at level L; fewer fit at M, Q and H, and in UTF-8 beyond ASCII. */
export const QR_TEXT_MAX = 2953;
export const QR_SIZE = { min: 64, max: 2048, default: 300 } as const;

export const QrCodeInputSchema = z.object({
  text: z
    .string()
    .min(1)
    .max(QR_TEXT_MAX)
    // The code holds the text's UTF-8 bytes; half a surrogate pair (which JSON's \ud800 escapes
    // can carry) has none.
    .refine(
      (text) => text.isWellFormed(),
      "must be valid Unicode: a lone surrogate (\\ud800–\\udfff) has no UTF-8 form",
    )
    .describe("What the code holds: a URL, text, a vCard, Wi-Fi settings, …"),
  size: z
    .number()
    .int()
    .min(QR_SIZE.min)
    .max(QR_SIZE.max)
    .default(QR_SIZE.default)
    .describe("Width and height in pixels."),
  margin: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(4)
    .describe("Quiet zone around the code, in modules (4 is the standard's minimum)."),
  errorCorrection: z
    .enum(["L", "M", "Q", "H"])
    .default("M")
    .describe("L 7%, M 15%, Q 25%, H 30% recoverable; H is forced when a logo is present."),
  foreground: HexColorSchema.default("#000000"),
  background: HexOrTransparentSchema.default("#ffffff"),
  format: z
    .enum(["png", "svg", "jpeg", "webp"])
    .default("png")
    .describe(
      "png (lossless, keeps transparency), svg, jpeg (no alpha: a transparent background becomes white) or webp (lossy, keeps transparency). No GIF: no encoder in the Worker writes it.",
    ),
  quality: QualitySchema.optional(),
  dotStyle: z
    .enum(["square", "dots", "rounded"])
    .default("square")
    .describe("Finder and alignment patterns stay square in every style."),
  logo: LogoSchema.optional(),
  logoMargin: z
    .number()
    .int()
    .min(0)
    .max(200)
    .optional()
    .describe("Space between the logo and the edge of its white pad, in pixels; default a tenth of the pad."),
});

export type QrCodeInput = z.output<typeof QrCodeInputSchema>;
