/**
 * The voices the embedded engine speaks: meSpeak's voice files bundled into the engine Worker
 * (decision 060), each offered as its own male voice and, through eSpeak's `f2` variant, a
 * female one. The languages are those whose eSpeak rules are complete enough to be understood
 * (meSpeak's Kannada, Latin, Esperanto and Cantonese files are left out); English's three
 * accents share one dictionary. This module is data only: the main Worker's docs may read it
 * without loading meSpeak.
 */
import type { Voice } from "~workers/hosted/capabilities";

export interface MespeakVoice extends Voice {
  /** meSpeak's voice file (`voices/<file>.json` in the package). */
  file: string;
  /** eSpeak's voice variant, appended as `+<variant>`. */
  variant?: string;
}

/** The engine's name (`X-Engine`) and its one format, known to the main Worker without loading meSpeak. */
export const MESPEAK_ENGINE = "mespeak";
export const MESPEAK_FORMATS = ["wav"] as const;

/** eSpeak's normal pace, words a minute: `speed: 1`. */
export const NORMAL_WPM = 175;
/** eSpeak's slowest: below this it speaks at 80 all the same, so a slower `speed` is refused, not ignored. */
export const MIN_WPM = 80;
/** The slowest `speed` meSpeak honours (80 / 175 ≈ 0.457; the schema's own minimum is 0.25). */
export const MESPEAK_MIN_SPEED = MIN_WPM / NORMAL_WPM;

/** Characters spoken per eSpeak call at most: about 30 s of prose at its normal pace. */
export const MESPEAK_PIECE_CHARS = 400;
/**
 * Spoken units (words, and each digit or CJK character, which eSpeak reads one by one) per
 * call at most: 30 take about 20 s at the slowest pace, under 1 MB of samples, which eSpeak's
 * runtime holds as a plain array (4–8 bytes an entry, grown as it writes) until the call
 * ends. Text of short units ("9 9 9 …", numerals, Chinese) is cut shorter than 400 characters.
 */
export const MESPEAK_PIECE_UNITS = 30;

/** meSpeak's WAV: 22 050 Hz, 16-bit, mono. */
export const MESPEAK_SAMPLE_RATE = 22_050;

/**
 * The longest answer, from the engine isolate's 128 MB, measured (decision 060): while it
 * speaks, the engine's code and data (15 MB), the eSpeak instance (56 MB), the pieces so far
 * (A) and the runtime's array for the current piece (~10 MB); once spoken, the instance is
 * dropped and the pieces are copied into one answer, which RPC copies once more (15 + 3A).
 * 9 minutes of 22 050 Hz 16-bit mono is A = 23.8 MB: at most ~106 MB, and ~94 MB. 4 096
 * characters of prose at the slowest speed take 8.6 minutes; text eSpeak reads symbol by
 * symbol ("9 9 9 …") would take 25, so past this the call stops and says so.
 */
export const MAX_AUDIO_SECONDS = 540;

/** eSpeak's own female variant (meSpeak's `f2`): raised pitch and formants. */
export const FEMALE_VARIANT = "f2";

/** [file, BCP 47 tag, English name] of each bundled voice file. */
const FILES: readonly (readonly [string, string, string])[] = [
  ["en/en-us", "en-US", "English (US)"],
  ["en/en", "en-GB", "English (UK)"],
  ["en/en-sc", "en-GB-scotland", "English (Scotland)"],
  ["ca", "ca", "Catalan"],
  ["cs", "cs", "Czech"],
  ["de", "de", "German"],
  ["el", "el", "Greek"],
  ["es", "es-ES", "Spanish (Spain)"],
  ["es-la", "es-419", "Spanish (Latin America)"],
  ["fi", "fi", "Finnish"],
  ["fr", "fr", "French"],
  ["hu", "hu", "Hungarian"],
  ["it", "it", "Italian"],
  ["lv", "lv", "Latvian"],
  ["nl", "nl", "Dutch"],
  ["pl", "pl", "Polish"],
  ["pt", "pt-BR", "Portuguese (Brazil)"],
  ["pt-pt", "pt-PT", "Portuguese (Portugal)"],
  ["ro", "ro", "Romanian"],
  ["sk", "sk", "Slovak"],
  ["sv", "sv", "Swedish"],
  ["tr", "tr", "Turkish"],
  ["zh", "zh", "Chinese (Mandarin)"],
];

/** Every voice, male first within a language: the first voice of a language is its default. */
export const MESPEAK_VOICES: readonly MespeakVoice[] = FILES.flatMap(([file, language, name]) => [
  { id: `${language.toLowerCase()}-male`, name: `${name}, male`, language, gender: "male" as const, file },
  {
    id: `${language.toLowerCase()}-female`,
    name: `${name}, female`,
    language,
    gender: "female" as const,
    file,
    variant: FEMALE_VARIANT,
  },
]);

/** A meSpeak voice file: the eSpeak voice definition and its language's dictionary, in base64. */
export interface MespeakVoiceFile {
  voice_id: string;
  dict_id: string;
  dict: string;
  voice: string;
}
