/**
 * Image to Text on the main Worker's side: the image's bytes are read here (an upload, a data
 * URL, or a URL fetched through the caller's SSRF guard) and their header checked (page.ts), and
 * the engine Worker decodes and reads them (workers/engines/ocr). Only the bytes cross the
 * service binding.
 */
import { binary, json, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { callEngine, documentEngines, ENGINE_TIMEOUT_MS, failureResult } from "../_documents/engines";
import { loadImageBytes } from "../_image/input";
import { identifyPage } from "./page";
import type { ImageToTextInput, ImageToTextOutput } from "./schema";

export async function readImageText(input: ImageToTextInput, ctx: OperationContext): Promise<HandlerResult> {
  const reached = documentEngines(ctx, "Image to Text");
  if (!reached.ok) return reached.result;
  // The gateway reads only a POST's body into the input, so the query's `format` is read here,
  // and checked before the image is: a typo should not cost a recognition.
  const format = input.format ?? new URL(ctx.request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "text") {
    return problemResult("invalid-input", "format: json (the default) or text", {
      errors: { format: "json (the default) or text" },
    });
  }
  const bytes = await loadImageBytes({ image: input.image ?? input.file ?? input.base64Image, url: input.url }, ctx);
  if (!bytes.ok) return bytes.problem;
  // What the header alone refuses (not an image, too large, a compressed TIFF) is answered here,
  // without sending up to 10 MB to the engine Worker; it checks again, as anyone may call it.
  const header = identifyPage(bytes.value);
  if (!header.ok) return failureResult(header);
  const called = await callEngine(
    ctx,
    "The OCR engine stopped while reading this image. Retry, or send a smaller image.",
    () =>
      reached.engines.imageToText({
        image: bytes.value,
        language: input.language,
        detectOrientation: input.detectOrientation,
        wordBoxes: input.wordBoxes ?? input.isOverlayRequired ?? false,
        timeoutMs: ENGINE_TIMEOUT_MS,
      }),
  );
  if (!called.ok) return called.result;
  const outcome = called.value;
  if (!outcome.ok) return failureResult(outcome);
  const headers = { "X-Engine": outcome.result.engine };
  if (format === "text") return binary(outcome.result.text, "text/plain; charset=utf-8", headers);
  const body: ImageToTextOutput = outcome.result;
  return json(body, undefined, headers);
}
