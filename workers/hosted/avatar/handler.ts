import { PhotonImage } from "@cf-wasm/photon/workerd";
import { DEFAULT_QUALITY, encodeImage } from "../_image/encode";
import { renderSvgToPng } from "../_render/svg-to-png";
import { binary, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { createAvatarSvg } from "./engine";
import type { AvatarInput } from "./schema";
import { attributionHeaders } from "./styles";

export async function handleAvatar(
  input: AvatarInput,
  ctx: Pick<OperationContext, "requestId">,
): Promise<HandlerResult> {
  let svg: string;
  try {
    svg = await createAvatarSvg(input);
  } catch (error) {
    // The schema already bounds every option, so DiceBear refusing one is our failure, not the
    // caller's. The engine's message stays in the log: it may describe internals.
    console.error("avatar: dicebear failed", ctx.requestId, error);
    return problemResult("engine-failed", "The avatar could not be drawn.");
  }
  // Every answer credits the style's artist and licence (decision 044); the SVG also has it inside.
  const headers = attributionHeaders(input.style);
  if (input.format === "svg") return binary(svg, "image/svg+xml", headers);
  let png: Uint8Array;
  try {
    png = await renderSvgToPng(svg, { width: input.size });
  } catch (error) {
    console.error("avatar: resvg failed", ctx.requestId, error);
    return problemResult("engine-failed", "The avatar could not be rendered to PNG.");
  }
  if (input.format === "png") return binary(png, "image/png", headers);
  // JPEG and WebP re-encode resvg's PNG through the encoder the image APIs share, so quality
  // means the same everywhere. JPEG has no alpha: clear areas (a radius's corners, a transparent
  // background) are laid over white, the usual page colour.
  let image: PhotonImage | undefined;
  try {
    image = PhotonImage.new_from_byteslice(png);
    const encoded = await encodeImage(image, input.format, input.quality ?? DEFAULT_QUALITY);
    return binary(encoded.bytes, encoded.mimeType, headers);
  } catch (error) {
    console.error("avatar: encoding failed", ctx.requestId, input.format, error);
    return problemResult("engine-failed", `The avatar could not be encoded as ${input.format}.`);
  } finally {
    image?.free();
  }
}
