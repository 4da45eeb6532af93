/** Everything a docs page shows about one API's calls, as plain data for the page; and the live demo's form of each. */
import { PROBLEM_TYPES, type ProblemType } from "~workers/http/problem";
import type { Operation } from "./definition";
import { loadDefinition } from "./definitions";
import {
  parameterRows,
  responseFieldRows,
  toJsonSchema,
  type JsonSchema,
  type ParameterRow,
  type ResponseFieldRow,
} from "./describe";
import type { SampleRequest } from "~/lib/code-samples";
import type { Choice, FormControl, FormField, JsonType } from "~/lib/schema-form";
import { sampleRequest } from "./samples";

export interface OperationDoc {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  inputSource: string;
  parameters: ParameterRow[];
  exampleInput: string;
  /** The status a success answers with (201 when the call creates something). */
  successStatus: number;
  /** Problems this call answers beyond the common ones listed for every call. */
  errors: { status: number; type: string; when: string }[];
  output:
    | { kind: "json"; example: string; fields: ResponseFieldRow[] }
    | { kind: "binary"; mimeTypes: string[]; description: string };
  /** The example request its code samples are written from (app/lib/code-samples.ts). */
  samples: SampleRequest;
  /** Older paths that serve this call too, for clients of the earlier product. */
  legacyPaths: { method: string; path: string; input?: { summary: string; example: string } }[];
}

export async function operationDocs(slug: string, origin: string): Promise<OperationDoc[]> {
  const definition = await loadDefinition(slug);
  if (!definition) return [];
  return definition.operations.map((operation) => ({
    id: operation.id,
    method: operation.method,
    path: `/api/v1/${slug}${operation.path}`,
    summary: operation.summary,
    description: operation.description ?? "",
    inputSource: operation.inputSource,
    parameters: parameterRows(operation),
    exampleInput: JSON.stringify(operation.example, null, 2),
    successStatus: operation.successStatus ?? 200,
    errors: (operation.errors ?? []).map((error) => ({
      status: PROBLEM_TYPES[error.type].status,
      type: error.type,
      when: error.when,
    })),
    output:
      operation.output.kind === "json"
        ? {
            kind: "json",
            example: JSON.stringify(operation.output.example, null, 2),
            fields: responseFieldRows(operation),
          }
        : { kind: "binary", mimeTypes: operation.output.mimeTypes, description: operation.output.description },
    samples: sampleRequest(origin, slug, operation),
    legacyPaths: (definition.legacyRoutes ?? [])
      .filter((legacy) => legacy.operationId === operation.id)
      .map((legacy) => ({
        method: legacy.method,
        path: legacy.path,
        input: legacy.input && {
          summary: legacy.input.summary,
          example: JSON.stringify(legacy.input.example, null, 2),
        },
      })),
  }));
}

/**
 * The problems any call can answer, for the docs' error table: one row per status, naming the
 * types it can carry (each one a link to its page at /problems/<type>).
 */
export const COMMON_ERRORS: readonly { status: number; types: readonly ProblemType[]; when: string }[] = (
  [
    { types: ["malformed-body"], when: "The body is not valid JSON or multipart." },
    { types: ["missing-api-key", "invalid-api-key"], when: "No key, or a key that is not ours." },
    {
      types: ["revoked-api-key", "plan-required"],
      when: "The key was revoked, or your plan does not include this API.",
    },
    { types: ["body-too-large"], when: "The body is larger than the call accepts." },
    { types: ["invalid-input"], when: "A field broke a rule: `errors` names each one." },
    {
      types: ["rate-limited", "monthly-quota-exceeded"],
      when: "The per-second limit, or the month's calls (on Free, also its 50 freemium calls); wait Retry-After seconds.",
    },
    { types: ["engine-failed", "upstream-failed"], when: "The engine or an upstream service failed on this input." },
    { types: ["engine-unavailable"], when: "The engine this API needs is not available here." },
  ] satisfies { types: [ProblemType, ...ProblemType[]]; when: string }[]
).map((row) => ({ status: PROBLEM_TYPES[row.types[0]].status, ...row }));

/**
 * Each call's input as the live demo's form (app/lib/schema-form.ts), by operation id: one
 * control per top-level field, chosen from its JSON Schema. Kept apart from `operationDocs`, so
 * the docs page's payload does not carry it.
 */
export async function operationForms(slug: string): Promise<Record<string, FormField[]>> {
  const definition = await loadDefinition(slug);
  if (!definition) return {};
  return Object.fromEntries(definition.operations.map((operation) => [operation.id, formFields(operation)]));
}

