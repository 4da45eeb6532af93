import { binary, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { encodeImage, type OutputFormat } from "../_image/encode";
import { loadImage } from "../_image/input";
import type { ImageFormat } from "../_image/sniff";
import { runOperations } from "./engine";
import type { ImageProcessingInput } from "./schema";

/** Keep the caller's format where photon can write it; GIF and BMP come back as PNG. */
const defaultFormat = (input: ImageFormat): OutputFormat => (input === "jpeg" || input === "webp" ? input : "png");

export async function processImage(input: ImageProcessingInput, ctx: OperationContext): Promise<HandlerResult> {
  const loaded = await loadImage(input, ctx);
  if (!loaded.ok) return loaded.problem;
  const result = runOperations(loaded.value.image, input.operations);
  if (!result.ok) return result.problem;
  const format = input.format ?? defaultFormat(loaded.value.header.format);
  try {
    const encoded = await encodeImage(result.value, format, input.quality);
    return binary(encoded.bytes, encoded.mimeType);
  } catch {
    return problemResult("engine-failed", `The image engine could not encode the result as ${format.toUpperCase()}.`);
  } finally {
    result.value.free();
  }
}
