import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import { OUTPUT_MIME_TYPES } from "../_image/encode";
import { EXAMPLE_QUADRANTS_PNG } from "../_image/examples";
import { MAX_SIDE, SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { processImage } from "./handler";
import { ImageProcessingInputSchema, MAX_OPERATIONS } from "./schema";

export const definition: HostedApiDefinition = {
  slug: "image-processing",
  operations: [
    defineOperation({
      id: "processImage",
      method: "POST",
      path: "",
      summary: "Apply a list of filters and transforms to an image",
      description: [
        `Send one image (a multipart \`image\` file, a base64 data URL in JSON \`image\`, or a \`url\` we fetch) and up to ${MAX_OPERATIONS} operations, applied in order:`,
        "grayscale (`method`: Rec.601 luma by default, Rec.709 luma, or luminance in linear light), blur, sharpen, brightness, contrast, saturation, hue, invert, sepia, resize (cover, contain, fill, inside), crop, rotate (any angle) and flip.",
        `Images are PNG, JPEG, GIF, WebP or BMP up to 10 MB and ${MAX_SIDE}×${MAX_SIDE} pixels; no step may produce an image larger than ${MAX_SIDE} per side.`,
        "The result comes back as PNG, JPEG or lossy WebP bytes (default: the input's format), JPEG and WebP at `quality`.",
        "Runs in the Worker: photon (Rust compiled to WebAssembly) for the filters and transforms, image-js for rotation, libwebp (WebAssembly) for WebP output.",
      ].join(" "),
      inputSource: "json-or-multipart",
      input: ImageProcessingInputSchema,
      output: {
        kind: "binary",
        mimeTypes: Object.values(OUTPUT_MIME_TYPES),
        description: "The processed image in the requested format.",
      },
      example: {
        image: EXAMPLE_QUADRANTS_PNG,
        operations: [
          { op: "resize", width: 8, height: 8, fit: "fill" },
          { op: "rotate", degrees: 90 },
          { op: "grayscale" },
        ],
        format: "png",
      },
      maxBodyBytes: SINGLE_IMAGE_BODY_BYTES,
      handler: processImage,
    }),
  ],
};
