/**
 * QR codes: `qrcode`'s encoder builds the module matrix, our own renderer draws it as SVG (dot
 * styles, colours, a centred logo), and resvg turns that SVG into PNG. The spec-era
 * `POST /api/qrcode` keeps working through `adaptLegacyQrCode`.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleQrCode } from "./handler";
import { adaptLegacyQrCode, LEGACY_QR_INPUT } from "./legacy";
import { LOGO_MAX_BYTES } from "./logo";
import { QR_SIZE, QR_TEXT_MAX, QrCodeInputSchema } from "./schema";

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
      output: {
        kind: "binary",
        mimeTypes: ["image/png", "image/svg+xml", "image/jpeg", "image/webp", "image/gif"],
        description:
          "The QR code, size × size pixels: PNG bytes (format png, the default), SVG markup (svg), JPEG bytes (jpeg), lossy WebP bytes (webp) or GIF bytes (gif).",
      },
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
