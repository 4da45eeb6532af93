/**
 * Remove Background on the main Worker's side: the image's bytes are read here (an upload,
 * base64, or a URL fetched through the caller's SSRF guard) and judged by their header, and the
 * environment's engine cuts the subject out (segmenters.ts): Cloudflare Images in production,
 * the engine Worker's classic engine elsewhere. The answer is the image, with remove.bg's
 * `X-Width`, `X-Height` and `X-Foreground-*` headers and `X-Engine`.
 */
import { binary, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { callEngine, ENGINE_TIMEOUT_MS, failureResult } from "../_documents/engines";
import { loadImageBytes } from "../_image/input";
import { identifyCutoutInput } from "../_image/cutout-input";
import { asDataUrl, cutoutOptions, type RemoveBgInput } from "./schema";

/** Which field the image came in, so a refusal of its bytes names it. */
const sourceField = (input: RemoveBgInput) =>
  input.image_file ? "image_file" : input.image_file_b64 !== undefined ? "image_file_b64" : "image_url";

export async function removeBackground(input: RemoveBgInput, ctx: OperationContext): Promise<HandlerResult> {
  const segmenter = ctx.media.foreground;
  if (!segmenter) {
    return problemResult(
      "engine-unavailable",
      "Remove Background needs Cloudflare Images (the IMAGES binding, production) or the engine Worker's classic engine (the ENGINES service binding), and this environment has neither.",
      { binding: "IMAGES" },
    );
  }
  const field = sourceField(input);
  const image = input.image_file ?? (input.image_file_b64 !== undefined ? asDataUrl(input.image_file_b64) : undefined);
  // The shared loader's refusals (too large, bad base64, a URL the guard refuses) and an empty
  // image name no field; the caller's fix is to that field.
  const atField = (refused: HandlerResult): HandlerResult =>
    refused.kind === "problem" && refused.type === "invalid-input"
      ? { ...refused, extensions: { ...refused.extensions, errors: { [field]: refused.detail } } }
      : refused;
  const bytes = await loadImageBytes({ image, url: input.image_url }, ctx);
  if (!bytes.ok) return atField(bytes.problem);
  // Not an image, or not one we read, is answered before any engine is asked.
  const header = identifyCutoutInput(bytes.value);
  if (!header.ok) return atField(failureResult(header));
  const called = await callEngine(
    ctx,
    "The cut-out engine stopped on this image. Retry, or send a smaller image.",
    () => segmenter.cutOut({ image: bytes.value, ...cutoutOptions(input, ENGINE_TIMEOUT_MS) }),
  );
  if (!called.ok) return called.result;
  const outcome = called.value;
  if (!outcome.ok) return failureResult(outcome);
  const { foreground } = outcome;
  const extension = outcome.contentType === "image/jpeg" ? "jpg" : outcome.contentType.slice("image/".length);
  return binary(outcome.image, outcome.contentType, {
    "X-Engine": outcome.engine,
    "X-Width": String(outcome.width),
    "X-Height": String(outcome.height),
    "X-Foreground-Top": String(foreground.top),
    "X-Foreground-Left": String(foreground.left),
    "X-Foreground-Width": String(foreground.width),
    "X-Foreground-Height": String(foreground.height),
    "Content-Disposition": `inline; filename="no-bg.${extension}"`,
  });
}
