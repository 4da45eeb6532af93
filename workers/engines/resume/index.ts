/** Resume Parser: the text of a PDF or DOCX, with its layout, read into JSON Resume's shape. */
import type { ResumeOutcome, ResumeRequest } from "~workers/hosted/capabilities";

export async function parseResume(_request: ResumeRequest): Promise<ResumeOutcome> {
  return { ok: false, problem: "engine-unavailable", detail: "Resume Parser is being built (issue #15)." };
}
