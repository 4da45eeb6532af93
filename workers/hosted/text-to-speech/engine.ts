/**
 * Which speech engine this environment has (decision 060): Workers AI where the AI binding
 * exists (production), else the engine Worker's meSpeak over the ENGINES service binding
 * (`npm run dev`, the tests), else none, and the API answers 503 engine-unavailable.
 */
import type { SpeechSynthesizer } from "~workers/hosted/capabilities";
import { MESPEAK_ENGINE, MESPEAK_FORMATS } from "~workers/engines/speech/voices";
import { workersAiSpeech, type SpeechModels } from "~workers/providers/workers-ai/speech";

export function speechEngineFor(env: { AI?: SpeechModels; ENGINES?: Env["ENGINES"] }): SpeechSynthesizer | undefined {
  if (env.AI) return workersAiSpeech(env.AI);
  if (env.ENGINES) return rpcMespeak(env.ENGINES);
  return undefined;
}

/** The engine Worker's meSpeak as a synthesizer: RPC answers are structured-clone copies of the outcome types. */
export function rpcMespeak(binding: Env["ENGINES"]): SpeechSynthesizer {
  return {
    engine: MESPEAK_ENGINE,
    formats: MESPEAK_FORMATS,
    voices: () => binding.speechVoices(),
    synthesize: (request) => binding.speak(request),
  };
}
