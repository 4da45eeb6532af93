/**
 * Text to Audio on Workers AI (decision 060): Deepgram Aura 2 for English voices, MeloTTS for
 * the other languages. The binding answers each model in its own shape (workerd's ai-api.ts
 * returns parsed JSON for an `application/json` answer and the body stream otherwise): Aura a
 * ReadableStream of the audio, MeloTTS `{ audio: "<base64 MP3>" }`. Both are read here, and the
 * bytes, not the model's documentation, decide what came back.
 *
 * Long text is cut at sentence ends into pieces each model takes in one call, spoken piece by
 * piece, and joined as the format allows (workers/hosted/text-to-speech/audio.ts). Neither
 * model has a speed or pitch input: a `speed` other than 1 or a `pitch` other than 50 is
 * refused at its field, never ignored.
 */
import {
  documentFailure,
  SPEECH_FORMATS,
  type SpeechFormat,
  type SpeechOutcome,
  type SpeechRequest,
  type SpeechSynthesizer,
  type Voice,
} from "~workers/hosted/capabilities";
import { base64ToBytes } from "~workers/hosted/_image/base64";
import { concatBytes, joinMp3, joinWav, readWav, splitText } from "~workers/hosted/text-to-speech/audio";
import { readAtMost } from "~workers/http/request-body";

export const AURA_MODEL = "@cf/deepgram/aura-2-en";
export const MELOTTS_MODEL = "@cf/myshell-ai/melotts";

/** The slice of the Workers AI binding speech uses (tests pass a fake answering in the models' shapes). */
export interface SpeechModels {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

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

/** The voice a request names, or the first of its language: null when none fits. */
export function pickWorkersAiVoice(request: Pick<SpeechRequest, "voice" | "language">): ModelVoice | null {
  if (request.voice) return WORKERS_AI_VOICES.find((voice) => voice.id === request.voice) ?? null;
  const wanted = (request.language ?? "en").toLowerCase();
  return (
    WORKERS_AI_VOICES.find((voice) => voice.language.toLowerCase() === wanted) ??
    WORKERS_AI_VOICES.find((voice) => voice.language.toLowerCase().split("-")[0] === wanted.split("-")[0]) ??
    null
  );
}

export function workersAiSpeech(ai: SpeechModels): SpeechSynthesizer {
  return {
    engine: "workers-ai",
    formats: SPEECH_FORMATS,
    voices: async () => WORKERS_AI_VOICES.map(({ id, name, language, gender }) => ({ id, name, language, gender })),
    synthesize: (request) => synthesize(ai, request),
  };
}

async function synthesize(ai: SpeechModels, request: SpeechRequest): Promise<SpeechOutcome> {
  const voice = pickWorkersAiVoice(request);
  if (!voice) {
    return request.voice
      ? documentFailure(
          "invalid-input",
          `${request.voice} is not a voice of this engine: see GET /api/v1/text-to-speech/voices.`,
          {
            field: "voice",
          },
        )
      : documentFailure(
          "invalid-input",
          `Workers AI has no voice for ${request.language}: Aura speaks English, MeloTTS ${MELOTTS_LANGUAGES.map(([, , name]) => name).join(", ")}.`,
          { field: "language" },
        );
  }
  if (request.speed !== 1) {
    return documentFailure(
      "invalid-input",
      "Workers AI's voices (Deepgram Aura, MeloTTS) speak at their own pace and take no speed: leave speed at 1.",
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
  const signal = AbortSignal.timeout(request.timeoutMs);
  if (voice.model === MELOTTS_MODEL) return melotts(ai, voice, request, signal);
  return aura(ai, voice, request, signal);
}

async function aura(
  ai: SpeechModels,
  voice: ModelVoice,
  request: SpeechRequest,
  signal: AbortSignal,
): Promise<SpeechOutcome> {
  const pieces = splitText(request.text, AURA_PIECE_CHARS);
  if (pieces.length > 1 && UNJOINABLE.includes(request.format)) {
    return documentFailure(
      "invalid-input",
      `${request.format} is answered for texts of up to ${AURA_PIECE_CHARS} characters (one call of the model; its files cannot be joined): ask mp3, wav or pcm for a longer text.`,
      { field: "response_format" },
    );
  }
  const format = AURA_FORMATS[request.format];
  const audio: Uint8Array[] = [];
  for (const text of pieces) {
    const answered = await runModel(ai, AURA_MODEL, { text, speaker: voice.input, ...format.inputs }, signal);
    if (!answered.ok) return answered;
    audio.push(answered.bytes);
  }
  const joined = joinAudio(request.format, audio);
  if (!joined) return documentFailure("engine-failed", `Deepgram Aura answered audio that is not ${request.format}.`);
  return {
    ok: true,
    audio: joined,
    format: request.format,
    contentType: format.contentType,
    voice: voice.id,
    engine: `workers-ai/${AURA_MODEL}`,
  };
}

async function melotts(
  ai: SpeechModels,
  voice: ModelVoice,
  request: SpeechRequest,
  signal: AbortSignal,
): Promise<SpeechOutcome> {
  if (request.format !== "mp3") {
    return documentFailure(
      "invalid-input",
      `MeloTTS, which speaks ${voice.name.replace(" (MeloTTS)", "")} here, answers MP3 only: ask response_format "mp3" (the other formats are for English, spoken by Aura).`,
      { field: "response_format" },
    );
  }
  const audio: Uint8Array[] = [];
  for (const prompt of splitText(request.text, MELOTTS_PIECE_CHARS)) {
    const answered = await runModel(ai, MELOTTS_MODEL, { prompt, lang: voice.input }, signal);
    if (!answered.ok) return answered;
    audio.push(answered.bytes);
  }
  const joined = joinAudio("mp3", audio);
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

/** One piece of text through one model: its audio bytes, or the failure as the caller reads it. */
async function runModel(
  ai: SpeechModels,
  model: string,
  inputs: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ ok: true; bytes: Uint8Array } | ReturnType<typeof documentFailure>> {
  let answer: unknown;
  try {
    answer = await ai.run(model, inputs, { signal });
  } catch (error) {
    if (signal.aborted) return documentFailure("engine-failed", `${model} did not answer in time.`);
    // InferenceUpstreamError's message is "<code>: <description>" from Workers AI.
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return documentFailure("engine-failed", `${model} failed (${reason.slice(0, 200)}).`);
  }
  const bytes = await audioBytesOf(answer);
  if (!bytes || bytes.length === 0) return documentFailure("engine-failed", `${model} answered no audio.`);
  return { ok: true, bytes };
}

/** The audio in any shape the binding hands back: a stream, a Response, bytes, or MeloTTS's JSON. */
async function audioBytesOf(answer: unknown): Promise<Uint8Array | null> {
  if (answer instanceof Response) return answer.body ? audioBytesOf(answer.body) : null;
  if (answer instanceof ReadableStream) {
    const read = await readAtMost((answer as ReadableStream<Uint8Array>).getReader(), MAX_PIECE_BYTES);
    return read.ok ? read.bytes : null;
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
