import { z } from "zod";
import { HexColorSchema, HexOrTransparentSchema } from "../_render/color";
import { QualitySchema } from "../_image/encode";
import { hasExactlyOneImage, imageInputShape, numberFromText, ONE_IMAGE_MESSAGE } from "../_image/input";
import { SIGNED_URL_DEFAULT_LIFETIME_SECONDS, SIGNED_URL_MAX_LIFETIME_SECONDS } from "~workers/gateway/signed-url";
import { LogoSchema } from "./logo";

/** Byte-mode capacity of version 40 at level L; fewer fit at M, Q and H, and in UTF-8 beyond ASCII. */
export const QR_TEXT_MAX = 2953;
export const QR_SIZE = { min: 64, max: 2048, default: 300 } as const;

export const QR_CHARSETS = ["UTF-8", "ISO-8859-1"] as const;
export type QrCharset = (typeof QR_CHARSETS)[number];

export const QR_FORMATS = ["png", "svg", "jpeg", "webp", "gif"] as const;

/** The first character ISO-8859-1 has no byte for (above U+00FF), or null when all fit. */
export function firstNonLatin1(text: string): string | null {
  for (const character of text) if ((character.codePointAt(0) ?? 0) > 0xff) return character;
  return null;
}

const TextSchema = z
  .string()
  .min(1)
  .max(QR_TEXT_MAX)
  // The code holds the text's UTF-8 bytes; half a surrogate pair (which JSON's \ud800 escapes
  // can carry) has none.
  .refine((text) => text.isWellFormed(), "must be valid Unicode: a lone surrogate (\\ud800–\\udfff) has no UTF-8 form")
  .describe("What the code holds: a URL, text, a vCard, Wi-Fi settings, …");

const SizeSchema = z
  .number()
  .int()
  .min(QR_SIZE.min)
  .max(QR_SIZE.max)
  .default(QR_SIZE.default)
  .describe("Width and height in pixels.");

const MarginSchema = z
  .number()
  .int()
  .min(0)
  .max(20)
  .default(4)
  .describe("Quiet zone around the code, in modules (4 is the standard's minimum).");

/** The options every form of the call takes: the JSON body, the GET query and a signed URL. */
const qrOptionFields = {
  errorCorrection: z
    .enum(["L", "M", "Q", "H"])
    .default("M")
    .describe("L 7%, M 15%, Q 25%, H 30% recoverable; H is forced when a logo is present."),
  foreground: HexColorSchema.default("#000000"),
  background: HexOrTransparentSchema.default("#ffffff"),
  charset: z
    .enum(QR_CHARSETS)
    .default("UTF-8")
    .describe(
      "How the text becomes bytes in the code: UTF-8 (any text; what phone scanners expect) or ISO-8859-1 (one byte per character, so Latin-1 text fits a smaller code; QR's default byte charset, read by older scanners).",
    ),
  format: z
    .enum(QR_FORMATS)
    .default("png")
    .describe(
      "png (lossless, keeps transparency), svg, jpeg (no alpha: a transparent background becomes white), webp (lossy, keeps transparency) or gif (lossless up to 256 colours; a transparent background stays transparent, with GIF's one-bit alpha).",
    ),
  dotStyle: z
    .enum(["square", "dots", "rounded"])
    .default("square")
    .describe("Finder and alignment patterns stay square in every style."),
};

function refuseNonLatin1(input: { charset: QrCharset; text: string }, ctx: z.RefinementCtx): void {
  if (input.charset !== "ISO-8859-1") return;
  const outside = firstNonLatin1(input.text);
  if (outside === null) return;
  ctx.addIssue({
    code: "custom",
    path: ["text"],
    message: `holds "${outside}", which ISO-8859-1 cannot encode; use charset UTF-8 or only characters up to U+00FF.`,
  });
}

export const QrCodeInputSchema = z
  .object({
    text: TextSchema,
    size: SizeSchema,
    margin: MarginSchema,
    ...qrOptionFields,
    quality: QualitySchema.optional(),
    logo: LogoSchema.optional(),
    logoMargin: z
      .number()
      .int()
      .min(0)
      .max(200)
      .optional()
      .describe("Space between the logo and the edge of its white pad, in pixels; default a tenth of the pad."),
  })
  .superRefine(refuseNonLatin1);

/**
 * The GET form's query (`<img src>`, signed URLs): the same options as text, numbers parsed
 * from their digits. No logo: a data URL of up to 200 KB does not belong in a URL.
 */
const qrQueryFields = {
  text: TextSchema,
  size: numberFromText(SizeSchema),
  margin: numberFromText(MarginSchema),
  ...qrOptionFields,
  quality: numberFromText(QualitySchema.optional()),
};

export const QrCodeQuerySchema = z.object(qrQueryFields).superRefine(refuseNonLatin1);

/** Longest a signed URL may live, and how long unless asked: decision 043. */
export const SIGNED_URL_LIFETIME = {
  max: SIGNED_URL_MAX_LIFETIME_SECONDS,
  default: SIGNED_URL_DEFAULT_LIFETIME_SECONDS,
} as const;

export const QrSignedUrlInputSchema = z
  .object({
    ...qrQueryFields,
    expiresIn: z
      .number()
      .int()
      .min(60)
      .max(SIGNED_URL_LIFETIME.max)
      .default(SIGNED_URL_LIFETIME.default)
      .describe(
        `Seconds the URL works for: 60 to ${SIGNED_URL_LIFETIME.max} (seven days), default ${SIGNED_URL_LIFETIME.default} (a day).`,
      ),
  })
  .superRefine(refuseNonLatin1);

export type QrSignedUrlInput = z.output<typeof QrSignedUrlInputSchema>;

export const QrSignedUrlOutputSchema = z.object({
  url: z
    .string()
    .describe(
      "GET /api/v1/qrcode with your options, key_id, expires and signature: use it as it is, e.g. as an <img src>.",
    ),
  expiresAt: z.string().describe("When the URL stops working (ISO 8601, UTC)."),
});

export type QrCodeInput = z.output<typeof QrCodeInputSchema>;

/** The decode operation's input: one image, in any of the forms the image APIs take. */
export const QrDecodeInputSchema = z
  .object({ ...imageInputShape })
  .refine(hasExactlyOneImage, { message: ONE_IMAGE_MESSAGE, path: ["image"] });

export type QrDecodeInput = z.output<typeof QrDecodeInputSchema>;

const PointSchema = z.object({ x: z.number(), y: z.number() });

export const QrFoundCodeSchema = z.object({
  text: z
    .string()
    .describe(
      "What the code holds, as text (UTF-8, or ISO-8859-1 where the bytes are not UTF-8, or the charset an ECI marker names).",
    ),
  errorCorrection: z
    .enum(["L", "M", "Q", "H"])
    .nullable()
    .describe("The level the code was made at, read from its format information."),
  version: z
    .number()
    .int()
    .min(1)
    .max(40)
    .nullable()
    .describe("1–40 for QR codes (21 to 177 modules a side); M1–M4 and rMQR sizes are answered as null."),
  format: z.string().describe("QRCode, MicroQRCode or RMQRCode."),
  position: z
    .object({ topLeft: PointSchema, topRight: PointSchema, bottomRight: PointSchema, bottomLeft: PointSchema })
    .describe("The code's corners in image pixels, counted from the top-left of the image."),
});

export const QrDecodeOutputSchema = z.object({
  count: z.number().int().min(1).describe("How many codes were found."),
  codes: z.array(QrFoundCodeSchema).min(1).describe("Each code found, in the order ZXing found them."),
});

export type QrDecodeOutput = z.output<typeof QrDecodeOutputSchema>;
