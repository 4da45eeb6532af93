/**
 * Audio to Text's part of the live demo: a `verbose_json` answer's segments as a timed list,
 * and, where the server has no engine (as under `npm run dev`: from the first render, and for a
 * 503 engine-unavailable answer), the reason followed by the example answer, labelled as an
 * example, so the page shows what a transcript looks like without pretending it transcribed
 * the upload.
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
  return (
    <TranscriptOffline
      detail={typeof problem.detail === "string" ? problem.detail : "No speech-to-text engine is available here."}
    />
  );
}

/**
 * Where there is no engine: the reason, then the example answer under a label saying it is not a
 * transcription of the upload. The live demo shows it from its first render where the server
 * knows there is no AI binding, and again for a 503 answer.
 */
export function TranscriptOffline({ detail }: { detail: string }) {
  const example = readTranscriptSegments(EXAMPLE_TRANSCRIPT) ?? [];
  const words = EXAMPLE_TRANSCRIPT.words;
  return (
    <div className="space-y-3" data-testid="transcript-example">
      <p
        role="note"
        className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
      >
        {detail}
      </p>
      <figure className="rounded-lg border border-dashed border-slate-300 p-3 dark:border-slate-700">
        <figcaption className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
          Example answer — for illustration only, not a transcription of your audio
        </figcaption>
        <Segments segments={example} label="An example transcript, with each segment's times" />
        <p className="mt-2 text-xs text-slate-500">
          {`${words.length} words timed`} with <code>timestamp_granularities</code> <code>word</code>, e.g.{" "}
          {words.slice(0, 3).map((entry, index) => (
            <span key={index} className="mr-2 font-mono">
              {entry.word} {clockTime(entry.start)}–{clockTime(entry.end)}
            </span>
          ))}
        </p>
      </figure>
    </div>
  );
}
