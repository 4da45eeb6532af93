/**
 * QR codes: `qrcode`'s encoder builds the module matrix, our own renderer draws it as SVG (dot
 * styles, colours, a centred logo), and resvg turns that SVG into PNG. The spec-era
 * `POST /api/qrcode` keeps working through `adaptLegacyQrCode`.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { MAX_SIDE, SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { handleQrDecode } from "./decode";
import { handleQrCode } from "./handler";
import { handleQrSignedUrl } from "./signed-url";
import { adaptLegacyQrCode, LEGACY_QR_INPUT } from "./legacy";
import { LOGO_MAX_BYTES } from "./logo";
import { MAX_CODES } from "./reader";
import {
  QR_SIZE,
  QR_TEXT_MAX,
  QrCodeInputSchema,
  QrCodeQuerySchema,
  QrDecodeInputSchema,
  QrDecodeOutputSchema,
  QrSignedUrlInputSchema,
  QrSignedUrlOutputSchema,
  SIGNED_URL_LIFETIME,
} from "./schema";

const QR_OUTPUT = {
  kind: "binary",
  mimeTypes: ["image/png", "image/svg+xml", "image/jpeg", "image/webp", "image/gif"],
  description:
    "The QR code, size × size pixels: PNG bytes (format png, the default), SVG markup (svg), JPEG bytes (jpeg), lossy WebP bytes (webp) or GIF bytes (gif).",
} as const;

const SIGNED_URL_ERRORS = [
  {
    type: "invalid-signed-url",
    when: "A signed URL was changed after signing (any parameter added, removed or altered) or signed for another call.",
  },
  { type: "expired-signed-url", when: "A signed URL is past its `expires`." },
] as const;

/** A version 2 code holding https://portico.dev at level Q, 4 px a module (the decode example). */
const EXAMPLE_QR_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAHQAAAB0CAYAAABUmhYnAAAAAklEQVR4AewaftIAAANmSURBVO3BQY4csREAwUxi/v/ltI51otDo0XpNM8L+4DrG4jrK4jrK4jrK4jrK4jrK4jrK4jrKh79Q+UkVk8pOxY7KVDGp7FTsqPykip3FdZTFdZTFdZQPD1V8k8pOxaQyqexUvKEyVexUfJPKE4vrKIvrKIvrKB9eUnmi4gmVqWJSmSreqPgmlScq3lhcR1lcR1lcR/lwGJWdih2VqeJ/yeI6yuI6yuI6yodfruKJikllUpkqJpVJZar4zRbXURbXURbXUT68VPEvqUwVb1Q8UfFGxU9aXEdZXEdZXEf58JDKSVSmikllqthR+W9aXEdZXEdZXEexP/jFVHYqJpWp4v/J4jrK4jrK4jqK/cEDKlPFpDJVTCr/TRU7Kt9UMansVEwqU8XO4jrK4jrK4jrKh4cqJpUnKnZUnqiYVN6o2FHZqdip+JcW11EW11EW11E+/IXKExWTylQxqexUTCo/SWWnYlLZqdhReWNxHWVxHWVxHeXDl6nsqEwVOypPVDyhMlU8ofJNFW8srqMsrqMsrqN8eKhiUpkqJpWpYlLZqdhRmSqeqJhUvqliUpkqJpWdip3FdZTFdZTFdZQPf1ExqUwVk8pUMalMFU+o7KjsVOxUPKHyhspUMak8sbiOsriOsriO8uEvVKaKJ1R2VKaKSWWqmFSmih2VnYodlSdUpopJ5ZsW11EW11EW11E+/EXFpPJExaQyVZykYlLZqZhUpoonFtdRFtdRFtdR7A82VJ6omFSmikllqthRmSqeUJkqdlR+UsUbi+soi+soi+so9ge/mMpUMalMFW+o7FQ8obJTsaMyVewsrqMsrqMsrqN8+AuVn1TxTSr/kspU8YbKG4vrKIvrKIvrKB8eqvgmlW9S2al4QmWn4g2VqWJSeWJxHWVxHWVxHeXDSypPVDxRMalMFZPKjspU8YTKN1VMKm8srqMsrqMsrqN8+OVUpoqdikllqphUpoqp4gmVJ1SmijcW11EW11EW11E+/HIVk8pUMansqEwVOyo7FU9UTCo7KlPFzuI6yuI6yuI6yoeXKv4llanijYpJ5ZsqdlSmip2KJxbXURbXURbXUT48pPKTKt6omFTeqJhUdiqmih2VnYqdxXWUxXWUxXUU+4PrGIvrKIvrKIvrKIvrKIvrKIvrKIvrKP8BD1OP+JTdFV8AAAAASUVORK5CYII=";

