/**
 * The upload is read, bounded and sniffed here, in the main Worker; the parse runs in the engine
 * Worker (workers/engines/resume), so pdf.js never loads beside the gateway.
 */
import { json, problemResult, type HandlerResult, type OperationContext } from "~workers/hosted/definition";
import { base64ToBytes } from "../_image/base64";
import { documentEngines, ENGINE_TIMEOUT_MS, failureResult, fileBytes } from "../_documents/engines";
import { MAX_RESUME_BYTES, type ResumeParserInput, type ResumeParserOutput } from "./schema";
import { sniffResume } from "./sniff";

const TOO_LARGE = "A résumé may be at most 10 MB.";

export async function parseResumeFile(input: ResumeParserInput, ctx: OperationContext): Promise<HandlerResult> {
  const source = input.file ?? input.resume;
  let bytes: Uint8Array;
  if (source instanceof File) {
    if (source.size > MAX_RESUME_BYTES) return problemResult("body-too-large", TOO_LARGE);
    bytes = await fileBytes(source);
  } else if (typeof source === "string") {
    const decoded = base64ToBytes(source.slice(source.indexOf(",") + 1));
    if (!decoded) return problemResult("invalid-input", "The data URL's base64 is not valid.");
    if (decoded.length > MAX_RESUME_BYTES) return problemResult("body-too-large", TOO_LARGE);
    bytes = decoded;
  } else return problemResult("invalid-input", "Send the résumé as `file`.");
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
  const outcome = await engines.engines.parseResume({ document: bytes, format, timeoutMs: ENGINE_TIMEOUT_MS });
  if (!outcome.ok) return failureResult(outcome);
  const body: ResumeParserOutput = outcome.resume;
  return json(body);
}
