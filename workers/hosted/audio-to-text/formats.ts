/**
 * A transcript in each of OpenAI's transcription `response_format`s, as pure functions of the
 * engine's `Transcript` (already on the whole file's clock): `json` is `{ text }` alone, as
 * OpenAI's whisper-1 answers it; `text` the text; `srt` and `vtt` one cue per segment; and
 * `verbose_json` OpenAI's shape, its `segments` and `words` as `timestamp_granularities` asks.
 */
import type { Transcript, TranscriptSegment } from "~workers/hosted/capabilities";
import { languageName } from "./languages";

export const RESPONSE_FORMATS = ["json", "text", "srt", "vtt", "verbose_json"] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

export const GRANULARITIES = ["segment", "word"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** `HH:MM:SS<sep>mmm`, rounded to the millisecond; hours grow past 99 rather than wrap. */
export function timestamp(seconds: number, separator: "," | "."): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const secs = Math.floor(ms / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${separator}${pad(ms % 1000, 3)}`;
}

interface Cue {
  start: number;
  end: number;
  text: string;
}

/**
 * The segments as cues: in order of their start (a stable sort, so equal starts keep the
 * engine's order), empty ones left out (a cue must have text), a cue's end never before its
 * start, and its text on one paragraph: a blank line inside a cue would end it early, and
 * `-->` inside one would read as a timing line.
 */
function cuesOf(segments: readonly TranscriptSegment[]): Cue[] {
  return segments
    .map((segment) => ({
      start: segment.start,
      end: Math.max(segment.start, segment.end),
      text: segment.text
        .trim()
        .replace(/\r\n?/g, "\n")
        .replace(/\n\s*\n+/g, "\n")
        .replaceAll("-->", "->"),
    }))
    .filter((cue) => cue.text !== "")
    .sort((a, b) => a.start - b.start);
}

/** SubRip: cues numbered from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line between cues. */
export function toSrt(transcript: Transcript): string {
  return cuesOf(transcript.segments)
    .map((cue, index) => `${index + 1}\n${timestamp(cue.start, ",")} --> ${timestamp(cue.end, ",")}\n${cue.text}\n`)
    .join("\n");
}

/** WebVTT cue text: `<` opens a tag and `&` a character reference, so both (and `>`) are escaped. */
const vttText = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** WebVTT: the `WEBVTT` line, a blank line, then `HH:MM:SS.mmm --> HH:MM:SS.mmm` cues separated by blank lines. */
export function toVtt(transcript: Transcript): string {
  const cues = cuesOf(transcript.segments).map(
    (cue) => `${timestamp(cue.start, ".")} --> ${timestamp(cue.end, ".")}\n${vttText(cue.text)}\n`,
  );
  return `WEBVTT\n\n${cues.join("\n")}`;
}

export function toText(transcript: Transcript): string {
  return transcript.text;
}

export function toJson(transcript: Transcript): { text: string } {
  return { text: transcript.text };
}

export interface VerboseSegment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number | null;
  avg_logprob: number | null;
  compression_ratio: number | null;
  no_speech_prob: number | null;
}

export interface VerboseTranscript {
  task: "transcribe";
  language: string;
  duration: number;
  text: string;
  segments?: VerboseSegment[];
  words?: { word: string; start: number; end: number }[];
}

/**
 * OpenAI's `verbose_json`: `language` as its English name, `segments` when `segment` is asked
 * (the default) and `words` when `word` is. Workers AI's Whisper gives no token ids, so
 * `tokens` is empty; `seek` is the segment's start in Whisper's 10 ms frames, as the engine
 * reports no decoding windows; a measure the engine did not give is null.
 */
export function toVerboseJson(transcript: Transcript, granularities: readonly Granularity[]): VerboseTranscript {
  const asked = granularities.length === 0 ? (["segment"] as const) : granularities;
  return {
    task: "transcribe",
    language: languageName(transcript.language),
    duration: transcript.duration,
    text: transcript.text,
    ...(asked.includes("segment") && {
      segments: transcript.segments.map((segment, id) => ({
        id,
        seek: Math.floor(segment.start * 100),
        start: segment.start,
        end: segment.end,
        text: segment.text,
        tokens: [],
        temperature: segment.temperature,
        avg_logprob: segment.avgLogprob,
        compression_ratio: segment.compressionRatio,
        no_speech_prob: segment.noSpeechProb,
      })),
    }),
    ...(asked.includes("word") && {
      words: transcript.segments.flatMap((segment) =>
        segment.words.map(({ word, start, end }) => ({ word, start, end })),
      ),
    }),
  };
}
