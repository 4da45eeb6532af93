/**
 * Text to Audio on Workers AI (decision 060): Deepgram Aura 2 for English voices, MeloTTS for
 * the other languages. The binding answers each model in its own shape (workerd's ai-api.ts
 * returns parsed JSON for an `application/json` answer and the body stream otherwise): Aura a
 * ReadableStream of the audio, MeloTTS `{ audio: "<base64 MP3>" }`. Both are read here, and the
 * bytes, not the model's documentation, decide what came back.
 *
 * Long text is cut at sentence ends into pieces each model takes in one call, spoken up to
 * four pieces at a time, and joined in the text's order as the format allows
 * (workers/hosted/text-to-speech/audio.ts). Neither model has a speed or pitch input: Aura's
 * linear16 (wav, pcm) is given a speed here by time-stretching it, pitch kept
 * (text-to-speech/stretch.ts); a speed for its mp3, Opus or FLAC, or for MeloTTS's MP3, would
 * need decoding and re-encoding, and is refused at `speed`, as is a `pitch` other than 50:
 * never ignored. The runs go through binding.ts's `runModel` (its own time limit, Workers AI's
 * error codes sorted into problems, the platform's message kept in our logs).
 */
import {
  documentFailure,
  type DocumentFailure,
  SPEECH_FORMATS,
  type SpeechFormat,
  type SpeechOutcome,
  type SpeechRequest,
  type SpeechSynthesizer,
  type Voice,
} from "~workers/hosted/capabilities";
import { base64ToBytes } from "~workers/hosted/_image/base64";
import { concatBytes, pcmFmtChunk, wavHeader } from "~workers/hosted/_audio/wav";
import { joinMp3, joinWav, readWav, splitText } from "~workers/hosted/text-to-speech/audio";
import { pickVoice } from "~workers/hosted/text-to-speech/pick-voice";
import { stretchedLength, timeStretch } from "~workers/hosted/text-to-speech/stretch";
import { readAtMost } from "~workers/http/request-body";
import { modelFailure, runModel, type WorkersAiBinding } from "./binding";

export const AURA_MODEL = "@cf/deepgram/aura-2-en";
export const MELOTTS_MODEL = "@cf/myshell-ai/melotts";

/** The slice of the Workers AI binding speech uses (tests pass a fake answering in the models' shapes). */
export type SpeechModels = WorkersAiBinding;

/**
 * Characters per Aura call: Deepgram's speak API takes at most 2 000 characters of text a
 * request; a little under it leaves room for the piece's closing punctuation.
 */
export const AURA_PIECE_CHARS = 1800;
/** Characters per MeloTTS call: the model reads a sentence or a short paragraph at a time (no documented limit). */
export const MELOTTS_PIECE_CHARS = 500;
/** Aura's linear16 rate here: OpenAI's `pcm` is 24 kHz 16-bit little-endian mono, and so is ours. */
export const PCM_SAMPLE_RATE = 24_000;
/** The most audio one model call may answer (an Aura piece of MP3 is well under 2 MB). */
const MAX_PIECE_BYTES = 16 * 1024 * 1024;
/** Pieces of one text spoken at once: a 4 096-character text is 9 MeloTTS calls, all within one time limit. */
export const PIECE_CONCURRENCY = 4;
/**
 * The longest audio a speed may stretch to: 10 minutes of 24 kHz 16-bit mono is 28.8 MB,
 * held next to the unstretched audio in the main Worker's 128 MB (and base64 for `?as=json`).
 */
export const MAX_STRETCHED_SECONDS = 600;

/**
 * Aura 2's English voices, as Deepgram's voice list describes them (expressed gender, accent):
 * Luna, the model's default, and Orion first, as the female and male voice an OpenAI voice
 * name or a bare `language` is answered with.
 */
const AURA_VOICES: readonly (readonly [string, "female" | "male", string])[] = [
  ["luna", "female", "en-US"],
  ["orion", "male", "en-US"],
  ["amalthea", "female", "en-PH"],
  ["andromeda", "female", "en-US"],
  ["apollo", "male", "en-US"],
  ["arcas", "male", "en-US"],
  ["aries", "male", "en-US"],
  ["asteria", "female", "en-US"],
  ["athena", "female", "en-US"],
  ["atlas", "male", "en-US"],
  ["aurora", "female", "en-US"],
  ["callista", "female", "en-US"],
  ["cora", "female", "en-US"],
  ["cordelia", "female", "en-US"],
  ["delia", "female", "en-US"],
  ["draco", "male", "en-GB"],
  ["electra", "female", "en-US"],
  ["harmonia", "female", "en-US"],
  ["helena", "female", "en-US"],
  ["hera", "female", "en-US"],
  ["hermes", "male", "en-US"],
  ["hyperion", "male", "en-AU"],
  ["iris", "female", "en-US"],
  ["janus", "female", "en-US"],
  ["juno", "female", "en-US"],
  ["jupiter", "male", "en-US"],
  ["mars", "male", "en-US"],
  ["minerva", "female", "en-US"],
  ["neptune", "male", "en-US"],
  ["odysseus", "male", "en-US"],
  ["ophelia", "female", "en-US"],
  ["orpheus", "male", "en-US"],
  ["pandora", "female", "en-GB"],
  ["phoebe", "female", "en-US"],
  ["pluto", "male", "en-US"],
  ["saturn", "male", "en-US"],
  ["thalia", "female", "en-US"],
  ["theia", "female", "en-AU"],
  ["vesta", "female", "en-US"],
  ["zeus", "male", "en-US"],
];

