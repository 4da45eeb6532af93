/**
 * Resume Parser: the text of a PDF or DOCX, with its layout, read into JSON Resume's shape
 * (decision 058). Both formats become one model of lines in reading order (lines.ts); sections
 * are found by their headings in four languages (sections.ts); each section's reader is in
 * fields/. No template is assumed: two-column layouts, LinkedIn's export, DOCX tables.
 *
 * Every refusal is a value (unreadable-document with its reason); the whole parse runs under
 * the request's deadline, after which pdf.js's loading task is destroyed.
 */
import type { DocumentFailure, ParsedResume, ResumeOutcome, ResumeRequest } from "~workers/hosted/capabilities";
import { readDocxLines } from "./docx-lines";
import { readBasics } from "./fields/basics";
import { readEducation, readWork } from "./fields/entries";
import { readCertificates, readLanguages, readSkills } from "./fields/lists";
import { bodyFontSize, type DocumentLines } from "./lines";
import { readPdfLines } from "./pdf-lines";
import { splitSections, type SectionKind } from "./sections";

export async function parseResume(request: ResumeRequest): Promise<ResumeOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<DocumentFailure>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({
        ok: false,
        problem: "engine-failed",
        detail: `Reading the document took longer than ${Math.round(request.timeoutMs / 1000)} s.`,
      });
    }, request.timeoutMs);
  });
  try {
    return await Promise.race([parse(request, controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function parse(request: ResumeRequest, signal: AbortSignal): Promise<ResumeOutcome> {
  const read =
    request.format === "pdf" ? await readPdfLines(request.document, signal) : readDocxLines(request.document);
  if (!read.ok) return read;
  if (!read.value.lines.length) {
    return {
      ok: false,
      problem: "unreadable-document",
      detail:
        request.format === "pdf"
          ? "The PDF has no text to read: it may be a scan. Run it through /api/v1/image-to-text first."
          : "The DOCX has no text.",
      extensions: { reason: "malformed" },
    };
  }
  return { ok: true, resume: readResume(read.value, request.format) };
}

/** The résumé in lines → JSON Resume. Exported for the readers' tests. */
export function readResume(document: DocumentLines, format: "pdf" | "docx"): ParsedResume {
  const { lines } = document;
  const sections = splitSections(lines);
  const bodySize = bodyFontSize(lines);
  const of = (kind: SectionKind) => sections.filter((section) => section.kind === kind).flatMap((s) => s.lines);

  const skills: ParsedResume["skills"] = [];
  for (const skill of readSkills(of("skills"))) {
    if (!skills.some((known) => known.name.toLowerCase() === skill.name.toLowerCase())) skills.push(skill);
  }
  return {
    basics: readBasics(sections, lines),
    work: readWork(of("work"), bodySize),
    education: readEducation(of("education"), bodySize),
    skills,
    languages: readLanguages(of("languages")),
    certificates: readCertificates(of("certificates")),
    text: lines.map((line) => line.text).join("\n"),
    meta: { format, pages: document.pages, columns: document.columns },
  };
}
