/**
 * Resume Parser's API: the upload's forms (multipart `file` or `resume`, a data URL in JSON), the
 * type sniffed from the bytes, the size bound, and the answer from the real engine Worker; one
 * call through the whole gateway with a key.
 */
import { env, SELF } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { bytesToBase64 } from "../_image/base64";
import {
  callHosted,
  createAccountWithKey,
  expectProblem as expectHttpProblem,
  multipartOf,
} from "../../../tests/factories";
import { createTestContext, expectProblem, jsonBody, runParsed } from "../../../tests/hosted-context";
import { GERMAN_DOCX, TABLE_DOCX, TWO_COLUMN_PDF } from "../../../tests/resume-fixtures";
import { parseResumeFile } from "./handler";
import { definition } from "./index";
import { MAX_RESUME_BYTES, ResumeParserOutputSchema } from "./schema";
import { sniffResume } from "./sniff";

const operation = definition.operations[0]!;

const fileOf = (bytes: Uint8Array, name: string, type: string) => new File([bytes.slice()], name, { type });

async function parse(raw: Record<string, unknown>, ctx = createTestContext()) {
  return jsonBody(await runParsed(operation, raw, ctx), ResumeParserOutputSchema);
}

describe("resume-parser", () => {
  it("reads an uploaded DOCX (field `file`) into JSON Resume", async () => {
    const resume = await parse({ file: fileOf(await TABLE_DOCX.build(), "cv.docx", "application/octet-stream") });
    expect(resume.basics).toMatchObject({ name: "Priya Natarajan", email: "priya.n@example.org" });
    expect(resume.work.map((job) => job.name)).toEqual(["Monzo Bank Ltd", "Government Digital Service"]);
    expect(resume.meta).toEqual({ format: "docx", pages: null, columns: 2 });
  });

  it("takes the file as `resume` too, and as a base64 data URL in JSON", async () => {
    const docx = await GERMAN_DOCX.build();
    const asUpload = await parse({
      resume: fileOf(
        docx,
        "lebenslauf.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      ),
    });
    const asDataUrl = await parse({ file: `data:application/octet-stream;base64,${bytesToBase64(docx)}` });
    expect(asUpload.basics.name).toBe("Zoë Müller");
    expect(asDataUrl).toEqual(asUpload);
  });

  it("answers its documented example with the documented answer", async () => {
    const resume = await parse(operation.example as Record<string, unknown>);
    expect(resume).toEqual(operation.output.kind === "json" ? operation.output.example : undefined);
  });

  it("sniffs the type from the bytes, whatever the file is called", async () => {
    const pdf = await TWO_COLUMN_PDF.build();
    const resume = await parse({ file: fileOf(pdf, "resume.docx", "application/msword") });
    expect(resume.meta.format).toBe("pdf");
    expect(sniffResume(pdf)).toBe("pdf");
    expect(sniffResume(await TABLE_DOCX.build())).toBe("docx");
  });

  it.each([
    ["a text file named .pdf", strToU8("Jane Doe\nSenior Engineer\n"), "resume.pdf", "application/pdf"],
    [
      "a ZIP that is not a Word document",
      zipSync({ "content.xml": strToU8("<office:document/>") }),
      "cv.docx",
      "application/zip",
    ],
    ["a PNG", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), "cv.pdf", "image/png"],
  ])("refuses %s as 415 unsupported-media-type", async (_label, bytes, name, type) => {
    const result = await runParsed(operation, { file: fileOf(bytes, name, type) });
    expectProblem(result, "unsupported-media-type", /neither a PDF nor a DOCX/);
  });

  it("refuses a file or a data URL over 10 MB as 422 invalid-input at its field, as the image APIs do", async () => {
    const big = new Uint8Array(MAX_RESUME_BYTES + 1);
    big.set(strToU8("%PDF-1.7\n"));
    const file = fileOf(big, "big.pdf", "application/pdf");
    expect(operation.input.safeParse({ file }).error?.issues).toEqual([
      expect.objectContaining({ path: ["file"], message: "A résumé may be at most 10 MB." }),
    ]);
    // The handler bounds it again for a caller that skipped the schema, the same way.
    expectProblem(await parseResumeFile({ file }, createTestContext()), "invalid-input", /at most 10 MB/);
    const checked = operation.input.safeParse({ resume: file });
    expect(checked.success).toBe(false);
    expect(checked.error?.issues[0]?.path).toEqual(["resume"]);
    const longDataUrl = `data:application/pdf;base64,${"A".repeat(Math.ceil(MAX_RESUME_BYTES / 3) * 4 + 300)}`;
    const refused = operation.input.safeParse({ file: longDataUrl });
    expect(refused.error?.issues[0]).toMatchObject({ path: ["file"], message: expect.stringMatching(/at most 10 MB/) });
    // Within the text's bound, a few bytes over once decoded: refused the same way, not 413.
    const justOver = `data:application/pdf;base64,${"A".repeat(Math.ceil(MAX_RESUME_BYTES / 3) * 4 + 4)}`;
    expect(operation.input.safeParse({ file: justOver }).success).toBe(true);
    expectProblem(await runParsed(operation, { file: justOver }), "invalid-input", /at most 10 MB/);
  });

  it("answers engine-failed, not a 500, when the engine Worker's call itself fails", async () => {
    const engines = createTestContext().documents!;
    const ctx = {
      ...createTestContext(),
      documents: { ...engines, parseResume: () => Promise.reject(new Error("Worker exceeded memory limit.")) },
    };
    const result = await runParsed(operation, { file: fileOf(await TABLE_DOCX.build(), "cv.docx", "") }, ctx);
    expectProblem(result, "engine-failed", /stopped/);
  });

  it("answers an engine refusal as its problem (a password-protected PDF: 422 with reason encrypted)", async () => {
    const { encryptedPdf } = await import("../../../tests/resume-fixtures");
    const result = await runParsed(operation, { file: fileOf(encryptedPdf(), "locked.pdf", "application/pdf") });
    expectProblem(result, "unreadable-document", /password/);
    expect(result.kind === "problem" && result.extensions).toEqual({ reason: "encrypted" });
  });

  it("answers 503 engine-unavailable where there is no engine Worker", async () => {
    const ctx = { ...createTestContext(), documents: undefined };
    const result = await runParsed(operation, { file: fileOf(await TABLE_DOCX.build(), "cv.docx", "") }, ctx);
    expectProblem(result, "engine-unavailable");
  });

  it("asks for exactly one file", async () => {
    const dataUrl = `data:application/pdf;base64,${bytesToBase64(await TWO_COLUMN_PDF.build())}`;
    expect(operation.input.safeParse({ file: dataUrl }).success).toBe(true);
    expect(operation.input.safeParse({ resume: dataUrl }).success).toBe(true);
    expect(operation.input.safeParse({}).success).toBe(false);
    const both = operation.input.safeParse({ file: dataUrl, resume: dataUrl });
    expect(both.error?.issues).toEqual([
      expect.objectContaining({ path: ["file"], message: "Send the résumé as exactly one of `file` or `resume`." }),
    ]);
  });
});

describe("resume-parser through the gateway", () => {
  it("parses a multipart upload on a Free key, and refuses a renamed text file with a problem", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "free" });
    const pdf = await TWO_COLUMN_PDF.build();
    const response = await callHosted(SELF, "POST", "/api/v1/resume-parser", {
      key,
      ...multipartOf({}, { name: "file", filename: "carlos.pdf", type: "application/pdf", bytes: pdf }),
    });
    expect(response.status).toBe(200);
    const body = ResumeParserOutputSchema.parse(await response.json());
    expect(body.basics.name).toBe("Carlos Rivera");
    expect(body.meta.columns).toBe(2);
    expect(response.headers.get("ratelimit-policy")).toBeTruthy();

    const refused = await callHosted(SELF, "POST", "/api/v1/resume-parser", {
      key,
      ...multipartOf({}, { name: "file", filename: "cv.pdf", type: "application/pdf", bytes: strToU8("not a pdf") }),
    });
    await expectHttpProblem(refused, 415, "unsupported-media-type");
  });
});
