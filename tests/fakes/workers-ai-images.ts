/**
 * A fake of the Workers AI binding for text-to-image, answering in the models' real shapes
 * (research notes §1, workerd's ai-api.ts): FLUX.1 schnell's JSON `{ image: "<base64>" }`, an
 * SDXL model's ReadableStream of PNG bytes, and `InferenceUpstreamError` thrown for a failure.
 * The pictures are real JPEG and PNG files, so what is stored and served can be decoded.
 */
import { encode as encodePng } from "fast-png";
import { decode as decodeJpeg, encode as encodeJpeg } from "jpeg-js";
import { bytesToBase64 } from "~workers/hosted/_image/base64";
import type { ImageModel } from "~workers/providers/workers-ai/text-to-image";

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

export interface FakeImageModel extends ImageModel {
  calls: { model: string; inputs: { prompt: string; steps?: number } }[];
}

type Answer = (model: string, inputs: { prompt: string; steps?: number }) => unknown;

/** The binding, answering each `run` with `answer` and remembering what it was asked. */
export function fakeImageModel(answer: Answer): FakeImageModel {
  const calls: FakeImageModel["calls"] = [];
  return {
    calls,
    async run(model, inputs) {
      calls.push({ model, inputs });
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
export const failingAnswer = (): Answer => () => {
  throw Object.assign(new Error("3010: Invalid or incomplete input for the model"), { name: "InferenceUpstreamError" });
};
