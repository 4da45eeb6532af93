/**
 * Whisper on Workers AI through a fake binding that answers in the model's JSON shape and hears
 * the audio it is sent (tests/fakes/workers-ai-whisper.ts): long WAVs and MP3s are cut into
 * pieces, every piece's times are moved onto the whole file's clock and the segments
 * renumbered; containers sent whole are bounded before any call; the binding's failures and
 * the time limit answer engine-failed.
 */
import { describe, expect, it } from "vitest";
import type { TranscriptionRequest } from "~workers/hosted/capabilities";
import { makeM4a, makeMp3, makeWav, makeWebm, MP3_FRAME_BYTES, WORDS, type Burst } from "../../../tests/audio-fixtures";
import { fakeWhisperAi, inferenceUpstreamError } from "../../../tests/fakes/workers-ai-whisper";
import { PIECE_LIMITS, stitch, whisperRecognizer, WHISPER_ENGINE, WHOLE_FILE_MAX_BYTES } from "./transcription";

const request = (
  audio: Uint8Array,
  container: TranscriptionRequest["container"],
  extra: Partial<TranscriptionRequest> = {},
): TranscriptionRequest => ({
  audio,
  container,
  duration: null,
  timeoutMs: 20_000,
  ...extra,
});

/** A burst of 0.3 s every 7 s from 1 s, its word cycling through WORDS. */
function everySeven(seconds: number): Burst[] {
  const bursts: Burst[] = [];
  for (let start = 1, index = 0; start + 0.3 < seconds; start += 7, index++) {
    bursts.push({ start, end: start + 0.3, code: (index % 20) + 1 });
  }
  return bursts;
}

