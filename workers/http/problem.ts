/**
 * RFC 9457 problem details: the one error shape of the JSON API. The list of types is
 * closed; each maps to one HTTP status. Callers that read an older shape (a `message` or
 * `success` member) get it as an extension member beside the standard ones.
 */
import type { Context } from "hono";
import type { ApiEnv } from "./env";

export const PROBLEM_TYPES = {
  "invalid-input": { status: 422, title: "Invalid input" },
  "malformed-body": { status: 400, title: "Malformed request body" },
  "body-too-large": { status: 413, title: "Request body too large" },
  unauthenticated: { status: 401, title: "Not signed in" },
  "missing-api-key": { status: 401, title: "API key missing" },
  "invalid-api-key": { status: 401, title: "API key not recognised" },
  "revoked-api-key": { status: 403, title: "API key revoked" },
  "plan-required": { status: 403, title: "Not included in your plan" },
  "invalid-credentials": { status: 401, title: "Wrong email or password" },
  "invalid-signature": { status: 401, title: "Webhook signature not valid" },
  forbidden: { status: 403, title: "Forbidden" },
  "not-found": { status: 404, title: "Not found" },
  conflict: { status: 409, title: "Conflict" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  "too-many-requests": { status: 429, title: "Too many requests" },
  "rate-limited": { status: 429, title: "Per-second limit reached" },
  "monthly-quota-exceeded": { status: 429, title: "Monthly quota used up" },
  "upstream-failed": { status: 502, title: "The upstream service failed" },
  "engine-failed": { status: 502, title: "The engine failed" },
  "engine-unavailable": { status: 503, title: "Engine unavailable here" },
  "service-unavailable": { status: 503, title: "Service unavailable" },
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

export const PROBLEM_BASE_URL = "https://portico.dev/problems/";

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
  [extension: string]: unknown;
}

export function problemBody(
  type: ProblemType,
  detail: string,
  requestId: string,
  extensions: Record<string, unknown> = {},
): ProblemBody {
  const { status, title } = PROBLEM_TYPES[type];
  // `message` repeats the detail for older clients, which read that member (RFC 9457 allows extensions).
  return { message: detail, ...extensions, type: PROBLEM_BASE_URL + type, title, status, detail, requestId };
}

export function problem(
  c: Context<ApiEnv>,
  type: ProblemType,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body = problemBody(type, detail, c.get("requestId"), extensions);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}
