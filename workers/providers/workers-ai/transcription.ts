/**
 * Audio to Text's production engine: Workers AI's Whisper (`@cf/openai/whisper-large-v3-turbo`)
 * on the AI binding, with its voice-activity filter on (silence is skipped, so it is neither
 * billed as speech nor hallucinated into words). Long audio is cut into pieces (WAV between
 * sample blocks at a quiet moment, MP3 between frames: workers/hosted/_audio/split.ts), the
 * pieces are transcribed a few at a time, and their segments' and words' timestamps moved by
 * each piece's start onto the whole file's clock, the segments renumbered from 0. Containers
 * that cannot be cut without demuxing (M4A, WebM, Ogg, FLAC) are sent whole, within the bound
 * below (decision 061).
 */
import {
  documentFailure as failure,
  type DocumentFailure,
  type SpeechRecognizer,
  type Transcript,
  type TranscriptionOutcome,
  type TranscriptionRequest,
  type TranscriptSegment,
} from "~workers/hosted/capabilities";
import { bytesToBase64 } from "~workers/hosted/_image/base64";
import { SPLITTABLE, splitAudio, type AudioPiece, type PieceLimits } from "~workers/hosted/_audio/split";
import { runModel, type ModelRun, type WorkersAiBinding } from "./binding";

export const WHISPER_MODEL = "@cf/openai/whisper-large-v3-turbo";
export const WHISPER_ENGINE = `workers-ai/${WHISPER_MODEL}`;

type WhisperOutput = Ai_Cf_Openai_Whisper_Large_V3_Turbo_Output;

/**
 * One Whisper call's piece of a WAV or MP3: 3 MiB (4 MiB as base64 in the binding's JSON) and
 * three minutes. Workers AI documents no input bound for Whisper; these keep each call's
 * request small, and since a piece's bytes are built only when it is sent, at most four pieces
 * (their copies, base64 and JSON: about 12 MB each) are in memory beside the upload.
 */
export const PIECE_LIMITS: PieceLimits = { maxBytes: 3 * 1024 * 1024, maxSeconds: 180 };
/** Pieces transcribed at once (Workers AI allows 720 speech-recognition requests a minute). */
export const PIECE_CONCURRENCY = 4;
/**
 * M4A, WebM, Ogg and FLAC go to Whisper whole, in one call. Their header's duration cannot bound
 * what is billed (a caller may write 1 s into `mvhd` and Whisper decodes the packets anyway), so
 * their bytes do: 3.6 MB is 30 minutes at 16 kbps, as low as AAC, Vorbis or FLAC go; at Opus's
 * 6 kbps floor it holds 80 minutes (decision 061's worst case). Where the header gives a length,
 * over 10 minutes is refused too (one call must finish in the time limit). Beyond either, the
 * caller is told to send WAV or MP3, which are cut.
 */
export const WHOLE_FILE_MAX_BYTES = 3_600_000;
export const WHOLE_FILE_MAX_SECONDS = 600;

export interface WhisperOptions {
  limits?: PieceLimits;
  concurrency?: number;
}

const MB = 1_000_000;

const withEngine = (failed: DocumentFailure): DocumentFailure => ({
  ...failed,
  extensions: { ...failed.extensions, engine: WHISPER_ENGINE },
});

