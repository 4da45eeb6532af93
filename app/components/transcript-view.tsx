/**
 * Audio to Text's part of the live demo: a `verbose_json` answer's segments as a timed list,
 * and, where the server has no engine (503 engine-unavailable, as under `npm run dev`), the
 * server's own message followed by the example answer, labelled as an example, so the page
 * shows what a transcript looks like without pretending it transcribed the upload.
 */
import { clockTime, EXAMPLE_TRANSCRIPT, readTranscriptSegments, type TimedSegment } from "~/lib/transcript";

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

function Segments({ segments, label }: { segments: TimedSegment[]; label: string }) {
  return (
    <ol aria-label={label} className="space-y-1 text-sm" data-testid="transcript-segments">
      {segments.map((segment, index) => (
        <li key={index} className="grid grid-cols-[auto_1fr] gap-3">
          <span className="font-mono text-xs text-slate-500 tabular-nums">
            {clockTime(segment.start)}–{clockTime(segment.end)}
          </span>
          <span>{segment.text}</span>
        </li>
      ))}
    </ol>
  );
}

export function TranscriptView({ status, body }: { status: number; body: string }) {
  const answer = parse(body);
  const segments = status === 200 ? readTranscriptSegments(answer) : null;
  if (segments) return <Segments segments={segments} label="The transcript, with each segment's times" />;
  const problem = answer && typeof answer === "object" ? (answer as { type?: unknown; detail?: unknown }) : null;
  if (status !== 503 || typeof problem?.type !== "string" || !problem.type.endsWith("/engine-unavailable")) return null;
  const example = readTranscriptSegments(EXAMPLE_TRANSCRIPT) ?? [];
  return (
    <div className="space-y-3" data-testid="transcript-example">
      <p
        role="note"
        className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
      >
        {typeof problem.detail === "string" ? problem.detail : "No speech-to-text engine is available here."}
      </p>
      <figure className="rounded-lg border border-dashed border-slate-300 p-3 dark:border-slate-700">
        <figcaption className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
          Example answer — for illustration only, not a transcription of your audio
        </figcaption>
        <Segments segments={example} label="An example transcript, with each segment's times" />
      </figure>
    </div>
  );
}