describe("whisper: long audio in pieces", () => {
  it("cuts a 250 s WAV into 3 pieces at the real limits and stitches every time onto the whole file's clock", async () => {
    const bursts = everySeven(250);
    const wav = makeWav({ seconds: 250, sampleRate: 16_000, bursts });
    const ai = fakeWhisperAi();
    const outcome = await whisperRecognizer(ai).transcribe(
      request(wav, "wav", { language: "en", prompt: "NATO alphabet" }),
    );
    if (!outcome.ok) throw new Error(outcome.detail);

    // 32 000 bytes a second: 3 MiB is 98 s, so three calls, each piece within the bounds.
    expect(ai.calls).toHaveLength(3);
    for (const call of ai.calls) {
      expect(call.audioBytes).toBeLessThanOrEqual(PIECE_LIMITS.maxBytes);
      expect(call.inputs).toEqual({
        task: "transcribe",
        vad_filter: true,
        language: "en",
        initial_prompt: "NATO alphabet",
      });
    }
    const { transcript } = outcome;
    expect(outcome.engine).toBe(WHISPER_ENGINE);
    expect(transcript.duration).toBe(250);
    expect(transcript.language).toBe("en");
    // Each burst is one segment of one word, at its true time (the fake hears in 10 ms steps).
    expect(transcript.segments.map((segment) => segment.id)).toEqual(bursts.map((_, index) => index));
    transcript.segments.forEach((segment, index) => {
      const burst = bursts[index]!;
      expect(segment.text.trim()).toBe(WORDS[burst.code]);
      expect(Math.abs(segment.start - burst.start)).toBeLessThanOrEqual(0.011);
      expect(Math.abs(segment.end - burst.end)).toBeLessThanOrEqual(0.011);
      expect(segment.words).toEqual([{ word: WORDS[burst.code], start: segment.start, end: segment.end }]);
    });
    expect(transcript.text).toBe(bursts.map((burst) => WORDS[burst.code]).join(" "));
    // Times only grow: no piece's words were left on its own clock.
    const starts = transcript.segments.map((segment) => segment.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("moves each MP3 piece's words by that piece's start, cut between frames", async () => {
    // 10 s; pieces of 100 frames (2.4 s): 0, 2.4, 4.8, 7.2 and 9.6 s.
    const bursts: Burst[] = [
      { start: 0.48, end: 0.96, code: 1 },
      { start: 3.0, end: 3.36, code: 2 },
      { start: 5.04, end: 5.52, code: 3 },
      { start: 9.6, end: 9.84, code: 4 },
    ];
    const mp3 = makeMp3({ seconds: 10, id3: true, xing: true, bursts });
    const ai = fakeWhisperAi();
    const recognizer = whisperRecognizer(ai, { limits: { maxBytes: 100 * MP3_FRAME_BYTES, maxSeconds: 60 } });
    const outcome = await recognizer.transcribe(request(mp3, "mp3"));
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(ai.calls.map((call) => call.audioBytes / MP3_FRAME_BYTES)).toEqual([100, 100, 100, 100, 17]);
    expect(outcome.transcript.segments.map(({ id, start, end, text }) => ({ id, start, end, text }))).toEqual(
      bursts.map((burst, id) => ({ id, start: burst.start, end: burst.end, text: ` ${WORDS[burst.code]}` })),
    );
    expect(outcome.transcript.duration).toBe(10.008); // 417 frames of 24 ms
    expect(outcome.transcript.language).toBe("en"); // detected (the fake's default)
  });

  it("sends the language the first piece was heard in to every later piece when none was asked", async () => {
    const ai = fakeWhisperAi({ detects: "ja" });
    const wav = makeWav({ seconds: 12, bursts: everySeven(12) });
    const outcome = await whisperRecognizer(ai, { limits: { maxBytes: 10_000_000, maxSeconds: 4 } }).transcribe(
      request(wav, "wav"),
    );
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(ai.calls.map((call) => call.inputs.language)).toEqual([undefined, "ja", "ja"]);
    expect(outcome.transcript.language).toBe("ja");
  });

  it("transcribes at most four pieces at once", async () => {
    const ai = fakeWhisperAi({ delayMs: 5 });
    const wav = makeWav({ seconds: 40, bursts: everySeven(40) });
    const outcome = await whisperRecognizer(ai, { limits: { maxBytes: 10_000_000, maxSeconds: 4 } }).transcribe(
      request(wav, "wav"),
    );
    expect(outcome.ok).toBe(true);
    expect(ai.calls).toHaveLength(10);
    expect(ai.maxInFlight).toBe(4);
  });
});

describe("whisper: files sent whole", () => {
  it("sends an M4A whole in one call", async () => {
    const ai = fakeWhisperAi();
    const m4a = makeM4a({ seconds: 42 });
    const outcome = await whisperRecognizer(ai).transcribe(request(m4a, "m4a", { duration: 42 }));
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(ai.calls).toEqual([expect.objectContaining({ audioBytes: m4a.length })]);
    expect(outcome.transcript).toMatchObject({ text: "whole", duration: 42 });
  });

  it("refuses one over its byte bound or 10 minutes before calling the model", async () => {
    const ai = fakeWhisperAi();
    const big = new Uint8Array(WHOLE_FILE_MAX_BYTES + 1);
    big.set(makeM4a({ seconds: 60 }), 0);
    expect(await whisperRecognizer(ai).transcribe(request(big, "m4a", { duration: 60 }))).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      extensions: { reason: "too-large" },
    });
    expect(
      await whisperRecognizer(ai).transcribe(request(makeM4a({ seconds: 601 }), "m4a", { duration: 601 })),
    ).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      extensions: { reason: "too-long" },
    });
    expect(ai.calls).toHaveLength(0);
  });

  it("bounds a file sent whole by its bytes, whatever its header claims: a WebM with no Duration, an M4A claiming 1 s", async () => {
    // At 6 kbps (Opus's floor) 30 minutes is 1.35 MB; at 16 kbps 3.6 MB. A header may lie, the bytes do not.
    expect(WHOLE_FILE_MAX_BYTES).toBeLessThanOrEqual(30 * 60 * 2_000);
    const ai = fakeWhisperAi();
    const webm = new Uint8Array(9_000_000);
    webm.set(makeWebm({ seconds: null }), 0);
    expect(await whisperRecognizer(ai).transcribe(request(webm, "webm"))).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      extensions: { reason: "too-large" },
    });
    const m4a = new Uint8Array(4_000_000);
    m4a.set(makeM4a({ seconds: 1 }), 0);
    expect(await whisperRecognizer(ai).transcribe(request(m4a, "m4a", { duration: 1 }))).toMatchObject({
      ok: false,
      extensions: { reason: "too-large" },
    });
    expect(ai.calls).toHaveLength(0);
  });
});

