import { renderSvgToPng } from "../_render/svg-to-png";
import { binary, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { createAvatarSvg } from "./engine";
import type { AvatarInput } from "./schema";

export async function handleAvatar(
  input: AvatarInput,
  ctx: Pick<OperationContext, "requestId">,
): Promise<HandlerResult> {
  let svg: string;
  try {
    svg = createAvatarSvg(input);
  } catch (error) {
    // The schema already bounds every option, so DiceBear refusing one is our failure, not the
    // caller's. The engine's message stays in the log: it may describe internals.
    console.error("avatar: dicebear failed", ctx.requestId, error);
    return problemResult("engine-failed", "The avatar could not be drawn.");
  }
  if (input.format === "svg") return binary(svg, "image/svg+xml");
  try {
    return binary(await renderSvgToPng(svg, { width: input.size }), "image/png");
  } catch (error) {
    console.error("avatar: resvg failed", ctx.requestId, error);
    return problemResult("engine-failed", "The avatar could not be rendered to PNG.");
  }
}
