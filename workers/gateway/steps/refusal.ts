/**
 * What a step answers when the call goes no further: a problem, described as a value so the
 * steps need neither Hono nor a request id. The gateway renders it with `problem()`.
 */
import type { ProblemType } from "~workers/http/problem";

export interface Refusal {
  type: ProblemType;
  detail: string;
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
}
