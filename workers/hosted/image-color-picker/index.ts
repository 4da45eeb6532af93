import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import { EXAMPLE_FRAMED_PNG } from "../_image/examples";
import { MAX_SIDE, SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { pickColors } from "./handler";
import { ImageColorPickerInputSchema, ImageColorPickerOutputSchema, MAX_COLORS } from "./schema";

export const definition: HostedApiDefinition = {
  slug: "image-color-picker",
  operations: [
    defineOperation({
      id: "pickColors",
      method: "POST",
      path: "",
      summary: "Extract an image's palette, dominant and background colours",
      description: [
        `Send one image (a multipart \`image\` file, a base64 data URL in JSON \`image\`, or a \`url\` we fetch) and \`count\` (1–${MAX_COLORS}).`,
        "The palette lists up to `count` colours ordered by the share of visible pixels each stands for, with the nearest CSS colour name;",
        "`dominant` is the first of them and `background` the most common colour along the image's edge. Pixels under 50% alpha are ignored.",
        `Images are PNG, JPEG, GIF, WebP or BMP up to 10 MB and ${MAX_SIDE}×${MAX_SIDE}; large images are sampled down to about 256×256 for the palette (the edge is read at full size).`,
        "Runs in the Worker: photon decodes, a median-cut + k-means quantiser in TypeScript picks the colours.",
      ].join(" "),
      inputSource: "json-or-multipart",
      input: ImageColorPickerInputSchema,
      output: {
        kind: "json",
        schema: ImageColorPickerOutputSchema,
        example: {
          palette: [
            { hex: "#ff0000", rgb: { r: 255, g: 0, b: 0 }, share: 0.4688, name: "red" },
            { hex: "#ffffff", rgb: { r: 255, g: 255, b: 255 }, share: 0.4375, name: "white" },
            { hex: "#0000ff", rgb: { r: 0, g: 0, b: 255 }, share: 0.0938, name: "blue" },
          ],
          dominant: "#ff0000",
          background: "#ffffff",
        },
      },
      example: { image: EXAMPLE_FRAMED_PNG, count: 3 },
      maxBodyBytes: SINGLE_IMAGE_BODY_BYTES,
      handler: pickColors,
    }),
  ],
};
