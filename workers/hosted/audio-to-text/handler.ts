/**
 * Audio to Text: the audio's bytes (an upload, or a URL fetched through the caller's SSRF guard)
 * are sniffed here, in the main Worker, before any model is called (sniff.ts: the container
 * from its magic bytes, the duration from its header), then transcribed by the engine this
 * environment has (Workers AI's Whisper in production; none offline, so 503) and answered in
 * the `response_format` asked.
 */
import { NO_TRANSCRIPTION_ENGINE } from "~/lib/transcript";
import {
  binary,
  json,
  problemResult,
  UrlInputError,
  type HandlerResult,
  type OperationContext,
} from "~workers/hosted/definition";
import { ENGINE_TIMEOUT_MS, failureResult, fileBytes } from "../_documents/engines";
import { sniffAudio } from "../_audio/sniff";
import { toJson, toSrt, toText, toVerboseJson, toVtt } from "./formats";
import { granularitiesOf, MAX_AUDIO_BYTES, type AudioToTextInput } from "./schema";

/** Longest audio transcribed in one call: bounds what one call costs (Whisper bills by the minute) and takes. */
export const MAX_DURATION_SECONDS = 30 * 60;

const MAX_MB = MAX_AUDIO_BYTES / (1024 * 1024);

async function audioBytes(
  input: AudioToTextInput,
  ctx: OperationContext,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; result: HandlerResult }> {
  if (input.file) return { ok: true, bytes: await fileBytes(input.file) };
  const url = input.url!;
  try {
    const fetched = await ctx.fetchUrl(url, { maxBytes: MAX_AUDIO_BYTES, accept: "audio/*" });
    return { ok: true, bytes: fetched.bytes };
  } catch (error) {
    // The guard's refusals (a private address, an HTTP error, over 25 MB) are the caller's to fix.
    if (error instanceof UrlInputError) {
      return { ok: false, result: problemResult("invalid-input", error.message, { errors: { url: error.message } }) };
    }
    return {
      ok: false,
      result: problemResult("service-unavailable", "The audio URL could not be looked up right now; try again."),
    };
  }
}

const NO_ENGINE = problemResult("engine-unavailable", NO_TRANSCRIPTION_ENGINE, { binding: "AI" });

export async function transcribeAudio(input: AudioToTextInput, ctx: OperationContext): Promise<HandlerResult> {
  const engine = ctx.media.transcription;
  // Workers AI has no local simulation, and no speech-to-text model installs as a package that
  // runs in a Worker: where the binding is absent (npm run dev, tests), the API says so. A URL
  // is not fetched for nothing; an upload is already here, and its bytes are still judged
  // (415, 422), so a caller can exercise those answers offline.
  if (!engine && !input.file) return NO_ENGINE;
  const loaded = await audioBytes(input, ctx);
  if (!loaded.ok) return loaded.result;
  if (loaded.bytes.length > MAX_AUDIO_BYTES) {
    return problemResult("invalid-input", `An audio file may be at most ${MAX_MB} MB.`);
  }
  const audio = sniffAudio(loaded.bytes);
  if (!audio.ok) return failureResult(audio);
  if (audio.duration !== null && audio.duration > MAX_DURATION_SECONDS) {
    return problemResult(
      "unreadable-document",
      `The audio lasts ${(audio.duration / 60).toFixed(1)} minutes; one call transcribes at most ${MAX_DURATION_SECONDS / 60}. Cut it into parts.`,
      { reason: "too-long", duration: Math.round(audio.duration) },
    );
  }
  if (!engine) return NO_ENGINE;

  const outcome = await engine.transcribe({
    audio: loaded.bytes,
    container: audio.container,
    duration: audio.duration,
    ...(input.language && { language: input.language }),
    ...(input.prompt?.trim() && { prompt: input.prompt.trim() }),
    timeoutMs: ENGINE_TIMEOUT_MS,
  });
  if (!outcome.ok) return failureResult(outcome);
  const { transcript } = outcome;
  const headers = { "X-Engine": outcome.engine };
  switch (input.response_format) {
    case "text":
      return binary(toText(transcript), "text/plain; charset=utf-8", headers);
    case "srt":
      return binary(toSrt(transcript), "text/plain; charset=utf-8", headers);
    case "vtt":
      return binary(toVtt(transcript), "text/vtt; charset=utf-8", headers);
    case "verbose_json":
      return json(toVerboseJson(transcript, granularitiesOf(input)), undefined, headers);
    case "json":
      return json(toJson(transcript), undefined, headers);
  }
}
