/**
 * Audio to Text: speech transcribed by Workers AI's Whisper in production, in OpenAI's
 * transcription API's names and formats (decision 061). Offline there is no engine, and the
 * API answers 503 engine-unavailable naming the AI binding: never invented text.
 */
import { EXAMPLE_TRANSCRIPT } from "~/lib/transcript";
import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import {
  PIECE_CONCURRENCY,
  PIECE_LIMITS,
  WHISPER_ENGINE,
  WHOLE_FILE_MAX_BYTES,
  WHOLE_FILE_MAX_SECONDS,
} from "~workers/providers/workers-ai/transcription";
import { ENGINE_TIMEOUT_MS } from "../_documents/engines";
import { MAX_DURATION_SECONDS, transcribeAudio } from "./handler";
import { WHISPER_LANGUAGE_CODES } from "./languages";
import { AUDIO_BODY_BYTES, AudioToTextInputSchema, AudioToTextOutputSchema, MAX_AUDIO_BYTES } from "./schema";

const MB = 1024 * 1024;

const DESCRIPTION = [
  "Transcribes speech with OpenAI's Whisper (large-v3-turbo), in the names of OpenAI's `POST /v1/audio/transcriptions`: a client written for it works with this URL and your key (`model` and `temperature` are accepted and ignored).",
  `Send a multipart \`file\` or a JSON or form \`url\` we fetch (public addresses only): WAV (PCM, float, A-law or µ-law), MP3, M4A (MP4 audio), WebM, Ogg (Opus, Vorbis or FLAC) or FLAC, up to ${MAX_AUDIO_BYTES / MB} MB and ${MAX_DURATION_SECONDS / 60} minutes. The type is read from the file's bytes, never its name, and the header is checked before any model runs: something else (a PDF, an image, AIFF, raw AAC) is refused with 415, and a file that starts like audio but whose header is damaged or cut short (a WAV without samples, an MP3 with no whole frame, an M4A without its index) with 422 \`unreadable-document\` and a \`reason\`.`,
  `Engines: production — Workers AI's \`@cf/openai/whisper-large-v3-turbo\` on the AI binding (\`X-Engine: ${WHISPER_ENGINE}\`), with its voice-activity filter on, so silence is skipped rather than billed or misheard. Local (\`npm run dev\`, tests) — none: Workers AI has no offline simulation and no speech-to-text model installs as a package that runs in a Worker, so every call answers 503 \`engine-unavailable\` with \`binding: "AI"\` (an uploaded file is still read first, so a PDF is 415 and a damaged WAV 422 offline too); the Response example below (which the live demo shows too, labelled as an example) illustrates the answer's exact shape and is not a transcription of anything you send. What differs: nothing but availability; there is no lesser offline transcript.`,
  `Long audio: WAV and MP3 are cut into pieces of at most ${PIECE_LIMITS.maxSeconds / 60} minutes and ${PIECE_LIMITS.maxBytes / MB} MB (a WAV between samples (a 16-bit PCM WAV at the quietest moment of the piece's last two seconds, so cuts fall between words; other WAVs exactly at the limit), an MP3 between frames), transcribed ${PIECE_CONCURRENCY} at a time, and joined: every segment's and word's time is on the whole file's clock and the segments are numbered from 0. M4A, WebM, Ogg and FLAC cannot be cut without decoding, so they are sent whole and may be at most ${WHOLE_FILE_MAX_BYTES / 1_000_000} MB (30 minutes at 16 kbps: the bytes bound what is transcribed, since a header's duration may be wrong) and, where the header says, ${WHOLE_FILE_MAX_SECONDS / 60} minutes (422 \`unreadable-document\`, \`reason: too-large\` or \`too-long\`): send longer recordings as MP3 or WAV. The engine has ${ENGINE_TIMEOUT_MS / 1000} s for the whole file; past that it answers 502 \`engine-failed\`, and once one piece fails the others are not sent. Workers AI out of capacity answers 503 \`engine-unavailable\` with \`Retry-After\`; Whisper's own messages are not passed on.`,
  `\`language\` (ISO 639-1; ${WHISPER_LANGUAGE_CODES.length} languages, Whisper's list) skips detection; \`prompt\` (Whisper's initial prompt) helps with names and spellings.`,
  "`response_format`: `json` (the default) answers `{\"text\"}`, as OpenAI's whisper-1 does; `text` the text as `text/plain`; `srt` (`text/plain`) and `vtt` (`text/vtt`) one cue per segment, numbered from 1 in SRT, timed `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (WebVTT, always with hours), in order of time, a blank line between cues; `verbose_json` OpenAI's shape: `task`, `language` (its English name, `english`), `duration` (seconds), `text`, `segments` (`id`, `seek`, `start`, `end`, `text`, `tokens`, `temperature`, `avg_logprob`, `compression_ratio`, `no_speech_prob`) and, with `timestamp_granularities` `word`, `words` (`word`, `start`, `end`). As at OpenAI, `segments` is there unless only `word` is asked, and `timestamp_granularities` (or `timestamp_granularities[]`) needs `verbose_json`. Differences: `tokens` is empty (Workers AI gives no token ids) and `seek` is the segment's start in 10 ms frames. Every answer carries `X-Engine`.",
  "Cost: one call, whatever the length (within the limits above).",
].join(" ");

export const definition: HostedApiDefinition = {
  slug: "audio-to-text",
  operations: [
    defineOperation({
      id: "transcribeAudio",
      method: "POST",
      path: "",
      summary: "Transcribe speech to text, SRT or VTT",
      description: DESCRIPTION,
      inputSource: "json-or-multipart",
      input: AudioToTextInputSchema,
      output: { kind: "json", schema: AudioToTextOutputSchema, example: EXAMPLE_TRANSCRIPT },
      example: {
        url: "https://example.com/recordings/welcome.mp3",
        response_format: "verbose_json",
        language: "en",
      },
      maxBodyBytes: AUDIO_BODY_BYTES,
      errors: [
        {
          type: "unsupported-media-type",
          when: "the file is not WAV, MP3, M4A, WebM, Ogg or FLAC (read from its bytes), or a WAV or Ogg holds a codec that is not read",
        },
        {
          type: "unreadable-document",
          when: "the file starts like audio but its header is damaged or cut short, or it is longer than the limits (`reason`: malformed, truncated, no-audio, too-large, too-long)",
        },
        {
          type: "engine-unavailable",
          when: "this environment has no AI binding (every local run): Workers AI's Whisper is the only engine; or Workers AI has no capacity just now (with `Retry-After`)",
        },
        {
          type: "engine-failed",
          when: "Whisper failed on the audio or did not finish within its 20 s",
        },
        { type: "invalid-input", when: "Whisper refused the audio as too large or not in a form it reads" },
      ],
      handler: transcribeAudio,
    }),
  ],
};
