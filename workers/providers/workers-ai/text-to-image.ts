/**
 * Workers AI's text-to-image models (decision 063): FLUX.1 schnell answers JSON
 * `{ image: "<base64>" }`; the SDXL models answer a stream of PNG bytes (the binding returns the
 * body as it is whenever the model's content type is not JSON). Both shapes are read here, and
 * the bytes, not the model's reputation, say which format came back.
 *
 * The run and the reading of its answer share one time limit of our own (binding.ts: the
 * binding's `signal` does not end a hung call), so every failure comes back as a value within
 * it, and the caller can give back what it reserved for the call.
 */
import { z } from "zod";
import { documentFailure, type DocumentFailure } from "~workers/hosted/capabilities";
import { base64ToBytes } from "~workers/hosted/_image/base64";
import { detectFormat, type ImageFormat, MIME_TYPES } from "~workers/hosted/_image/sniff";
import { modelFailure, runModel, type WorkersAiBinding } from "./binding";

export const TEXT_TO_IMAGE_MODEL = "@cf/black-forest-labs/flux-1-schnell";
/** How the model is named to the caller in failures. */
const MODEL_NAME = "FLUX.1 schnell";
/** FLUX.1 schnell is distilled for 1–4 steps; the model allows 8, and each one is billed. */
const FLUX_STEPS = 4;
/**
 * FLUX refuses a prompt longer than this (its input schema). The admin's words are bounded by
 * `PROMPT_MAX_CHARS` so that with the longest preset they stay under it (ai-images.test.ts).
 */
export const FLUX_PROMPT_MAX_CHARS = 2048;

/** The model's answer is a photograph-sized image: anything much larger is not one. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The admin page's request gives up at 30 s; the model answers a 4-step image in a few. */
export const MODEL_TIMEOUT_MS = 25_000;

export type GeneratedImage =
  { ok: true; bytes: Uint8Array; format: ImageFormat; mimeType: string; model: string } | DocumentFailure;

class TimeLimit extends Error {}

/**
 * Asks the model for one image within `timeoutMs`, reading included. A failure of the model
 * (sorted by binding.ts), a stream that breaks or stalls, an answer with no image, or bytes
 * that are no image format we know are values, never throws.
 */
export async function generateImage(
  ai: WorkersAiBinding,
  prompt: string,
  options: { timeoutMs?: number } = {},
): Promise<GeneratedImage> {
  const timeoutMs = options.timeoutMs ?? MODEL_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const run = await runModel(ai, TEXT_TO_IMAGE_MODEL, { prompt, steps: FLUX_STEPS }, { timeoutMs, what: MODEL_NAME });
  if (!run.ok) return run.failure;
  let bytes: Uint8Array | null;
  try {
    bytes = await imageBytesOf(run.answer, deadline);
  } catch (error) {
    if (error instanceof TimeLimit) {
      return documentFailure("engine-failed", `${MODEL_NAME} did not finish its answer within ${timeoutMs / 1000} s.`);
    }
    console.error(`Workers AI ${TEXT_TO_IMAGE_MODEL}: reading the answer failed:`, error);
    return modelFailure(MODEL_NAME, error);
  }
  if (!bytes) return documentFailure("engine-failed", `${MODEL_NAME} answered without an image.`);
  // FLUX is reported to answer JPEG, but that is not documented: the bytes say what they are.
  const format = detectFormat(bytes);
  if (!format) return documentFailure("engine-failed", `${MODEL_NAME} answered bytes that are not an image.`);
  return { ok: true, bytes, format, mimeType: MIME_TYPES[format], model: TEXT_TO_IMAGE_MODEL };
}

/**
 * The image in the shapes Workers AI answers text-to-image with: FLUX's `{ image: base64 }`
 * (JSON), or a stream of bytes (SDXL models); null for anything else or anything too large.
 */
async function imageBytesOf(answer: unknown, deadline: number): Promise<Uint8Array | null> {
  if (answer instanceof ReadableStream) return readBounded(answer as ReadableStream<Uint8Array>, deadline);
  if (answer instanceof Uint8Array) return answer.length <= MAX_IMAGE_BYTES ? answer : null;
  if (answer instanceof ArrayBuffer) return answer.byteLength <= MAX_IMAGE_BYTES ? new Uint8Array(answer) : null;
  const json = z
    .object({
      image: z
        .string()
        .min(1)
        .max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 4),
    })
    .safeParse(answer);
  return json.success ? base64ToBytes(json.data.image) : null;
}

/** The stream's bytes, or null past the size bound; throws when it breaks, TimeLimit at `deadline`. */
async function readBounded(stream: ReadableStream<Uint8Array>, deadline: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimit()), Math.max(0, deadline - Date.now()));
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) break;
      size += value.length;
      if (size > MAX_IMAGE_BYTES) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  } catch (error) {
    // A stalled stream is let go of; a broken one is already done.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
