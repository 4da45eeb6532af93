/**
 * Audio to Text's example answer and the live demo's reading of transcripts. The example is
 * shown where no engine can answer (the docs page, and the live demo where the AI binding is
 * absent, as in `npm run dev`), always labelled as an example: a `verbose_json` answer in the
 * API's exact shape for a short English sentence, written out by hand (no Workers AI account was
 * at hand to record one; replace it with a recorded production answer when there is), never an
 * answer to the caller's audio. It lives here, not under workers/, because the demo's browser
 * code shows it; the API's definition imports it for the docs (app/lib imports nothing from
 * workers/).
 */

export interface TimedSegment {
  start: number;
  end: number;
  text: string;
}

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
