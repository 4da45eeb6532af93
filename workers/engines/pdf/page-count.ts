/**
 * How many pages a PDF the browser printed has, without a PDF reader in the engine Worker:
 * Chromium (Skia) writes each page as an uncompressed `<< /Type /Page … >>` object and no
 * object streams, so counting those dictionaries counts the pages (the `/Type /Pages` tree
 * nodes are told apart by the next character). page-count.test.ts checks it against pdf.js.
 */
export function countPdfPages(pdf: Uint8Array): number {
  // A UTF-8 decoder never swallows an ASCII byte into a replacement character (WHATWG
  // Encoding re-reads the byte after an invalid sequence), so the binary streams cannot hide
  // or fake a match of these ASCII keys.
  const text = new TextDecoder().decode(pdf);
  return text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
}
