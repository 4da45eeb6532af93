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
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    parts.push(`range ${schema.minimum ?? "…"}–${schema.maximum ?? "…"}`);
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