export function formFields(operation: Operation): FormField[] {
  const schema = toJsonSchema(operation.input, "input");
  const properties = (((schema.allOf as JsonSchema[] | undefined)?.[0] ?? schema).properties ?? {}) as Record<
    string,
    JsonSchema
  >;
  const example = (operation.example ?? {}) as Record<string, unknown>;
  return parameterRows(operation).map((row) => {
    const property = properties[row.name] ?? {};
    return {
      name: row.name,
      location: row.location,
      required: row.required,
      description: row.description,
      ...controlFor(property, example[row.name]),
      ...(property.default !== undefined ? { default: property.default } : {}),
    };
  });
}

/** A schema's alternatives, flattened: `anyOf`/`oneOf` nested or not, and `type: [a, b]` as one each. */
function variantsOf(schema: JsonSchema): JsonSchema[] {
  const nested = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (nested) return nested.flatMap(variantsOf);
  if (Array.isArray(schema.type)) return (schema.type as string[]).map((type) => ({ ...schema, type }));
  return [schema];
}

function choicesOf(variant: JsonSchema): Choice[] | undefined {
  if (Array.isArray(variant.enum)) return variant.enum as Choice[];
  if (variant.const !== undefined) return [variant.const as Choice];
  return undefined;
}

function typesOf(variant: JsonSchema): JsonType[] {
  if (typeof variant.type === "string") return [variant.type as JsonType];
  const choices = choicesOf(variant);
  if (choices)
    return choices.map((choice) =>
      choice === null ? "null" : typeof choice === "number" ? "number" : (typeof choice as JsonType),
    );
  // No type at all (`{}`): anything.
  return ["string", "number", "boolean", "array", "object"];
}

function isFile(variant: JsonSchema): boolean {
  return variant.format === "binary";
}

/** zod's int() bounds itself to the safe integers: no range worth putting on the control. */
function bound(value: unknown): number | undefined {
  return typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
}

/** Text this long goes in a textarea: HTML, text to speak, a QR code's vCard, a data URL. */
const LONG_TEXT = { maxLength: 2500, exampleLength: 80 };

function controlFor(
  property: JsonSchema,
  example: unknown,
): Pick<FormField, "control" | "accepts" | "options" | "min" | "max" | "step" | "multiple"> {
  const variants = variantsOf(property);
  const accepts = [...new Set(variants.flatMap(typesOf))];
  const only = (...types: JsonType[]) => accepts.every((type) => types.includes(type));
  const control = (name: FormControl, extra: Partial<FormField> = {}) => ({ control: name, accepts, ...extra });

  if (variants.some(isFile)) return control("file");
  const itemVariants = variants.flatMap((variant) =>
    variant.type === "array" ? variantsOf((variant.items as JsonSchema | undefined) ?? {}) : [],
  );
  if (itemVariants.some(isFile)) return control("file", { multiple: true });

  const choices = variants.map(choicesOf);
  if (choices.every((list) => list !== undefined)) return control("select", { options: [...new Set(choices.flat())] });
  if (accepts.includes("boolean") && only("boolean", "string")) return control("checkbox");
  if (only("number", "integer")) {
    const [numeric] = variants;
    const min = bound(numeric?.minimum ?? numeric?.exclusiveMinimum);
    const max = bound(numeric?.maximum ?? numeric?.exclusiveMaximum);
    return control("number", {
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
      ...(only("integer") ? { step: 1 } : {}),
    });
  }
  if (only("array")) {
    const itemChoices = itemVariants.map(choicesOf);
    if (itemVariants.length > 0 && itemChoices.every((list) => list !== undefined))
      return control("choices", { options: [...new Set(itemChoices.flat())] });
    if (itemVariants.length > 0 && itemVariants.every((item) => item.type === "string" && !choicesOf(item)))
      return control("lines");
    return control("json");
  }
  if (only("string")) {
    const long =
      variants.some((variant) => typeof variant.maxLength === "number" && variant.maxLength >= LONG_TEXT.maxLength) &&
      !variants.some((variant) => typeof variant.pattern === "string");
    const longExample =
      typeof example === "string" && (example.length > LONG_TEXT.exampleLength || example.includes("\n"));
    return control(long || longExample ? "textarea" : "text");
  }
  // Text that may also be a number, a list or an object (a colour as "rgb(…)" or {r, g, b}):
  // a text field, whose typed JSON and numbers become values (app/lib/schema-form.ts).
  if (accepts.includes("string")) {
    const structured = typeof example === "object" && example !== null;
    return control(
      structured || (typeof example === "string" && example.length > LONG_TEXT.exampleLength) ? "textarea" : "text",
    );
  }
  return control("json");
}
