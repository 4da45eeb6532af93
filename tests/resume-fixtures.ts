/**
 * Résumés built in the test, with known content: PDFs laid out by pdfmake (Helvetica, one or two
 * columns), DOCX files zipped from hand-written WordprocessingML, and the hostile files (an
 * encrypted PDF, a huge page tree, a zip bomb). The parser under test never uses this module;
 * pdfmake is the independent writer, as a résumé's author's tool would be.
 */
import { strToU8, Zip, ZipDeflate, zipSync } from "fflate";
import type { ParsedResume } from "~workers/hosted/capabilities";
// pdfmake ships no type declarations; the little of it used here is typed below.
// @ts-ignore -- untyped CommonJS build
import pdfMakeModule from "pdfmake/build/pdfmake.js";
// @ts-ignore -- untyped CommonJS build
import helveticaModule from "pdfmake/build/standard-fonts/Helvetica.js";

interface PdfMake {
  addFontContainer(container: unknown): void;
  setUrlAccessPolicy(callback: (url: string) => boolean): void;
  createPdf(definition: Record<string, unknown>): { getBuffer(): Promise<Uint8Array> };
}

const pdfMake = pdfMakeModule as PdfMake;
pdfMake.addFontContainer(helveticaModule);
pdfMake.setUrlAccessPolicy(() => false);

/** A pdfmake document definition laid out in Helvetica on A4. */
export async function buildPdf(definition: Record<string, unknown>): Promise<Uint8Array> {
  const buffer = await pdfMake
    .createPdf({ pageSize: "A4", defaultStyle: { font: "Helvetica", fontSize: 10 }, ...definition })
    .getBuffer();
  return new Uint8Array(buffer);
}

// ---- DOCX ----

const escapeXml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** A run of text, bold or at a size in points where given. */
export function run(text: string, options: { bold?: boolean; size?: number } = {}): string {
  const props = [options.bold ? "<w:b/>" : "", options.size ? `<w:sz w:val="${options.size * 2}"/>` : ""].join("");
  return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ""}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}

/** A tab, as Word writes one between a title and its right-aligned dates. */
export const TAB = "<w:r><w:tab/></w:r>";

/** A paragraph of runs (or of one plain run), with a paragraph style id where given. */
export function paragraph(content: string | string[], style?: string): string {
  const runs = typeof content === "string" ? run(content) : content.join("");
  return `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}${runs}</w:p>`;
}

