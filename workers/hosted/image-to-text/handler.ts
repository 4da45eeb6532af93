/**
 * Image to Text on the main Worker's side: the image's bytes are read here (an upload, a data
 * URL, or a URL fetched through the caller's SSRF guard), and the engine Worker sniffs, decodes
 * and reads them (workers/engines/ocr). Only the bytes cross the service binding.
 */
import { binary, json, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { documentEngines, ENGINE_TIMEOUT_MS, failureResult } from "../_documents/engines";
import { loadImageBytes } from "../_image/input";
import type { ImageToTextInput, ImageToTextOutput } from "./schema";

export async function readImageText(input: ImageToTextInput, ctx: OperationContext): Promise<HandlerResult> {
  const reached = documentEngines(ctx, "Image to Text");
  if (!reached.ok) return reached.result;
  const bytes = await loadImageBytes({ image: input.image ?? input.file ?? input.base64Image, url: input.url }, ctx);
  if (!bytes.ok) return bytes.problem;
  const outcome = await reached.engines.imageToText({
    image: bytes.value,
    language: input.language,
    detectOrientation: input.detectOrientation,
    wordBoxes: input.wordBoxes ?? input.isOverlayRequired ?? false,
    timeoutMs: ENGINE_TIMEOUT_MS,
  });
  if (!outcome.ok) return failureResult(outcome);
  const headers = { "X-Engine": outcome.result.engine };
  // The gateway reads only a POST's body into the input, so the query's `format` is read here.
  const format = input.format ?? new URL(ctx.request.url).searchParams.get("format");
  if (format === "text") return binary(outcome.result.text, "text/plain; charset=utf-8", headers);
  const body: ImageToTextOutput = outcome.result;
  return json(body, undefined, headers);
}
