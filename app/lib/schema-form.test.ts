/**
 * The live demo's form and its JSON: drafts from values, values from drafts (numbers, booleans,
 * empty fields left out), and the two kept in step both ways without either losing what was typed.
 */
import { describe, expect, it } from "vitest";
import {
  draftOf,
  draftsFromInput,
  initialSchemaFormState,
  parseInput,
  schemaFormReducer,
  valueOf,
  withField,
  type Draft,
  type FormField,
} from "./schema-form";

const field = (name: string, control: FormField["control"], extra: Partial<FormField> = {}): FormField => ({
  name,
  location: "body",
  required: false,
  description: "",
  control,
  accepts: ["string"],
  ...extra,
});

const TEXT = field("text", "textarea", { required: true });
const SIZE = field("size", "number", { accepts: ["integer"], min: 64, max: 2048, step: 1, default: 300 });
const SPEED = field("speed", "number", { accepts: ["number"], default: 1 });
const FORMAT = field("format", "select", { options: ["png", "svg"], default: "png" });
const LEVEL = field("level", "select", { options: [1, 2, 3], accepts: ["number"] });
const CLIP = field("clip", "checkbox", { accepts: ["boolean"], default: true });
const DETECT = field("detect", "checkbox", { accepts: ["boolean", "string"] });
const AMOUNT = field("amount", "text", { accepts: ["number", "string"] });
const WAIT_FOR = field("waitFor", "text", { accepts: ["string", "integer"] });
const TO = field("to", "text", { accepts: ["string", "array"] });
const MARGIN = field("margin", "json", { accepts: ["object"] });
const EMAILS = field("emails", "lines", { accepts: ["array"] });
const GRANULARITY = field("granularity", "choices", { accepts: ["array"], options: ["segment", "word"] });
const IMAGE = field("image", "file", { accepts: ["string"] });
const FIELDS = [
  TEXT,
  SIZE,
  SPEED,
  FORMAT,
  LEVEL,
  CLIP,
  DETECT,
  AMOUNT,
  WAIT_FOR,
  TO,
  MARGIN,
  EMAILS,
  GRANULARITY,
  IMAGE,
];

describe("a value as its control shows it", () => {
  it("fills in the example's value, else the field's default, else nothing", () => {
    expect(draftOf(SIZE, 512)).toBe("512");
    expect(draftOf(SIZE, undefined)).toBe("300");
    expect(draftOf(TEXT, undefined)).toBe("");
    expect(draftOf(FORMAT, undefined)).toBe('"png"');
    expect(draftOf(FORMAT, "svg")).toBe('"svg"');
    expect(draftOf(CLIP, undefined)).toBe(true);
    expect(draftOf(CLIP, false)).toBe(false);
    expect(draftOf(DETECT, undefined)).toBe(false);
    // A query's booleans and numbers arrive as text.
    expect(draftOf(DETECT, "true")).toBe(true);
    expect(draftOf(LEVEL, "2")).toBe("2");
    expect(draftOf(EMAILS, ["a@example.com", "b@example.com"])).toBe("a@example.com\nb@example.com");
    expect(draftOf(GRANULARITY, ["word"])).toEqual(['"word"']);
    expect(draftOf(MARGIN, { top: "1cm" })).toBe('{"top":"1cm"}');
    expect(draftOf(TO, ["EUR", "GBP"])).toBe('["EUR","GBP"]');
  });

  it("shows every field of an input, and an unknown option as itself so the select can name it", () => {
    const drafts = draftsFromInput(FIELDS, { text: "hi", format: "gif" });
    expect(drafts.text).toBe("hi");
    expect(drafts.format).toBe('"gif"');
    expect(Object.keys(drafts)).toEqual(FIELDS.map((each) => each.name));
  });
});

