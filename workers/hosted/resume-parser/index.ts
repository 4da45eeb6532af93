/**
 * Resume Parser: a PDF or DOCX résumé → JSON Resume (decision 058). The file is sniffed and
 * bounded here; the engine Worker reads it (workers/engines/resume).
 */
import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import { EXAMPLE_RESUME_PDF } from "./examples";
import { parseResumeFile } from "./handler";
import {
  RESUME_BODY_BYTES,
  ResumeParserInputSchema,
  ResumeParserOutputSchema,
  type ResumeParserOutput,
} from "./schema";

const DESCRIPTION =
  "Send one résumé as a multipart upload (field `file`, or `resume`) or as a base64 data URL in JSON. PDF and DOCX are read; the type comes from the file's bytes (`%PDF-`, or a ZIP holding `word/document.xml`), never from its name, and anything else is refused with `unsupported-media-type` (415). Files up to 10 MB (larger: 422 `invalid-input` at the field, before anything is read), PDFs up to 20 pages. " +
  'The answer follows the [JSON Resume schema](https://jsonresume.org/schema): `basics` (name, label, email, phone, url, location with `postalCode` where one is written before the city, profiles as `{network, url, username}` for LinkedIn, GitHub, X/Twitter, GitLab, Stack Overflow, XING…, summary), `work` (employer `name`, `position`, `location`, `startDate`, `endDate`, `summary`, `highlights`), `education` (`institution`, `area`, `studyType`, dates, `score`), `skills` (`{name, keywords}`: a line "Cloud: AWS, Docker" is one group; a plain list gives one skill per item), `languages` (`{language, fluency}`) and `certificates`, plus `text` (the whole text in reading order) and `meta` (format, pages, columns; `pages` is `null` for a DOCX, whose pages exist only once Word lays it out). Fields the document does not show are `null` or empty, never guessed. ' +
  "Dates are ISO 8601 partial dates (`2020`, `2020-03`), read from English, German, French and Spanish forms: `Jan 2020 – Present`, `03/2019 - 06/2021`, `März 2020 – heute`, `janv. 2020 – actuel`, `enero de 2019 – actualidad`, `2018–2020`, `seit 2021`; a current job's `endDate` is `null`. " +
  "How it reads: a PDF's text is taken with its positions and fonts (pdf.js), a DOCX's from its XML (paragraph styles, bold runs, and tables read cell by cell). Two-column layouts, such as a sidebar of contacts and skills beside the main column or LinkedIn's \"Save to PDF\" export, are found from the empty gutter between the columns and read one column at a time, not line by line across both. Sections are found by their headings in English, German, French and Spanish (Experience, Berufserfahrung, Expérience professionnelle, Experiencia; Education, Ausbildung, Formation, Formación; Skills, Kenntnisse, Compétences, Habilidades; Languages, Sprachen, Langues, Idiomas; Certifications, Zertifikate; Summary, Profil…), not by one template. Within Experience, each date range anchors one job; the lines beside or above it are its title and employer, told apart by their words (a legal form such as GmbH or Inc. names the employer, a role such as Engineer or Manager the title), so either order works. " +
  "Limits: scanned résumés (images of text) have no text to read and answer `unreadable-document`: run them through Image to Text first. Password-protected PDFs, encrypted or damaged files, a DOCX that inflates beyond 20 MB (a zip bomb), a PDF claiming more than 20 pages, and a document of more than 20 000 lines or a PDF page of more than 5 000 pieces of text answer `unreadable-document` (422) with `reason` `encrypted`, `malformed`, `truncated` or `too-large`. A PDF parse still running after 20 s stops between pages and answers `engine-failed`; the size limits above keep any one page or DOCX well inside that. Layouts in three or more columns, text set as curves, and languages other than these four are read with less accuracy. Files are parsed in memory and not kept. ";

/** What the example résumé (examples.ts) answers; a test holds the two together. */
const EXAMPLE_ANSWER: ResumeParserOutput = {
  basics: {
    name: "Jane Doe",
    label: "Senior Software Engineer",
    email: "jane.doe@example.com",
    phone: "+1 415 555 0132",
    url: null,
    location: { address: null, postalCode: null, city: "San Francisco", region: "CA", countryCode: "US" },
    profiles: [{ network: "GitHub", url: "https://github.com/janedoe", username: "janedoe" }],
    summary: null,
  },
  work: [
    {
      name: "Acme Corp",
      position: "Senior Software Engineer",
      location: null,
      startDate: "2020-01",
      endDate: null,
      summary: null,
      highlights: ["Led the move of billing to event sourcing for 2 million customers."],
    },
    {
      name: "Globex Inc.",
      position: "Software Engineer",
      location: null,
      startDate: "2016-06",
      endDate: "2019-12",
      summary: null,
      highlights: ["Built the public API and its SDKs in TypeScript and Go."],
    },
  ],
  education: [
    {
      institution: "University of California, Berkeley",
      area: "Computer Science",
      studyType: "B.Sc.",
      startDate: "2012",
      endDate: "2016",
      score: null,
    },
  ],
  skills: [
    { name: "Languages", keywords: ["TypeScript", "Go", "SQL"] },
    { name: "Cloud", keywords: ["Cloudflare Workers", "AWS", "Docker"] },
  ],
  languages: [],
  certificates: [],
  text: [
    "Jane Doe",
    "Senior Software Engineer",
    "jane.doe@example.com | +1 415 555 0132 | San Francisco, CA | github.com/janedoe",
    "EXPERIENCE",
    "Senior Software Engineer, Acme Corp Jan 2020 - Present",
    "- Led the move of billing to event sourcing for 2 million customers.",
    "Software Engineer, Globex Inc. 06/2016 - 12/2019",
    "- Built the public API and its SDKs in TypeScript and Go.",
    "EDUCATION",
    "University of California, Berkeley 2012 - 2016",
    "B.Sc. in Computer Science",
    "SKILLS",
    "Languages: TypeScript, Go, SQL",
    "Cloud: Cloudflare Workers, AWS, Docker",
  ].join("\n"),
  meta: { format: "pdf", pages: 1, columns: 1 },
};

export const definition: HostedApiDefinition = {
  slug: "resume-parser",
  operations: [
    defineOperation({
      id: "parseResume",
      method: "POST",
      path: "",
      summary: "Read a PDF or DOCX résumé into JSON Resume: contacts, experience, education, skills",
      description: DESCRIPTION,
      inputSource: "json-or-multipart",
      input: ResumeParserInputSchema,
      output: { kind: "json", schema: ResumeParserOutputSchema, example: EXAMPLE_ANSWER },
      example: { file: EXAMPLE_RESUME_PDF },
      maxBodyBytes: RESUME_BODY_BYTES,
      errors: [
        { type: "unsupported-media-type", when: "The file is neither a PDF nor a DOCX (read from its bytes)." },
        {
          type: "unreadable-document",
          when: "The file is encrypted, damaged, cut short, a zip bomb, longer than 20 pages or 20 000 lines, or has no text (a scan); `reason` says which.",
        },
        { type: "invalid-input", when: "The file (or the data URL's file) is larger than 10 MB, or empty." },
        { type: "engine-unavailable", when: "This environment has no engine Worker (ENGINES binding)." },
        { type: "engine-failed", when: "The engine stopped on this file, or a PDF was still being read after 20 s." },
      ],
      handler: parseResumeFile,
    }),
  ],
};
