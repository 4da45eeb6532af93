/**
 * What a résumé file is, read from its bytes (never its name or declared type): a PDF starts
 * with `%PDF-` (within its first KiB, as readers allow); a DOCX is a ZIP whose central directory
 * names `word/document.xml`. Any other ZIP (an ODT, an XLSX, a JAR) and anything else is not one.
 */
export type ResumeFormat = "pdf" | "docx";

export function sniffResume(bytes: Uint8Array): ResumeFormat | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (head.includes("%PDF-")) return "pdf";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04 && namesWordDocument(bytes))
    return "docx";
  return null;
}

/** Whether the ZIP's central directory lists `word/document.xml` (the end record is in its last 64 KiB). */
function namesWordDocument(bytes: Uint8Array): boolean {
  if (bytes.length < 22) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let end = bytes.length - 22; end >= Math.max(0, bytes.length - 65_557); end--) {
    if (view.getUint32(end, true) !== 0x06054b50) continue;
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    const decoder = new TextDecoder();
    for (let index = 0; index < count && at + 46 <= bytes.length; index++) {
      if (view.getUint32(at, true) !== 0x02014b50) return false;
      const nameLength = view.getUint16(at + 28, true);
      const name = decoder.decode(bytes.subarray(at + 46, Math.min(bytes.length, at + 46 + nameLength)));
      if (name === "word/document.xml") return true;
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return false;
  }
  return false;
}