/**
 * MeloTTS's languages besides English, with the `lang` value the model takes: MeloTTS names
 * Japanese and Korean JP and KR (Workers AI documents only `en` and `fr` as examples).
 */
const MELOTTS_LANGUAGES: readonly (readonly [string, string, string])[] = [
  ["es", "es", "Spanish"],
  ["fr", "fr", "French"],
  ["zh", "zh", "Chinese"],
  ["ja", "jp", "Japanese"],
  ["ko", "kr", "Korean"],
];

interface ModelVoice extends Voice {
  model: typeof AURA_MODEL | typeof MELOTTS_MODEL;
  /** Aura's `speaker` or MeloTTS's `lang`. */
  input: string;
}

const capitalised = (name: string) => name[0]!.toUpperCase() + name.slice(1);

export const WORKERS_AI_VOICES: readonly ModelVoice[] = [
  ...AURA_VOICES.map(([speaker, gender, language]): ModelVoice => ({
    id: speaker,
    name: `${capitalised(speaker)} (Deepgram Aura 2)`,
    language,
    gender,
    model: AURA_MODEL,
    input: speaker,
  })),
  ...MELOTTS_LANGUAGES.map(([language, lang, name]): ModelVoice => ({
    id: `melotts-${language}`,
    name: `${name} (MeloTTS)`,
    language,
    gender: null,
    model: MELOTTS_MODEL,
    input: lang,
  })),
];

/** Aura's `encoding` and `container` for each format, and the format's media type. */
const AURA_FORMATS: Record<SpeechFormat, { inputs: Record<string, unknown>; contentType: string }> = {
  mp3: { inputs: { encoding: "mp3" }, contentType: "audio/mpeg" },
  wav: { inputs: { encoding: "linear16", container: "wav", sample_rate: PCM_SAMPLE_RATE }, contentType: "audio/wav" },
  pcm: { inputs: { encoding: "linear16", container: "none", sample_rate: PCM_SAMPLE_RATE }, contentType: "audio/pcm" },
  flac: { inputs: { encoding: "flac" }, contentType: "audio/flac" },
  opus: { inputs: { encoding: "opus", container: "ogg" }, contentType: "audio/ogg" },
};

/** Formats whose files cannot be joined without re-encoding: one model call's text at most. */
const UNJOINABLE: readonly SpeechFormat[] = ["flac", "opus"];

/** Formats a speed can be given to here: Aura's linear16 samples, time-stretched. */
export const STRETCHABLE: readonly SpeechFormat[] = ["wav", "pcm"];

const MELOTTS_NAMES = MELOTTS_LANGUAGES.map(([, , name]) => name).join(", ");

/** The voice a request names, or the first of its language (English unless given). */
export function pickWorkersAiVoice(request: Pick<SpeechRequest, "voice" | "language">) {
  return pickVoice(WORKERS_AI_VOICES, request, "Workers AI", `English on Aura, ${MELOTTS_NAMES} on MeloTTS`);
}

export function workersAiSpeech(ai: SpeechModels): SpeechSynthesizer {
  return {
    engine: "workers-ai",
    formats: SPEECH_FORMATS,
    // MeloTTS's voices say they answer mp3 only: a client choosing from the list sees it.
    voices: async () =>
      WORKERS_AI_VOICES.map(({ id, name, language, gender, model }) => ({
        id,
        name,
        language,
        gender,
        ...(model === MELOTTS_MODEL && { formats: ["mp3" as const] }),
      })),
    synthesize: (request) => synthesize(ai, request),
  };
}

