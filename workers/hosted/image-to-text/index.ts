/**
 * Image to Text: OCR with Tesseract (WebAssembly) in the engine Worker (decision 057), its
 * fields aligned with OCR.space's where they map.
 */
import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import { SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { EXAMPLE_TEXT_PNG } from "./example";
import { readImageText } from "./handler";
import { OCR_LANGUAGES } from "../ocr-languages";
import { ImageToTextInputSchema, ImageToTextOutputSchema, LANGUAGES_TEXT, type ImageToTextOutput } from "./schema";

const DESCRIPTION = [
  "Reads the text in an image with Tesseract 5 (its LSTM models, compiled to WebAssembly), line by line, with a confidence for each line and word and, with `wordBoxes`, each word's box.",
  "Send one image: a multipart `image` (or OCR.space's `file`), a base64 data URL in JSON `image` (or OCR.space's `base64Image`), or a `url` we fetch (public addresses only). PNG, JPEG, GIF (its first frame), WebP (lossy and lossless), BMP and TIFF are read; a TIFF must be uncompressed (baseline strips, as scanners write with compression off): an LZW, Deflate, PackBits or JPEG-compressed TIFF is refused with 415, so save it uncompressed or as PNG. The type comes from the file's bytes, never its name. A PDF is refused with 415: convert its pages to images first.",
  "A file over 10 MB is refused as 422 `invalid-input` at its field (`image`, `file` or `base64Image`), as the image APIs do. Images: up to 9 megapixels (an A4 page at 300 dpi) for PNG and TIFF, 3 megapixels for GIF, WebP and BMP, and 10 000 pixels on a side; a JPEG up to what its decoder may allocate (about 4 megapixels in colour with the usual 4:2:0 chroma, 2.5 with 4:4:4 or CMYK, 6 in greyscale) and 100 scans. A larger header is refused before anything is decoded, and a PNG whose compressed data inflates past what its size needs while it is inflated (422 `unreadable-document`, `reason: too-large`). Pages over 3 megapixels are scaled down before reading, and the boxes are given in the uploaded image's pixels all the same. Text reads best at 20–40 pixels high (about 300 dpi for print); very small text (under ~10 px) loses accuracy.",
  `Languages (${OCR_LANGUAGES.length}, every Tesseract model that installs from npm): ${LANGUAGES_TEXT}. \`language\` also takes OCR.space's codes (\`ger\`, \`fre\`, \`chs\`, \`cht\`, …) and ISO 639-1 (\`de\`, \`ja\`, …). One language per call; the accents and script of that language are read. The first call in a language on a fresh engine isolate loads its model (a few hundred milliseconds); English's is always loaded fastest.`,
  "`detectOrientation` finds a page turned by 90°, 180° or 270° and reads it upright; `orientation` says how far it was turned clockwise (its estimate suits Latin text in lower case; a page of capitals or a few words may not be recognised as turned). Transparent pixels are read as white paper.",
  'The answer: `text` (lines joined by `\\n`), `confidence` (0–100, the mean of the words\'), `language`, `orientation`, `width` and `height`, `lines` (each with `text`, `confidence`, `box` {x, y, width, height} and, with `wordBoxes`, `words`), and `engine`, also sent as the `X-Engine` header (`tesseract-5.3.0`). `?format=text` (or `format: "text"`) answers the text alone as `text/plain; charset=utf-8`, still with the `X-Engine` header. The OpenAPI document cannot express this: it lists the `format` field of the JSON body and the JSON answer only, not the query parameter `format` nor the `text/plain` answer, which are as described here.',
  "Coming from [OCR.space](https://ocr.space/ocrapi): its `ParsedResults[0].ParsedText` is our `text`; `TextOverlay.Lines[].LineText` is `lines[].text`; `Words[].WordText`, `Left`, `Top`, `Width`, `Height` are `words[].text` and `box.x`, `box.y`, `box.width`, `box.height`; `TextOrientation` is `orientation`; `isOverlayRequired` is accepted for `wordBoxes`. There is one result per call (no multi-page PDFs), errors are RFC 9457 problems rather than `IsErroredOnProcessing`, and confidences are given (OCR.space's free engine gives none).",
  "Failures: 415 `unsupported-media-type` for a file that is not an image; 422 `unreadable-document` for a damaged, truncated or oversized image (`reason`); 422 `invalid-input` for a bad field, an empty file, a file over 10 MB or a URL we will not fetch; 502 `engine-failed` when the engine stops while reading (its isolate ended, e.g. over its CPU limit) or, where the engine can tell, reading passed its 20 s limit. Calls are read one at a time per engine isolate. A recognition under way is not interrupted in production (the engine's clock advances only between its I/O): what bounds its time is the size limits above, the gateway's 25 s limit on the whole call, and the engine Worker's CPU limit.",
].join(" ");

const EXAMPLE_ANSWER: ImageToTextOutput = {
  text: "Portico reads text\nfrom images: 42 words.",
  confidence: 96.4,
  language: "eng",
  orientation: 0,
  width: 360,
  height: 96,
  lines: [
    { text: "Portico reads text", confidence: 96.5, box: { x: 16, y: 22, width: 193, height: 22 } },
    { text: "from images: 42 words.", confidence: 96.3, box: { x: 16, y: 58, width: 259, height: 22 } },
  ],
  engine: "tesseract-5.3.0",
};

export const definition: HostedApiDefinition = {
  slug: "image-to-text",
  operations: [
    defineOperation({
      id: "readImageText",
      method: "POST",
      path: "",
      summary: "Read the text in an image (OCR), with confidence and boxes line by line",
      description: DESCRIPTION,
      inputSource: "json-or-multipart",
      input: ImageToTextInputSchema,
      output: { kind: "json", schema: ImageToTextOutputSchema, example: EXAMPLE_ANSWER },
      example: { image: EXAMPLE_TEXT_PNG, language: "eng" },
      maxBodyBytes: SINGLE_IMAGE_BODY_BYTES,
      errors: [
        {
          type: "unsupported-media-type",
          when: "the file is not a PNG, JPEG, GIF, WebP, BMP or uncompressed TIFF (a PDF, for one, or an LZW- or Deflate-compressed TIFF)",
        },
        {
          type: "unreadable-document",
          when: "the image is damaged or cut off, or over its size limit (9 megapixels for PNG and TIFF, 3 for GIF, WebP and BMP, a JPEG's decoding budget and 100 scans, 10 000 pixels a side, a PNG's data inflating past its size; `reason`)",
        },
        {
          type: "engine-failed",
          when: "the engine stopped while reading the image (its isolate ended), or reading passed its 20 s limit where the engine could tell",
        },
        {
          type: "engine-unavailable",
          when: "this deployment has no engine Worker, or its model store lacks the language's model (`language` says which)",
        },
      ],
      handler: readImageText,
    }),
  ],
};
