/**
 * The live demo's form, built from an operation's input schema (the fields are derived on the
 * server by workers/hosted/docs.ts `formFields`), kept in step with the raw JSON beside it.
 *
 * The JSON text is what is sent; the form edits it. Each control keeps its own draft (the text
 * typed, the box ticked), so a half-typed number or a JSON fragment in a field is never replaced
 * by its re-serialised value while the visitor types. A field's draft becomes a JSON value here:
 * an empty field is left out of the input (the API's default, or its "required" answer, applies),
 * a draft that is not a value of the field's type is an error shown beside the field, and the
 * JSON keeps its last value for it. JSON that does not parse leaves the form as it was.
 */

/** The JSON types a field accepts (`integer` is a number that must be whole). */
export type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/** A value an enum or a const allows. */
export type Choice = string | number | boolean | null;

export type FormControl =
  /** One line of text. */
  | "text"
  /** Long text: HTML, text to speak, a data URL. */
  | "textarea"
  | "number"
  | "checkbox"
  /** One of `options`. */
  | "select"
  /** Any of `options` (an array of enum values), one checkbox each. */
  | "choices"
  /** An array of text, one item a line. */
  | "lines"
  /** A file picker; the call is then sent as multipart. */
  | "file"
  /** An array or object a form cannot edit field by field: its JSON, in a small textarea. */
  | "json";

export interface FormField {
  name: string;
  location: "path" | "query" | "body";
  required: boolean;
  /** The docs' description: what it is, its range, its default. */
  description: string;
  control: FormControl;
  /** For coercing text typed into a field that takes more than text (`"12"` to 12, `[…]` to an array). */
  accepts: JsonType[];
  options?: Choice[];
  default?: unknown;
  min?: number;
  max?: number;
  /** 1 for integers; absent for any number. */
  step?: number;
  /** A file field that takes several files. */
  multiple?: boolean;
}

/** What a control holds: its text, or whether its box is ticked, or the choices ticked. */
export type Draft = string | boolean | string[];

export type FieldValue = { ok: true; value: unknown } | { ok: false; message: string };

/** The key an option is known by in a `<select>` and in a draft: its JSON (`"png"`, `5`, `true`). */
export function optionKey(option: unknown): string {
  return JSON.stringify(option) ?? "";
}

/** JSON for a field's textarea: one line when short, indented when not. */
function jsonDraft(value: unknown): string {
  const compact = JSON.stringify(value) ?? "";
  return compact.length <= 60 ? compact : JSON.stringify(value, null, 2);
}

/** A value as a text control shows it; a list or object as its JSON on one line, which typing back parses. */
function textDraft(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}

/**
 * What a field's control shows for the input's value of it: the value where the input has one,
 * else the field's default (the value the API uses when the field is left out).
 */
export function draftOf(field: FormField, value: unknown): Draft {
  const shown = value === undefined ? field.default : value;
  switch (field.control) {
    case "checkbox":
      return shown === true || shown === "true";
    case "select": {
      if (shown === undefined) return "";
      const options = field.options ?? [];
      const exact = options.find((option) => optionKey(option) === optionKey(shown));
      // A query's "5" picks the option 5: a GET's input is text however the example typed it.
      const loose = options.find((option) => String(option) === String(shown));
      return optionKey(exact ?? loose ?? shown);
    }
    case "choices":
      return Array.isArray(shown) ? shown.map(optionKey) : shown === undefined ? [] : [optionKey(shown)];
    case "lines":
      return Array.isArray(shown) ? shown.map(textDraft).join("\n") : textDraft(shown);
    case "json":
      return value === undefined ? "" : jsonDraft(value);
    case "file":
      return "";
    default:
      return textDraft(shown);
  }
}

/** Every field's draft for an input: how the form shows a JSON object. */
export function draftsFromInput(fields: readonly FormField[], input: Record<string, unknown>): Record<string, Draft> {
  return Object.fromEntries(fields.map((field) => [field.name, draftOf(field, input[field.name])]));
}

function parseChoice(key: string): Choice {
  return JSON.parse(key) as Choice;
}

/** A number typed as text, when the text is exactly that number's own form ("0.10" and 20 digits stay text). */
function exactNumber(text: string): number | undefined {
  const number = Number(text);
  return text !== "" && Number.isFinite(number) && String(number) === text ? number : undefined;
}

function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

function takes(field: FormField, type: JsonType): boolean {
  return field.accepts.includes(type) || (type === "integer" && field.accepts.includes("number"));
}

/**
 * The JSON value of a field's draft: `undefined` when it is to be left out (an empty field), or
 * a message when the draft is not a value the field takes.
 */