async function synthesize(ai: SpeechModels, request: SpeechRequest): Promise<SpeechOutcome> {
  const picked = pickWorkersAiVoice(request);
  if (!picked.ok) return documentFailure("invalid-input", picked.detail, { field: picked.field });
  const voice = picked.voice;
  if (request.speed !== 1 && voice.model === MELOTTS_MODEL) {
    return documentFailure(
      "invalid-input",
      `MeloTTS, which speaks ${voice.name.replace(" (MeloTTS)", "")} here, has no speed, and its MP3 cannot be re-timed here: leave speed at 1 (a speed is answered for English in wav or pcm).`,
      { field: "speed" },
    );
  }
  if (request.speed !== 1 && !STRETCHABLE.includes(request.format)) {
    return documentFailure(
      "invalid-input",
      `Deepgram Aura has no speed, and its ${request.format} cannot be re-timed here without re-encoding: a speed other than 1 is answered for wav or pcm only.`,
      { field: "speed" },
    );
  }
  if (request.pitch !== 50) {
    return documentFailure(
      "invalid-input",
      "Workers AI's voices (Deepgram Aura, MeloTTS) take no pitch: leave pitch at 50 (each voice has its own).",
      { field: "pitch" },
    );
  }
  if (voice.model === MELOTTS_MODEL) return melotts(ai, voice, request);
  return aura(ai, voice, request);
}

async function aura(ai: SpeechModels, voice: ModelVoice, request: SpeechRequest): Promise<SpeechOutcome> {
  const pieces = splitText(request.text, AURA_PIECE_CHARS);
  if (pieces.length > 1 && UNJOINABLE.includes(request.format)) {
    return documentFailure(
      "invalid-input",
      `${request.format} is answered for texts of up to ${AURA_PIECE_CHARS} characters (one call of the model; its files cannot be joined): ask mp3, wav or pcm for a longer text.`,
      { field: "response_format" },
    );
  }
  const format = AURA_FORMATS[request.format];
  const spoken = await speakPieces(
    ai,
    AURA_MODEL,
    "Deepgram Aura",
    pieces.map((text) => ({ text, speaker: voice.input, ...format.inputs })),
    request.timeoutMs,
  );
  if (!spoken.ok) return spoken;
  const joined = joinAudio(request.format, spoken.audio);
  if (!joined) return documentFailure("engine-failed", `Deepgram Aura answered audio that is not ${request.format}.`);
  const audio =
    request.speed === 1 ? { ok: true as const, bytes: joined } : stretchLinear16(joined, request.format, request.speed);
  if (!audio.ok) return audio;
  return {
    ok: true,
    audio: audio.bytes,
    format: request.format,
    contentType: format.contentType,
    voice: voice.id,
    engine: `workers-ai/${AURA_MODEL}`,
  };
}

/**
 * Aura's joined wav or pcm at `speed`: the samples time-stretched, written once into the
 * answer (after a new header for wav).
 */
function stretchLinear16(
  audio: Uint8Array,
  format: SpeechFormat,
  speed: number,
): { ok: true; bytes: Uint8Array } | ReturnType<typeof documentFailure> {
  const wav = format === "wav" ? readWav(audio) : null;
  const data = wav ? wav.data : audio;
  const rate = wav ? wav.sampleRate : PCM_SAMPLE_RATE;
  if ((wav && (wav.bitsPerSample !== 16 || wav.channels !== 1)) || data.byteOffset % 2 !== 0) {
    return documentFailure("engine-failed", "Deepgram Aura answered audio that is not 16-bit mono.");
  }
  const samples = new Int16Array(data.buffer, data.byteOffset, Math.floor(data.length / 2));
  const length = stretchedLength(samples.length, speed);
  if (length / rate > MAX_STRETCHED_SECONDS) {
    return documentFailure(
      "invalid-input",
      `At speed ${speed} this text would be more than ${MAX_STRETCHED_SECONDS / 60} minutes of speech: send less text, or a higher speed.`,
      { field: "speed" },
    );
  }
  const header = wav ? wavHeader(pcmFmtChunk(rate), length * 2) : new Uint8Array(0);
  const out = new Uint8Array(header.length + length * 2);
  out.set(header);
  // Little-endian samples, as linear16 is and as every platform Workers run on reads them.
  timeStretch(samples, speed, rate, new Int16Array(out.buffer, header.length, length));
  return { ok: true, bytes: out };
}

async function melotts(ai: SpeechModels, voice: ModelVoice, request: SpeechRequest): Promise<SpeechOutcome> {
  if (request.format !== "mp3") {
    return documentFailure(
      "invalid-input",
      `MeloTTS, which speaks ${voice.name.replace(" (MeloTTS)", "")} here, answers MP3 only: ask response_format "mp3" (the other formats are for English, spoken by Aura).`,
      { field: "response_format" },
    );
  }
  const spoken = await speakPieces(
    ai,
    MELOTTS_MODEL,
    "MeloTTS",
    splitText(request.text, MELOTTS_PIECE_CHARS).map((prompt) => ({ prompt, lang: voice.input })),
    request.timeoutMs,
  );
  if (!spoken.ok) return spoken;
  const joined = joinAudio("mp3", spoken.audio);
  if (!joined) return documentFailure("engine-failed", "MeloTTS answered audio that is not MP3.");
  return {
    ok: true,
    audio: joined,
    format: "mp3",
    contentType: "audio/mpeg",
    voice: voice.id,
    engine: `workers-ai/${MELOTTS_MODEL}`,
  };
}