export const definition: HostedApiDefinition = {
  slug: "qrcode",
  operations: [
    defineOperation({
      id: "createQrCode",
      method: "POST",
      path: "",
      summary: "Create a QR code",
      description: [
        `Encodes \`text\` (1–${QR_TEXT_MAX} characters; fewer fit at higher error correction and with non-ASCII text) as a QR code that decodes back to exactly that text.`,
        `\`size\` is ${QR_SIZE.min}–${QR_SIZE.max} px (default ${QR_SIZE.default}); a PNG needs at least 2 px per module, and a text too long for the size or level is answered with a 422 that says what fits.`,
        `\`margin\` is the quiet zone in modules (0–20, default 4); \`errorCorrection\` L, M (default), Q or H.`,
        `\`foreground\` and \`background\` are hex colours (\`background\` may be "transparent"); \`dotStyle\` is square, dots or rounded, and the finder and alignment patterns stay square so scanners lock on.`,
        `\`logo\` is an optional data: URL (PNG, JPEG or SVG, at most ${LOGO_MAX_BYTES / 1024} KB) drawn centred on a white pad spanning at most 20% of the code's width; it forces error correction H. \`logoMargin\` sets the space around it in pixels.`,
        `\`charset\` is UTF-8 (default; any text) or ISO-8859-1 (one byte per character, so Latin-1 text fits a smaller code); with ISO-8859-1 a text holding a character beyond U+00FF is refused with a 422 on \`text\`.`,
        `\`format\` is png (default), svg, jpeg, webp or gif; \`quality\` (1–100, default 85) applies to jpeg and webp, which are re-encoded from the PNG. JPEG has no transparency, so a transparent background comes out white; WebP is lossy and keeps it; GIF holds the PNG's exact colours (up to 256) and keeps a transparent background with its one-bit transparency.`,
        `The response carries \`x-qr-version\` and \`x-qr-error-correction\` headers.`,
      ].join(" "),
      inputSource: "json",
      input: QrCodeInputSchema,
      output: { ...QR_OUTPUT, mimeTypes: [...QR_OUTPUT.mimeTypes] },
      example: {
        text: "https://portico.dev/docs/api/qrcode",
        size: 300,
        margin: 4,
        errorCorrection: "M",
        foreground: "#0f172a",
        background: "#ffffff",
        charset: "UTF-8",
        format: "png",
        dotStyle: "rounded",
      },
      // A 200 KB logo is about 270 KB as base64, and more if percent-encoded.
      maxBodyBytes: 512 * 1024,
      handler: (input, ctx) => handleQrCode(input, ctx),
    }),
    defineOperation({
      id: "getQrCode",
      method: "GET",
      path: "",
      summary: "Create a QR code from a URL (for <img src>)",
      description: [
        "The same QR code as `POST /api/v1/qrcode`, with its options in the query string (no `logo`: a data URL does not belong in a URL), so the call is a link.",
        "With your key in the `x-api-key` header it works as any call. For a page or an e-mail, where no header can be sent, ask `POST /api/v1/qrcode/signed-url` for a signed URL and use that as the `<img src>`: it carries `key_id`, `expires` and `signature` instead of the key, works until it expires (at most seven days) or the key is revoked, and counts each call against that key: a `HEAD`, which link checkers and some mail clients send before the `GET`, is checked, drawn and counted as its `GET`.",
        "Changing anything in a signed URL makes it invalid (401 `invalid-signed-url`); past its time it is `expired-signed-url`. A browser may keep the image until the URL expires (`Cache-Control: private`); shared caches may not.",
      ].join(" "),
      inputSource: "query",
      input: QrCodeQuerySchema,
      output: { ...QR_OUTPUT, mimeTypes: [...QR_OUTPUT.mimeTypes] },
      example: { text: "https://portico.dev", size: 240, errorCorrection: "Q", format: "png" },
      acceptsSignedUrl: true,
      errors: [...SIGNED_URL_ERRORS],
      handler: (input, ctx) => handleQrCode(input, ctx),
    }),
    defineOperation({
      id: "signQrCodeUrl",
      method: "POST",
      path: "/signed-url",
      summary: "Sign a QR code URL for <img src>",
      description: [
        "Takes the options of the GET form (as JSON) and `expiresIn`, and answers a URL of `GET /api/v1/qrcode` that works without a key header until `expiresAt`: put it in an `<img src>` on a page or in an e-mail.",
        `The URL names your key by its id (never the key itself) and is signed with HMAC-SHA256; it lives ${SIGNED_URL_LIFETIME.default / 3600} hours unless \`expiresIn\` says otherwise, ${SIGNED_URL_LIFETIME.max / 86400} days at most.`,
        "Each use of the URL is a call on your key (plan, per-second limit and month, as any call), and it stops working when the key is revoked. Signing is a call too.",
        "Options the GET form would refuse are refused here, with a 422.",
      ].join(" "),
      inputSource: "json",
      input: QrSignedUrlInputSchema,
      output: {
        kind: "json",
        schema: QrSignedUrlOutputSchema,
        example: {
          url: "https://portico.dev/api/v1/qrcode?text=https%3A%2F%2Fportico.dev&size=240&margin=4&errorCorrection=Q&foreground=%23000000&background=%23ffffff&charset=UTF-8&format=png&dotStyle=square&key_id=key_3xAmPle&expires=1767225600&signature=yQ2n0c2f6T0u6y8o3m5yQe9x1M4r7w0b2d5g8j1k3l6",
          expiresAt: "2026-01-01T00:00:00.000Z",
        },
      },
      example: { text: "https://portico.dev", size: 240, errorCorrection: "Q", format: "png", expiresIn: 3600 },
      handler: (input, ctx) => handleQrSignedUrl(input, ctx),
    }),
    defineOperation({
      id: "decodeQrCode",
      method: "POST",
      path: "/decode",
      summary: "Read the QR codes in an image",
      description: [
        `Send one image (a multipart \`image\` file, a base64 data URL in JSON \`image\`, or a \`url\` we fetch): PNG, JPEG, GIF, WebP or BMP up to 10 MB and ${MAX_SIDE}×${MAX_SIDE}.`,
        `Every QR code in it (up to ${MAX_CODES}; Micro QR and rMQR too) comes back in \`codes\` with its \`text\`, the \`errorCorrection\` level it was made at (L, M, Q or H), its \`version\` and the \`position\` of its four corners in pixels.`,
        "Text is read as UTF-8, or as ISO-8859-1 where the bytes are not UTF-8, unless the code names its charset with an ECI marker. A transparent image is read as if laid on white.",
        "An image with no readable code is answered with a 422. Runs in the Worker: photon decodes the image, ZXing-C++ (WebAssembly) reads the codes.",
      ].join(" "),
      inputSource: "json-or-multipart",
      input: QrDecodeInputSchema,
      output: {
        kind: "json",
        schema: QrDecodeOutputSchema,
        example: {
          count: 1,
          codes: [
            {
              text: "https://portico.dev",
              errorCorrection: "Q",
              version: 2,
              format: "QRCode",
              position: {
                topLeft: { x: 8, y: 8 },
                topRight: { x: 108, y: 8 },
                bottomRight: { x: 108, y: 108 },
                bottomLeft: { x: 8, y: 108 },
              },
            },
          ],
        },
      },
      example: { image: EXAMPLE_QR_PNG },
      maxBodyBytes: SINGLE_IMAGE_BODY_BYTES,
      handler: (input, ctx) => handleQrDecode(input, ctx),
    }),
  ],
  legacyRoutes: [
    {
      method: "POST",
      path: "/api/qrcode",
      operationId: "createQrCode",
      adapt: adaptLegacyQrCode,
      input: LEGACY_QR_INPUT,
    },
  ],
};
