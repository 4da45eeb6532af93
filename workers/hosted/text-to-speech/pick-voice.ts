/**
 * Which voice speaks a request, for every speech engine (meSpeak in the engine Worker, Workers
 * AI in the main Worker) and for OpenAI's voice names in the handler: the voice named, else the
 * first voice of `language` (its exact tag, then its primary language), English unless given.
 * A voice and a language that disagree are refused at `language` rather than one of them being
 * ignored (decision 060). Data only: both Workers import it.
 */
import type { Voice } from "~workers/hosted/capabilities";

export type VoicePick<V> = { ok: true; voice: V } | { ok: false; field: "voice" | "language"; detail: string };

/** The language every engine speaks when none is asked. */
export const DEFAULT_LANGUAGE = "en";

const VOICES_LIST = "GET /api/v1/text-to-speech/voices";

const primaryOf = (tag: string) => tag.toLowerCase().split("-")[0]!;

/** The voices of `language`: those of its exact tag, else those of its primary language. */
export function voicesOfLanguage<V extends Voice>(voices: readonly V[], language: string): V[] {
  const wanted = language.toLowerCase();
  const exact = voices.filter((voice) => voice.language.toLowerCase() === wanted);
  return exact.length > 0 ? exact : voices.filter((voice) => primaryOf(voice.language) === primaryOf(wanted));
}

/** The refusal of a language an engine has no voice for. */
export const noVoiceFor = (language: string, engine: string, speaks?: string): VoicePick<never> => ({
  ok: false,
  field: "language",
  detail: `${engine} has no voice for ${language}${speaks ? ` (it speaks ${speaks})` : ""}: see ${VOICES_LIST}.`,
});

export function pickVoice<V extends Voice>(
  voices: readonly V[],
  request: { voice?: string; language?: string },
  engine: string,
  speaks?: string,
): VoicePick<V> {
  if (request.voice !== undefined) {
    const voice = voices.find((candidate) => candidate.id === request.voice);
    if (!voice) {
      return {
        ok: false,
        field: "voice",
        detail: `${request.voice} is not a voice of this engine: see ${VOICES_LIST}.`,
      };
    }
    if (request.language !== undefined && primaryOf(request.language) !== primaryOf(voice.language)) {
      return {
        ok: false,
        field: "language",
        detail: `${voice.id} speaks ${voice.language}, not ${request.language}: leave language out, or pick a voice of ${request.language} (${VOICES_LIST}).`,
      };
    }
    return { ok: true, voice };
  }
  const voice = voicesOfLanguage(voices, request.language ?? DEFAULT_LANGUAGE)[0];
  return voice ? { ok: true, voice } : noVoiceFor(request.language ?? DEFAULT_LANGUAGE, engine, speaks);
}
