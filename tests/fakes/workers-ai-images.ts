/**
 * A fake of the Workers AI binding for text-to-image, answering in the models' real shapes
 * (research notes §1, workerd's ai-api.ts): FLUX.1 schnell's JSON `{ image: "<base64>" }`, an
 * SDXL model's ReadableStream of PNG bytes, and `InferenceUpstreamError` thrown for a failure.
 * The pictures are real JPEG and PNG files, so what is stored and served can be decoded.
 *
 * Like the real binding, it refuses what FLUX.1 schnell's input schema refuses (a prompt of
 * 1–2048 characters, `steps` an integer up to 8, no other field: `additionalProperties: false`),
 * so a test cannot pass on inputs production would reject. It records each call's options too.
 */
import { encode as encodePng } from "fast-png";
import { decode as decodeJpeg, encode as encodeJpeg } from "jpeg-js";
import { bytesToBase64 } from "~workers/hosted/_image/base64";
import type { WorkersAiBinding } from "~workers/providers/workers-ai/binding";
import { TEXT_TO_IMAGE_MODEL } from "~workers/providers/workers-ai/text-to-image";

/** An 8×8 picture in one colour, as JPEG. */
export function jpegOf(rgb: [number, number, number], size = 8): Uint8Array {
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return new Uint8Array(encodeJpeg({ data, width: size, height: size }, 90).data);
}

/** An 8×8 picture in one colour, as PNG. */
export function pngOf(rgb: [number, number, number], size = 8): Uint8Array {
  const data = new Uint8Array(size * size * 3);
  for (let i = 0; i < data.length; i += 3) data.set(rgb, i);
  return encodePng({ width: size, height: size, data, channels: 3, depth: 8 });
}

/** The colour at the middle of a JPEG, to tell which picture came back. */
export function middleColourOfJpeg(bytes: Uint8Array): [number, number, number] {
  const image = decodeJpeg(bytes, { useTArray: true });
  const at = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
}

export interface FakeImageModel extends WorkersAiBinding {
  calls: { model: string; inputs: Record<string, unknown>; options?: Record<string, unknown> }[];
}

type Answer = (model: string, inputs: Record<string, unknown>) => unknown;

/** An error as the binding throws it: `name` and "<code>: <description>" from the error body. */
const upstreamError = (message: string) => Object.assign(new Error(message), { name: "InferenceUpstreamError" });

/** FLUX.1 schnell's input schema (cloudflare-docs' model JSON): what the platform refuses before running. */
function checkFluxInputs(inputs: Record<string, unknown>): void {
  const unknown = Object.keys(inputs).filter((key) => key !== "prompt" && key !== "steps");
  const { prompt, steps } = inputs;
  if (
    unknown.length > 0 ||
    typeof prompt !== "string" ||
    prompt.length < 1 ||
    prompt.length > 2048 ||
    (steps !== undefined && (!Number.isInteger(steps) || (steps as number) < 1 || (steps as number) > 8))
  ) {
    // The code is illustrative (research §1); the shape of the message is the binding's.
    throw upstreamError("3010: Invalid or incomplete input for the model");
  }
}

/** The binding, answering each `run` with `answer` and remembering what it was asked. */
export function fakeImageModel(answer: Answer): FakeImageModel {
  const calls: FakeImageModel["calls"] = [];
  return {
    calls,
    async run(model, inputs, options) {
      calls.push({ model, inputs, ...(options && { options }) });
      if (model === TEXT_TO_IMAGE_MODEL) checkFluxInputs(inputs);
      return answer(model, inputs);
    },
  };
}

/** FLUX.1 schnell's shape: JSON with the picture in base64 (JPEG, as it is reported to be). */
export const fluxAnswer =
  (bytes: Uint8Array = jpegOf([200, 40, 40])): Answer =>
  () => ({ image: bytesToBase64(bytes) });

/** An SDXL model's shape: the binding hands back the response body, a stream of PNG bytes. */
export const streamAnswer =
  (bytes: Uint8Array = pngOf([40, 40, 200])): Answer =>
  () =>
    new Response(new Uint8Array(bytes)).body;

/** A failure as the binding throws it: `name` and "<code>: <description>" from the error body. */
export const failingAnswer =
  (message = "3010: Invalid or incomplete input for the model"): Answer =>
  () => {
    throw upstreamError(message);
  };

/** A model that never answers (the binding ignores `signal`, so only our own time limit ends it). */
export const hangingAnswer = (): Answer => () => new Promise<never>(() => {});

/** A stream answer that gives its first bytes, then breaks (a connection lost mid-answer). */
export const brokenStreamAnswer =
  (bytes: Uint8Array = pngOf([40, 40, 200])): Answer =>
  () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 16));
      },
      pull(controller) {
        controller.error(new Error("Network connection lost."));
      },
    });

/** A stream answer that gives its first bytes, then nothing more, ever. */
export const stalledStreamAnswer =
  (bytes: Uint8Array = pngOf([40, 40, 200])): Answer =>
  () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 16));
      },
      pull: () => new Promise<void>(() => {}),
    });