export function whisperRecognizer(ai: WorkersAiBinding, options: WhisperOptions = {}): SpeechRecognizer {
  const limits = options.limits ?? PIECE_LIMITS;
  const concurrency = options.concurrency ?? PIECE_CONCURRENCY;
  return {
    engine: WHISPER_ENGINE,
    async transcribe(request: TranscriptionRequest): Promise<TranscriptionOutcome> {
      const split = SPLITTABLE.includes(request.container)
        ? splitAudio(request.audio, request.container, limits)
        : wholeFile(request);
      if (!split.ok) return split;
      const { pieces } = split;

      const deadline = Date.now() + request.timeoutMs;
      // Aborted at the first failure: the pieces still running are given up at once, and no
      // further piece is sent (each would be billed for an answer nobody reads).
      const stop = new AbortController();
      let timedOut = false;
      const transcribePiece = async (piece: AudioPiece, language: string | undefined): Promise<ModelRun> => {
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          timedOut = true;
          return { ok: false, failure: failure("engine-failed", "Whisper ran out of time.") };
        }
        const run = await runModel(
          ai,
          WHISPER_MODEL,
          {
            audio: bytesToBase64(piece.read()),
            task: "transcribe",
            vad_filter: true,
            ...(language && { language }),
            ...(request.prompt && { initial_prompt: request.prompt }),
          },
          { timeoutMs: remaining, what: "Workers AI's Whisper", signal: stop.signal },
        );
        if (!run.ok && Date.now() >= deadline) timedOut = true;
        if (run.ok && (typeof run.answer !== "object" || run.answer === null)) {
          console.error("whisper answered something that is not its JSON", run.answer);
          return { ok: false, failure: failure("engine-failed", "Workers AI's Whisper answered in an unknown shape.") };
        }
        return run;
      };
      const failed = (first: DocumentFailure): DocumentFailure =>
        withEngine(
          timedOut
            ? failure(
                "engine-failed",
                `Whisper did not finish within ${request.timeoutMs / 1000} s (${pieces.length} piece${pieces.length === 1 ? "" : "s"} of audio). Send a shorter recording.`,
              )
            : first,
        );

      // Without a language each piece would detect its own (a long file could come back in
      // several languages or scripts): the first piece is heard first, and its language given
      // to the rest.
      const outputs: WhisperOutput[] = [];
      let language = request.language;
      let rest = pieces;
      if (!language && pieces.length > 1) {
        const first = await transcribePiece(pieces[0]!, undefined);
        if (!first.ok) return failed(first.failure);
        outputs.push(first.answer as WhisperOutput);
        const detected = outputs[0]!.transcription_info?.language;
        if (typeof detected === "string" && detected) language = detected;
        rest = pieces.slice(1);
      }
      const results = await mapLimited(rest, concurrency, (piece) => transcribePiece(piece, language), stop);
      if (!results.ok) return failed(results.failure);
      outputs.push(...(results.answers as WhisperOutput[]));
      const transcript = stitch(pieces, outputs, request.language);
      if (!SPLITTABLE.includes(request.container)) {
        // What the model heard in a file sent whole, for the operator to compare with the bound.
        console.log(
          `whisper: a ${request.audio.length}-byte ${request.container} (header: ${request.duration ?? "no"} s) heard as ${transcript.duration} s`,
        );
      }
      return { ok: true, engine: WHISPER_ENGINE, transcript };
    },
  };
}

/** A file sent whole, within WHOLE_FILE_MAX_BYTES and (where its header says) WHOLE_FILE_MAX_SECONDS. */
function wholeFile(request: TranscriptionRequest): { ok: true; pieces: AudioPiece[] } | DocumentFailure {
  const kind = request.container.toUpperCase();
  const size = request.audio.length;
  if (size > WHOLE_FILE_MAX_BYTES) {
    return failure(
      "unreadable-document",
      `A ${kind} file is transcribed whole, and may be at most ${WHOLE_FILE_MAX_BYTES / MB} MB; this one is ${(size / MB).toFixed(1)} MB. Send WAV or MP3 (cut into pieces, up to 25 MB), or a shorter file.`,
      { reason: "too-large" },
    );
  }
  const { duration } = request;
  if (duration !== null && duration > WHOLE_FILE_MAX_SECONDS) {
    return failure(
      "unreadable-document",
      `A ${kind} file is transcribed whole, and may last at most ${WHOLE_FILE_MAX_SECONDS / 60} minutes; this one lasts ${(duration / 60).toFixed(1)}. Send WAV or MP3 (cut into pieces), or a shorter file.`,
      { reason: "too-long" },
    );
  }
  const audio = request.audio;
  return { ok: true, pieces: [{ offset: 0, duration, byteLength: size, read: () => audio }] };
}

/**
 * `work` over `items`, at most `limit` at once, answers in the items' order. At the first
 * failure `stop` is aborted (work in flight gives up) and no further item is started.
 */
