/**
 * Input and output of resume-parser. The file arrives as a multipart upload (field `file`, or
 * `resume`) or as a base64 data URL in JSON; its type is sniffed from its bytes. The answer is
 * JSON Resume's shape (https://jsonresume.org/schema) with `text` and `meta` beside it.
 */
import { z } from "zod";

import { DOCUMENT_BODY_BYTES, documentSourceSchema, MAX_DOCUMENT_BYTES } from "../_documents/upload";

export const MAX_RESUME_BYTES = MAX_DOCUMENT_BYTES;
/** A 10 MB file as base64 in JSON is ~13.4 MB: the body bound leaves room for it. */
export const RESUME_BODY_BYTES = DOCUMENT_BODY_BYTES;

const ResumeFileSchema = documentSourceSchema("A résumé", "data:application/pdf;base64,…").describe(
  "The résumé: a PDF or DOCX file in a multipart form, or a base64 data URL in JSON; up to 10 MB (larger: 422 invalid-input). The type is read from the bytes, not the name.",
);

export const ResumeParserInputSchema = z
  .object({
    file: ResumeFileSchema.optional(),
    resume: ResumeFileSchema.optional().describe("Another name for `file`."),
  })
  .refine((value) => (value.file === undefined) !== (value.resume === undefined), {
    message: "Send the résumé as exactly one of `file` or `resume`.",
    path: ["file"],
  });

export type ResumeParserInput = z.output<typeof ResumeParserInputSchema>;

const partialDate = z
  .string()
  .regex(/^\d{4}(?:-\d{2}(?:-\d{2})?)?$/)
  .nullable();

export const ResumeParserOutputSchema = z.object({
  basics: z.object({
    name: z.string().nullable(),
    label: z.string().nullable().describe("The headline under the name (a job title)."),
    email: z.string().nullable(),
    phone: z.string().nullable().describe("As written."),
    url: z.string().nullable().describe("The person's own site (profiles are in `profiles`)."),
    location: z
      .object({
        address: z.string().nullable(),
        city: z.string().nullable(),
        region: z.string().nullable(),
        postalCode: z.string().nullable().describe("As written before the city (`75002 Paris, France`)."),
        countryCode: z
          .string()
          .nullable()
          .describe("ISO 3166-1 alpha-2, where the country or a US/Canadian region is named."),
      })
      .nullable(),
    profiles: z.array(
      z.object({
        network: z
          .string()
          .describe("LinkedIn, GitHub, X, GitLab, Stack Overflow, XING, Medium, Dribbble, Behance, Instagram."),
        url: z.string(),
        username: z.string().nullable(),
      }),
    ),
    summary: z.string().nullable(),
  }),
  work: z.array(
    z.object({
      name: z.string().nullable().describe("The employer."),
      position: z.string().nullable(),
      location: z.string().nullable(),
      startDate: partialDate.describe("ISO 8601 partial date: `2020` or `2020-03`."),
      endDate: partialDate.describe("Null while current (Present, heute, actuel, actualidad)."),
      summary: z.string().nullable(),
      highlights: z.array(z.string()),
    }),
  ),
  education: z.array(
    z.object({
      institution: z.string().nullable(),
      area: z.string().nullable().describe("The field of study."),
      studyType: z.string().nullable().describe("The degree: Bachelor of Science, M.Sc., Diplom, Licence, …"),
      startDate: partialDate,
      endDate: partialDate,
      score: z.string().nullable().describe("GPA or grade, as written."),
    }),
  ),
  skills: z.array(z.object({ name: z.string(), keywords: z.array(z.string()) })),
  languages: z.array(z.object({ language: z.string(), fluency: z.string().nullable() })),
  certificates: z.array(z.object({ name: z.string(), date: partialDate, issuer: z.string().nullable() })),
  text: z.string().describe("The whole text in reading order, column by column."),
  meta: z.object({
    format: z.enum(["pdf", "docx"]),
    pages: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("A PDF's page count; null for a DOCX, whose pages exist only once Word lays it out."),
    columns: z.number().int().positive().describe("The most text columns found on one page."),
  }),
});

export type ResumeParserOutput = z.output<typeof ResumeParserOutputSchema>;