/** A table; each cell holds paragraphs. */
export function table(rows: string[][][]): string {
  const cells = (row: string[][]) => row.map((cell) => `<w:tc><w:tcPr/>${cell.join("")}</w:tc>`).join("");
  return `<w:tbl><w:tblPr/>${rows.map((row) => `<w:tr>${cells(row)}</w:tr>`).join("")}</w:tbl>`;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`;

const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/**
 * Word's own style ids are localised ("berschrift1" in a German Word): the parser must read the
 * style's name ("heading 1") from styles.xml, so the fixtures use opaque ids.
 */
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:sz w:val="20"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="S1"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="48"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="S2"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="28"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="S3"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="22"/></w:rPr></w:style>
</w:styles>`;

export const DOCX_STYLE = { title: "S1", heading1: "S2", heading2: "S3" } as const;

/** A .docx whose body is the given block XML (paragraphs and tables). */
export function buildDocx(body: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr/></w:body></w:document>`;
  return zipSync({
    "[Content_Types].xml": strToU8(CONTENT_TYPES),
    "_rels/.rels": strToU8(RELS),
    "word/document.xml": strToU8(document),
    "word/styles.xml": strToU8(STYLES),
    ...extra,
  });
}

/**
 * A zip bomb: a word/document.xml that inflates to `megabytes` MB of one repeated paragraph,
 * deflated chunk by chunk so the test never holds the whole of it (about 100 KB zipped).
 */
export function buildZipBombDocx(megabytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((error, chunk, final) => {
      if (error) return reject(error);
      chunks.push(chunk);
      if (final) {
        const out = new Uint8Array(chunks.reduce((sum, part) => sum + part.length, 0));
        let offset = 0;
        for (const part of chunks) {
          out.set(part, offset);
          offset += part.length;
        }
        resolve(out);
      }
    });
    for (const [name, text] of [
      ["[Content_Types].xml", CONTENT_TYPES],
      ["_rels/.rels", RELS],
    ] as const) {
      const entry = new ZipDeflate(name);
      zip.add(entry);
      entry.push(strToU8(text), true);
    }
    const document = new ZipDeflate("word/document.xml", { level: 9 });
    zip.add(document);
    document.push(
      strToU8(
        `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`,
      ),
    );
    const block = strToU8(
      "<w:p><w:r><w:t>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA</w:t></w:r></w:p>".repeat(16_384),
    );
    const total = megabytes * 1024 * 1024;
    for (let written = 0; written < total; written += block.length) document.push(block);
    document.push(strToU8("</w:body></w:document>"), true);
    zip.end();
  });
}

// ---- Hostile PDFs, written by hand ----

/** A PDF from its objects' bodies (object n is `objects[n - 1]`), with a correct xref table. */
export function handWrittenPdf(objects: string[], trailerExtra = ""): Uint8Array {
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array([...out].map((char) => char.charCodeAt(0)));
}

const ONE_PAGE_TEXT = (text: string, pageCount = 1) => [
  "<< /Type /Catalog /Pages 2 0 R >>",
  `<< /Type /Pages /Kids [3 0 R] /Count ${pageCount} >>`,
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
  `<< /Length ${text.length + 40} >>\nstream\nBT /F1 12 Tf 72 770 Td (${text}) Tj ET\nendstream`,
  "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
];

/** A one-page PDF saying `text` in Helvetica 12. */
export const tinyPdf = (text: string) => handWrittenPdf(ONE_PAGE_TEXT(text));

/** A PDF whose page tree claims a hundred million pages. */
export const hugePageTreePdf = () => handWrittenPdf(ONE_PAGE_TEXT("Jane Doe", 100_000_000));

/**
 * A PDF encrypted with the standard security handler (RC4, 40 bits) under a user password we
 * do not know: /U is not what the empty password computes, so a reader must ask for one.
 */
export const encryptedPdf = () =>
  handWrittenPdf(
    [
      ...ONE_PAGE_TEXT("Secret"),
      `<< /Filter /Standard /V 1 /R 2 /O <${"6a".repeat(32)}> /U <${"3c".repeat(32)}> /P -4 >>`,
    ],
    `/Encrypt 6 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] `,
  );

// ---- Expected content and field-level accuracy ----

/** What a fixture says, field by field; only the fields given are scored. */
export interface ExpectedResume {
  basics: Partial<{
    name: string;
    label: string;
    email: string;
    phone: string;
    url: string;
    city: string;
    profiles: { network: string; username: string }[];
  }>;
  work: { name: string; position: string; startDate: string | null; endDate: string | null; location?: string }[];
  education: {
    institution: string;
    studyType?: string;
    area?: string;
    startDate?: string | null;
    endDate?: string | null;
  }[];
  /** Every skill name or keyword the document lists. */
  skills: string[];
  languages: { language: string; fluency?: string }[];
  certificates?: string[];
}

export interface FieldCheck {
  field: string;
  expected: unknown;
  actual: unknown;
  ok: boolean;
}

const norm = (value: unknown) =>
  typeof value === "string" ? value.normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase() : value;
const digits = (value: unknown) => (typeof value === "string" ? value.replace(/\D/g, "") : value);

/** Every expected field checked against the parse: the basis of the accuracy figure. */
export function checkFields(expected: ExpectedResume, actual: ParsedResume): FieldCheck[] {
  const checks: FieldCheck[] = [];
  const check = (field: string, want: unknown, got: unknown, same = (a: unknown, b: unknown) => norm(a) === norm(b)) =>
    checks.push({ field, expected: want, actual: got, ok: same(want, got) });
  const b = expected.basics;
  if (b.name !== undefined) check("basics.name", b.name, actual.basics.name);
  if (b.label !== undefined) check("basics.label", b.label, actual.basics.label);
  if (b.email !== undefined) check("basics.email", b.email, actual.basics.email);
  if (b.phone !== undefined) check("basics.phone", b.phone, actual.basics.phone, (x, y) => digits(x) === digits(y));
  if (b.url !== undefined) check("basics.url", b.url, actual.basics.url);
  if (b.city !== undefined) check("basics.location.city", b.city, actual.basics.location?.city ?? null);
  for (const profile of b.profiles ?? []) {
    const found = actual.basics.profiles.find((p) => norm(p.network) === norm(profile.network));
    check(`basics.profiles.${profile.network}`, profile.username, found?.username ?? null);
  }
  expected.work.forEach((job, index) => {
    const got = actual.work[index];
    check(`work[${index}].name`, job.name, got?.name ?? null);
    check(`work[${index}].position`, job.position, got?.position ?? null);
    check(`work[${index}].startDate`, job.startDate, got?.startDate);
    check(`work[${index}].endDate`, job.endDate, got?.endDate);
    if (job.location !== undefined) check(`work[${index}].location`, job.location, got?.location ?? null);
  });
  expected.education.forEach((school, index) => {
    const got = actual.education[index];
    check(`education[${index}].institution`, school.institution, got?.institution ?? null);
    if (school.studyType !== undefined)
      check(`education[${index}].studyType`, school.studyType, got?.studyType ?? null);
    if (school.area !== undefined) check(`education[${index}].area`, school.area, got?.area ?? null);
    if (school.startDate !== undefined) check(`education[${index}].startDate`, school.startDate, got?.startDate);
    if (school.endDate !== undefined) check(`education[${index}].endDate`, school.endDate, got?.endDate);
  });
  const skillWords = new Set(actual.skills.flatMap((skill) => [skill.name, ...skill.keywords]).map((s) => norm(s)));
  for (const skill of expected.skills) check(`skills: ${skill}`, skill, skillWords.has(norm(skill)) ? skill : null);
  // Recall alone rewards reading too much: every skill read that the document does not list
  // (a sentence, a heading, a date taken for a skill) is a miss too. A group's name ("Cloud:")
  // is its label, not a skill, where it has keywords.
  const listed = new Set(expected.skills.map((skill) => norm(skill)));
  for (const skill of actual.skills) {
    for (const word of skill.keywords.length ? skill.keywords : [skill.name]) {
      if (!listed.has(norm(word))) check(`skills: unexpected ${word}`, null, word, () => false);
    }
  }
  // An entry read twice, or one job split in two, shows in the counts.
  check("work: entries", expected.work.length, actual.work.length);
  check("education: entries", expected.education.length, actual.education.length);
  check("languages: entries", expected.languages.length, actual.languages.length);
  for (const language of expected.languages) {
    const got = actual.languages.find((l) => norm(l.language) === norm(language.language));
    check(`languages: ${language.language}`, language.language, got?.language ?? null);
    if (language.fluency !== undefined)
      check(`languages: ${language.language} fluency`, language.fluency, got?.fluency ?? null);
  }
  for (const name of expected.certificates ?? []) {
    const got = actual.certificates.find((c) => norm(c.name) === norm(name));
    check(`certificates: ${name}`, name, got?.name ?? null);
  }
  return checks;
}

// ---- The résumés ----

export interface ResumeFixture {
  label: string;
  format: "pdf" | "docx";
  build(): Promise<Uint8Array> | Uint8Array;
  expected: ExpectedResume;
}

const h = (text: string) => ({ text, fontSize: 12, bold: true, margin: [0, 10, 0, 4] });
const bullet = (text: string) => ({ text: `• ${text}`, margin: [8, 1, 0, 1] });
/** A job heading as many templates set it: title and employer on the left, the dates on the right. */
const titleAndDates = (left: string, dates: string) => ({
  columns: [
    { text: left, bold: true, width: "*" },
    { text: dates, alignment: "right", width: 130 },
  ],
  margin: [0, 6, 0, 2],
});

/** One column, two pages (Education starts the second), the common US layout. */
export const SINGLE_COLUMN_PDF: ResumeFixture = {
  label: "single-column PDF, two pages",
  format: "pdf",
  build: () =>
    buildPdf({
      content: [
        { text: "Jane Doe", fontSize: 24, bold: true },
        { text: "Senior Software Engineer", fontSize: 13, margin: [0, 2, 0, 2] },
        {
          text: "jane.doe@example.com | +1 (415) 555-0132 | San Francisco, CA | janedoe.dev | linkedin.com/in/janedoe | github.com/jdoe",
          fontSize: 9,
        },
        h("SUMMARY"),
        "Backend engineer with ten years of experience building payment systems and developer platforms at scale, who enjoys mentoring and writing.",
        h("EXPERIENCE"),
        titleAndDates("Senior Software Engineer | Acme Corp", "Jan 2020 – Present"),
        bullet("Led the migration of the billing platform to event sourcing, serving 2 million customers."),
        bullet(
          "Cut p99 latency of the payments API from 800 ms to 120 ms by redesigning the ledger queries and caches.",
        ),
        bullet("Mentored six engineers."),
        titleAndDates("Software Engineer | Globex Inc.", "06/2016 – 12/2019"),
        bullet("Built the public REST API and its SDKs in TypeScript, Go and Python."),
        bullet("Introduced contract testing between forty services."),
        titleAndDates("Junior Developer | Initech LLC", "2014 – 2016"),
        bullet("Maintained the reporting tools."),
        { text: "EDUCATION", fontSize: 12, bold: true, margin: [0, 10, 0, 4], pageBreak: "before" },
        titleAndDates("University of California, Berkeley", "2010 – 2014"),
        "B.Sc. in Computer Science, GPA: 3.8/4.0",
        h("SKILLS"),
        "Languages: TypeScript, Go, Python, SQL",
        "Infrastructure: Kubernetes, Terraform, AWS, Cloudflare Workers",
        h("CERTIFICATIONS"),
        "AWS Certified Solutions Architect, Amazon Web Services, 2021",
        h("LANGUAGES"),
        "English (Native), Spanish (Professional working proficiency)",
      ],
    }),
  expected: {
    basics: {
      name: "Jane Doe",
      label: "Senior Software Engineer",
      email: "jane.doe@example.com",
      phone: "+1 (415) 555-0132",
      url: "https://janedoe.dev",
      city: "San Francisco",
      profiles: [
        { network: "LinkedIn", username: "janedoe" },
        { network: "GitHub", username: "jdoe" },
      ],
    },
    work: [
      { name: "Acme Corp", position: "Senior Software Engineer", startDate: "2020-01", endDate: null },
      { name: "Globex Inc.", position: "Software Engineer", startDate: "2016-06", endDate: "2019-12" },
      { name: "Initech LLC", position: "Junior Developer", startDate: "2014", endDate: "2016" },
    ],
    education: [
      {
        institution: "University of California, Berkeley",
        studyType: "B.Sc.",
        area: "Computer Science",
        startDate: "2010",
        endDate: "2014",
      },
    ],
    skills: ["TypeScript", "Go", "Python", "SQL", "Kubernetes", "Terraform", "AWS", "Cloudflare Workers"],
    languages: [
      { language: "English", fluency: "Native" },
      { language: "Spanish", fluency: "Professional working proficiency" },
    ],
    certificates: ["AWS Certified Solutions Architect"],
  },
};

/** A sidebar (contacts, skills, languages) beside the main column, under a full-width name. */
export const TWO_COLUMN_PDF: ResumeFixture = {
  label: "two-column PDF with a sidebar",
  format: "pdf",
  build: () =>
    buildPdf({
      content: [
        { text: "Carlos Rivera", fontSize: 26, bold: true },
        { text: "Data Scientist", fontSize: 14, margin: [0, 0, 0, 12] },
        {
          columnGap: 24,
          columns: [
            {
              width: 150,
              fontSize: 9,
              stack: [
                h("CONTACT"),
                "carlos.rivera@mail.es",
                "+34 612 345 678",
                "Madrid, Spain",
                "github.com/crivera",
                h("SKILLS"),
                "• Python",
                "• PyTorch",
                "• SQL",
                "• Apache Spark",
                "• Tableau",
                h("LANGUAGES"),
                "Spanish – Native",
                "English – C1",
              ],
            },
            {
              width: "*",
              stack: [
                h("PROFILE"),
                "Data scientist who turns messy operational data into forecasting models that teams actually use, with a background in statistics.",
                h("WORK EXPERIENCE"),
                { text: "Senior Data Scientist", bold: true, margin: [0, 4, 0, 0] },
                "Telefónica S.A. — Madrid, Spain",
                "03/2021 – Present",
                bullet("Built demand forecasting models that cut network over-provisioning by 12 percent."),
                bullet("Ran the team's experimentation platform and its weekly reviews."),
                { text: "Data Analyst", bold: true, margin: [0, 6, 0, 0] },
                "BBVA — Bilbao, Spain",
                "09/2018 – 02/2021",
                bullet("Automated the monthly risk reports with Python and SQL."),
                h("EDUCATION"),
                { text: "Universidad Complutense de Madrid", bold: true },
                "Master of Science in Statistics",
                "2016 – 2018",
              ],
            },
          ],
        },
      ],
    }),
  expected: {
    basics: {
      name: "Carlos Rivera",
      label: "Data Scientist",
      email: "carlos.rivera@mail.es",
      phone: "+34 612 345 678",
      city: "Madrid",
      profiles: [{ network: "GitHub", username: "crivera" }],
    },
    work: [
      {
        name: "Telefónica S.A.",
        position: "Senior Data Scientist",
        startDate: "2021-03",
        endDate: null,
        location: "Madrid, Spain",
      },
      { name: "BBVA", position: "Data Analyst", startDate: "2018-09", endDate: "2021-02", location: "Bilbao, Spain" },
    ],
    education: [
      {
        institution: "Universidad Complutense de Madrid",
        studyType: "Master of Science",
        area: "Statistics",
        startDate: "2016",
        endDate: "2018",
      },
    ],
    skills: ["Python", "PyTorch", "SQL", "Apache Spark", "Tableau"],
    languages: [
      { language: "Spanish", fluency: "Native" },
      { language: "English", fluency: "C1" },
    ],
  },
};

/**
 * LinkedIn's "Save to PDF" layout: a grey sidebar (Contact, Top Skills, Languages,
 * Certifications) left of the main column, which starts with the name, headline and place; each
 * job is the employer, then the title, then the dates with a duration, then the place.
 */
export const LINKEDIN_PDF: ResumeFixture = {
  label: "LinkedIn-style export",
  format: "pdf",
  build: () =>
    buildPdf({
      pageMargins: [30, 40, 30, 40],
      footer: (page: number, pages: number) => ({
        text: `Page ${page} of ${pages}`,
        alignment: "center",
        fontSize: 8,
        color: "#888888",
      }),
      content: [
        {
          columnGap: 30,
          columns: [
            {
              width: 160,
              fontSize: 9,
              stack: [
                { text: "Contact", fontSize: 13, margin: [0, 0, 0, 4] },
                "zoe.lin@example.com",
                "www.linkedin.com/in/zoe-lin (LinkedIn)",
                { text: "Top Skills", fontSize: 13, margin: [0, 12, 0, 4] },
                "Product Strategy",
                "User Research",
                "Roadmapping",
                { text: "Languages", fontSize: 13, margin: [0, 12, 0, 4] },
                "French (Native or Bilingual)",
                "English (Full Professional)",
                { text: "Certifications", fontSize: 13, margin: [0, 12, 0, 4] },
                "Professional Scrum Product Owner I",
              ],
            },
            {
              width: "*",
              stack: [
                { text: "Zoé Lin", fontSize: 26 },
                { text: "Senior Product Manager at Acme GmbH", fontSize: 12 },
                { text: "Berlin, Germany", fontSize: 10, color: "#666666", margin: [0, 0, 0, 12] },
                { text: "Summary", fontSize: 15, margin: [0, 6, 0, 4] },
                "Product manager for developer tools. I like turning vague problems into small experiments and shipping what works.",
                { text: "Experience", fontSize: 15, margin: [0, 12, 0, 4] },
                { text: "Acme GmbH", fontSize: 12 },
                { text: "Senior Product Manager", fontSize: 11 },
                { text: "March 2021 - Present (3 years 9 months)", color: "#666666" },
                { text: "Berlin, Germany", color: "#666666" },
                "Own the API platform roadmap. Grew paid adoption of the developer portal by 40 percent in a year.",
                { text: "Société Générale", fontSize: 12, margin: [0, 10, 0, 0] },
                { text: "Product Owner", fontSize: 11 },
                { text: "September 2017 - February 2021 (3 years 6 months)", color: "#666666" },
                { text: "Paris, France", color: "#666666" },
                "Led the mobile banking onboarding squad of nine people through four releases a year.",
                { text: "Education", fontSize: 15, margin: [0, 12, 0, 4] },
                { text: "HEC Paris", fontSize: 12 },
                "Master of Science - MS, Management · (2015 - 2017)",
                { text: "Université Paris-Saclay", fontSize: 12, margin: [0, 6, 0, 0] },
                "Licence, Informatique · (2012 - 2015)",
              ],
            },
          ],
        },
      ],
    }),
  expected: {
    basics: {
      name: "Zoé Lin",
      label: "Senior Product Manager at Acme GmbH",
      email: "zoe.lin@example.com",
      city: "Berlin",
      profiles: [{ network: "LinkedIn", username: "zoe-lin" }],
    },
    work: [
      {
        name: "Acme GmbH",
        position: "Senior Product Manager",
        startDate: "2021-03",
        endDate: null,
        location: "Berlin, Germany",
      },
      {
        name: "Société Générale",
        position: "Product Owner",
        startDate: "2017-09",
        endDate: "2021-02",
        location: "Paris, France",
      },
    ],
    education: [
      {
        institution: "HEC Paris",
        studyType: "Master of Science",
        area: "Management",
        startDate: "2015",
        endDate: "2017",
      },
      {
        institution: "Université Paris-Saclay",
        studyType: "Licence",
        area: "Informatique",
        startDate: "2012",
        endDate: "2015",
      },
    ],
    skills: ["Product Strategy", "User Research", "Roadmapping"],
    languages: [
      { language: "French", fluency: "Native or Bilingual" },
      { language: "English", fluency: "Full Professional" },
    ],
    certificates: ["Professional Scrum Product Owner I"],
  },
};

const numbered = (text: string) =>
  `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${run(text)}</w:p>`;

/** Word's two-column template: name and headline above a one-row table, sidebar cell and main cell. */
export const TABLE_DOCX: ResumeFixture = {
  label: "DOCX laid out in a table",
  format: "docx",
  build: () =>
    buildDocx(
      [
        paragraph("Priya Natarajan", DOCX_STYLE.title),
        paragraph("UX Designer"),
        table([
          [
            [
              paragraph("Contact", DOCX_STYLE.heading1),
              paragraph("priya.n@example.org"),
              paragraph("Phone: +44 20 7946 0958"),
              paragraph("London, United Kingdom"),
              paragraph("https://priya.design"),
              paragraph("Skills", DOCX_STYLE.heading1),
              numbered("Figma"),
              numbered("Prototyping"),
              numbered("Usability testing"),
              paragraph("Languages", DOCX_STYLE.heading1),
              paragraph("English: Native"),
              paragraph("Tamil: Fluent"),
            ],
            [
              paragraph("Profile", DOCX_STYLE.heading1),
              paragraph("Designer who tests early and often, with eight years in fintech and public services."),
              paragraph("Experience", DOCX_STYLE.heading1),
              paragraph([run("Lead UX Designer", { bold: true }), TAB, run("Apr 2021 – Present")]),
              paragraph("Monzo Bank Ltd, London"),
              numbered("Redesigned the savings flows, raising completion by 18 percent."),
              paragraph([run("UX Designer", { bold: true }), TAB, run("Sep 2016 – Mar 2021")]),
              paragraph("Government Digital Service, London"),
              numbered("Designed and tested the patterns used by forty services."),
              paragraph("Education", DOCX_STYLE.heading1),
              paragraph([run("University College London", { bold: true })]),
              paragraph("MA in Interaction Design, 2014 – 2016"),
            ],
          ],
        ]),
      ].join(""),
    ),
  expected: {
    basics: {
      name: "Priya Natarajan",
      label: "UX Designer",
      email: "priya.n@example.org",
      phone: "+44 20 7946 0958",
      url: "https://priya.design",
      city: "London",
    },
    work: [
      { name: "Monzo Bank Ltd", position: "Lead UX Designer", startDate: "2021-04", endDate: null, location: "London" },
      {
        name: "Government Digital Service",
        position: "UX Designer",
        startDate: "2016-09",
        endDate: "2021-03",
        location: "London",
      },
    ],
    education: [
      {
        institution: "University College London",
        studyType: "MA",
        area: "Interaction Design",
        startDate: "2014",
        endDate: "2016",
      },
    ],
    skills: ["Figma", "Prototyping", "Usability testing"],
    languages: [
      { language: "English", fluency: "Native" },
      { language: "Tamil", fluency: "Fluent" },
    ],
  },
};

/** A German Lebenslauf: headings in German, accents, and the tabular form (dates beside each entry). */
export const GERMAN_DOCX: ResumeFixture = {
  label: "German DOCX (Lebenslauf) with accents",
  format: "docx",
  build: () =>
    buildDocx(
      [
        paragraph([run("Zoë Müller", { bold: true, size: 22 })]),
        paragraph("Softwareentwicklerin"),
        paragraph("zoe.mueller@beispiel.de · +49 30 1234567 · Berlin, Deutschland · xing.com/profile/Zoe_Mueller"),
        paragraph("Berufserfahrung", DOCX_STYLE.heading1),
        table([
          [
            [paragraph("März 2020 – heute")],
            [
              paragraph([run("Senior Softwareentwicklerin", { bold: true })]),
              paragraph("Société Générale, Frankfurt am Main"),
              numbered("Entwicklung der Zahlungsplattform in Kotlin"),
            ],
          ],
          [
            [paragraph("01/2016 – 02/2020")],
            [
              paragraph([run("Softwareentwicklerin", { bold: true })]),
              paragraph("Bosch GmbH, Stuttgart"),
              numbered("Wartung der Diagnosesoftware für Steuergeräte"),
            ],
          ],
        ]),
        paragraph("Ausbildung", DOCX_STYLE.heading1),
        table([
          [
            [paragraph("10/2010 – 09/2015")],
            [
              paragraph([run("Technische Universität München", { bold: true })]),
              paragraph("Diplom-Informatikerin, Abschlussnote 1,7"),
            ],
          ],
        ]),
        paragraph("Kenntnisse", DOCX_STYLE.heading1),
        paragraph("Programmiersprachen: Kotlin, Java, C++"),
        paragraph("Werkzeuge: Git, Jenkins, Docker"),
        paragraph("Sprachen", DOCX_STYLE.heading1),
        paragraph("Deutsch (Muttersprache), Französisch (C1), Englisch (C1)"),
      ].join(""),
    ),
  expected: {
    basics: {
      name: "Zoë Müller",
      label: "Softwareentwicklerin",
      email: "zoe.mueller@beispiel.de",
      phone: "+49 30 1234567",
      city: "Berlin",
      profiles: [{ network: "XING", username: "Zoe_Mueller" }],
    },
    work: [
      {
        name: "Société Générale",
        position: "Senior Softwareentwicklerin",
        startDate: "2020-03",
        endDate: null,
        location: "Frankfurt am Main",
      },
      {
        name: "Bosch GmbH",
        position: "Softwareentwicklerin",
        startDate: "2016-01",
        endDate: "2020-02",
        location: "Stuttgart",
      },
    ],
    education: [
      {
        institution: "Technische Universität München",
        studyType: "Diplom-Informatikerin",
        startDate: "2010-10",
        endDate: "2015-09",
      },
    ],
    skills: ["Kotlin", "Java", "C++", "Git", "Jenkins", "Docker"],
    languages: [
      { language: "Deutsch", fluency: "Muttersprache" },
      { language: "Französisch", fluency: "C1" },
      { language: "Englisch", fluency: "C1" },
    ],
  },
};

/** A French CV as a PDF: French headings, French month abbreviations and "actuel". */
export const FRENCH_PDF: ResumeFixture = {
  label: "French PDF",
  format: "pdf",
  build: () =>
    buildPdf({
      content: [
        { text: "Hélène Dubois", fontSize: 22, bold: true },
        { text: "Ingénieure DevOps", fontSize: 13 },
        { text: "helene.dubois@exemple.fr | +33 6 12 34 56 78 | Lyon, France", fontSize: 9 },
        h("Expérience professionnelle"),
        titleAndDates("Ingénieure DevOps — Société Générale", "janv. 2020 – actuel"),
        bullet("Migration de 120 services vers Kubernetes."),
        titleAndDates("Administratrice systèmes — Orange SA", "sept. 2015 – déc. 2019"),
        bullet("Automatisation des déploiements avec Ansible."),
        h("Formation"),
        titleAndDates("École Centrale de Lyon", "2012 – 2015"),
        "Diplôme d'ingénieur, informatique",
        h("Compétences"),
        "Kubernetes, Ansible, Terraform, Linux",
        h("Langues"),
        "Français (langue maternelle), Anglais (courant)",
      ],
    }),
  expected: {
    basics: {
      name: "Hélène Dubois",
      label: "Ingénieure DevOps",
      email: "helene.dubois@exemple.fr",
      phone: "+33 6 12 34 56 78",
      city: "Lyon",
    },
    work: [
      { name: "Société Générale", position: "Ingénieure DevOps", startDate: "2020-01", endDate: null },
      { name: "Orange SA", position: "Administratrice systèmes", startDate: "2015-09", endDate: "2019-12" },
    ],
    education: [
      {
        institution: "École Centrale de Lyon",
        studyType: "Diplôme d'ingénieur",
        area: "informatique",
        startDate: "2012",
        endDate: "2015",
      },
    ],
    skills: ["Kubernetes", "Ansible", "Terraform", "Linux"],
    languages: [
      { language: "Français", fluency: "langue maternelle" },
      { language: "Anglais", fluency: "courant" },
    ],
  },
};

export const RESUME_FIXTURES: ResumeFixture[] = [
  SINGLE_COLUMN_PDF,
  TWO_COLUMN_PDF,
  LINKEDIN_PDF,
  TABLE_DOCX,
  GERMAN_DOCX,
  FRENCH_PDF,
];

// ---- Held out: written after the parser, scored but not tuned for ----

/** A Spanish two-column CV, sidebar on the right, employer before title on one line. */
export const SPANISH_PDF: ResumeFixture = {
  label: "Spanish PDF, sidebar on the right (held out)",
  format: "pdf",
  build: () =>
    buildPdf({
      content: [
        { text: "Lucía Fernández García", fontSize: 24, bold: true },
        { text: "Desarrolladora Full Stack", fontSize: 13, margin: [0, 0, 0, 10] },
        {
          columnGap: 20,
          columns: [
            {
              width: "*",
              stack: [
                h("EXPERIENCIA PROFESIONAL"),
                titleAndDates("Glovo — Desarrolladora Full Stack", "feb. 2021 – actualidad"),
                bullet("Desarrollo del panel de repartidores con React y Node.js."),
                bullet("Reducción del tiempo de carga en un 35 %."),
                titleAndDates("Indra Sistemas S.A. — Programadora", "sept. 2018 – ene. 2021"),
                bullet("Mantenimiento de aplicaciones para la administración pública."),
                h("FORMACIÓN"),
                { text: "Universidad Politécnica de Valencia", bold: true },
                "Grado en Ingeniería Informática",
                "2014 – 2018",
              ],
            },
            {
              width: 150,
              fontSize: 9,
              stack: [
                h("CONTACTO"),
                "lucia.fernandez@correo.es",
                "Tel.: +34 699 123 456",
                "Valencia, España",
                "linkedin.com/in/luciafg",
                h("HABILIDADES"),
                "JavaScript, TypeScript, React, Node.js, PostgreSQL",
                h("IDIOMAS"),
                "Español: nativo",
                "Inglés: B2",
                "Valenciano: C1",
              ],
            },
          ],
        },
      ],
    }),
  expected: {
    basics: {
      name: "Lucía Fernández García",
      label: "Desarrolladora Full Stack",
      email: "lucia.fernandez@correo.es",
      phone: "+34 699 123 456",
      city: "Valencia",
      profiles: [{ network: "LinkedIn", username: "luciafg" }],
    },
    work: [
      { name: "Glovo", position: "Desarrolladora Full Stack", startDate: "2021-02", endDate: null },
      { name: "Indra Sistemas S.A.", position: "Programadora", startDate: "2018-09", endDate: "2021-01" },
    ],
    education: [
      {
        institution: "Universidad Politécnica de Valencia",
        studyType: "Grado",
        area: "Ingeniería Informática",
        startDate: "2014",
        endDate: "2018",
      },
    ],
    skills: ["JavaScript", "TypeScript", "React", "Node.js", "PostgreSQL"],
    languages: [
      { language: "Español", fluency: "nativo" },
      { language: "Inglés", fluency: "B2" },
      { language: "Valenciano", fluency: "C1" },
    ],
  },
};

/** A plain English DOCX: "Work History", "Company — Title" lines, dates on their own line, no styles. */
export const PLAIN_DOCX: ResumeFixture = {
  label: "plain English DOCX without styles (held out)",
  format: "docx",
  build: () =>
    buildDocx(
      [
        paragraph([run("MICHAEL O'BRIEN", { bold: true, size: 18 })]),
        paragraph("Registered Nurse"),
        paragraph("Dublin, Ireland | m.obrien@example.ie | +353 87 123 4567"),
        paragraph([run("PROFESSIONAL SUMMARY", { bold: true })]),
        paragraph(
          "Registered nurse with nine years of acute and emergency care, calm under pressure and trusted to train new staff.",
        ),
        paragraph([run("WORK HISTORY", { bold: true })]),
        paragraph([run("St. James's Hospital — Senior Staff Nurse", { bold: true })]),
        paragraph("May 2019 – Present"),
        paragraph("• Coordinate a 14-bed emergency unit on night shifts."),
        paragraph("• Train and assess newly qualified nurses."),
        paragraph([run("Beaumont Hospital — Staff Nurse", { bold: true })]),
        paragraph("Sep 2015 – Apr 2019"),
        paragraph("• Cared for cardiology patients before and after surgery."),
        paragraph([run("EDUCATION", { bold: true })]),
        paragraph([run("Trinity College Dublin", { bold: true })]),
        paragraph("Bachelor of Science in Nursing, 2011 – 2015"),
        paragraph([run("SKILLS", { bold: true })]),
        paragraph("Triage • Patient assessment • IV therapy • Wound care"),
        paragraph([run("CERTIFICATIONS", { bold: true })]),
        paragraph("Advanced Cardiac Life Support (ACLS), American Heart Association, 2022"),
      ].join(""),
    ),
  expected: {
    basics: {
      name: "MICHAEL O'BRIEN",
      label: "Registered Nurse",
      email: "m.obrien@example.ie",
      phone: "+353 87 123 4567",
      city: "Dublin",
    },
    work: [
      { name: "St. James's Hospital", position: "Senior Staff Nurse", startDate: "2019-05", endDate: null },
      { name: "Beaumont Hospital", position: "Staff Nurse", startDate: "2015-09", endDate: "2019-04" },
    ],
    education: [
      {
        institution: "Trinity College Dublin",
        studyType: "Bachelor of Science",
        area: "Nursing",
        startDate: "2011",
        endDate: "2015",
      },
    ],
    skills: ["Triage", "Patient assessment", "IV therapy", "Wound care"],
    languages: [],
    certificates: ["Advanced Cardiac Life Support (ACLS)"],
  },
};

/** An English PDF: employer and city on one line, the title under it, then the dates, and a Projects section. */
export const CONSULTANT_PDF: ResumeFixture = {
  label: "English PDF, employer line first, with projects (held out)",
  format: "pdf",
  build: () =>
    buildPdf({
      content: [
        { text: "Aisha Khan", fontSize: 20, bold: true, alignment: "center" },
        { text: "Management Consultant", fontSize: 12, alignment: "center" },
        {
          text: "London, UK • aisha.khan@example.co.uk • 07700 900123 • linkedin.com/in/aishakhan",
          fontSize: 9,
          alignment: "center",
          margin: [0, 2, 0, 8],
        },
        h("Professional Experience"),
        { text: "Deloitte LLP, London", bold: true },
        { text: "Senior Consultant", italics: true },
        "Oct 2020 – Present",
        bullet("Led operating-model reviews for three FTSE 100 retailers."),
        bullet("Built the firm's pricing diagnostic toolkit, now used on 30 engagements a year."),
        { text: "Accenture, Manchester", bold: true, margin: [0, 6, 0, 0] },
        { text: "Business Analyst", italics: true },
        "Aug 2017 – Sep 2020",
        bullet("Ran requirements workshops for a core banking replacement."),
        h("Projects"),
        "Open data dashboard for the city council's cycling scheme (2019).",
        h("Education"),
        { text: "London School of Economics", bold: true },
        "MSc Management, Distinction, 2016 – 2017",
        { text: "University of Leeds", bold: true },
        "BA Economics, 2013 – 2016",
        h("Skills"),
        "Financial modelling, Stakeholder management, SQL, Power BI",
      ],
    }),
  expected: {
    basics: {
      name: "Aisha Khan",
      label: "Management Consultant",
      email: "aisha.khan@example.co.uk",
      phone: "07700 900123",
      city: "London",
      profiles: [{ network: "LinkedIn", username: "aishakhan" }],
    },
    work: [
      { name: "Deloitte LLP", position: "Senior Consultant", startDate: "2020-10", endDate: null, location: "London" },
      {
        name: "Accenture",
        position: "Business Analyst",
        startDate: "2017-08",
        endDate: "2020-09",
        location: "Manchester",
      },
    ],
    education: [
      {
        institution: "London School of Economics",
        studyType: "MSc",
        area: "Management",
        startDate: "2016",
        endDate: "2017",
      },
      { institution: "University of Leeds", studyType: "BA", area: "Economics", startDate: "2013", endDate: "2016" },
    ],
    skills: ["Financial modelling", "Stakeholder management", "SQL", "Power BI"],
    languages: [],
  },
};

/** A German PDF with a left sidebar, dates as MM.YYYY, "Position | Firma" lines. */
export const GERMAN_SIDEBAR_PDF: ResumeFixture = {
  label: "German PDF with a left sidebar (held out)",
  format: "pdf",
  build: () =>
    buildPdf({
      content: [
        {
          columnGap: 22,
          columns: [
            {
              width: 160,
              fontSize: 9,
              stack: [
                { text: "Jörg Weiß", fontSize: 20, bold: true },
                { text: "Projektleiter IT", fontSize: 11, margin: [0, 0, 0, 10] },
                h("Kontakt"),
                "joerg.weiss@web.de",
                "+49 (0) 89 123 456 78",
                "München, Deutschland",
                h("Sprachen"),
                "Deutsch – Muttersprache",
                "Englisch – verhandlungssicher",
                h("IT-Kenntnisse"),
                "SAP S/4HANA",
                "Jira",
                "MS Project",
              ],
            },
            {
              width: "*",
              stack: [
                h("Berufserfahrung"),
                titleAndDates("Projektleiter | Siemens AG", "01.2019 – heute"),
                bullet("Leitung der SAP-Einführung in 12 Werken mit 40 Mitarbeitenden."),
                titleAndDates("IT-Berater | Allianz SE", "04.2014 – 12.2018"),
                bullet("Beratung zur Migration der Schadenssysteme."),
                h("Ausbildung"),
                titleAndDates("Ludwig-Maximilians-Universität München", "2008 – 2014"),
                "Diplom-Wirtschaftsinformatiker",
              ],
            },
          ],
        },
      ],
    }),
  expected: {
    basics: {
      name: "Jörg Weiß",
      label: "Projektleiter IT",
      email: "joerg.weiss@web.de",
      phone: "+49 (0) 89 123 456 78",
      city: "München",
    },
    work: [
      { name: "Siemens AG", position: "Projektleiter", startDate: "2019-01", endDate: null },
      { name: "Allianz SE", position: "IT-Berater", startDate: "2014-04", endDate: "2018-12" },
    ],
    education: [
      {
        institution: "Ludwig-Maximilians-Universität München",
        studyType: "Diplom-Wirtschaftsinformatiker",
        startDate: "2008",
        endDate: "2014",
      },
    ],
    skills: ["SAP S/4HANA", "Jira", "MS Project"],
    languages: [
      { language: "Deutsch", fluency: "Muttersprache" },
      { language: "Englisch", fluency: "verhandlungssicher" },
    ],
  },
};

/**
 * Written after the parser. Their first run is the honest figure: SPANISH_PDF and PLAIN_DOCX
 * scored 40/53 (the Spanish page's gutter was mistaken; fixed, and a layout test holds it), so
 * they are no longer unseen; CONSULTANT_PDF and GERMAN_SIDEBAR_PDF were added after that fix.
 */
export const HELD_OUT_FIXTURES: ResumeFixture[] = [SPANISH_PDF, PLAIN_DOCX, CONSULTANT_PDF, GERMAN_SIDEBAR_PDF];
