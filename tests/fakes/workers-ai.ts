/**
 * A fake of the Workers AI binding for Text to Audio, answering in the models' real shapes
 * (research notes §1, workerd's ai-api.ts): Deepgram Aura's answer is the response body, a
 * ReadableStream of audio in the encoding and container asked; MeloTTS's is JSON
 * `{ audio: "<base64 MP3>" }`; a failure throws `InferenceUpstreamError`. The audio is real
 * audio framing — MPEG Layer III frames (silent), RIFF/WAVE with PCM samples, raw PCM — sized by
 * the text (one MP3 frame or 480 samples per character), and each call's samples carry the
 * call's number, so a test can see the pieces of a long text joined whole and in order.
 */
import { bytesToBase64 } from "~workers/hosted/_image/base64";
import { concatBytes, wavOf } from "~workers/hosted/_audio/wav";
import type { SpeechModels } from "~workers/providers/workers-ai/speech";

export interface FakeSpeechCall {
  model: string;
  inputs: Record<string, unknown>;
}

export interface FakeSpeechModels extends SpeechModels {
  calls: FakeSpeechCall[];
}

/** One silent MPEG Layer III frame: MPEG-2 at 24 kHz, 48 kb/s (144 bytes), or MPEG-1 at 44.1 kHz, 64 kb/s (208 bytes). */
export function mp3Frame(kind: "mpeg2-24k" | "mpeg1-44k" = "mpeg2-24k"): Uint8Array {
  // Header: sync, version, Layer III, no CRC; bitrate index; sample-rate index; mono.
  const header = kind === "mpeg2-24k" ? [0xff, 0xf3, 0x64, 0xc4] : [0xff, 0xfb, 0x50, 0xc4];
  const frame = new Uint8Array(kind === "mpeg2-24k" ? 144 : 208);
  frame.set(header);
  return frame;
}

/** An encoder's Xing/Info frame (no audio), as LAME writes first: it must not survive a join. */
export function infoFrame(kind: "mpeg2-24k" | "mpeg1-44k" = "mpeg2-24k"): Uint8Array {
  const frame = mp3Frame(kind);
  // After the 4-byte header and the side information (9 bytes for MPEG-2 mono, 17 for MPEG-1 mono).
  frame.set(
    [..."Info"].map((c) => c.charCodeAt(0)),
    4 + (kind === "mpeg2-24k" ? 9 : 17),
  );
  return frame;
}

/** An ID3v2 tag of `size` bytes of body, as some encoders put first. */
export function id3Tag(size = 20): Uint8Array {
  const tag = new Uint8Array(10 + size);
  tag.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, size]);
  return tag;
}

/** An MP3 of `frames` silent frames, with a tag and an Info frame first, as encoders write them. */
export function mp3Of(frames: number, kind: "mpeg2-24k" | "mpeg1-44k" = "mpeg2-24k"): Uint8Array {
  return concatBytes([id3Tag(), infoFrame(kind), ...Array.from({ length: frames }, () => mp3Frame(kind))]);
}

/** 16-bit little-endian samples, all of one value. */
function pcmOf(samples: number, value: number): Uint8Array {
  const pcm = new Uint8Array(samples * 2);
  const view = new DataView(pcm.buffer);
  for (let i = 0; i < samples; i++) view.setInt16(i * 2, value, true);
  return pcm;
}

export interface FakeSpeechOptions {
  /** Throw for every call (the binding's InferenceUpstreamError). */
  fail?: boolean;
  /** Throw for every call with this Workers AI error code ("3036: …", as the platform's messages start). */
  errorCode?: number;
  /** Answer each call after this many milliseconds (a function of the call's number, from 1). */
  delayMs?: number | ((callNumber: number) => number);
  /** Aura's stream starts and then never ends (a stalled connection). */
  stallStream?: boolean;
  /** Every answer is these bytes, whatever was asked (a model answering another format). */
  answerBytes?: Uint8Array;
  /** Aura's streamed WAV with the sizes it cannot know yet written as 0xFFFFFFFF. */
  streamedWavSizes?: boolean;
}

export function fakeSpeechModels(options: FakeSpeechOptions = {}): FakeSpeechModels {
  const calls: FakeSpeechCall[] = [];
  return {
    calls,
    async run(model, inputs) {
      calls.push({ model, inputs });
      const callNumber = calls.length;
      const delay = typeof options.delayMs === "function" ? options.delayMs(callNumber) : options.delayMs;
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      if (options.errorCode !== undefined) {
        throw Object.assign(
          new Error(
            `${options.errorCode}: You have used up your daily free allocation of 10,000 neurons on account 1234.`,
          ),
          { name: "InferenceUpstreamError" },
        );
      }
      if (options.fail) {
        throw Object.assign(new Error("3010: Invalid or incomplete input for the model"), {
          name: "InferenceUpstreamError",
        });
      }
      if (options.answerBytes) {
        return model === "@cf/myshell-ai/melotts"
          ? { audio: bytesToBase64(options.answerBytes) }
          : new Response(new Uint8Array(options.answerBytes)).body;
      }
      if (options.stallStream) {
        return new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new Uint8Array(16));
          },
        });
      }
      if (model === "@cf/myshell-ai/melotts") {
        const prompt = String(inputs.prompt ?? "");
        return { audio: bytesToBase64(mp3Of(prompt.length, "mpeg1-44k")) };
      }
      if (model === "@cf/deepgram/aura-2-en") {
        const text = String(inputs.text ?? "");
        return new Response(new Uint8Array(auraAudio(text.length, inputs, callNumber, options))).body;
      }
      throw Object.assign(new Error(`5007: No such model ${model} or task`), { name: "InferenceUpstreamError" });
    },
  };
}

/** Aura's audio for `characters` of text, in the encoding and container asked (Deepgram's names). */
function auraAudio(
  characters: number,
  inputs: Record<string, unknown>,
  callNumber: number,
  options: FakeSpeechOptions,
): Uint8Array {
  const encoding = inputs.encoding ?? "mp3";
  const container = inputs.container ?? (encoding === "opus" ? "ogg" : "none");
  if (encoding === "mp3") return mp3Of(characters);
  if (encoding === "linear16") {
    const rate = typeof inputs.sample_rate === "number" ? inputs.sample_rate : 24_000;
    const pcm = pcmOf(characters * 480, callNumber);
    if (container === "none") return pcm;
    const wav = wavOf(pcm, rate);
    if (options.streamedWavSizes) {
      const view = new DataView(wav.buffer);
      view.setUint32(4, 0xffffffff, true);
      view.setUint32(40, 0xffffffff, true);
    }
    return wav;
  }
  if (encoding === "flac") return concatBytes([new TextEncoder().encode("fLaC"), new Uint8Array(characters)]);
  if (encoding === "opus") return concatBytes([new TextEncoder().encode("OggS"), new Uint8Array(characters)]);
  throw Object.assign(new Error(`3010: unsupported encoding ${String(encoding)}`), { name: "InferenceUpstreamError" });
}
