/**
 * Text to Audio's input: OpenAI's speech API names (`input`, `voice`, `response_format`,
 * `speed`), which developers already send, plus `language` and `pitch`; and the older form
 * (`text`, `format`) that Portico's earlier clients send. Aliases are folded here, so the
 * handler sees one shape.
 */
import { z } from "zod";
import { SPEECH_FORMATS, type SpeechFormat } from "~workers/hosted/capabilities";

/** OpenAI's limit on `input`, ours too. */
export const MAX_INPUT_CHARS = 4096;
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 4;
/** eSpeak's pitch scale; 50 is the voice's own. */
export const DEFAULT_PITCH = 50;
/** JSON of 4 096 characters, each up to 6 bytes escaped, and the other fields. */
export const MAX_BODY_BYTES = 32 * 1024;

/**
 * OpenAI's voice names, each answered by the engine's first female or male voice of the
 * language (OpenAI does not say; these follow how its voices are commonly heard), so a
 * client written for OpenAI works unchanged.
 */
export const OPENAI_VOICES: Record<string, "female" | "male"> = {
  alloy: "female",
  ash: "male",
  ballad: "male",
  coral: "female",
  echo: "male",
  fable: "male",
  onyx: "male",
  nova: "female",
  sage: "female",
  shimmer: "female",
  verse: "male",
  marin: "female",
  cedar: "male",
};

const text = (name: string) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(MAX_INPUT_CHARS, `must be at most ${MAX_INPUT_CHARS} characters`)
    .describe(name);

const format = z.enum(SPEECH_FORMATS, { error: `must be one of ${SPEECH_FORMATS.join(", ")}` }).optional();

const TextToSpeechObjectSchema = z
  .object({
    input: text(
      `The text to speak, up to ${MAX_INPUT_CHARS} characters (OpenAI's name). Give \`input\` or \`text\`.`,
    ).optional(),
    text: text("The older name of `input`.").optional(),
    voice: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe(
        "A voice id from `GET /api/v1/text-to-speech/voices`, or one of OpenAI's names (alloy, echo, nova, …). Absent: the first voice of `language`.",
      ),
    response_format: format.describe(
      "mp3, wav, opus, flac or pcm (24 kHz 16-bit little-endian mono), as the engine in use allows. Absent: mp3 on Workers AI, wav on the embedded engine.",
    ),
    format: format.describe("The older name of `response_format`."),
    speed: z
      .number({ error: "must be a number" })
      .min(MIN_SPEED, `must be at least ${MIN_SPEED}`)
      .max(MAX_SPEED, `must be at most ${MAX_SPEED}`)
      .default(1)
      .describe(`${MIN_SPEED}–${MAX_SPEED}; 1 is the voice's own pace.`),
    pitch: z
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .max(99, "must be at most 99")
      .default(DEFAULT_PITCH)
      .describe("0–99 (eSpeak's scale); 50 is the voice's own. The embedded engine only."),
    language: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "must be a language tag such as en, en-US or pt-BR")
      .optional()
      .describe("BCP 47. Picks the voice when `voice` is absent; English unless given."),
    model: z
      .string()
      .max(64)
      .optional()
      .describe("OpenAI's model name (`tts-1`, …): accepted so OpenAI clients work, and not used."),
    instructions: z
      .string()
      .max(MAX_INPUT_CHARS)
      .optional()
      .describe("OpenAI's voice instructions: not supported by any engine here, so only an empty value is accepted."),
    stream_format: z
      .string()
      .optional()
      .describe("OpenAI's `audio` or `sse`: only `audio` (the file itself) is answered."),
  })
  .superRefine((value, ctx) => {
    if ((value.input === undefined) === (value.text === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [value.input === undefined ? "input" : "text"],
        message:
          value.input === undefined ? "give the text to speak as input (or text)" : "give input or text, not both",
      });
    }
    if (value.instructions !== undefined && value.instructions.trim() !== "") {
      ctx.addIssue({
        code: "custom",
        path: ["instructions"],
        message: "is not supported: no engine here takes instructions on how to speak; leave it out",
      });
    }
    if (value.stream_format !== undefined && value.stream_format !== "audio") {
      ctx.addIssue({
        code: "custom",
        path: ["stream_format"],
        message:
          value.stream_format === "sse"
            ? 'sse is not supported: the answer is the audio file itself; use "audio" or leave it out'
            : 'must be "audio" (sse is not supported)',
      });
    }
    if (value.response_format !== undefined && value.format !== undefined && value.response_format !== value.format) {
      ctx.addIssue({ code: "custom", path: ["format"], message: "give response_format or format, not both" });
    }
  });

export const TextToSpeechInputSchema = TextToSpeechObjectSchema.transform((value) => ({
  text: (value.input ?? value.text)!,
  voice: value.voice,
  format: (value.response_format ?? value.format) as SpeechFormat | undefined,
  speed: value.speed,
  pitch: value.pitch,
  language: value.language,
}));

export type TextToSpeechInput = z.output<typeof TextToSpeechInputSchema>;

/** `GET /voices` takes no input. */
export const VoicesInputSchema = z.object({});

export const VoiceSchema = z.object({
  id: z.string().describe("What `voice` takes."),
  name: z.string(),
  language: z.string().describe("BCP 47."),
  gender: z.enum(["female", "male"]).nullable().describe("Null where the engine does not say."),
  formats: z
    .array(z.enum(SPEECH_FORMATS))
    .optional()
    .describe("The `response_format` values this voice answers, where fewer than the engine's (MeloTTS: mp3)."),
});

export const VoicesOutputSchema = z.object({
  engine: z.string().describe("The engine in use: `workers-ai` or `mespeak`."),
  formats: z.array(z.enum(SPEECH_FORMATS)).describe("The `response_format` values this engine answers."),
  voices: z.array(VoiceSchema),
});

export type VoicesOutput = z.output<typeof VoicesOutputSchema>;
