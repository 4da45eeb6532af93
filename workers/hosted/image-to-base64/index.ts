import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import { EXAMPLE_QUADRANTS_PNG } from "../_image/examples";
import { MAX_SIDE, SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { convertToBase64 } from "./handler";
import { ImageToBase64InputSchema, ImageToBase64OutputSchema } from "./schema";

export const definition: HostedApiDefinition = {
  slug: "image-to-base64",
  operations: [
    defineOperation({
      id: "convertToBase64",
      method: "POST",
      path: "",
      summary: "Turn an image into a data URL with its type, dimensions and size",
      description: [
        "Send one image (a multipart `image` file, or a `url` we fetch; a data URL in JSON `image` also works and is normalised).",
        "The type is read from the file's bytes (PNG, JPEG, GIF, WebP, BMP), never from its name or declared type; anything else is refused.",
        `Files up to 10 MB. Images up to ${MAX_SIDE}×${MAX_SIDE} are fully decoded with photon to prove they are readable and to measure them; larger ones are measured from their header.`,
      ].join(" "),
      inputSource: "json-or-multipart",
      input: ImageToBase64InputSchema,
      output: {
        kind: "json",
        schema: ImageToBase64OutputSchema,
        example: { dataUrl: EXAMPLE_QUADRANTS_PNG, mimeType: "image/png", width: 4, height: 4, size: 132 },
      },
      example: { image: EXAMPLE_QUADRANTS_PNG },
      maxBodyBytes: SINGLE_IMAGE_BODY_BYTES,
      handler: convertToBase64,
    }),
  ],
};
