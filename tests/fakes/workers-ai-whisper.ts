/**
 * A fake of the Workers AI binding for `@cf/openai/whisper-large-v3-turbo`, answering in the
 * model's real JSON shape (text, word_count, segments with words, vtt, transcription_info) and
 * deriving that answer from the audio it is given, so the provider's cutting and stitching are
 * really exercised: in a 16-bit WAV each burst of loudness `k × 1000` is the word WORDS[k], in
 * an MP3 of the fixtures' frames each frame's marker byte is (tests/audio-fixtures.ts). Its
 * times are relative to the audio it was sent, as the model's are. It reads the bytes with
 * its own small readers, not the code under test.
 */
import { MP3_FRAME_BYTES, MP3_FRAME_SECONDS, MP3_MARKER_AT, WORDS } from "../audio-fixtures";

export const WHISPER_MODEL = "@cf/openai/whisper-large-v3-turbo";

type WhisperInput = Ai_Cf_Openai_Whisper_Large_V3_Turbo_Input;
type WhisperOutput = Ai_Cf_Openai_Whisper_Large_V3_Turbo_Output;

export interface WhisperCall {
  model: string;
  /** The inputs without the audio, and the audio's decoded size. */
  inputs: Omit<WhisperInput, "audio">;
  audioBytes: number;
}

interface HeardWord {
  word: string;
  start: number;
  end: number;
}

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/**
 * Runs of loud steps (code > 0) of `step` seconds, as words: a run's word is its loudest step's
 * code, so a step only partly inside a burst (quieter) does not make a word of its own.
 */
function wordsOf(codes: number[], step: number): HeardWord[] {
  const words: HeardWord[] = [];
  for (let index = 0; index < codes.length;) {
    if (codes[index] === 0) {
      index++;
      continue;
    }
    let end = index;
    let code = 0;
    while (end < codes.length && codes[end]! > 0) code = Math.max(code, codes[end++]!);
    words.push({ word: WORDS[code] ?? `word${code}`, start: index * step, end: end * step });
    index = end;
  }
  return words;
}

/** The first channel of a 16-bit WAV, as 10 ms windows' codes (peak / 1000, rounded). */
function hearWav(bytes: Uint8Array): { words: HeardWord[]; duration: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let rate = 0;
  let blockAlign = 0;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    if (id === "fmt ") {
      rate = view.getUint32(at + 12, true);
      blockAlign = view.getUint16(at + 20, true);
    }
    if (id === "data") {
      const frames = Math.floor(Math.min(size, bytes.length - at - 8) / blockAlign);
      const window = rate / 100;
      const codes: number[] = [];
      for (let start = 0; start + window <= frames; start += window) {
        let peak = 0;
        for (let frame = start; frame < start + window; frame++) {
          peak = Math.max(peak, Math.abs(view.getInt16(at + 8 + frame * blockAlign, true)));
        }
        codes.push(peak > 500 ? Math.round(peak / 1000) : 0);
      }
      return { words: wordsOf(codes, 0.01), duration: frames / rate };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error("the fake Whisper was sent a WAV without a data chunk");
}

/** The fixtures' MP3 frames (fixed 384 bytes), each one's marker byte as its code. */
function hearMp3(bytes: Uint8Array): { words: HeardWord[]; duration: number } {
  let at = 0;
  if (ascii(bytes, 0, 3) === "ID3") at = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!);
  const codes: number[] = [];
  for (; at + MP3_FRAME_BYTES <= bytes.length; at += MP3_FRAME_BYTES) {
    if (bytes[at] !== 0xff) throw new Error(`the fake Whisper found no frame at ${at}`);
    if (ascii(bytes, at + MP3_MARKER_AT, 4) === "Xing") continue;
    codes.push(bytes[at + MP3_MARKER_AT]!);
  }
  return { words: wordsOf(codes, MP3_FRAME_SECONDS), duration: codes.length * MP3_FRAME_SECONDS };
}

const time = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/** Words closer than this share a segment, as Whisper groups a phrase. */
const SEGMENT_GAP_SECONDS = 0.6;

