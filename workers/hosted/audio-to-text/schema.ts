/**
 * Audio to Text's input, in OpenAI's transcription names (`POST /v1/audio/transcriptions`), so a
 * client written for it works by changing the base URL and the key: a multipart `file` (or a
 * `url` we fetch), `language`, `prompt`, `response_format`, `timestamp_granularities` (also in
 * the `timestamp_granularities[]` spelling OpenAI's SDKs send in a form), and `model` and
 * `temperature`, accepted and ignored (the engine is ours; Workers AI's Whisper takes no
 * temperature).
 */
import { z } from "zod";
import { numberFromText } from "../_image/input";
import { MAX_URL_LENGTH } from "../_image/limits";
import { GRANULARITIES, RESPONSE_FORMATS, type Granularity } from "./formats";
import { WHISPER_LANGUAGE_CODES } from "./languages";

/** Largest audio file, uploaded or fetched: OpenAI's 25 MB (26 214 400 bytes, as its errors count them). */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** The request body: the file in a multipart form, with room for the form's other fields. */
export const AUDIO_BODY_BYTES = MAX_AUDIO_BYTES + 256 * 1024;
/** Longest prompt: Whisper reads at most 224 tokens of it (about 1 000 characters of English). */
export const MAX_PROMPT_LENGTH = 1000;

const MAX_MB = MAX_AUDIO_BYTES / (1024 * 1024);
const FORMATS_TEXT = "WAV, MP3, M4A, WebM, Ogg or FLAC";

export const AudioFileSchema = z
  .instanceof(File, { message: "Expected an audio file." })
  .refine((file) => file.size > 0, "The uploaded file is empty.")
  .refine((file) => file.size <= MAX_AUDIO_BYTES, `An audio file may be at most ${MAX_MB} MB.`)
  .describe(
    `The audio, as a multipart file field (OpenAI's name): ${FORMATS_TEXT}, up to ${MAX_MB} MB; the type is read from the bytes, not the name.`,
  );

/** A list in JSON; in a form, repeated fields, comma-separated text, or a JSON list as text (the live demo's). */
const GranularityList = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    if (value.trim().startsWith("[")) {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    }
    return value.split(",").map((part) => part.trim());
  },
  z.array(z.enum(GRANULARITIES, { message: "segment or word" })).max(2),
);

export const AudioToTextInputSchema = z
  .object({
    file: AudioFileSchema.optional(),
    url: z
      .string()
      .trim()
      .max(MAX_URL_LENGTH)
      .regex(/^https?:\/\/\S+$/i, "An http(s) URL of the audio.")
      .optional()
      .describe(`An http(s) URL of the audio, fetched by us (public addresses only, up to ${MAX_MB} MB).`),
    language: z
      .preprocess(
        (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
        z.enum(WHISPER_LANGUAGE_CODES, {
          message: "an ISO 639-1 code Whisper knows (en, de, fr, ja, …); the docs list them",
        }),
      )
      .optional()
      .describe(
        "The spoken language, ISO 639-1 (`en`, `de`, `ja`, … and Whisper's `haw`, `yue`): faster and more accurate than detecting it. Absent: detected.",
      ),
    prompt: z
      .string()
      .max(MAX_PROMPT_LENGTH)
      .optional()
      .describe(
        "Text that came before this audio, or the spellings of names and terms it uses, in the audio's language (Whisper's `initial_prompt`).",
      ),
    response_format: z
      .enum(RESPONSE_FORMATS)
      .default("json")
      .describe(
        "`json` `{text}`; `text` the text alone; `srt` or `vtt` subtitles, one cue per segment; `verbose_json` with the language, duration, segments and (asked) words, in OpenAI's shape.",
      ),
    timestamp_granularities: GranularityList.optional().describe(
      "With `verbose_json`: `segment` (the default) and/or `word` (each word's start and end). A list, or in a form repeated fields or comma-separated text.",
    ),
    "timestamp_granularities[]": GranularityList.optional().describe(
      "The same, as OpenAI's SDKs name the field in a multipart form.",
    ),
    model: z.string().max(100).optional().describe("Accepted for OpenAI clients (`whisper-1`) and ignored."),
    temperature: numberFromText(z.number().min(0).max(1))
      .optional()
      .describe("Accepted for OpenAI clients and ignored: Workers AI's Whisper decodes at its own temperatures."),
  })
  .superRefine((value, ctx) => {
    if ((value.file === undefined) === (value.url === undefined)) {
      ctx.addIssue({ code: "custom", message: "Send exactly one of `file` (an upload) or `url`.", path: ["file"] });
    }
    const asked = [...(value.timestamp_granularities ?? []), ...(value["timestamp_granularities[]"] ?? [])];
    if (asked.length > 0 && value.response_format !== "verbose_json") {
      ctx.addIssue({
        code: "custom",
        message: "timestamp_granularities needs response_format verbose_json (srt and vtt are timed by segment).",
        path: ["timestamp_granularities"],
      });
    }
  });

export type AudioToTextInput = z.output<typeof AudioToTextInputSchema>;

/** Both spellings of the granularities, each once. */
export function granularitiesOf(input: AudioToTextInput): Granularity[] {
  return [...new Set([...(input.timestamp_granularities ?? []), ...(input["timestamp_granularities[]"] ?? [])])];
}

const Seconds = z.number().min(0);

const VerboseSegmentSchema = z.object({
  id: z.number().int().min(0),
  seek: z.number().int().min(0).describe("The segment's start in Whisper's 10 ms frames."),
  start: Seconds.describe("Seconds from the start of the audio."),
  end: Seconds,
  text: z.string().describe("As Whisper writes it, with its leading space."),
  tokens: z.array(z.number().int()).describe("Empty: Workers AI's Whisper gives no token ids."),
  temperature: z.number().nullable(),
  avg_logprob: z.number().nullable(),
  compression_ratio: z.number().nullable(),
  no_speech_prob: z.number().nullable(),
});

/** `verbose_json`, OpenAI's shape; `json` answers `{ text }` alone. */
export const AudioToTextOutputSchema = z.object({
  task: z.literal("transcribe").optional().describe("verbose_json: always `transcribe`."),
  language: z
    .string()
    .optional()
    .describe("verbose_json: the language's English name (`english`), as OpenAI gives it."),
  duration: Seconds.optional().describe("verbose_json: the audio's length in seconds."),
  text: z.string().describe("The whole transcript."),
  segments: z
    .array(VerboseSegmentSchema)
    .optional()
    .describe("verbose_json with the `segment` granularity (the default)."),
  words: z
    .array(z.object({ word: z.string(), start: Seconds, end: Seconds }))
    .optional()
    .describe("verbose_json with the `word` granularity."),
});

export type AudioToTextOutput = z.output<typeof AudioToTextOutputSchema>;
