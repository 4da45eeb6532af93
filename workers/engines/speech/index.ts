/**
 * Text to Audio's embedded engine (decision 060): meSpeak's eSpeak in the engine Worker,
 * robotic but real, 22 050 Hz 16-bit mono WAV. Long text is spoken a few sentences at a time
 * (eSpeak's runtime keeps each call's samples as a plain array, 8 bytes a sample at worst) and
 * the pieces' samples are joined under one header.
 */
import { documentFailure, type SpeechOutcome, type SpeechRequest, type Voice } from "~workers/hosted/capabilities";
import { joinWav, splitText } from "~workers/hosted/text-to-speech/audio";
import { Mespeak } from "./mespeak";
import { MAX_AUDIO_SECONDS, MESPEAK_VOICES, type MespeakVoice } from "./voices";

export const MESPEAK_ENGINE = "mespeak";

/** eSpeak's normal pace, words a minute: `speed: 1`. */
export const NORMAL_WPM = 175;
/** eSpeak's slowest: below this it speaks at 80 all the same, so a slower `speed` is refused, not ignored. */
export const MIN_WPM = 80;
/** The slowest `speed` this engine honours (80 / 175). */
export const MIN_SPEED = MIN_WPM / NORMAL_WPM;

/** Characters spoken per eSpeak call: about 30 s of speech, a few MB of samples in its runtime. */
const PIECE_CHARS = 400;

const SAMPLE_RATE = 22_050;

let engine: Mespeak | null = null;

/** The isolate's one engine, built on first use (its data decoded once). */
export function mespeak(): Mespeak {
  engine ??= new Mespeak();
  return engine;
}

export function mespeakVoices(): Voice[] {
  return MESPEAK_VOICES.map(({ id, name, language, gender }) => ({ id, name, language, gender }));
}

/** The voice a request names, or its language's first, or English (US)'s: null when none fits. */
export function pickVoice(request: Pick<SpeechRequest, "voice" | "language">): MespeakVoice | null {
  if (request.voice) return MESPEAK_VOICES.find((voice) => voice.id === request.voice) ?? null;
  if (!request.language) return MESPEAK_VOICES[0]!;
  const wanted = request.language.toLowerCase();
  return (
    MESPEAK_VOICES.find((voice) => voice.language.toLowerCase() === wanted) ??
    MESPEAK_VOICES.find((voice) => voice.language.toLowerCase().split("-")[0] === wanted.split("-")[0]) ??
    null
  );
}

export async function synthesizeWithMespeak(request: SpeechRequest): Promise<SpeechOutcome> {
  if (request.format !== "wav") {
    return documentFailure(
      "invalid-input",
      `The embedded engine (meSpeak) answers WAV only: ask response_format "wav" (mp3, opus, flac and pcm come from Workers AI in production).`,
      { field: "response_format" },
    );
  }
  const wordsPerMinute = Math.round(NORMAL_WPM * request.speed);
  if (wordsPerMinute < MIN_WPM) {
    return documentFailure(
      "invalid-input",
      `The embedded engine (meSpeak) speaks no slower than ${MIN_WPM} words a minute: speed must be at least ${MIN_SPEED.toFixed(2)} here.`,
      { field: "speed" },
    );
  }
  const voice = pickVoice(request);
  if (!voice) {
    return request.voice
      ? documentFailure(
          "invalid-input",
          `${request.voice} is not a voice of this engine: see GET /api/v1/text-to-speech/voices.`,
          {
            field: "voice",
          },
        )
      : documentFailure(
          "invalid-input",
          `The embedded engine (meSpeak) has no voice for ${request.language}: see GET /api/v1/text-to-speech/voices.`,
          { field: "language" },
        );
  }
  const synth = mespeak();
  await synth.load(voice.file);
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  for (const piece of splitText(request.text, PIECE_CHARS)) {
    const wav = synth.speak(piece, voice, wordsPerMinute, request.pitch);
    bytes += wav.length - 44;
    if (bytes > MAX_AUDIO_SECONDS * SAMPLE_RATE * 2) {
      return documentFailure(
        "invalid-input",
        `This text would be more than ${MAX_AUDIO_SECONDS / 60} minutes of speech at this speed: send less text, or a higher speed.`,
        { field: "input" },
      );
    }
    pieces.push(wav);
  }
  const audio = pieces.length > 0 ? joinWav(pieces) : null;
  if (!audio) return documentFailure("engine-failed", "meSpeak answered no audio for this text.");
  return { ok: true, audio, format: "wav", contentType: "audio/wav", voice: voice.id, engine: MESPEAK_ENGINE };
}