describe("whisper: failures", () => {
  it("answers engine-failed without Workers AI's own message, which speaks of the operator's account", async () => {
    const ai = fakeWhisperAi({ fail: inferenceUpstreamError("3010: Invalid or incomplete input for the model") });
    const outcome = await whisperRecognizer(ai).transcribe(request(makeWav({ seconds: 1 }), "wav"));
    expect(outcome).toMatchObject({
      ok: false,
      problem: "engine-failed",
      extensions: { engine: WHISPER_ENGINE, upstreamCode: 3010 },
    });
    expect(!outcome.ok && outcome.detail).not.toMatch(/3010|Invalid or incomplete/);
  });

  it("sorts Workers AI's documented codes: out of allowance or capacity is 503 with a retry, too large is the input's", async () => {
    const allowance = inferenceUpstreamError(
      "3036: You have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's Workers Paid plan",
    );
    const out = await whisperRecognizer(fakeWhisperAi({ fail: allowance })).transcribe(
      request(makeWav({ seconds: 1 }), "wav"),
    );
    expect(out).toMatchObject({
      ok: false,
      problem: "engine-unavailable",
      extensions: { retryAfterSeconds: 60, engine: WHISPER_ENGINE },
    });
    expect(!out.ok && out.detail).not.toMatch(/upgrade|neurons|Paid/);
    const tooLarge = await whisperRecognizer(
      fakeWhisperAi({ fail: inferenceUpstreamError("3006: Request is too large") }),
    ).transcribe(request(makeWav({ seconds: 1 }), "wav"));
    expect(tooLarge).toMatchObject({ ok: false, problem: "invalid-input" });
  });

  it("stops sending pieces once one has failed: the rest are neither started nor waited for", async () => {
    // 40 s cut into 2 s pieces: 20 of them, two at a time; the very first call fails.
    const ai = fakeWhisperAi({ failOn: [1], delayMs: 5 });
    const recognizer = whisperRecognizer(ai, { limits: { maxBytes: 10_000_000, maxSeconds: 2 }, concurrency: 2 });
    const outcome = await recognizer.transcribe(request(makeWav({ seconds: 40 }), "wav"));
    expect(outcome).toMatchObject({ ok: false, problem: "engine-failed" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ai.calls.length).toBeLessThanOrEqual(2);
  });

  it("answers engine-failed at its time limit rather than waiting for the model", async () => {
    const ai = fakeWhisperAi({ delayMs: 2_000 });
    const started = Date.now();
    const outcome = await whisperRecognizer(ai).transcribe(request(makeWav({ seconds: 1 }), "wav", { timeoutMs: 100 }));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(outcome).toMatchObject({ ok: false, problem: "engine-failed" });
    expect(!outcome.ok && outcome.detail).toMatch(/did not finish within 0.1 s/);
  });
});

describe("stitching", () => {
  it("makes one segment of a piece answered with text but no segments, and keeps times inside their piece", () => {
    const pieces = [
      { offset: 0, duration: 30 },
      { offset: 30, duration: 12.5 },
    ];
    const transcript = stitch(pieces, [
      {
        text: " First part.",
        segments: [{ start: 0, end: 31.2, text: " First part.", words: [{ word: " First", start: 0.1, end: 40 }] }],
        transcription_info: { language: "fr" },
      },
      { text: "Second part." },
    ]);
    expect(transcript).toEqual({
      text: "First part. Second part.",
      language: "fr",
      duration: 42.5,
      segments: [
        {
          id: 0,
          start: 0,
          end: 30,
          text: " First part.",
          words: [{ word: "First", start: 0.1, end: 30 }],
          avgLogprob: null,
          compressionRatio: null,
          noSpeechProb: null,
          temperature: null,
        },
        {
          id: 1,
          start: 30,
          end: 42.5,
          text: " Second part.",
          words: [],
          avgLogprob: null,
          compressionRatio: null,
          noSpeechProb: null,
          temperature: null,
        },
      ],
    });
  });

  it("keeps the model's times for a piece of unknown or zero length (a fragmented M4A's mvhd says 0)", () => {
    const answer = {
      text: " Late words.",
      segments: [{ start: 3.5, end: 5.25, text: " Late words.", words: [{ word: " Late", start: 3.5, end: 4 }] }],
      transcription_info: { language: "en", duration: 6 },
    };
    for (const duration of [0, null]) {
      const transcript = stitch([{ offset: 0, duration }], [answer]);
      expect(transcript.segments[0]).toMatchObject({
        start: 3.5,
        end: 5.25,
        words: [{ word: "Late", start: 3.5, end: 4 }],
      });
      expect(transcript.duration).toBe(6);
    }
  });

  it("joins pieces without a space where the script uses none (Chinese, Japanese, Thai), with one elsewhere", () => {
    const piece = (offset: number) => ({ offset, duration: 10 });
    expect(stitch([piece(0), piece(10)], [{ text: "你好。" }, { text: "再见。" }], "zh").text).toBe("你好。再见。");
    expect(stitch([piece(0), piece(10)], [{ text: "สวัสดี" }, { text: "ครับ" }], "th").text).toBe("สวัสดีครับ");
    expect(stitch([piece(0), piece(10)], [{ text: "Hello." }, { text: "Goodbye." }]).text).toBe("Hello. Goodbye.");
  });

  it("takes the language asked over the one detected, and the model's duration where the header gave none", () => {
    const transcript = stitch(
      [{ offset: 0, duration: null }],
      [{ text: "Hallo", transcription_info: { language: "de", duration: 3.25 }, segments: [] }],
      "nl",
    );
    expect(transcript).toMatchObject({ language: "nl", duration: 3.25, text: "Hallo" });
    expect(transcript.segments).toEqual([expect.objectContaining({ start: 0, end: 3.25, text: " Hallo" })]);
  });
});