async function mapLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<ModelRun>,
  stop: AbortController,
): Promise<{ ok: true; answers: unknown[] } | { ok: false; failure: DocumentFailure }> {
  const answers = new Array<unknown>(items.length);
  let next = 0;
  let first: DocumentFailure | null = null;
  const worker = async () => {
    while (next < items.length && !first) {
      const index = next++;
      const run = await work(items[index]!);
      if (run.ok) answers[index] = run.answer;
      else if (!first) {
        first = run.failure;
        stop.abort(new Error("another piece of the audio failed"));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return first ? { ok: false, failure: first } : { ok: true, answers };
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const positive = (value: unknown): value is number => finite(value) && value > 0;

/** Scripts written without spaces between words: pieces of them are joined with none. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff00-\uffef]/u;

/** The pieces' texts, a space between two only where the script on either side uses spaces. */
function joinTexts(texts: readonly string[]): string {
  return texts.reduce((joined, text) => {
    if (!joined) return text;
    const unspaced = UNSPACED.test(joined.slice(-1)) || UNSPACED.test(text.slice(0, 1));
    return joined + (unspaced ? "" : " ") + text;
  }, "");
}

/** The pieces' answers as one transcript on the whole file's clock. */
export function stitch(
  pieces: readonly Pick<AudioPiece, "offset" | "duration">[],
  outputs: WhisperOutput[],
  language?: string,
): Transcript {
  const segments: TranscriptSegment[] = [];
  const texts: string[] = [];
  let detected: string | undefined;
  let reported = 0;
  pieces.forEach((piece, index) => {
    const output = outputs[index];
    if (!output) return;
    const info = output.transcription_info;
    detected ??= info?.language;
    if (finite(info?.duration)) reported += info.duration;
    const offset = piece.offset;
    // The model's times may run a little past its piece; a piece's words stay inside it. A
    // length of 0 (a fragmented MP4's header) is no length: it would pin every time to 0.
    const limit = positive(piece.duration) ? piece.duration : positive(info?.duration) ? info.duration : Infinity;
    const at = (seconds: number | undefined, fallback: number) =>
      round(offset + Math.min(Math.max(0, finite(seconds) ? seconds : fallback), limit));
    const text = (output.text ?? "").trim();
    if (text) texts.push(text);
    const given = output.segments ?? [];
    if (given.length === 0 && text) {
      // An answer with text but no segments: one segment spanning the piece.
      segments.push(segment(segments.length, at(0, 0), at(limit === Infinity ? 0 : limit, 0), ` ${text}`, [], {}));
      return;
    }
    for (const part of given) {
      const start = at(part.start, 0);
      const end = Math.max(start, at(part.end, part.start ?? 0));
      const words = (part.words ?? []).flatMap((word) => {
        const spoken = (word.word ?? "").trim();
        if (!spoken) return [];
        const wordStart = at(word.start, part.start ?? 0);
        return [{ word: spoken, start: wordStart, end: Math.max(wordStart, at(word.end, word.start ?? 0)) }];
      });
      segments.push(segment(segments.length, start, end, part.text ?? "", words, part));
    }
  });
  const known = pieces.every((piece) => positive(piece.duration));
  const duration = known
    ? pieces.reduce((sum, piece) => sum + piece.duration!, 0)
    : reported > 0
      ? reported
      : (segments[segments.length - 1]?.end ?? 0);
  return { text: joinTexts(texts), language: language ?? detected ?? "und", duration: round(duration), segments };
}

function segment(
  id: number,
  start: number,
  end: number,
  text: string,
  words: TranscriptSegment["words"],
  stats: { avg_logprob?: number; compression_ratio?: number; no_speech_prob?: number; temperature?: number },
): TranscriptSegment {
  return {
    id,
    start,
    end,
    text,
    words,
    avgLogprob: finite(stats.avg_logprob) ? stats.avg_logprob : null,
    compressionRatio: finite(stats.compression_ratio) ? stats.compression_ratio : null,
    noSpeechProb: finite(stats.no_speech_prob) ? stats.no_speech_prob : null,
    temperature: finite(stats.temperature) ? stats.temperature : null,
  };
}

/** Milliseconds are the finest unit any output format shows; sums of offsets stay clean. */
const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Whisper where the AI binding exists (production); absent elsewhere (Workers AI has no local simulation). */
export function transcriptionEngineFor(env: { AI?: WorkersAiBinding }): SpeechRecognizer | undefined {
  return env.AI ? whisperRecognizer(env.AI) : undefined;
}
