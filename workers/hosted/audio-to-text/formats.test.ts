/**
 * The transcript formats, written out exactly: SRT and WebVTT byte for byte (numbering,
 * timestamps, ordering, blank lines), and OpenAI's verbose_json shape per granularity.
 */
import { describe, expect, it } from "vitest";
import type { Transcript, TranscriptSegment } from "~workers/hosted/capabilities";
import { timestamp, toJson, toSrt, toText, toVerboseJson, toVtt } from "./formats";

const stats = { avgLogprob: -0.25, compressionRatio: 1.2, noSpeechProb: 0.01, temperature: 0 };

function segment(
  id: number,
  start: number,
  end: number,
  text: string,
  words: TranscriptSegment["words"] = [],
): TranscriptSegment {
  return { id, start, end, text, words, ...stats };
}

const TRANSCRIPT: Transcript = {
  text: "The beach was a popular spot. People were swimming.",
  language: "en",
  duration: 8.47,
  segments: [
    segment(0, 0, 3.32, " The beach was a popular spot.", [
      { word: "The", start: 0, end: 0.24 },
      { word: "beach", start: 0.24, end: 0.6 },
    ]),
    segment(1, 3.32, 8.47, " People were swimming.", [{ word: "People", start: 3.32, end: 3.7 }]),
  ],
};

describe("timestamps", () => {
  it("writes HH:MM:SS,mmm and HH:MM:SS.mmm, rounding to the millisecond", () => {
    expect(timestamp(0, ",")).toBe("00:00:00,000");
    expect(timestamp(3.3199999, ",")).toBe("00:00:03,320");
    expect(timestamp(61.0006, ".")).toBe("00:01:01.001");
    expect(timestamp(3599.9996, ",")).toBe("01:00:00,000");
    expect(timestamp(3 * 3600 + 25 * 60 + 7.042, ".")).toBe("03:25:07.042");
    expect(timestamp(100 * 3600, ",")).toBe("100:00:00,000");
    expect(timestamp(-0.2, ",")).toBe("00:00:00,000");
  });
});

describe("srt", () => {
  it("numbers cues from 1, times them with commas and puts a blank line between them", () => {
    expect(toSrt(TRANSCRIPT)).toBe(
      "1\n00:00:00,000 --> 00:00:03,320\nThe beach was a popular spot.\n\n" +
        "2\n00:00:03,320 --> 00:00:08,470\nPeople were swimming.\n",
    );
  });

  it("orders cues by start, keeping equal starts in the engine's order, and renumbers them", () => {
    const transcript = {
      ...TRANSCRIPT,
      segments: [
        segment(0, 5, 6, "third"),
        segment(1, 1, 2, "first"),
        segment(2, 5, 5.5, "fourth"),
        segment(3, 2, 3, "second"),
      ],
    };
    expect(toSrt(transcript)).toBe(
      "1\n00:00:01,000 --> 00:00:02,000\nfirst\n\n" +
        "2\n00:00:02,000 --> 00:00:03,000\nsecond\n\n" +
        "3\n00:00:05,000 --> 00:00:06,000\nthird\n\n" +
        "4\n00:00:05,000 --> 00:00:05,500\nfourth\n",
    );
  });

  it("leaves out empty segments, keeps a cue's end at or after its start, and keeps a cue one paragraph", () => {
    const transcript = {
      ...TRANSCRIPT,
      segments: [
        segment(0, 0, 1, "   "),
        segment(1, 2, 1.5, "backwards"),
        segment(2, 3, 4, "two\n\n\nparagraphs --> here\r\nand a line"),
      ],
    };
    expect(toSrt(transcript)).toBe(
      "1\n00:00:02,000 --> 00:00:02,000\nbackwards\n\n" +
        "2\n00:00:03,000 --> 00:00:04,000\ntwo\nparagraphs -> here\nand a line\n",
    );
  });

  it("answers nothing for a transcript without speech", () => {
    expect(toSrt({ ...TRANSCRIPT, text: "", segments: [] })).toBe("");
  });
});

