/**
 * The upload is read, bounded and sniffed here, in the main Worker; the parse runs in the engine
 * Worker (workers/engines/resume), so pdf.js never loads beside the gateway.
 */
import { json, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { callEngine, documentEngines, ENGINE_TIMEOUT_MS, failureResult } from "../_documents/engines";
import { documentBytes } from "../_documents/upload";
import type { ResumeParserInput, ResumeParserOutput } from "./schema";
import { sniffResume } from "./sniff";

export async function parseResumeFile(input: ResumeParserInput, ctx: OperationContext): Promise<HandlerResult> {
  const source = input.file ?? input.resume;
  if (source === undefined) return problemResult("invalid-input", "Send the résumé as `file`.");
  const read = await documentBytes(source, "A résumé");
  if (!read.ok) return read.problem;
  const bytes = read.value;
  if (bytes.length === 0) return problemResult("invalid-input", "The file is empty.");

  const format = sniffResume(bytes);
  if (!format) {
    return problemResult(
      "unsupported-media-type",
      "The file is neither a PDF nor a DOCX (read from its bytes, not its name). Save it as PDF or Word (.docx) and send it again.",
    );
  }
  const engines = documentEngines(ctx, "Resume Parser");
  if (!engines.ok) return engines.result;
  const called = await callEngine(
    ctx,
    "The résumé engine stopped while reading this file. Retry, or send a smaller or simpler file.",
    () => engines.engines.parseResume({ document: bytes, format, timeoutMs: ENGINE_TIMEOUT_MS }),
  );
  if (!called.ok) return called.result;
  const outcome = called.value;
  if (!outcome.ok) return failureResult(outcome);
  const body: ResumeParserOutput = outcome.resume;
  return json(body);
}