describe("a control's draft as a JSON value", () => {
  it("numbers: typed text becomes a number; a fraction in a whole-number field and non-numbers are errors", () => {
    expect(valueOf(SIZE, "512")).toEqual({ ok: true, value: 512 });
    expect(valueOf(SIZE, " 64 ")).toEqual({ ok: true, value: 64 });
    expect(valueOf(SIZE, "64.5")).toEqual({ ok: false, message: "Enter a whole number." });
    expect(valueOf(SPEED, "1.25")).toEqual({ ok: true, value: 1.25 });
    expect(valueOf(SPEED, "fast")).toEqual({ ok: false, message: "Enter a number." });
  });

  it("empty optional fields are left out, whatever their control", () => {
    for (const [each, empty] of [
      [SIZE, ""],
      [TEXT, ""],
      [AMOUNT, "   "],
      [FORMAT, ""],
      [MARGIN, ""],
      [EMAILS, "\n \n"],
      [GRANULARITY, []],
    ] as [FormField, Draft][]) {
      expect(valueOf(each, empty), each.name).toEqual({ ok: true, value: undefined });
    }
    expect(withField({ text: "a", size: 5 }, "size", undefined)).toEqual({ text: "a" });
  });

  it("booleans: a ticked box is true, an unticked one false", () => {
    expect(valueOf(CLIP, true)).toEqual({ ok: true, value: true });
    expect(valueOf(CLIP, false)).toEqual({ ok: true, value: false });
  });

  it("selects and choices give the option's own type back", () => {
    expect(valueOf(FORMAT, '"svg"')).toEqual({ ok: true, value: "svg" });
    expect(valueOf(LEVEL, "2")).toEqual({ ok: true, value: 2 });
    expect(valueOf(GRANULARITY, ['"segment"', '"word"'])).toEqual({ ok: true, value: ["segment", "word"] });
  });

  it("text that may be a number is one only when typed as exactly that number", () => {
    expect(valueOf(AMOUNT, "10.5")).toEqual({ ok: true, value: 10.5 });
    // Twenty digits are more than a double holds, and the API takes the text as it is.
    expect(valueOf(AMOUNT, "12345678901234567890")).toEqual({ ok: true, value: "12345678901234567890" });
    expect(valueOf(AMOUNT, "0.10")).toEqual({ ok: true, value: "0.10" });
    expect(valueOf(WAIT_FOR, "1000")).toEqual({ ok: true, value: 1000 });
    expect(valueOf(WAIT_FOR, "#ready")).toEqual({ ok: true, value: "#ready" });
    // waitFor takes whole milliseconds, so 1.5 is a selector to it, as the API would read it.
    expect(valueOf(WAIT_FOR, "1.5")).toEqual({ ok: true, value: "1.5" });
  });

  it("text that may be a list parses one typed as JSON, and keeps other text as text", () => {
    expect(valueOf(TO, '["EUR", "GBP"]')).toEqual({ ok: true, value: ["EUR", "GBP"] });
    expect(valueOf(TO, "EUR,GBP")).toEqual({ ok: true, value: "EUR,GBP" });
  });

  it("JSON fields: parsed, or an error naming why", () => {
    expect(valueOf(MARGIN, '{"top": "1cm"}')).toEqual({ ok: true, value: { top: "1cm" } });
    const broken = valueOf(MARGIN, '{"top": ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.message).toMatch(/^Not valid JSON: /);
  });

  it("lines: one item a line, blank lines dropped", () => {
    expect(valueOf(EMAILS, " a@example.com \n\nb@example.com\n")).toEqual({
      ok: true,
      value: ["a@example.com", "b@example.com"],
    });
  });
});

describe("the JSON editor's text", () => {
  it("must be an object", () => {
    expect(parseInput('{"a": 1}')).toEqual({ ok: true, input: { a: 1 } });
    expect(parseInput("")).toEqual({ ok: true, input: {} });
    expect(parseInput("[1]").ok).toBe(false);
    const broken = parseInput('{"a": ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.message).toMatch(/^The JSON does not parse: /);
  });
});

describe("the form and the JSON in step", () => {
  const start = () => initialSchemaFormState(FIELDS, JSON.stringify({ text: "Hello", format: "png" }, null, 2));

  it("starts from the example: the form shows its values and the defaults", () => {
    const state = start();
    expect(state.jsonError).toBeNull();
    expect(state.drafts.text).toBe("Hello");
    expect(state.drafts.size).toBe("300");
    expect(state.drafts.clip).toBe(true);
  });

  it("editing a field rewrites the JSON; emptying it takes it out", () => {
    let state = schemaFormReducer(start(), { type: "field", name: "format", draft: '"svg"' });
    state = schemaFormReducer(state, { type: "field", name: "size", draft: "512" });
    state = schemaFormReducer(state, { type: "field", name: "clip", draft: false });
    expect(JSON.parse(state.text)).toEqual({ text: "Hello", format: "svg", size: 512, clip: false });
    state = schemaFormReducer(state, { type: "field", name: "size", draft: "" });
    expect(JSON.parse(state.text)).toEqual({ text: "Hello", format: "svg", clip: false });
    // The field shows what was typed (empty), not the default it falls back to.
    expect(state.drafts.size).toBe("");
  });

  it("a draft that is not a value of the field is an error beside it; the JSON keeps the field's last value", () => {
    let state = schemaFormReducer(start(), { type: "field", name: "size", draft: "512" });
    state = schemaFormReducer(state, { type: "field", name: "size", draft: "512.5" });
    expect(state.fieldErrors).toEqual({ size: "Enter a whole number." });
    expect(state.drafts.size).toBe("512.5");
    expect(JSON.parse(state.text)).toMatchObject({ size: 512 });
    state = schemaFormReducer(state, { type: "field", name: "size", draft: "640" });
    expect(state.fieldErrors).toEqual({});
    expect(JSON.parse(state.text)).toMatchObject({ size: 640 });
  });

  it("editing valid JSON updates the fields", () => {
    const state = schemaFormReducer(start(), {
      type: "json",
      text: '{"text": "Bye", "format": "svg", "emails": ["a@example.com"], "clip": false}',
    });
    expect(state.jsonError).toBeNull();
    expect(state.drafts).toMatchObject({ text: "Bye", format: '"svg"', emails: "a@example.com", clip: false });
  });

  it("invalid JSON is named, the form keeps its last values, and field edits wait until the JSON is whole", () => {
    const edited = schemaFormReducer(start(), { type: "field", name: "size", draft: "512" });
    const broken = '{"text": "Hello", "size": ';
    const state = schemaFormReducer(edited, { type: "json", text: broken });
    expect(state.jsonError).toMatch(/^The JSON does not parse: /);
    expect(state.text).toBe(broken);
    expect(state.drafts).toEqual(edited.drafts);
    expect(state.input).toEqual(edited.input);
    // An edit now would write over the text being typed: nothing changes.
    expect(schemaFormReducer(state, { type: "field", name: "size", draft: "64" })).toBe(state);
    // Asked for, the JSON is written again from the form.
    const rewritten = schemaFormReducer(state, { type: "rewrite" });
    expect(rewritten.jsonError).toBeNull();
    expect(JSON.parse(rewritten.text)).toEqual({ text: "Hello", format: "png", size: 512 });
  });

  it("a new call starts again from its own fields and example", () => {
    const state = schemaFormReducer(start(), { type: "reset", fields: [SIZE], text: '{"size": 99}' });
    expect(state.fields).toEqual([SIZE]);
    expect(state.drafts).toEqual({ size: "99" });
    expect(state.text).toBe('{"size": 99}');
  });
});
