/**
 * The live demo's form as derived from each operation's input schema: the control each field
 * gets, its options, range and default, and (for every API) that the form can express the
 * docs' example, so an example run through the form is still one the API takes.
 */
import { describe, expect, it } from "vitest";
import { draftOf, valueOf, withField, type FormField } from "~/lib/schema-form";
import { loadDefinition, loadDefinitions } from "./definitions";
import { formFields, operationForms } from "./docs";

async function fieldsOf(slug: string, operationId: string): Promise<Record<string, FormField>> {
  const forms = await operationForms(slug);
  const fields = forms[operationId];
  if (!fields) throw new Error(`${slug} has no operation ${operationId}`);
  return Object.fromEntries(fields.map((field) => [field.name, field]));
}

describe("the live demo's form fields, from the schemas", () => {
  it("QR Code: enums are selects with their default, integers carry their range, long text a textarea", async () => {
    const fields = await fieldsOf("qrcode", "createQrCode");
    expect(fields.errorCorrection).toMatchObject({ control: "select", options: ["L", "M", "Q", "H"], default: "M" });
    expect(fields.format).toMatchObject({ control: "select", default: "png" });
    expect(fields.size).toMatchObject({ control: "number", min: 64, max: 2048, step: 1, default: 300 });
    expect(fields.text).toMatchObject({ control: "textarea", required: true, location: "body" });
    expect(fields.text?.description).toMatch(/What the code holds/);
    // "transparent" or a hex colour: text, not a select of one.
    expect(fields.background).toMatchObject({ control: "text", accepts: ["string"] });
  });

  it("file fields are pickers, several files where the field is a list", async () => {
    const processing = await fieldsOf("image-processing", "processImage");
    expect(processing.image).toMatchObject({ control: "file" });
    expect(processing.image?.multiple).toBeUndefined();
    // A list of operations, each an object of its own kind: JSON.
    expect(processing.operations).toMatchObject({ control: "json", required: true });
    expect(processing.quality).toMatchObject({ control: "number", min: 1, max: 100, default: 85 });
    const merge = await fieldsOf("merge-images", "mergeImages");
    expect(merge.images).toMatchObject({ control: "file", multiple: true });
    expect(merge.placements).toMatchObject({ control: "json" });
  });

  it("booleans are checkboxes, lists of enums are choices, lists of text are lines, objects JSON", async () => {
    const pdf = await fieldsOf("html-to-pdf", "convertHtmlToPdf");
    expect(pdf.landscape).toMatchObject({ control: "checkbox", default: false });
    expect(pdf.html).toMatchObject({ control: "textarea" });
    expect(pdf.margin).toMatchObject({ control: "json", accepts: ["object"] });
    expect(pdf.scale).toMatchObject({ control: "number", min: 0.1, max: 2 });
    expect(pdf.scale?.step).toBeUndefined();
    // A selector or milliseconds: text that becomes a number when it is one.
    expect(pdf.waitFor).toMatchObject({ control: "text" });
    expect(pdf.waitFor?.accepts).toEqual(expect.arrayContaining(["string", "integer"]));
    // A boolean that a multipart form sends as text.
    expect((await fieldsOf("image-to-text", "readImageText")).wordBoxes).toMatchObject({ control: "checkbox" });
    expect((await fieldsOf("audio-to-text", "transcribeAudio")).timestamp_granularities).toMatchObject({
      control: "choices",
      options: ["segment", "word"],
    });
    expect((await fieldsOf("email-exist", "checkEmailBatch")).emails).toMatchObject({
      control: "lines",
      required: true,
    });
    expect((await fieldsOf("text-to-speech", "speakText")).input).toMatchObject({ control: "textarea" });
  });

  it("path parameters are required fields in the path; a GET's others are query fields", async () => {
    const fields = await fieldsOf("location", "listStateCities");
    expect(fields.code).toMatchObject({ location: "path", required: true, control: "text" });
    expect(fields.limit).toMatchObject({ location: "query", control: "number", default: 500 });
  });

  it("a field of any type is text, whose typed JSON becomes a value", async () => {
    const fields = await fieldsOf("removebg", "removeBackground");
    expect(fields.add_shadow?.control).toBe("text");
    expect(valueOf(fields.add_shadow!, "false")).toEqual({ ok: true, value: false });
  });

  it("every API's example, shown in the form and read back, is still an input the API takes", async () => {
    let checked = 0;
    for (const definition of await loadDefinitions()) {
      for (const operation of definition.operations) {
        const example = operation.example as Record<string, unknown>;
        let rebuilt: Record<string, unknown> = {};
        for (const field of formFields(operation)) {
          if (!(field.name in example)) continue;
          // The form does not hold a file field's JSON value (a data URL): the JSON keeps it.
          if (field.control === "file") {
            rebuilt = withField(rebuilt, field.name, example[field.name]);
            continue;
          }
          const value = valueOf(field, draftOf(field, example[field.name]));
          expect(value.ok, `${definition.slug} ${operation.id} ${field.name}`).toBe(true);
          if (value.ok) rebuilt = withField(rebuilt, field.name, value.value);
          checked += 1;
        }
        const parsed = operation.input.safeParse(rebuilt);
        expect(parsed.success, `${definition.slug} ${operation.id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(
          true,
        );
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("every field has a control and names the JSON types it takes; options only where there is a choice", async () => {
    for (const definition of await loadDefinitions()) {
      for (const operation of definition.operations) {
        for (const field of formFields(operation)) {
          const where = `${definition.slug} ${operation.id} ${field.name}`;
          expect(field.accepts.length, where).toBeGreaterThan(0);
          expect(field.options !== undefined, where).toBe(field.control === "select" || field.control === "choices");
        }
      }
    }
  });

  it("the live demo's payload stays small: the largest API's form is a few KB", async () => {
    const sizes = await Promise.all(
      (await loadDefinitions()).map(async (definition) => JSON.stringify(await operationForms(definition.slug)).length),
    );
    // Image to Text's 100-odd OCR languages are the largest list.
    expect(Math.max(...sizes)).toBeLessThan(24_000);
  });

  it("an unknown API has no forms", async () => {
    expect(await loadDefinition("no-such-api")).toBeUndefined();
    expect(await operationForms("no-such-api")).toEqual({});
  });
});
