/**
 * What the live demo shows for Audio to Text: a verbose_json answer's segments with their
 * times, and for the 503 every local run answers, the server's message and the example answer
 * under a label saying it is not a transcription of the upload. Rendered to HTML, as the server
 * renders the page.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { clockTime, EXAMPLE_TRANSCRIPT, NO_TRANSCRIPTION_ENGINE, readTranscriptSegments } from "~/lib/transcript";
import { TranscriptOffline, TranscriptView } from "./transcript-view";

const render = (status: number, answer: unknown) =>
  renderToString(<TranscriptView status={status} body={JSON.stringify(answer)} />);

describe("transcript view", () => {
  it("lists a verbose_json answer's segments with their times", () => {
    const html = render(200, {
      text: "Hello there. General Kenobi.",
      segments: [
        { id: 0, start: 0.5, end: 1.25, text: " Hello there." },
        { id: 1, start: 65.04, end: 67, text: " General Kenobi." },
      ],
    });
    expect(html).toContain("0:00.5–0:01.3");
    expect(html).toContain("1:05.0–1:07.0");
    expect(html).toContain("General Kenobi.");
    expect(html).not.toContain("Example answer");
  });

  it("shows the server's message and the labelled example for engine-unavailable", () => {
    const html = render(503, {
      type: "https://portico.dev/problems/engine-unavailable",
      detail: "Audio to Text runs on Workers AI's Whisper, and this environment has no AI binding.",
      binding: "AI",
    });
    expect(html).toContain("this environment has no AI binding");
    expect(html).toContain("not a transcription of your audio");
    for (const segment of EXAMPLE_TRANSCRIPT.segments) expect(html).toContain(segment.text.trim());
  });

  it("shows the offline notice and the labelled example with its words before any call", () => {
    const html = renderToString(<TranscriptOffline detail={NO_TRANSCRIPTION_ENGINE} />);
    expect(html).toContain("this environment has no AI binding");
    expect(html).toContain("not a transcription of your audio");
    // The example shows word granularity too, as verbose_json with timestamp_granularities word does.
    expect(EXAMPLE_TRANSCRIPT.words.length).toBeGreaterThan(0);
    expect(html).toContain(`${EXAMPLE_TRANSCRIPT.words.length} words timed`);
  });

  it("shows nothing of its own for other answers: json without segments, other problems", () => {
    expect(render(200, { text: "just text" })).toBe("");
    expect(render(422, { type: "https://portico.dev/problems/invalid-input", detail: "no" })).toBe("");
    expect(renderToString(<TranscriptView status={200} body="1\n00:00:00,000 --> …" />)).toBe("");
  });
});

describe("transcript helpers", () => {
  it("reads only well-formed segments and writes positions as a player does", () => {
    expect(readTranscriptSegments({ segments: [{ start: 1, end: 2, text: " a " }] })).toEqual([
      { start: 1, end: 2, text: "a" },
    ]);
    expect(readTranscriptSegments({ segments: [{ start: "1", end: 2, text: "a" }] })).toBeNull();
    expect(readTranscriptSegments({ segments: [] })).toBeNull();
    expect(readTranscriptSegments([1, 2])).toBeNull();
    expect(clockTime(0)).toBe("0:00.0");
    expect(clockTime(59.96)).toBe("1:00.0");
    expect(clockTime(3725.5)).toBe("1:02:05.5");
  });
});
