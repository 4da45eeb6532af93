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
  try {
    return binary(await renderSvgToPng(svg, { width: input.size }), "image/png", headers);
  } catch (error) {
    console.error("avatar: resvg failed", ctx.requestId, error);
    return problemResult("engine-failed", "The avatar could not be rendered to PNG.");
  }
}
