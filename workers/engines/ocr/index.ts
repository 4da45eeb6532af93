/** Image to Text: Tesseract (WebAssembly) over trained data shipped in npm packages. */
import type { OcrOutcome, OcrRequest } from "~workers/hosted/capabilities";

export async function imageToText(_request: OcrRequest): Promise<OcrOutcome> {
  return { ok: false, problem: "engine-unavailable", detail: "Image to Text is being built (issue #15)." };
}
