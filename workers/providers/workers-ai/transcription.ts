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
import { sniffAudio } from "~workers/hosted/_audio/sniff";
import { SPLITTABLE, splitAudio, type AudioPiece, type PieceLimits } from "~workers/hosted/_audio/split";

export const WHISPER_MODEL = "@cf/openai/whisper-large-v3-turbo";
export const WHISPER_ENGINE = `workers-ai/${WHISPER_MODEL}`;

type WhisperOutput = Ai_Cf_Openai_Whisper_Large_V3_Turbo_Output;

/**
 * One Whisper call's piece of a WAV or MP3: 3 MiB (4 MiB as base64 in the binding's JSON) and
 * three minutes. Workers AI documents no input bound for Whisper; these keep each call's
 * request small and, four at a time, the isolate's memory under its 128 MB beside a 25 MB upload.
 */
export const PIECE_LIMITS: PieceLimits = { maxBytes: 3 * 1024 * 1024, maxSeconds: 180 };
/** Pieces transcribed at once (Workers AI allows 720 speech-recognition requests a minute). */
export const PIECE_CONCURRENCY = 4;
/**
 * M4A, WebM, Ogg and FLAC go to Whisper whole, in one call: at most 10 MiB and, where the
 * header says, 10 minutes. Beyond that the caller is told to send WAV or MP3, which are cut.
 */
export const WHOLE_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const WHOLE_FILE_MAX_SECONDS = 600;

export interface WhisperOptions {
  limits?: PieceLimits;
  concurrency?: number;
}

const MB = 1024 * 1024;

export function whisperRecognizer(ai: Ai, options: WhisperOptions = {}): SpeechRecognizer {
  const limits = options.limits ?? PIECE_LIMITS;
  const concurrency = options.concurrency ?? PIECE_CONCURRENCY;
  return {
    engine: WHISPER_ENGINE,
    async transcribe(request: TranscriptionRequest): Promise<TranscriptionOutcome> {
      const split = SPLITTABLE.includes(request.container)
        ? splitAudio(request.audio, request.container, limits)
        : wholeFile(request);
      if (!split.ok) return split;

      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new Error("time limit")), request.timeoutMs);
      try {
        const outputs = await mapLimited(
          split.pieces,
          concurrency,
          (piece) =>
            ai.run(
              WHISPER_MODEL,
              {
                audio: bytesToBase64(piece.bytes),
                task: "transcribe",
                vad_filter: true,
                ...(request.language && { language: request.language }),
                ...(request.prompt && { initial_prompt: request.prompt }),
              },
              { signal: deadline.signal },
            ),
          deadline.signal,
        );
        return { ok: true, engine: WHISPER_ENGINE, transcript: stitch(split.pieces, outputs, request.language) };
      } catch (error) {
        if (deadline.signal.aborted) {
          return failure(
            "engine-failed",
            `Whisper did not finish within ${request.timeoutMs / 1000} s (${split.pieces.length} piece${split.pieces.length === 1 ? "" : "s"} of audio). Send a shorter recording.`,
            { engine: WHISPER_ENGINE },
          );
        }
        // The binding throws InferenceUpstreamError with "<code>: <description>" from Workers AI.
        const message = error instanceof Error ? error.message : String(error);
        console.error("whisper failed", error);
        return failure("engine-failed", `Workers AI's Whisper could not transcribe the audio: ${message}`, {
          engine: WHISPER_ENGINE,
        });
      } finally {
        clearTimeout(timer);
      }
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
  const info = sniffAudio(request.audio);
  const duration = info.ok ? info.duration : null;
  if (duration !== null && duration > WHOLE_FILE_MAX_SECONDS) {
    return failure(
      "unreadable-document",
      `A ${kind} file is transcribed whole, and may last at most ${WHOLE_FILE_MAX_SECONDS / 60} minutes; this one lasts ${(duration / 60).toFixed(1)}. Send WAV or MP3 (cut into pieces), or a shorter file.`,
      { reason: "too-long" },
    );
  }
  return { ok: true, pieces: [{ bytes: request.audio, offset: 0, duration }] };
}

/**
 * `work` over `items`, at most `limit` at once, answers in the items' order. The first failure
 * (or `signal` aborting) rejects at once; pieces not started yet are not started.
 */
async function mapLimited<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
  signal: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  const worker = async () => {
    while (next < items.length) {
      if (signal.aborted) throw signal.reason;
      const index = next++;
      results[index] = await Promise.race([work(items[index]!), aborted]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The pieces' answers as one transcript on the whole file's clock. */
export function stitch(pieces: AudioPiece[], outputs: WhisperOutput[], language?: string): Transcript {
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
    // The model's times may run a little past its piece; a piece's words stay inside it.
    const limit = piece.duration ?? (finite(info?.duration) ? info.duration : Infinity);
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
  const known = pieces.every((piece) => piece.duration !== null);
  const duration = known
    ? pieces.reduce((sum, piece) => sum + piece.duration!, 0)
    : reported > 0
      ? reported
      : (segments[segments.length - 1]?.end ?? 0);
  return { text: texts.join(" "), language: language ?? detected ?? "und", duration: round(duration), segments };
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
export function transcriptionEngineFor(env: { AI?: Ai }): SpeechRecognizer | undefined {
  return env.AI ? whisperRecognizer(env.AI) : undefined;
}
