/**
 * Prints HTML or a web page to PDF in the engine Worker (workers/engines/pdf): the input is
 * checked here, the engine picks the browser or the embedded layout engine, and every URL it
 * fetches, the caller's page included, comes back through this call's outbound guard.
 */
import { binary, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import {
  callEngine,
  documentEngines,
  ENGINE_TIMEOUT_MS,
  failureResult,
  guardedResourceFetcher,
} from "../_documents/engines";
import { toEngineRequest, type HtmlToPdfInput } from "./schema";

export async function printHtmlToPdf(input: HtmlToPdfInput, ctx: OperationContext): Promise<HandlerResult> {
  const engines = documentEngines(ctx, "HTML to PDF");
  if (!engines.ok) return engines.result;
  const called = await callEngine(ctx, "The PDF engine failed on this document. Retry, or try a simpler one.", () =>
    engines.engines.htmlToPdf(toEngineRequest(input, ENGINE_TIMEOUT_MS), guardedResourceFetcher(ctx)),
  );
  if (!called.ok) return called.result;
  const outcome = called.value;
  if (!outcome.ok) {
    const result = failureResult(outcome);
    // A busy browser is worth retrying soon, and says when (the engine's `retryAfter`, seconds).
    const retryAfter = outcome.extensions?.retryAfter;
    if (result.kind === "problem" && typeof retryAfter === "number") {
      return { ...result, headers: { ...result.headers, "Retry-After": String(retryAfter) } };
    }
    // A refusal tied to one field reads like the schema's own: `errors` names the field.
    const { field, ...extensions } = outcome.extensions ?? {};
    if (result.kind === "problem" && typeof field === "string" && outcome.problem === "invalid-input") {
      return { ...result, extensions: { ...extensions, errors: { [field]: outcome.detail } } };
    }
    return result;
  }
  return binary(outcome.pdf, "application/pdf", {
    "X-Engine": outcome.engine,
    "X-Page-Count": String(outcome.pageCount),
    "Content-Disposition": 'inline; filename="document.pdf"',
  });
}
