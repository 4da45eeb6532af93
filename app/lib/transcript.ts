/**
 * Audio to Text's example answer and the live demo's reading of transcripts. The example is
 * shown where no engine can answer (the docs page, and the live demo where the AI binding is
 * absent, as in `npm run dev`, from its first render), always labelled as an example: a
 * `verbose_json` answer with `timestamp_granularities` segment and word, in the API's exact
 * shape, for a short English sentence. It was written out by hand: no Workers AI account was at
 * hand to record one, and it is to be replaced by a recorded production answer on the first
 * deploy (decision 061). It is never an answer to the caller's audio. It lives here, not under workers/, because the demo's browser
 * code shows it; the API's definition imports it for the docs (app/lib imports nothing from
 * workers/).
 */

export interface TimedSegment {
  start: number;
  end: number;
  text: string;
}

/** What the API and the live demo say where there is no engine (every local run). */
export const NO_TRANSCRIPTION_ENGINE =
  "Audio to Text runs on Workers AI's Whisper, and this environment has no AI binding (Workers AI has no offline simulation; it is bound in production). The docs page shows an example answer.";

const word = (text: string, start: number, end: number) => ({ word: text, start, end });

export const EXAMPLE_TRANSCRIPT = {
  task: "transcribe" as const,
  language: "english",
  duration: 7.3,
  text: "Welcome to Portico. This recording shows how a transcript comes back, with a time for every segment.",
  segments: [
    {
      id: 0,
      seek: 0,
      start: 0.0,
      end: 1.62,
      text: " Welcome to Portico.",
      tokens: [],
      temperature: 0,
      avg_logprob: -0.183,
      compression_ratio: 0.86,
      no_speech_prob: 0.004,
    },
    {
      id: 1,
      seek: 198,
      start: 1.98,
      end: 4.7,
      text: " This recording shows how a transcript comes back,",
      tokens: [],
      temperature: 0,
      avg_logprob: -0.211,
      compression_ratio: 1.12,
      no_speech_prob: 0.004,
    },
    {
      id: 2,
      seek: 470,
      start: 4.7,
      end: 6.94,
      text: " with a time for every segment.",
      tokens: [],
      temperature: 0,
      avg_logprob: -0.167,
      compression_ratio: 1.12,
      no_speech_prob: 0.004,
    },
  ],
  words: [
    word("Welcome", 0.0, 0.46),
    word("to", 0.46, 0.62),
    word("Portico.", 0.62, 1.62),
    word("This", 1.98, 2.2),
    word("recording", 2.2, 2.78),
    word("shows", 2.78, 3.1),
    word("how", 3.1, 3.3),
    word("a", 3.3, 3.38),
    word("transcript", 3.38, 3.96),
    word("comes", 3.96, 4.28),
    word("back,", 4.28, 4.7),
    word("with", 4.7, 4.92),
    word("a", 4.92, 5.0),
    word("time", 5.0, 5.36),
    word("for", 5.36, 5.6),
    word("every", 5.6, 5.98),
    word("segment.", 5.98, 6.94),
  ],
};

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The timed segments of a `verbose_json` answer, or null for any other answer. */
export function readTranscriptSegments(answer: unknown): TimedSegment[] | null {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return null;
  const segments = (answer as { segments?: unknown }).segments;
  if (!Array.isArray(segments) || segments.length === 0) return null;
  const read: TimedSegment[] = [];
  for (const segment of segments) {
    if (!segment || typeof segment !== "object") return null;
    const { start, end, text } = segment as Record<string, unknown>;
    if (!finite(start) || !finite(end) || typeof text !== "string") return null;
    read.push({ start, end, text: text.trim() });
  }
  return read;
}

/** `M:SS.s` for a short recording, `H:MM:SS.s` past an hour: how a player shows a position. */
export function clockTime(seconds: number): string {
  const tenths = Math.max(0, Math.round(seconds * 10));
  const hours = Math.floor(tenths / 36_000);
  const minutes = Math.floor(tenths / 600) % 60;
  const secs = ((tenths % 600) / 10).toFixed(1).padStart(4, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}