/** Raised inside `speakPieces` to stop the other pieces; carries the failure the caller reads. */
class PieceFailed extends Error {
  constructor(readonly failure: DocumentFailure) {
    super(failure.detail);
  }
}

/**
 * Each piece's inputs through `model`, up to PIECE_CONCURRENCY at once, within one time limit
 * for them all: the audio in the pieces' order, or the first failure (the pieces still running
 * are abandoned and those not started are not started).
 */
async function speakPieces(
  ai: SpeechModels,
  model: string,
  what: string,
  inputs: Record<string, unknown>[],
  timeoutMs: number,
): Promise<{ ok: true; audio: Uint8Array[] } | DocumentFailure> {
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new Error("time limit"));
  }, timeoutMs);
  try {
    const audio = await mapInOrder(inputs, PIECE_CONCURRENCY, async (piece) => {
      const spoken = await speakOne(ai, model, what, piece, timeoutMs, stop.signal);
      if (!spoken.ok) throw new PieceFailed(spoken.failure);
      return spoken.bytes;
    });
    return { ok: true, audio };
  } catch (error) {
    stop.abort(error);
    if (timedOut) return documentFailure("engine-failed", `${what} did not answer within ${timeoutMs / 1000} s.`);
    return error instanceof PieceFailed ? error.failure : modelFailure(what, error);
  } finally {
    clearTimeout(timer);
  }
}

/** One piece through the model, its audio read to the end, or the failure as the caller reads it. */
async function speakOne(
  ai: SpeechModels,
  model: string,
  what: string,
  inputs: Record<string, unknown>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; failure: DocumentFailure }> {
  const run = await runModel(ai, model, inputs, { timeoutMs, what, signal });
  if (!run.ok) return run;
  let bytes: Uint8Array | "too-large" | null;
  try {
    // Aura's answer is a stream still arriving: reading it stops with the others.
    bytes = await untilAborted(audioBytesOf(run.answer), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    console.error(`Workers AI ${model}: reading the answer failed:`, error);
    return { ok: false, failure: modelFailure(what, error) };
  }
  if (bytes === "too-large") {
    return {
      ok: false,
      failure: documentFailure(
        "engine-failed",
        `${what} answered more than ${MAX_PIECE_BYTES / 1024 / 1024} MB of audio for one piece of text: too large.`,
      ),
    };
  }
  if (!bytes || bytes.length === 0) {
    return { ok: false, failure: documentFailure("engine-failed", `${what} answered no audio.`) };
  }
  return { ok: true, bytes };
}

/** `work`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

/**
 * `work` over `items`, at most `limit` at once, answers in the items' order. The first
 * rejection rejects the whole at once; items not started by then are not started.
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The audio in any shape the binding hands back: a stream, a Response, bytes, or MeloTTS's JSON. */
async function audioBytesOf(answer: unknown): Promise<Uint8Array | "too-large" | null> {
  if (answer instanceof Response) return answer.body ? audioBytesOf(answer.body) : null;
  if (answer instanceof ReadableStream) {
    const reader = (answer as ReadableStream<Uint8Array>).getReader();
    const read = await readAtMost(reader, MAX_PIECE_BYTES);
    if (read.ok) return read.bytes;
    await reader.cancel().catch(() => undefined);
    return "too-large";
  }
  if (answer instanceof Uint8Array) return answer;
  if (answer instanceof ArrayBuffer) return new Uint8Array(answer);
  if (typeof answer === "object" && answer !== null && typeof (answer as { audio?: unknown }).audio === "string") {
    return base64ToBytes((answer as { audio: string }).audio);
  }
  return null;
}

/** The pieces as one file of `format`, or null when the bytes are not that format. */
function joinAudio(format: SpeechFormat, pieces: Uint8Array[]): Uint8Array | null {
  switch (format) {
    case "mp3":
      return joinMp3(pieces);
    case "wav":
      return joinWav(pieces);
    case "pcm":
      // Raw samples have no header to check; a RIFF header here would be heard as a click.
      return pieces.some((piece) => readWav(piece) !== null) ? null : concatBytes(pieces);
    case "flac":
      return pieces.length === 1 && String.fromCharCode(...pieces[0]!.subarray(0, 4)) === "fLaC" ? pieces[0]! : null;
    case "opus":
      return pieces.length === 1 && String.fromCharCode(...pieces[0]!.subarray(0, 4)) === "OggS" ? pieces[0]! : null;
  }
}
