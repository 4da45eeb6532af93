/**
 * The hosted APIs as documents: JSON Schema of each operation's input and output (zod's own
 * conversion), flattened into the parameter tables the docs pages show. OpenAPI and the docs
 * are both built from this, so they cannot disagree.
 */
import { z } from "zod";
import type { Operation } from "./definition";

export type JsonSchema = Record<string, unknown>;

/** zod to JSON Schema (2020-12, which OpenAPI 3.1 uses); uploaded files become binary strings. */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def;
      if (def?.type === "custom") {
        ctx.jsonSchema.type = "string";
        ctx.jsonSchema.format = "binary";
        ctx.jsonSchema.description ??= "A file upload (multipart/form-data).";
      }
    },
  }) as JsonSchema;
}

export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? "");
}

export function openApiPath(slug: string, path: string): string {
  return `/api/v1/${slug}${path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`;
}

export interface ParameterRow {
  name: string;
  location: "path" | "query" | "body";
  type: string;
  required: boolean;
  description: string;
}

function typeLabel(schema: JsonSchema): string {
  if (schema.format === "binary") return "file";
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return [...new Set(variants.map(typeLabel))].join(" | ");
  if (schema.type === "array") return `${typeLabel((schema.items as JsonSchema) ?? {})}[]`;
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return "any";
}

function describeSchema(schema: JsonSchema): string {
  const parts: string[] = [];
  if (typeof schema.description === "string") parts.push(schema.description.replace(/\.$/, ""));
  // zod's int() bounds itself to the safe integers: no range worth telling the reader.
  const bound = (value: unknown) =>
    typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
  const [minimum, maximum] = [bound(schema.minimum), bound(schema.maximum)];
  if (minimum !== undefined || maximum !== undefined) parts.push(`range ${minimum ?? "…"}–${maximum ?? "…"}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    parts.push(`length ${schema.minLength ?? 0}–${schema.maxLength ?? "…"}`);
  if (typeof schema.pattern === "string") parts.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join("; ");
}

/** The top-level fields of an operation's input, as the docs' parameter table. */
export function parameterRows(operation: Operation): ParameterRow[] {
  const schema = toJsonSchema(operation.input, "input");
  const objectSchema = (schema.allOf as JsonSchema[] | undefined)?.[0] ?? schema;
  const properties = (objectSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((objectSchema.required as string[] | undefined) ?? []);
  const inPath = new Set(pathParams(operation.path));
  const bodyLocation =
    operation.inputSource === "query" || operation.method === "GET" || operation.method === "DELETE" ? "query" : "body";
  return Object.entries(properties).map(([name, property]) => ({
    name,
    location: inPath.has(name) ? "path" : bodyLocation,
    type: typeLabel(property),
    required: required.has(name) || inPath.has(name),
    description: describeSchema(property),
  }));
}

export interface ResponseFieldRow {
  /** Dotted path: `rgb.r`, `links[].alias`. */
  name: string;
  type: string;
  description: string;
}

/** How deep the response table goes: deeper structure is left to the example beside it. */
const RESPONSE_TABLE_DEPTH = 2;

/** The fields of an operation's JSON answer, two levels deep, as the docs' response table. */
export function responseFieldRows(operation: Operation): ResponseFieldRow[] {
  if (operation.output.kind !== "json") return [];
  const rows: ResponseFieldRow[] = [];
  const visit = (schema: JsonSchema, prefix: string, depth: number) => {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, property] of Object.entries(properties)) {
      const path = prefix ? `${prefix}.${name}` : name;
      rows.push({ name: path, type: typeLabel(property), description: describeSchema(property) });
      if (depth + 1 >= RESPONSE_TABLE_DEPTH) continue;
      if (property.type === "object") visit(property, path, depth + 1);
      const items = property.items as JsonSchema | undefined;
      if (property.type === "array" && items?.type === "object") visit(items, `${path}[]`, depth + 1);
    }
  };
  visit(toJsonSchema(operation.output.schema, "output"), "", 0);
  return rows;
}
