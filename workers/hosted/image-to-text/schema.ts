/**
 * Input and output of image-to-text. The image arrives as a multipart file, a base64 data URL
 * or a `url` (`_image/input.ts`), under our names or OCR.space's (`file`, `base64Image`,
 * `isOverlayRequired`, `ger`/`fre`): OCR.space's request fields are accepted, but the answer has
 * our shape, not OCR.space's `ParsedResults` (the docs map one onto the other), so a client
 * written for OCR.space must read the answer anew.
 */
import { z } from "zod";
import {
  OCR_LANGUAGE_ALIASES,
  OCR_LANGUAGE_NAMES,
  OCR_LANGUAGES,
  type OcrLanguage,
} from "~workers/hosted/ocr-languages";
import { ImageDataUrlSchema, ImageFileSchema, ImageUrlSchema } from "../_image/input";
import { MAX_IMAGE_BYTES } from "../_image/limits";

const MAX_MB = MAX_IMAGE_BYTES / (1024 * 1024);

export const LANGUAGES_TEXT = OCR_LANGUAGES.map((code) => `\`${code}\` ${OCR_LANGUAGE_NAMES[code]}`).join(", ");

const LANGUAGE_NAMES_ACCEPTED = [...OCR_LANGUAGE_ALIASES.keys()] as [string, ...string[]];

const LanguageSchema = z
  .preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(LANGUAGE_NAMES_ACCEPTED, {
      message:
        "a language this API reads, by Tesseract's code (eng, deu, chi_sim, …), OCR.space's (ger, chs, …) or ISO 639-1 (en, de, …); the docs list them all",
    }),
  )
  .transform((name): OcrLanguage => OCR_LANGUAGE_ALIASES.get(name)!)
  .describe(
    `The text's language, which picks Tesseract's trained model: ${LANGUAGES_TEXT}. OCR.space's codes (\`ger\`, \`fre\`, \`chs\`, \`cht\`, \`cze\`, \`dut\`, \`gre\`, \`vnm\`) and ISO 639-1 codes (\`en\`, \`de\`, \`ja\`, …) are accepted too; case is ignored. Default \`eng\`.`,
  );

/** JSON sends booleans; a multipart form and OCR.space's clients send "true"/"false". */
const BooleanInput = z.union([z.boolean(), z.stringbool()]);

const IMAGE_TEXT = `PNG, JPEG, GIF (its first frame), WebP, BMP or uncompressed TIFF, up to ${MAX_MB} MB (a larger file is refused as invalid-input at this field) and 9 megapixels (GIF, WebP and BMP 3; a colour JPEG about 4); the type is read from the bytes`;

export const ImageToTextInputSchema = z
  .object({
    image: z
      .union([ImageFileSchema, ImageDataUrlSchema])
      .optional()
      .describe(`The image: a file field in a multipart form, or a base64 data URL in JSON. ${IMAGE_TEXT}.`),
    file: ImageFileSchema.optional().describe("OCR.space's name for the uploaded file: the same as `image`."),
    base64Image: ImageDataUrlSchema.optional().describe(
      "OCR.space's name for a base64 data URL (`data:image/png;base64,…`): the same as `image`.",
    ),
    url: ImageUrlSchema.optional(),
    language: LanguageSchema.default("eng"),
    detectOrientation: BooleanInput.default(false).describe(
      "Find whether the page is turned 90°, 180° or 270° and read it upright; `orientation` says by how much it was turned. Default false.",
    ),
    wordBoxes: BooleanInput.optional().describe(
      "Answer each line's `words` with their text, confidence and box. Default false (lines only).",
    ),
    isOverlayRequired: BooleanInput.optional().describe("OCR.space's name for `wordBoxes`."),
    format: z
      .enum(["json", "text"])
      .optional()
      .describe(
        "`text` answers the text alone as `text/plain`; `?format=text` in the query string does the same. Default `json`.",
      ),
  })
  .refine(
    (value) =>
      [value.image, value.file, value.base64Image, value.url].filter((source) => source !== undefined).length === 1,
    {
      message: "Send exactly one image: `image` (a file or a data URL), `file`, `base64Image` or `url`.",
      path: ["image"],
    },
  );

export type ImageToTextInput = z.output<typeof ImageToTextInputSchema>;

const BoxSchema = z
  .object({
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    width: z.number().int().min(0),
    height: z.number().int().min(0),
  })
  .describe("In the uploaded image's pixels, from its top-left corner (OCR.space's Left, Top, Width, Height).");

const Confidence = z.number().min(0).max(100);

const WordSchema = z.object({
  text: z.string().describe("OCR.space's WordText."),
  confidence: Confidence.describe("Tesseract's confidence in the word, 0–100."),
  box: BoxSchema,
});

const LineSchema = z.object({
  text: z.string().describe("The line's words, separated by single spaces (OCR.space's LineText)."),
  confidence: Confidence.describe("The mean of its words' confidences."),
  box: BoxSchema.describe("The smallest box holding the line's words."),
  words: z.array(WordSchema).optional().describe("With `wordBoxes` (OCR.space's Words)."),
});

export const ImageToTextOutputSchema = z.object({
  text: z.string().describe("The page's text, lines separated by `\\n` (OCR.space's ParsedText)."),
  confidence: Confidence.describe("The mean of the words' confidences, 0–100; 0 when no text was found."),
  language: z.enum(OCR_LANGUAGES as [OcrLanguage, ...OcrLanguage[]]).describe("The model that read the image."),
  orientation: z
    .union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)])
    .describe(
      "Degrees the image was turned clockwise to read it upright (OCR.space's TextOrientation); 0 without `detectOrientation`.",
    ),
  width: z.number().int().positive().describe("The image's width in pixels."),
  height: z.number().int().positive().describe("The image's height in pixels."),
  lines: z.array(LineSchema).describe("In reading order (OCR.space's TextOverlay.Lines)."),
  engine: z.string().describe("`tesseract-<version>`, also in the `X-Engine` header."),
});

export type ImageToTextOutput = z.output<typeof ImageToTextOutputSchema>;
