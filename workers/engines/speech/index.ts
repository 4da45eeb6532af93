/**
 * Text to Audio's embedded engine (decision 060): meSpeak's eSpeak in the engine Worker,
 * robotic but real, 22 050 Hz 16-bit mono WAV. Long text is spoken a few sentences at a time
 * (eSpeak's runtime keeps each call's samples as a plain array, 8 bytes a sample at worst) and
 * the pieces' samples are joined under one header.
 *
 * Memory (the isolate has 128 MB, shared with OCR and PDF calls): the eSpeak instance's heap
 * is 50 MB. A long answer drops it before its pieces are joined, so the instance, the pieces
 * and the joined answer are never all alive at once; the next call builds a fresh instance.
 */
import { documentFailure, type SpeechOutcome, type SpeechRequest, type Voice } from "~workers/hosted/capabilities";
import { joinWav, splitText } from "~workers/hosted/text-to-speech/audio";
import { pickVoice as pickFrom } from "~workers/hosted/text-to-speech/pick-voice";
import { Mespeak } from "./mespeak";
import {
  MAX_AUDIO_SECONDS,
  MESPEAK_ENGINE,
  MESPEAK_MIN_SPEED,
  MESPEAK_PIECE_CHARS,
  MESPEAK_PIECE_UNITS,
  MESPEAK_SAMPLE_RATE,
  MESPEAK_VOICES,
  MIN_WPM,
  NORMAL_WPM,
} from "./voices";

/**
 * Answers of more audio than this free the instance before joining: rebuilding it costs the
 * next call a few tens of milliseconds, holding it costs 50 MB next to the answer.
 */
const RELEASE_AFTER_BYTES = 4 * 1024 * 1024;

let engine: Mespeak | null = null;

/** The isolate's one engine, built on first use (its data decoded once). */
export function mespeak(): Mespeak {
  engine ??= new Mespeak();
  return engine;
}

/** What eSpeak reads as one spoken unit: a digit, a CJK character, or a run of anything else but spaces. */
const SPOKEN_UNIT =
  /\p{N}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\s\p{N}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

const spokenUnits = (text: string) => text.match(SPOKEN_UNIT)?.length ?? 0;

/**
 * How far past MAX_AUDIO_SECONDS a text's predicted length (its units at the words-a-minute
 * pace) may go before it is refused unspoken: eSpeak keeps that pace within a few percent
 * (4 096 characters of prose, 700 units at 80 a minute, take 8.6 minutes), and a text
 * predicted just under the limit is still checked piece by piece as it is spoken.
 */
const PREDICTION_MARGIN = 1.15;

/**
 * Characters per eSpeak call for `text`: 400, or fewer where the text's units are short, so a
 * piece holds about MESPEAK_PIECE_UNITS units (and its samples stay near 2 MB at the slowest).
 */
export function pieceCharsFor(text: string): number {
  const units = spokenUnits(text);
  if (units === 0) return MESPEAK_PIECE_CHARS;
  return Math.max(40, Math.min(MESPEAK_PIECE_CHARS, Math.floor((text.length * MESPEAK_PIECE_UNITS) / units)));
}

export function mespeakVoices(): Voice[] {
  return MESPEAK_VOICES.map(({ id, name, language, gender }) => ({ id, name, language, gender }));
}

const tooLong = () =>
  documentFailure(
    "invalid-input",
    `This text would be more than ${MAX_AUDIO_SECONDS / 60} minutes of speech at this speed: send less text, or a higher speed.`,
    { field: "input" },
  );

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
      `The embedded engine (meSpeak) speaks no slower than ${MIN_WPM} words a minute: speed must be at least ${MESPEAK_MIN_SPEED.toFixed(2)} here.`,
      { field: "speed" },
    );
  }
  const picked = pickFrom(MESPEAK_VOICES, request, "The embedded engine (meSpeak)");
  if (!picked.ok) return documentFailure("invalid-input", picked.detail, { field: picked.field });
  const { voice } = picked;
  // Refused before speaking when it will plainly be too long: holding 10 minutes of pieces
  // next to the instance only to refuse them is the most memory this engine would ever hold.
  if (spokenUnits(request.text) / wordsPerMinute > (MAX_AUDIO_SECONDS / 60) * PREDICTION_MARGIN) {
    return tooLong();
  }
  const synth = mespeak();
  await synth.load(voice.file);
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  // `request.timeoutMs` is not checked here: workerd's clock stands still while code runs
  // without I/O, and eSpeak runs synchronously to the end, so no elapsed time could be read
  // between pieces (and yielding between them would let two long answers hold their pieces at
  // once). The 9-minute limit bounds the work instead: 4 096 characters at the slowest speed
  // take 3.5–7 s in the tests.
  for (const piece of splitText(request.text, pieceCharsFor(request.text))) {
    const wav = synth.speak(piece, voice, wordsPerMinute, request.pitch);
    bytes += wav.length - 44;
    if (bytes > MAX_AUDIO_SECONDS * MESPEAK_SAMPLE_RATE * 2) return tooLong();
    pieces.push(wav);
  }
  if (bytes > RELEASE_AFTER_BYTES) synth.release();
  const audio = pieces.length > 0 ? joinWav(pieces) : null;
  // The pieces are garbage from here: only the answer is kept.
  pieces.length = 0;
  if (!audio) return documentFailure("engine-failed", "meSpeak answered no audio for this text.");
  return { ok: true, audio, format: "wav", contentType: "audio/wav", voice: voice.id, engine: MESPEAK_ENGINE };
}