describe("vtt", () => {
  it("starts with WEBVTT and a blank line, times cues with dots and always with hours", () => {
    expect(toVtt(TRANSCRIPT)).toBe(
      "WEBVTT\n\n" +
        "00:00:00.000 --> 00:00:03.320\nThe beach was a popular spot.\n\n" +
        "00:00:03.320 --> 00:00:08.470\nPeople were swimming.\n",
    );
  });

  it("orders cues by start and is WEBVTT alone without speech", () => {
    const transcript = { ...TRANSCRIPT, segments: [segment(0, 3725.5, 3726, "later"), segment(1, 0.25, 1, "sooner")] };
    expect(toVtt(transcript)).toBe(
      "WEBVTT\n\n00:00:00.250 --> 00:00:01.000\nsooner\n\n01:02:05.500 --> 01:02:06.000\nlater\n",
    );
    expect(toVtt({ ...TRANSCRIPT, segments: [] })).toBe("WEBVTT\n\n");
  });
});

describe("cue text", () => {
  it("escapes &, < and > in WebVTT, where they start tags and character references, and leaves SRT's raw", () => {
    const transcript = { ...TRANSCRIPT, segments: [segment(0, 0, 1, " AT&T <3 a > b")] };
    expect(toVtt(transcript)).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nAT&amp;T &lt;3 a &gt; b\n");
    expect(toSrt(transcript)).toBe("1\n00:00:00,000 --> 00:00:01,000\nAT&T <3 a > b\n");
  });
});

describe("json and text", () => {
  it("answers {text} alone for json, as OpenAI's whisper-1 does, and the text for text", () => {
    expect(toJson(TRANSCRIPT)).toEqual({ text: TRANSCRIPT.text });
    expect(Object.keys(toJson(TRANSCRIPT))).toEqual(["text"]);
    expect(toText(TRANSCRIPT)).toBe(TRANSCRIPT.text);
  });
});

describe("verbose_json", () => {
  it("has OpenAI's members, the language's English name, and segments by default", () => {
    const verbose = toVerboseJson(TRANSCRIPT, []);
    expect(verbose).toEqual({
      task: "transcribe",
      language: "english",
      duration: 8.47,
      text: TRANSCRIPT.text,
      segments: [
        {
          id: 0,
          seek: 0,
          start: 0,
          end: 3.32,
          text: " The beach was a popular spot.",
          tokens: [],
          temperature: 0,
          avg_logprob: -0.25,
          compression_ratio: 1.2,
          no_speech_prob: 0.01,
        },
        {
          id: 1,
          seek: 332,
          start: 3.32,
          end: 8.47,
          text: " People were swimming.",
          tokens: [],
          temperature: 0,
          avg_logprob: -0.25,
          compression_ratio: 1.2,
          no_speech_prob: 0.01,
        },
      ],
    });
    expect(verbose).not.toHaveProperty("words");
  });

  it("gives words with the word granularity, and leaves segments out when only words are asked", () => {
    const words = [
      { word: "The", start: 0, end: 0.24 },
      { word: "beach", start: 0.24, end: 0.6 },
      { word: "People", start: 3.32, end: 3.7 },
    ];
    const both = toVerboseJson(TRANSCRIPT, ["segment", "word"]);
    expect(both.words).toEqual(words);
    expect(both.segments).toHaveLength(2);
    const only = toVerboseJson(TRANSCRIPT, ["word"]);
    expect(only.words).toEqual(words);
    expect(only).not.toHaveProperty("segments");
  });

  it("names an unknown language as itself and answers null for measures the engine did not give", () => {
    const transcript: Transcript = {
      ...TRANSCRIPT,
      language: "und",
      segments: [
        { ...segment(0, 0, 1, " x"), avgLogprob: null, compressionRatio: null, noSpeechProb: null, temperature: null },
      ],
    };
    const verbose = toVerboseJson(transcript, ["segment"]);
    expect(verbose.language).toBe("unknown");
    expect(verbose.segments?.[0]).toMatchObject({
      avg_logprob: null,
      compression_ratio: null,
      no_speech_prob: null,
      temperature: null,
    });
    expect(toVerboseJson({ ...TRANSCRIPT, language: "yue" }, []).language).toBe("cantonese");
  });
});
