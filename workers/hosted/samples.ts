/**
 * The example request behind an operation's code samples: its URL, method and example fields.
 * The docs page writes the curl, JavaScript and Python samples from it (app/lib/code-samples.ts),
 * so the page's data carries the example once rather than once per sample.
 */
import type { SampleRequest } from "~/lib/code-samples";
import type { Operation } from "./definition";
import { pathParams } from "./describe";

function fillPath(path: string, example: Record<string, unknown>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(example[name] ?? name)));
}

export function sampleRequest(origin: string, slug: string, operation: Operation): SampleRequest {
  const example = (operation.example ?? {}) as Record<string, unknown>;
  const inPath = new Set(pathParams(operation.path));
  return {
    method: operation.method,
    url: `${origin}/api/v1/${slug}${fillPath(operation.path, example)}`,
    fields: Object.fromEntries(Object.entries(example).filter(([name]) => !inPath.has(name))),
    inQuery: operation.inputSource === "query" || operation.method !== "POST",
    binaryTypes: operation.output.kind === "binary" ? operation.output.mimeTypes : null,
  };
}
