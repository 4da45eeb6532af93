/**
 * Text to Audio: the text spoken by the environment's speech engine (Workers AI in production,
 * meSpeak in the engine Worker elsewhere; workers/hosted/text-to-speech/engine.ts), and the
 * list of that engine's voices. What differs between the engines (formats, voices, speed and
 * pitch) is refused by the engine at the field it concerns, never ignored.
 */
import type { SpeechFormat, SpeechSynthesizer, Voice } from "~workers/hosted/capabilities";
import { binary, json, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { callEngine, ENGINE_TIMEOUT_MS, failureResult } from "../_documents/engines";
import { DEFAULT_LANGUAGE, noVoiceFor, voicesOfLanguage, type VoicePick } from "./pick-voice";
import { OPENAI_VOICES, type TextToSpeechInput, type VoicesOutput } from "./schema";

const EXTENSIONS: Record<SpeechFormat, string> = { mp3: "mp3", wav: "wav", opus: "ogg", flac: "flac", pcm: "pcm" };

/** The engine, or the 503 that names what this environment lacks. */
function speechEngine(
  ctx: OperationContext,
): { ok: true; engine: SpeechSynthesizer } | { ok: false; result: HandlerResult } {
  if (ctx.media.speech) return { ok: true, engine: ctx.media.speech };
  return {
    ok: false,
    result: problemResult(
      "engine-unavailable",
      "Text to Audio needs Workers AI (the AI binding, in production) or the engine Worker's meSpeak (the ENGINES service binding); this environment has neither.",
      { binding: "AI" },
    ),
  };
}

const invalid = (field: string, detail: string): HandlerResult =>
  problemResult("invalid-input", detail, { errors: { [field]: detail } });

/**
 * An OpenAI voice name, where the engine has no voice of that id, as the engine's first voice of
 * the wanted language (English unless given) and the name's gender; other names as given. An
 * OpenAI name for a language the engine does not speak is that language's refusal, not the
 * name's.
 */
export function resolveVoice(
  voice: string | undefined,
  language: string | undefined,
  voices: Voice[],
  engine: string,
): VoicePick<string | undefined> {
  if (voice === undefined || voices.some((v) => v.id === voice)) return { ok: true, voice };
  const gender = OPENAI_VOICES[voice.toLowerCase()];
  if (!gender) return { ok: true, voice };
  const ofLanguage = voicesOfLanguage(voices, language ?? DEFAULT_LANGUAGE);
  const chosen = ofLanguage.find((v) => v.gender === gender) ?? ofLanguage[0];
  return chosen ? { ok: true, voice: chosen.id } : noVoiceFor(language ?? DEFAULT_LANGUAGE, `This engine (${engine})`);
}

export async function speakText(input: TextToSpeechInput, ctx: OperationContext): Promise<HandlerResult> {
  const found = speechEngine(ctx);
  if (!found.ok) return found.result;
  const { engine } = found;
  const format = input.format ?? engine.formats[0]!;
  if (!engine.formats.includes(format)) {
    return invalid(
      "response_format",
      `This environment's engine (${engine.engine}) answers ${engine.formats.join(", ")}: ${format} comes from Workers AI in production.`,
    );
  }
  const failureDetail = "The speech engine failed on this text. Retry, or try a shorter text.";
  let voice = input.voice;
  if (voice !== undefined && OPENAI_VOICES[voice.toLowerCase()]) {
    const listed = await callEngine(ctx, failureDetail, () => engine.voices());
    if (!listed.ok) return listed.result;
    const resolved = resolveVoice(voice, input.language, listed.value, engine.engine);
    if (!resolved.ok) return invalid(resolved.field, resolved.detail);
    voice = resolved.voice;
  }
  const called = await callEngine(ctx, failureDetail, () =>
    engine.synthesize({
      text: input.text,
      ...(voice !== undefined && { voice }),
      ...(input.language !== undefined && { language: input.language }),
      format,
      speed: input.speed,
      pitch: input.pitch,
      timeoutMs: ENGINE_TIMEOUT_MS,
    }),
  );
  if (!called.ok) return called.result;
  const outcome = called.value;
  if (!outcome.ok) {
    // A refusal tied to one field reads like the schema's own: `errors` names the field.
    const { field, ...extensions } = outcome.extensions ?? {};
    if (outcome.problem === "invalid-input" && typeof field === "string") {
      return problemResult("invalid-input", outcome.detail, { ...extensions, errors: { [field]: outcome.detail } });
    }
    // Others (a capacity refusal's retryAfterSeconds too) as every engine's failure is answered.
    return failureResult(outcome);
  }
  return binary(outcome.audio, outcome.contentType, {
    "X-Engine": outcome.engine,
    "X-Voice": outcome.voice,
    "Content-Disposition": `inline; filename="speech.${EXTENSIONS[outcome.format]}"`,
  });
}

export async function listVoices(_input: Record<string, never>, ctx: OperationContext): Promise<HandlerResult> {
  const found = speechEngine(ctx);
  if (!found.ok) return found.result;
  const { engine } = found;
  const listed = await callEngine(ctx, "The speech engine could not list its voices. Retry.", () => engine.voices());
  if (!listed.ok) return listed.result;
  const body: VoicesOutput = { engine: engine.engine, formats: [...engine.formats], voices: listed.value };
  return json(body);
}
