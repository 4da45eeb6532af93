/**
 * The résumé engine through the real engine Worker (env.ENGINES, over RPC), on résumés built in
 * the test with known content: each expected field is checked, and the field-level accuracy over
 * the set is printed (the figure the note reports). Hostile files are refused as 4xx
 * values, quickly.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ParsedResume, ResumeOutcome } from "~workers/hosted/capabilities";
import {
  buildPdf,
  buildZipBombDocx,
  checkFields,
  encryptedPdf,
  HELD_OUT_FIXTURES,
  hugePageTreePdf,
  RESUME_FIXTURES,
  SINGLE_COLUMN_PDF,
  SPANISH_PDF,
  tinyPdf,
  buildDocx,
  handWrittenPdf,
  paragraph,
  type FieldCheck,
  type ResumeFixture,
} from "../../../tests/resume-fixtures";

const parse = (document: Uint8Array, format: "pdf" | "docx", timeoutMs = 20_000): Promise<ResumeOutcome> =>
  env.ENGINES.parseResume({ document, format, timeoutMs });

async function parsed(document: Uint8Array, format: "pdf" | "docx"): Promise<ParsedResume> {
  const outcome = await parse(document, format);
  if (!outcome.ok) throw new Error(`${outcome.problem}: ${outcome.detail}`);
  return outcome.resume;
}

type Scored = { label: string; checks: FieldCheck[] };

async function score(fixtures: readonly ResumeFixture[]): Promise<Scored[]> {
  const scored: Scored[] = [];
  for (const fixture of fixtures) {
    const resume = await parsed(await fixture.build(), fixture.format);
    scored.push({ label: fixture.label, checks: checkFields(fixture.expected, resume) });
  }
  return scored;
}

describe("résumés with known content", () => {
  it.each(RESUME_FIXTURES)("$label: every expected field is read", async (fixture) => {
    const resume = await parsed(await fixture.build(), fixture.format);
    const checks = checkFields(fixture.expected, resume);
    const wrong = checks.filter((check) => !check.ok);
    if (wrong.length) console.log(fixture.label, JSON.stringify(resume, null, 1).slice(0, 6000));
    expect(wrong).toEqual([]);
    expect(resume.meta.format).toBe(fixture.format);
  });

  it("reports the field-level accuracy over the set", async () => {
    const tuned = await score(RESUME_FIXTURES);
    const { correct, total } = report("the tuned set", tuned);
    expect(total).toBeGreaterThan(150);
    expect(correct / total).toBeGreaterThanOrEqual(0.95);
  });

  it("scores reading too much as misses: a skill the document does not list, a job split in two", async () => {
    const fixture = RESUME_FIXTURES[0]!;
    const resume = await parsed(await fixture.build(), fixture.format);
    const padded: ParsedResume = {
      ...resume,
      skills: [...resume.skills, { name: "Led the migration of the billing platform", keywords: [] }],
      work: [...resume.work, resume.work[0]!],
    };
    const misses = checkFields(fixture.expected, padded).filter((check) => !check.ok);
    expect(misses.map((miss) => miss.field)).toEqual([
      "skills: unexpected Led the migration of the billing platform",
      "work: entries",
    ]);
  });

  // Written after the parser and not tuned for: the misses are printed, not each asserted.
  it("reports the field-level accuracy on held-out résumés", async () => {
    const heldOut = await score(HELD_OUT_FIXTURES);
    for (const entry of heldOut) {
      for (const miss of entry.checks.filter((check) => !check.ok)) {
        console.log(
          `  miss in ${entry.label}: ${miss.field} expected ${JSON.stringify(miss.expected)}, got ${JSON.stringify(miss.actual)}`,
        );
      }
    }
    const { correct, total } = report("held-out résumés", heldOut);
    report("all résumés", [...(await score(RESUME_FIXTURES)), ...heldOut]);
    expect(correct / total).toBeGreaterThanOrEqual(0.8);
  });
});

function report(label: string, entries: readonly Scored[]): { correct: number; total: number } {
  const total = entries.reduce((sum, entry) => sum + entry.checks.length, 0);
  const correct = entries.reduce((sum, entry) => sum + entry.checks.filter((check) => check.ok).length, 0);
  for (const entry of entries)
    console.log(`${entry.label}: ${entry.checks.filter((c) => c.ok).length}/${entry.checks.length}`);
  console.log(`résumé field-level accuracy, ${label}: ${correct}/${total} = ${((100 * correct) / total).toFixed(1)}%`);
  return { correct, total };
}

describe("layout", () => {
  it("finds the gutter beside a right-hand sidebar, not the gap between job titles and their right-aligned dates", async () => {
    // Found by the first held-out résumé: a band inside the main column (between a title and its
    // dates) was taken for the gutter, and the page was read as interleaved rows.
    const resume = await parsed(await SPANISH_PDF.build(), "pdf");
    expect(resume.meta.columns).toBe(2);
    expect(resume.text).toContain("Glovo — Desarrolladora Full Stack feb. 2021 – actualidad\n• Desarrollo");
    expect(resume.text).toContain("2014 – 2018\nCONTACTO\nlucia.fernandez@correo.es");
  });

  it("reads a two-column PDF column by column, not line by line across both", async () => {
    const resume = await parsed(await RESUME_FIXTURES[1]!.build(), "pdf");
    expect(resume.meta.columns).toBe(2);
    const text = resume.text;
    // The sidebar's skills stay together, and the main column's sentence is not cut by them.
    expect(text).toMatch(/• Python\n• PyTorch\n• SQL/);
    expect(text.indexOf("Tableau")).toBeLessThan(text.indexOf("WORK EXPERIENCE"));
  });

  it("reads a single-column PDF with right-aligned dates as one column, over two pages", async () => {
    const resume = await parsed(await SINGLE_COLUMN_PDF.build(), "pdf");
    expect(resume.meta).toEqual({ format: "pdf", pages: 2, columns: 1 });
    expect(resume.work[0]?.highlights).toEqual([
      "Led the migration of the billing platform to event sourcing, serving 2 million customers.",
      "Cut p99 latency of the payments API from 800 ms to 120 ms by redesigning the ledger queries and caches.",
      "Mentored six engineers.",
    ]);
    expect(resume.education[0]?.score).toBe("3.8/4.0");
    expect(resume.certificates).toEqual([
      { name: "AWS Certified Solutions Architect", issuer: "Amazon Web Services", date: "2021" },
    ]);
  });
});

describe("bad documents", () => {
  it("refuses a PDF cut short as unreadable (truncated)", async () => {
    const whole = await SINGLE_COLUMN_PDF.build();
    const outcome = await parse(whole.slice(0, Math.floor(whole.length / 2)), "pdf");
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "truncated" } });
  });

  it("refuses a PDF whose structure is garbage as unreadable (malformed)", async () => {
    const bytes = new TextEncoder().encode("%PDF-1.7\nthis is not a PDF body at all\n%%EOF\n");
    const outcome = await parse(bytes, "pdf");
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "malformed" } });
  });

  it("refuses a password-protected PDF as unreadable (encrypted)", async () => {
    const outcome = await parse(encryptedPdf(), "pdf");
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "encrypted" } });
  });

  it("refuses a page tree claiming a hundred million pages before reading it (too-large)", async () => {
    const started = Date.now();
    const outcome = await parse(hugePageTreePdf(), "pdf");
    console.log(`a hundred million pages refused in ${Date.now() - started} ms`);
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } });
    if (!outcome.ok) expect(outcome.detail).toMatch(/100000000 pages/);
  });

  it("refuses a PDF of more than 20 real pages (too-large)", async () => {
    const pages = Array.from({ length: 21 }, (_, index) => ({
      text: `Page ${index + 1}`,
      pageBreak: index ? "before" : undefined,
    }));
    const outcome = await parse(await buildPdf({ content: pages }), "pdf");
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } });
  });

  it("refuses a zip bomb DOCX (100 MB of document.xml) without inflating it", async () => {
    const bomb = await buildZipBombDocx(100);
    expect(bomb.length).toBeLessThan(1_000_000);
    const started = Date.now();
    const outcome = await parse(bomb, "docx");
    console.log(`a 100 MB zip bomb refused in ${Date.now() - started} ms`);
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } });
  });

  it("refuses a DOCX cut short, or whose document.xml does not inflate (malformed)", async () => {
    const docx = await RESUME_FIXTURES[3]!.build();
    expect(await parse(docx.slice(0, docx.length - 60), "docx")).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      extensions: { reason: "malformed" },
    });
    const damaged = docx.slice();
    const name = new TextDecoder("latin1").decode(damaged).indexOf("word/document.xml");
    damaged.fill(0xff, name + 17, name + 80);
    expect(await parse(damaged, "docx")).toMatchObject({
      ok: false,
      problem: "unreadable-document",
      extensions: { reason: "malformed" },
    });
  });

  it("answers a PDF without text (a scan) as unreadable, pointing at OCR", async () => {
    const outcome = await parse(
      await buildPdf({ content: [{ canvas: [{ type: "rect", x: 0, y: 0, w: 100, h: 100 }] }] }),
      "pdf",
    );
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document" });
    if (!outcome.ok) expect(outcome.detail).toMatch(/image-to-text/);
  });

  it("gives up at its deadline with engine-failed instead of running on", async () => {
    const outcome = await parse(await SINGLE_COLUMN_PDF.build(), "pdf", 1);
    expect(outcome).toMatchObject({ ok: false, problem: "engine-failed" });
  });

  it("refuses a DOCX of 200 000 paragraphs as too large, not by overflowing the stack", async () => {
    const outcome = await parse(buildDocx(paragraph("x").repeat(200_000)), "docx");
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } });
    if (!outcome.ok) expect(outcome.detail).toMatch(/20000 lines/);
  });

  it("refuses a PDF page of more than 5 000 text pieces as too large", async () => {
    const pieces = Array.from({ length: 6_000 }, (_, n) => `1 0 0 1 ${10 + (n % 60) * 9} ${800 - Math.floor(n / 60) * 7} Tm (w) Tj`);
    const outcome = await parse(pdfPage(`BT /F1 5 Tf ${pieces.join(" ")} ET`), "pdf");
    expect(outcome).toMatchObject({ ok: false, problem: "unreadable-document", extensions: { reason: "too-large" } });
  });

  it("reads what Word and a careless writer put in ordinary files: an out-of-range character reference, a bad %-escape", async () => {
    const docx = buildDocx(
      paragraph("Jane Doe") +
        "<w:p><w:r><w:t>Tab&#x110000;le &#99999999; ok</w:t></w:r></w:p>" +
        paragraph("jane@example.com | linkedin.com/in/jane%"),
    );
    const resume = await parsed(docx, "docx");
    expect(resume.basics.name).toBe("Jane Doe");
    expect(resume.text).toContain("Tab\ufffdle \ufffd ok");
    expect(resume.basics.profiles).toEqual([
      { network: "LinkedIn", url: "https://linkedin.com/in/jane%", username: "jane%" },
    ]);
  });

  it("reads a résumé with a 200 000-character line, cutting the line", async () => {
    const docx = buildDocx(
      paragraph("Jane Doe") + paragraph("jane@example.com") + paragraph("lorem ipsum ".repeat(16_000)) + paragraph("- ".repeat(100_000)),
    );
    const resume = await parsed(docx, "docx");
    expect(resume.basics).toMatchObject({ name: "Jane Doe", email: "jane@example.com" });
    for (const line of resume.text.split("\n")) expect(line.length).toBeLessThanOrEqual(2_000);
  });

  it("reads a DOCX whose XML ends in two million unterminated comments", async () => {
    const docx = buildDocx(paragraph("Jane Doe") + paragraph("jane@example.com") + "<!--".repeat(2_000_000));
    expect((await parsed(docx, "docx")).basics).toMatchObject({ name: "Jane Doe", email: "jane@example.com" });
  });

  it("reads a PDF whose MediaBox is a billion points wide by its text's own extent", async () => {
    // The gutter search once stepped across the MediaBox's width, 2 pt at a time: a billion
    // points wide was minutes of work, and a wide box hid the columns.
    for (const width of ["595", "1000000", "1000000000"]) {
      const resume = await parsed(twoColumnPage(width), "pdf");
      expect(resume.meta.columns, `MediaBox width ${width}`).toBe(2);
      expect(resume.text).toMatch(/Skill 1\nSkill 2\n/);
    }
  });

  it("answers a DOCX's page count as null: Word's pages exist only once laid out", async () => {
    const resume = await parsed(await RESUME_FIXTURES[3]!.build(), "docx");
    expect(resume.meta.pages).toBeNull();
  });

  it("reads a minimal hand-written PDF", async () => {
    const resume = await parsed(tinyPdf("Jane Doe"), "pdf");
    expect(resume.basics.name).toBe("Jane Doe");
  });
});

/** One page of the given content stream, Helvetica as /F1, in a MediaBox `width` points wide. */
function pdfPage(stream: string, width = "595"): Uint8Array {
  return handWrittenPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
    `<< /Length ${stream.length + 1} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ]);
}

/** Two columns of twenty lines: skills at x 40, experience at x 300. */
function twoColumnPage(width: string): Uint8Array {
  const rows = Array.from({ length: 20 }, (_, n) => {
    const y = 780 - n * 30;
    return `1 0 0 1 40 ${y} Tm (Skill ${n + 1}) Tj 1 0 0 1 300 ${y} Tm (Experience line ${n + 1} of the main column) Tj`;
  });
  return pdfPage(`BT /F1 10 Tf ${rows.join(" ")} ET`, width);
}

describe("speed", () => {
  it("parses a two-page PDF résumé warm (p50 printed for the bench)", async () => {
    const pdf = await SINGLE_COLUMN_PDF.build();
    await parsed(pdf, "pdf");
    const times: number[] = [];
    for (let run = 0; run < 7; run++) {
      const started = performance.now();
      await parsed(pdf, "pdf");
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `two-page PDF résumé, warm: p50 ${times[3]!.toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(", ")})`,
    );
    // Printed, not asserted: CI's two loaded cores make any bound on time a flake.
    expect(times).toHaveLength(7);
  });
});
