/**
 * The live demo's form as the server renders it, from a real operation's fields: every control
 * has a label and its description wired to it, enums are selects with the shown value chosen,
 * numbers carry their range, required fields say so, and an error sits beside its field.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { draftsFromInput, type Draft, type FormField } from "~/lib/schema-form";
import { operationForms } from "~workers/hosted/docs";
import { SchemaForm } from "./schema-form";

async function render(
  slug: string,
  operationId: string,
  input: Record<string, unknown>,
  extra: { drafts?: Record<string, Draft>; fieldErrors?: Record<string, string>; disabled?: boolean } = {},
): Promise<{ html: string; fields: FormField[] }> {
  const fields = (await operationForms(slug))[operationId] ?? [];
  const html = renderToString(
    <SchemaForm
      fields={fields}
      drafts={{ ...draftsFromInput(fields, input), ...extra.drafts }}
      fieldErrors={extra.fieldErrors ?? {}}
      input={input}
      onDraft={() => {}}
      files={{}}
      onFiles={() => {}}
      disabled={extra.disabled ?? false}
    />,
  );
  return { html, fields };
}

/** The opening tag of the element with this id. */
function tagWithId(html: string, id: string): string {
  const tag = new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no element #${id}`);
  return tag;
}

/** A select's options, read from their opening tags (attribute order and spelling are the renderer's). */
function optionsOf(html: string, id: string): { value: string; selected: boolean }[] {
  const select = new RegExp(`<select[^>]*id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? "";
  return [...select.matchAll(/<option\b([^>]*)>/g)].map(([, attributes = ""]) => ({
    value: /value="([^"]*)"/.exec(attributes)?.[1] ?? "",
    selected: /\bselected\b/.test(attributes),
  }));
}

describe("the live demo's form", () => {
  it("labels every control and wires its description to it", async () => {
    const { html, fields } = await render("qrcode", "createQrCode", { text: "https://portico.dev" });
    expect(fields.length).toBeGreaterThan(5);
    for (const field of fields) {
      const id = `demo-field-${field.name}`;
      expect(html, field.name).toContain(`for="${id}"`);
      const tag = tagWithId(html, id);
      if (field.description) {
        expect(tag, field.name).toContain(`aria-describedby="${id}-description"`);
        expect(html).toContain(`id="${id}-description"`);
      }
    }
  });

  it("shows enums as selects with the value or default chosen, numbers with their range, required marked", async () => {
    const { html } = await render("qrcode", "createQrCode", { text: "hello", format: "svg" });
    const levels = optionsOf(html, "demo-field-errorCorrection");
    expect(levels.map((option) => option.value)).toEqual([
      "&quot;L&quot;",
      "&quot;M&quot;",
      "&quot;Q&quot;",
      "&quot;H&quot;",
    ]);
    expect(levels.filter((option) => option.selected).map((option) => option.value)).toEqual(["&quot;M&quot;"]);
    const formats = optionsOf(html, "demo-field-format");
    expect(formats.filter((option) => option.selected).map((option) => option.value)).toEqual(["&quot;svg&quot;"]);
    const size = tagWithId(html, "demo-field-size");
    expect(size).toContain('type="number"');
    expect(size).toContain('min="64"');
    expect(size).toContain('max="2048"');
    expect(size).toContain('step="1"');
    expect(size).toContain('value="300"');
    expect(tagWithId(html, "demo-field-text")).toContain('aria-required="true"');
    expect(html).toMatch(/<code>text<\/code><span[^>]*> \(required\)<\/span>/);
    expect(html).toContain(">hello</textarea>");
  });

  it("booleans are checkboxes and files are pickers labelled as the demo always named them", async () => {
    const { html } = await render("image-to-text", "readImageText", { image: "data:image/png;base64,AAAA" });
    expect(tagWithId(html, "demo-field-wordBoxes")).toContain('type="checkbox"');
    const picker = tagWithId(html, "demo-file-image");
    expect(picker).toContain('type="file"');
    expect(picker).not.toContain("multiple");
    expect(html).toMatch(/<label for="demo-file-image"[^>]*>File for <code>image<\/code>/);
    expect(html).toMatch(/in place of the JSON(?:&#x27;|')s value/);
    const merge = await render("merge-images", "mergeImages", {});
    expect(tagWithId(merge.html, "demo-file-images")).toContain("multiple");
  });

  it("puts a field's error beside it and marks the control invalid", async () => {
    const { html } = await render(
      "qrcode",
      "createQrCode",
      { text: "hi" },
      { drafts: { size: "64.5" }, fieldErrors: { size: "Enter a whole number." } },
    );
    const size = tagWithId(html, "demo-field-size");
    expect(size).toContain('aria-invalid="true"');
    expect(size).toContain('aria-describedby="demo-field-size-description demo-field-size-error"');
    expect(html).toMatch(/id="demo-field-size-error"[^>]*>Enter a whole number\.</);
  });

  it("waits, disabled, while the JSON does not parse; a call without input says so", async () => {
    expect((await render("qrcode", "createQrCode", {}, { disabled: true })).html).toMatch(/^<fieldset[^>]*\bdisabled\b/);
    expect((await render("location", "getMyLocation", {})).html).toContain("This call takes no input.");
  });
});
