/**
 * Text to Audio: text spoken as audio, in the names of OpenAI's `POST /v1/audio/speech`
 * (decision 060). Workers AI's Deepgram Aura 2 (English) and MeloTTS (other languages) in
 * production; meSpeak, GPL-3, in the engine Worker everywhere else.
 */
import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import {
  AURA_MODEL,
  AURA_PIECE_CHARS,
  MAX_STRETCHED_SECONDS,
  MELOTTS_MODEL,
  MELOTTS_PIECE_CHARS,
  PCM_SAMPLE_RATE,
  STRETCHABLE,
} from "~workers/providers/workers-ai/speech";
import {
  MAX_AUDIO_SECONDS,
  MESPEAK_FORMATS,
  MESPEAK_MIN_SPEED,
  MESPEAK_PIECE_CHARS,
  MESPEAK_SAMPLE_RATE,
  MESPEAK_VOICES,
  MIN_WPM,
  NORMAL_WPM,
} from "~workers/engines/speech/voices";
import { listVoices, speakText } from "./handler";
import {
  MAX_BODY_BYTES,
  MAX_INPUT_CHARS,
  MAX_SPEED,
  MIN_SPEED,
  TextToSpeechInputSchema,
  VoicesInputSchema,
  VoicesOutputSchema,
  type VoicesOutput,
} from "./schema";

/** The embedded engine's languages, as the docs list them. */
const MESPEAK_LANGUAGES = [...new Set(MESPEAK_VOICES.map((voice) => voice.name.replace(/, (fe)?male$/, "")))].join(
  ", ",
);

const DESCRIPTION = [
  `Speaks \`input\` (up to ${MAX_INPUT_CHARS} characters) and answers the audio file, in the names of OpenAI's \`POST /v1/audio/speech\`: a client written for it works with this URL and your key. OpenAI's voice names (alloy, ash, ballad, coral, echo, fable, onyx, nova, sage, shimmer, verse, marin, cedar) are answered by the engine's first female or male voice of the language; \`model\` is accepted and not used; \`stream_format\` is accepted as \`audio\` only (\`sse\` is 422 at that field) and \`instructions\` only empty (no engine here takes them: 422 at that field). The older form \`{text, format, voice, speed, pitch}\` is accepted too.`,
  `Engines: production — Workers AI on the AI binding: Deepgram Aura 2 (\`X-Engine: workers-ai/${AURA_MODEL}\`) speaks English in 40 voices (American, British, Australian and Filipino accents), MeloTTS (\`workers-ai/${MELOTTS_MODEL}\`) speaks Spanish, French, Chinese, Japanese and Korean in one voice each. Local (\`npm run dev\`, tests, and any deployment without the AI binding) — meSpeak (\`X-Engine: mespeak\`), eSpeak compiled to JavaScript, running in the engine Worker: robotic but real speech in ${MESPEAK_LANGUAGES}, each in a male and a female voice; meSpeak is GPL-3, which is why it runs in a Worker of its own. With neither, 503 \`engine-unavailable\` naming the binding.`,
  `What differs: formats — Aura answers mp3 (the default), wav, opus (Ogg), flac and pcm (raw ${PCM_SAMPLE_RATE / 1000} kHz 16-bit little-endian mono, as OpenAI's pcm); MeloTTS answers mp3 only; meSpeak answers ${MESPEAK_FORMATS.join(", ")} only (${MESPEAK_SAMPLE_RATE / 1000} kHz 16-bit mono; it is the default there). Another format is 422 \`invalid-input\` at \`response_format\`, naming what the engine answers. Speed (${MIN_SPEED}–${MAX_SPEED}, 1 the voice's own pace) — meSpeak speaks from ${MIN_WPM} words a minute (\`speed\` ${MESPEAK_MIN_SPEED.toFixed(2)}) to ${MAX_SPEED}× its normal ${NORMAL_WPM}; Aura has no speed of its own, so its ${STRETCHABLE.join(" and ")} are time-stretched here, pitch kept (up to ${MAX_STRETCHED_SECONDS / 60} minutes of audio); Aura's mp3, opus and flac and MeloTTS's mp3 cannot be re-timed without re-encoding, so a \`speed\` other than 1 is refused at \`speed\` for them, never ignored. Pitch (0–99, 50 the voice's own) is meSpeak's alone; another value is refused on Workers AI. Voices differ by engine: \`GET /api/v1/text-to-speech/voices\` lists the ones in use, with language and gender.`,
  `Long text is cut at sentence ends into pieces each model takes in one call (Aura ${AURA_PIECE_CHARS} characters, MeloTTS ${MELOTTS_PIECE_CHARS}, meSpeak up to ${MESPEAK_PIECE_CHARS}, fewer for text of short units such as numerals) and the audio joined into one file: MP3 frame by frame, WAV under one header, pcm as it is. Ogg Opus and FLAC files cannot be joined without re-encoding, so on Aura they are answered for texts of up to ${AURA_PIECE_CHARS} characters; ask mp3, wav or pcm for longer ones. meSpeak answers at most ${MAX_AUDIO_SECONDS / 60} minutes of speech (4 096 characters of prose take about 8.6 at its slowest; text it reads symbol by symbol can take more): beyond that it answers 422 at \`input\`.`,
  "`voice` takes an id from the voices list; absent, `language` (BCP 47, English unless given) picks that language's first voice. An unknown voice, or a language the engine does not speak, is 422 at that field; a `voice` and a `language` that disagree (`en-us-male` with `fr`) are 422 at `language`.",
  "The answer is the audio (`audio/mpeg`, `audio/wav`, `audio/ogg`, `audio/flac`, `audio/pcm`), with `X-Engine` naming the engine and `X-Voice` the voice that spoke. Add `?as=json` for `{ data, mimeType, size }` with the audio in base64.",
  "Cost to run, per call: Aura 2 is billed by Workers AI at $0.030 per 1 000 characters (a full 4 096-character call about $0.12); MeloTTS at $0.0002 per minute of audio; meSpeak costs only the engine Worker's CPU.",
].join(" ");

