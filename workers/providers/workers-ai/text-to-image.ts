/**
 * Workers AI's text-to-image models (decision 063): FLUX.1 schnell answers JSON
 * `{ image: "<base64>" }`; the SDXL models answer a stream of PNG bytes (the binding returns the
 * body as it is whenever the model's content type is not JSON). Both shapes are read here, and
 * the bytes, not the model's reputation, say which format came back.
 */
import { z } from "zod";
import { base64ToBytes } from "~workers/hosted/_image/base64";
import { detectFormat, type ImageFormat, MIME_TYPES } from "~workers/hosted/_image/sniff";

export const TEXT_TO_IMAGE_MODEL = "@cf/black-forest-labs/flux-1-schnell";
/** FLUX.1 schnell is distilled for 1–4 steps; the model allows 8, and each one is billed. */
const FLUX_STEPS = 4;
/** FLUX reads at most this many characters of prompt. */
export const FLUX_PROMPT_MAX_CHARS = 2048;

/** The slice of the Workers AI binding text-to-image uses (tests pass a fake in the model's shapes). */
export interface ImageModel {
  run(model: string, inputs: { prompt: string; steps?: number }, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** The model's answer is a photograph-sized image: anything much larger is not one. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The admin page's request gives up at 30 s; the model answers a 4-step image in a few. */
const MODEL_TIMEOUT_MS = 25_000;

export type GeneratedImage =
  | { ok: true; bytes: Uint8Array; format: ImageFormat; mimeType: string; model: string }
  | { ok: false; message: string };

/**
 * Asks the model for one image. A failure of the model (it throws `InferenceUpstreamError`),
 * an answer with no image, or bytes that are no image format we know are values, not throws.
 */
export async function generateImage(ai: ImageModel, prompt: string): Promise<GeneratedImage> {
  let answer: unknown;
  try {
    answer = await ai.run(
      TEXT_TO_IMAGE_MODEL,
      { prompt: prompt.slice(0, FLUX_PROMPT_MAX_CHARS), steps: FLUX_STEPS },
      { signal: AbortSignal.timeout(MODEL_TIMEOUT_MS) },
    );
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { ok: false, message: `The image model failed (${reason.slice(0, 200)}).` };
  }
  const bytes = await imageBytesOf(answer);
  if (!bytes) return { ok: false, message: "The image model answered without an image." };
  // FLUX is reported to answer JPEG, but that is not documented: the bytes say what they are.
  const format = detectFormat(bytes);
  if (!format) return { ok: false, message: "The image model answered bytes that are not an image." };
  return { ok: true, bytes, format, mimeType: MIME_TYPES[format], model: TEXT_TO_IMAGE_MODEL };
}

/**
 * The image in the shapes Workers AI answers text-to-image with: FLUX's `{ image: base64 }`
 * (JSON), or a stream of bytes (SDXL models); null for anything else or anything too large.
 */
async function imageBytesOf(answer: unknown): Promise<Uint8Array | null> {
  if (answer instanceof ReadableStream) return readBounded(answer as ReadableStream<Uint8Array>);
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

async function readBounded(stream: ReadableStream<Uint8Array>): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_IMAGE_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
