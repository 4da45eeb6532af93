/** Everything a docs page shows about one API's calls, as plain data for the page. */
import { PROBLEM_TYPES, type ProblemType } from "~workers/http/problem";
import { loadDefinition } from "./definitions";
import { parameterRows, responseFieldRows, type ParameterRow, type ResponseFieldRow } from "./describe";
import type { SampleRequest } from "~/lib/code-samples";
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
