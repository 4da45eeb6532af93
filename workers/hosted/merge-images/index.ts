import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import { OUTPUT_MIME_TYPES } from "../_image/encode";
import { EXAMPLE_BLUE_PNG, EXAMPLE_RED_PNG } from "../_image/examples";
import { MAX_SIDE } from "../_image/limits";
import { mergeImages } from "./handler";
import { MAX_IMAGES, MAX_TOTAL_BYTES, MERGE_BODY_BYTES, MergeImagesInputSchema, MIN_IMAGES } from "./schema";

export const definition: HostedApiDefinition = {
  slug: "merge-images",
  operations: [
    defineOperation({
      id: "mergeImages",
      method: "POST",
      path: "",
      summary: "Combine images side by side, stacked, in a grid or as an overlay",
      description: [
        `Send ${MIN_IMAGES}–${MAX_IMAGES} images (multipart files named \`images\`, or JSON \`{ url }\` / \`{ data }\` entries) and a layout.`,
        "`horizontal` and `vertical` place them in a row or column with `gap` pixels between and `align` across;",
        "`grid` uses equal cells the size of the largest image, `columns` wide; `overlay` draws each image on top of the first at its `placements` entry `{ x, y, opacity }`.",
        `The canvas starts as \`background\` (hex or transparent) and may be at most ${MAX_SIDE} pixels per side; the images may total ${MAX_TOTAL_BYTES / 1024 / 1024} MB.`,
        "Output PNG (default), JPEG or lossy WebP at `quality`. Runs in the Worker: photon decodes and encodes PNG and JPEG, libwebp (WebAssembly) encodes WebP, compositing is straight-alpha source-over in TypeScript.",
      ].join(" "),
      inputSource: "json-or-multipart",
      input: MergeImagesInputSchema,
      output: {
        kind: "binary",
        mimeTypes: Object.values(OUTPUT_MIME_TYPES),
        description: "The merged image.",
      },
      example: {
        images: [{ data: EXAMPLE_RED_PNG }, { data: EXAMPLE_BLUE_PNG }],
        layout: "horizontal",
        gap: 1,
        background: "#ffffff",
      },
      maxBodyBytes: MERGE_BODY_BYTES,
      handler: mergeImages,
    }),
  ],
};