export function valueOf(field: FormField, draft: Draft): FieldValue {
  switch (field.control) {
    case "checkbox":
      return { ok: true, value: draft === true };
    case "select":
      return { ok: true, value: typeof draft === "string" && draft !== "" ? parseChoice(draft) : undefined };
    case "choices": {
      const keys = Array.isArray(draft) ? draft : [];
      return { ok: true, value: keys.length > 0 ? keys.map(parseChoice) : undefined };
    }
    case "file":
      return { ok: true, value: undefined };
    default:
      break;
  }
  const text = typeof draft === "string" ? draft : "";
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: undefined };
  switch (field.control) {
    case "number": {
      const number = Number(trimmed);
      if (!Number.isFinite(number)) return { ok: false, message: "Enter a number." };
      if (!field.accepts.includes("number") && !Number.isInteger(number))
        return { ok: false, message: "Enter a whole number." };
      return { ok: true, value: number };
    }
    case "lines": {
      const items = text
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean);
      return { ok: true, value: items.length > 0 ? items : undefined };
    }
    case "json": {
      try {
        return { ok: true, value: JSON.parse(trimmed) as unknown };
      } catch (error) {
        return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
      }
    }
    default:
      return textValue(field, text, trimmed);
  }
}

/**
 * Text typed into a field that may take more than text: a number where the field takes one and
 * the text is that number exactly, JSON where it takes an array or object and the text is one;
 * otherwise the text as typed.
 */
function textValue(field: FormField, text: string, trimmed: string): FieldValue {
  const number = exactNumber(trimmed);
  if (number !== undefined && takes(field, typeOf(number))) return { ok: true, value: number };
  if (takes(field, "boolean") && (trimmed === "true" || trimmed === "false"))
    return { ok: true, value: trimmed === "true" };
  if ((takes(field, "array") && trimmed.startsWith("[")) || (takes(field, "object") && trimmed.startsWith("{"))) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (takes(field, typeOf(parsed))) return { ok: true, value: parsed };
    } catch (error) {
      if (!takes(field, "string")) return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
    }
  }
  if (takes(field, "string") || field.accepts.length === 0) return { ok: true, value: text };
  if (takes(field, "integer") && !takes(field, "number") && Number.isFinite(Number(trimmed)))
    return { ok: false, message: "Enter a whole number." };
  return { ok: false, message: takes(field, "number") ? "Enter a number." : "Enter a value of this field's type." };
}

/** The input with one field set to a value, or left out for `undefined`; keys keep their order. */
export function withField(input: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  if (value === undefined) {
    const { [name]: _removed, ...rest } = input;
    return rest;
  }
  return { ...input, [name]: value };
}

export type ParsedInput = { ok: true; input: Record<string, unknown> } | { ok: false; message: string };

/** The JSON editor's text as an input object, or why it is not one. */
export function parseInput(text: string): ParsedInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim() === "" ? "{}" : text);
  } catch (error) {
    return { ok: false, message: `The JSON does not parse: ${(error as Error).message}` };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    return { ok: false, message: 'The input must be a JSON object: { "name": value, … }.' };
  return { ok: true, input: parsed as Record<string, unknown> };
}

export function formatInput(input: Record<string, unknown>): string {
  return JSON.stringify(input, null, 2);
}

/** The form and the JSON together: what the live demo keeps while the visitor edits either. */
export interface SchemaFormState {
  fields: readonly FormField[];
  /** The JSON editor's text, sent as the call's input. */
  text: string;
  /** The last input the text parsed to: what the form shows and edits. */
  input: Record<string, unknown>;
  /** Why the text does not parse, while it does not. */
  jsonError: string | null;
  drafts: Record<string, Draft>;
  /** Per field, why its draft is not a value it takes; the JSON keeps the field's last value meanwhile. */
  fieldErrors: Record<string, string>;
}

export type SchemaFormAction =
  /** A new call chosen (or the page opened): its fields and its example. */
  | { type: "reset"; fields: readonly FormField[]; text: string }
  /** The JSON editor changed. */
  | { type: "json"; text: string }
  /** A control changed. */
  | { type: "field"; name: string; draft: Draft }
  /** Write the JSON from the form again, giving up the text that did not parse. */
  | { type: "rewrite" };

export function initialSchemaFormState(fields: readonly FormField[], text: string): SchemaFormState {
  return schemaFormReducer(
    { fields, text: "", input: {}, jsonError: null, drafts: draftsFromInput(fields, {}), fieldErrors: {} },
    { type: "json", text },
  );
}

export function schemaFormReducer(state: SchemaFormState, action: SchemaFormAction): SchemaFormState {
  switch (action.type) {
    case "reset":
      return initialSchemaFormState(action.fields, action.text);
    case "json": {
      const parsed = parseInput(action.text);
      if (!parsed.ok) return { ...state, text: action.text, jsonError: parsed.message };
      return {
        ...state,
        text: action.text,
        input: parsed.input,
        jsonError: null,
        drafts: draftsFromInput(state.fields, parsed.input),
        fieldErrors: {},
      };
    }
    case "rewrite":
      return { ...state, text: formatInput(state.input), jsonError: null };
    case "field": {
      const field = state.fields.find((candidate) => candidate.name === action.name);
      // While the text does not parse the form is read-only: an edit would write over the text.
      if (!field || state.jsonError !== null) return state;
      const drafts = { ...state.drafts, [field.name]: action.draft };
      const value = valueOf(field, action.draft);
      if (!value.ok) return { ...state, drafts, fieldErrors: { ...state.fieldErrors, [field.name]: value.message } };
      const { [field.name]: _cleared, ...fieldErrors } = state.fieldErrors;
      const input = withField(state.input, field.name, value.value);
      return { ...state, drafts, fieldErrors, input, text: formatInput(input), jsonError: null };
    }
  }
}
