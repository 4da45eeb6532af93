/**
 * What a résumé file is, read from its bytes (never its name or declared type): a PDF starts
 * with `%PDF-` (within its first KiB, as readers allow); a DOCX is a ZIP whose central directory
 * names `word/document.xml`. Any other ZIP (an ODT, an XLSX, a JAR) and anything else is not one.
 */
import { readZipDirectory } from "../_documents/zip-directory";

export type ResumeFormat = "pdf" | "docx";

export function sniffResume(bytes: Uint8Array): ResumeFormat | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (head.includes("%PDF-")) return "pdf";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04 && namesWordDocument(bytes))
    return "docx";
  return null;
}

/**
 * Whether the ZIP's central directory lists `word/document.xml`. A directory that breaks off
 * after naming it still counts: the engine then answers the damage (422 malformed), which says
 * more than "not a DOCX" (415).
 */
function namesWordDocument(bytes: Uint8Array): boolean {
  return readZipDirectory(bytes)?.entries.some((entry) => entry.name === "word/document.xml") ?? false;
}
