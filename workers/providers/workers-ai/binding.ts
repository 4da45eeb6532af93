/**
 * One Workers AI model run as the providers make it (speech, transcription, images): with a
 * time limit of our own, and its failures sorted by what they mean for our caller.
 *
 * The time limit is a race against a timer here, not the binding's `signal` option: the
 * binding serialises the options into its request rather than cancelling its fetch (workerd's
 * ai-api, November 2026), so a signal alone would never end a hung call. A run abandoned by the
 * timer may still be billed; callers keep their limits tight for that reason.
 *
 * Workers AI's errors carry their internal code at the start of the message ("3036: You have
 * used up…", developers.cloudflare.com/workers-ai/platform/errors). Those codes decide the
 * problem the caller gets; the message itself stays in our logs, since it speaks of the
 * operator's Cloudflare account (its plan, its allowance), not of the caller's input.
 */
import { documentFailure, type DocumentFailure } from "~workers/hosted/capabilities";

/** The binding's `run` as the providers call it (the generated `Ai` type fits it). */
export interface WorkersAiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

export type ModelRun = { ok: true; answer: unknown } | { ok: false; failure: DocumentFailure };

/** The input was refused by the model: too large (3006) or not data it takes (5004). */
const INPUT_REFUSED = new Set([3006, 5004]);
/** The account is out of its daily allowance (3036) or the platform of capacity (3040): try later. */
const NO_CAPACITY = new Set([3036, 3040]);
/** The platform's own time limit (3007) or an aborted request (3008). */
const TIMED_OUT = new Set([3007, 3008]);

/** Seconds a caller is asked to wait after a capacity refusal. */
export const CAPACITY_RETRY_AFTER_SECONDS = 60;

/** The internal code at the start of a Workers AI error's message, or null. */
export function workersAiErrorCode(error: unknown): number | null {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^\s*(\d{4})\b/.exec(message);
  return match ? Number(match[1]) : null;
}

/** What a failed run means for the caller (`what` names the model's work, e.g. "Whisper"). */
export function modelFailure(what: string, error: unknown): DocumentFailure {
  const code = workersAiErrorCode(error);
  if (code !== null && INPUT_REFUSED.has(code)) {
    return documentFailure("invalid-input", `${what} refused this input as too large or not in a form it reads.`, {
      upstreamCode: code,
    });
  }
  if (code !== null && NO_CAPACITY.has(code)) {
    return documentFailure("engine-unavailable", `${what} has no capacity just now. Retry in a minute.`, {
      upstreamCode: code,
      retryAfterSeconds: CAPACITY_RETRY_AFTER_SECONDS,
    });
  }
  if (code !== null && TIMED_OUT.has(code)) {
    return documentFailure("engine-failed", `${what} did not answer in time.`, { upstreamCode: code });
  }
  return documentFailure("engine-failed", `${what} failed. Retry, or try a shorter input.`, {
    ...(code !== null && { upstreamCode: code }),
  });
}

class TimeLimit extends Error {}

/**
 * Runs `model` on `inputs`, answering within `timeoutMs` (and at once when `signal` aborts:
 * a caller that gave up on the whole request, e.g. another piece of the same audio failed).
 * A failure is a value; it is logged with the model's own message.
 */
export async function runModel(
  ai: WorkersAiBinding,
  model: string,
  inputs: Record<string, unknown>,
  options: { timeoutMs: number; what: string; signal?: AbortSignal },
): Promise<ModelRun> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimit()), options.timeoutMs);
    if (options.signal) {
      onAbort = () => reject(options.signal?.reason ?? new Error("aborted"));
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  const running = ai.run(model, inputs);
  // Whichever loses the race must not surface as an unhandled rejection.
  running.catch(() => undefined);
  try {
    return { ok: true, answer: await Promise.race([running, stop]) };
  } catch (error) {
    if (error instanceof TimeLimit) {
      return {
        ok: false,
        failure: documentFailure(
          "engine-failed",
          `${options.what} did not answer within ${options.timeoutMs / 1000} s.`,
        ),
      };
    }
    console.error(`Workers AI ${model} failed:`, error);
    return { ok: false, failure: modelFailure(options.what, error) };
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener("abort", onAbort);
  }
}