const EXAMPLE_VOICES: VoicesOutput = {
  engine: "mespeak",
  formats: ["wav"],
  voices: [
    { id: "en-us-male", name: "English (US), male", language: "en-US", gender: "male" },
    { id: "en-us-female", name: "English (US), female", language: "en-US", gender: "female" },
    { id: "fr-male", name: "French, male", language: "fr", gender: "male" },
  ],
};

export const definition: HostedApiDefinition = {
  slug: "text-to-speech",
  operations: [
    defineOperation({
      id: "speakText",
      method: "POST",
      path: "",
      summary: "Speak text as audio (MP3, WAV, Opus, FLAC or PCM), OpenAI-compatible",
      description: DESCRIPTION,
      inputSource: "json",
      input: TextToSpeechInputSchema,
      output: {
        kind: "binary",
        mimeTypes: ["audio/mpeg", "audio/wav", "audio/ogg", "audio/flac", "audio/pcm"],
        description: "The spoken text; `X-Engine` names the engine and `X-Voice` the voice",
      },
      example: {
        input: "Hello from Portico. This sentence was spoken by the engine named in the X-Engine header.",
        voice: "alloy",
        language: "en-US",
        speed: 1,
      },
      maxBodyBytes: MAX_BODY_BYTES,
      errors: [
        {
          type: "invalid-input",
          when: "the text is empty or too long, or the engine in use does not answer the `response_format`, has no such `voice` or `language`, or cannot take the `speed` or `pitch` (the field is named)",
        },
        {
          type: "engine-unavailable",
          when: "this deployment has neither the AI binding (Workers AI) nor the ENGINES service binding (meSpeak), or Workers AI has no capacity just now (`retryAfterSeconds` says when to retry)",
        },
        { type: "engine-failed", when: "the model or the engine failed, or did not answer in time" },
      ],
      handler: speakText,
    }),
    defineOperation({
      id: "listSpeechVoices",
      method: "GET",
      path: "/voices",
      summary: "The voices of the speech engine in use, with language and gender",
      description:
        "The engine this deployment speaks with (`workers-ai` or `mespeak`), the `response_format` values it answers, and its voices: `id` (what `voice` takes), `name`, `language` (BCP 47) and `gender` (null where the engine does not say, as for MeloTTS). The list changes with the engine, so read it rather than hard-coding ids.",
      inputSource: "query",
      input: VoicesInputSchema,
      output: { kind: "json", schema: VoicesOutputSchema, example: EXAMPLE_VOICES },
      example: {},
      errors: [
        {
          type: "engine-unavailable",
          when: "this deployment has neither the AI binding (Workers AI) nor the ENGINES service binding (meSpeak)",
        },
      ],
      handler: listVoices,
    }),
  ],
};
