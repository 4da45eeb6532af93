/**
 * The docs' example: a one-page résumé written here in PDF's own syntax (Helvetica, uncompressed),
 * sent as a data URL, so the example call needs no file at hand and stays a few KB.
 */
const LINES: [x: number, y: number, size: number, bold: boolean, text: string][] = [
  [56, 780, 22, true, "Jane Doe"],
  [56, 760, 12, false, "Senior Software Engineer"],
  [56, 744, 9, false, "jane.doe@example.com | +1 415 555 0132 | San Francisco, CA | github.com/janedoe"],
  [56, 712, 12, true, "EXPERIENCE"],
  [56, 696, 10, true, "Senior Software Engineer, Acme Corp"],
  [460, 696, 10, false, "Jan 2020 - Present"],
  [56, 682, 10, false, "- Led the move of billing to event sourcing for 2 million customers."],
  [56, 660, 10, true, "Software Engineer, Globex Inc."],
  [460, 660, 10, false, "06/2016 - 12/2019"],
  [56, 646, 10, false, "- Built the public API and its SDKs in TypeScript and Go."],
  [56, 614, 12, true, "EDUCATION"],
  [56, 598, 10, true, "University of California, Berkeley"],
  [460, 598, 10, false, "2012 - 2016"],
  [56, 584, 10, false, "B.Sc. in Computer Science"],
  [56, 552, 12, true, "SKILLS"],
  [56, 536, 10, false, "Languages: TypeScript, Go, SQL"],
  [56, 522, 10, false, "Cloud: Cloudflare Workers, AWS, Docker"],
];

function examplePdf(): string {
  const escape = (text: string) => text.replace(/[\\()]/g, "\\$&");
  const stream = LINES.map(
    ([x, y, size, bold, text]) => `BT /${bold ? "F2" : "F1"} ${size} Tf 1 0 0 1 ${x} ${y} Tm (${escape(text)}) Tj ET`,
  ).join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets = objects.map((body, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return `data:application/pdf;base64,${btoa(pdf)}`;
}

export const EXAMPLE_RESUME_PDF = examplePdf();
