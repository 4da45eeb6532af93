/**
 * Input and output of image-to-base64. The image arrives as a multipart `File`, a data URL or
 * a `url` (`_image/input.ts` describes the forms).
 */
import { z } from "zod";
import { hasExactlyOneImage, imageInputShape, ONE_IMAGE_MESSAGE } from "../_image/input";
import { MIME_TYPES } from "../_image/sniff";

export const ImageToBase64InputSchema = z
  .object({ ...imageInputShape })
  .refine(hasExactlyOneImage, { message: ONE_IMAGE_MESSAGE, path: ["image"] });

export type ImageToBase64Input = z.output<typeof ImageToBase64InputSchema>;

export const ImageToBase64OutputSchema = z.object({
  dataUrl: z.string().describe("`data:<mimeType>;base64,<the file's bytes>`, the bytes unchanged."),
  mimeType: z
    .enum(Object.values(MIME_TYPES) as [string, ...string[]])
    .describe("Read from the file's bytes, never its name."),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  size: z.number().int().positive().describe("The file's size in bytes."),
});

export type ImageToBase64Output = z.output<typeof ImageToBase64OutputSchema>;
