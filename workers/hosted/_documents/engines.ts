/**
 * What the three document APIs (html-to-pdf, image-to-text, resume-parser) share on the main
 * Worker's side of the engine Worker: reaching it, answering its failures as problems, and the
 * resource fetcher it is handed for URLs.
 */
import type { DocumentEngines, DocumentFailure, ResourceFetcher } from "~workers/hosted/capabilities";
import { problemResult, UrlInputError, type HandlerResult, type OperationContext } from "~workers/hosted/definition";

/**
 * How long an engine may work on one call: under the gateway's handler limit (25 s), so the
 * engine's own time-out answers first, with its reason, and the isolate stops working.
 */
export const ENGINE_TIMEOUT_MS = 20_000;

/** The engine Worker, or the 503 answered where it is not bound. */
export function documentEngines(
  ctx: OperationContext,
  api: string,
): { ok: true; engines: DocumentEngines } | { ok: false; result: HandlerResult } {
  if (ctx.documents) return { ok: true, engines: ctx.documents };
  return {
    ok: false,
    result: problemResult(
      "engine-unavailable",
      `${api} runs in the engine Worker, and this environment has no ENGINES service binding to it.`,
      { binding: "ENGINES" },
    ),
  };
}

/**
 * One call to the engine Worker. Its failures arrive as values (`DocumentFailure`); a throw is
 * the engine Worker's isolate ending under the call (over its memory or CPU limit, restarted) or
 * the binding breaking, which the caller can only retry: answered as `engine-failed` with
 * `detail` and logged with the request's id, never the gateway's bare 500.
 */
export async function callEngine<T>(
  ctx: OperationContext,
  detail: string,
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; result: HandlerResult }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    console.error(`${ctx.requestId}: the engine Worker's call failed`, error);
    return { ok: false, result: problemResult("engine-failed", detail) };
  }
}

/**
 * An engine's failure as the problem the caller reads. A `retryAfterSeconds` extension (a
 * provider out of capacity for now) is also sent as `Retry-After`, which clients act on.
 */
export function failureResult(failure: DocumentFailure): HandlerResult {
  const retryAfter = failure.extensions?.retryAfterSeconds;
  const headers =
    typeof retryAfter === "number" && Number.isFinite(retryAfter) && retryAfter > 0
      ? { "Retry-After": String(Math.ceil(retryAfter)) }
      : undefined;
  return problemResult(failure.problem, failure.detail, failure.extensions, headers);
}

/**
 * The resource fetcher handed to the engine: the caller's own outbound guard (`ctx.fetchUrl`:
 * public addresses only, checked on each redirect, bounded size and time), with a refusal
 * turned into a value, because a thrown error would reach the engine without its message's
 * meaning. Other failures (a reset connection) are values too, with a neutral sentence.
 */
export function guardedResourceFetcher(ctx: OperationContext): ResourceFetcher {
  return async (url, options) => {
    try {
      const fetched = await ctx.fetchUrl(url, { maxBytes: options.maxBytes, accept: options.accept });
      return { ok: true, ...fetched };
    } catch (error) {
      if (error instanceof UrlInputError) return { ok: false, detail: error.message };
      return { ok: false, detail: `${url} could not be fetched.` };
    }
  };
}

/** An uploaded file's bytes (the gateway has already bounded the body). */
export async function fileBytes(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}
