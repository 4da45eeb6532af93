/**
 * The file's own bytes as a data URL, with its type sniffed from its magic number and its
 * dimensions from its header. Within the decode limit the image is also decoded with photon,
 * which proves it is readable (a valid header on damaged data is refused) and gives the true
 * dimensions. Beyond it (a 6000×4000 photo is a fair thing to encode) decoding would not fit
 * the isolate's memory, so the header alone is trusted.
 */
import { json, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { bytesToBase64 } from "../_image/base64";
import { checkDecodableSize, decodeImage, identifyImage, loadImageBytes } from "../_image/input";
import type { ImageToBase64Input, ImageToBase64Output } from "./schema";

export async function convertToBase64(input: ImageToBase64Input, ctx: OperationContext): Promise<HandlerResult> {
  const bytes = await loadImageBytes(input, ctx);
  if (!bytes.ok) return bytes.problem;
  const header = identifyImage(bytes.value);
  if (!header.ok) return header.problem;
  let { width, height } = header.value;
  if (checkDecodableSize(header.value).ok) {
    const decoded = decodeImage(bytes.value, header.value);
    if (!decoded.ok) return decoded.problem;
    width = decoded.value.get_width();
    height = decoded.value.get_height();
    decoded.value.free();
  }
  const body: ImageToBase64Output = {
    dataUrl: `data:${header.value.mimeType};base64,${bytesToBase64(bytes.value)}`,
    mimeType: header.value.mimeType,
    width,
    height,
    size: bytes.value.length,
  };
  return json(body);
}