function answer(heard: { words: HeardWord[]; duration: number | undefined }, inputs: WhisperInput): WhisperOutput {
  const segments: NonNullable<WhisperOutput["segments"]> = [];
  for (const word of heard.words) {
    const last = segments[segments.length - 1];
    const previous = last?.words?.[last.words.length - 1];
    // Whisper's words and segment texts begin with a space.
    const spoken = { word: ` ${word.word}`, start: word.start, end: word.end };
    if (last && previous && word.start - previous.end! < SEGMENT_GAP_SECONDS) {
      last.words!.push(spoken);
      last.end = word.end;
      last.text += spoken.word;
    } else {
      segments.push({
        start: word.start,
        end: word.end,
        text: spoken.word,
        temperature: 0,
        avg_logprob: -0.25,
        compression_ratio: 1.1,
        no_speech_prob: 0.02,
        words: [spoken],
      });
    }
  }
  const text = segments
    .map((segment) => segment.text)
    .join("")
    .trim();
  return {
    transcription_info: {
      language: inputs.language ?? "en",
      language_probability: 0.97,
      ...(heard.duration !== undefined && { duration: heard.duration, duration_after_vad: heard.duration }),
    },
    text,
    word_count: heard.words.length,
    segments,
    vtt: `WEBVTT\n\n${segments.map((segment) => `${time(segment.start!)} --> ${time(segment.end!)}\n${segment.text!.trim()}\n`).join("\n")}`,
  };
}

/**
 * The fake binding. `fail` makes every call throw as the binding does on an upstream error, or
 * only the calls numbered in `failOn` (from 1, in the order they arrive); `delayMs` holds each
 * answer back (time limits); `detects` is the language answered when none is asked (Whisper
 * detects it); `calls` records what was asked.
 */
export function fakeWhisperAi(
  options: { fail?: Error; failOn?: number[]; delayMs?: number; detects?: string } = {},
): Ai & { calls: WhisperCall[]; maxInFlight: number } {
  const calls: WhisperCall[] = [];
  let inFlight = 0;
  const binding = {
    calls,
    /** The most calls that were running at once. */
    maxInFlight: 0,
    async run(model: string, inputs: WhisperInput) {
      inFlight++;
      binding.maxInFlight = Math.max(binding.maxInFlight, inFlight);
      try {
        return await hear(model, inputs);
      } finally {
        inFlight--;
      }
    },
  };
  async function hear(model: string, inputs: WhisperInput): Promise<WhisperOutput> {
    const { audio, ...rest } = inputs;
    if (model !== WHISPER_MODEL) throw new Error(`the fake Whisper binding does not run ${model}`);
    if (typeof audio !== "string") throw new Error("the fake Whisper binding takes base64 audio");
    const bytes = Uint8Array.from(atob(audio), (char) => char.charCodeAt(0));
    calls.push({ model, inputs: rest, audioBytes: bytes.length });
    const number = calls.length;
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (options.fail) throw options.fail;
    if (options.failOn?.includes(number)) throw inferenceUpstreamError("3007: Request timeout");
    const heardIn = { ...inputs, language: inputs.language ?? options.detects };
    if (ascii(bytes, 0, 4) === "RIFF") return answer(hearWav(bytes), heardIn);
    if (ascii(bytes, 0, 3) === "ID3" || bytes[0] === 0xff) return answer(hearMp3(bytes), heardIn);
    // Containers the fake cannot read: one word per whole file, so a caller sees it was heard.
    return answer({ words: [{ word: "whole", start: 0, end: 0.5 }], duration: undefined }, heardIn);
  }
  return binding as unknown as Ai & { calls: WhisperCall[]; maxInFlight: number };
}

/** The error the binding throws on an upstream failure (its message is `${code}: ${description}`). */
export function inferenceUpstreamError(message = "3010: Invalid or incomplete input for the model"): Error {
  return Object.assign(new Error(message), { name: "InferenceUpstreamError" });
}
