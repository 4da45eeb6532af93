/**
 * Step 4: the call's input, read from the query, a JSON body or a multipart form within the
 * operation's size limit (request-input.ts), reshaped for an older client where the route says
 * so, and parsed with the operation's schema. The handler only ever sees input that parsed.
 */
import type { z } from "zod";
import type { LegacyRoute, Operation } from "~workers/hosted/definition";
import { invalidInputFromZod } from "~workers/http/problem";
import { readInput } from "../request-input";
import type { Refusal } from "./refusal";

/** An operation's body limit unless it declares its own. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export type InputReading = { ok: true; input: unknown } | { ok: false; refusal: Refusal };

export async function readValidInput(
  request: Request,
  operation: Pick<Operation, "input" | "inputSource" | "maxBodyBytes">,
  params: Record<string, string>,
  adapt?: LegacyRoute["adapt"],
): Promise<InputReading> {
  const read = await readInput(
    request,
    operation.inputSource,
    params,
    operation.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  );
  if (!read.ok) {
    return {
      ok: false,
      refusal: { type: read.reason === "too-large" ? "body-too-large" : "malformed-body", detail: read.detail },
    };
  }
  let raw = read.input;
  if (adapt) {
    try {
      raw = adapt(raw);
    } catch {
      return { ok: false, refusal: { type: "invalid-input", detail: "The request does not have the expected shape." } };
    }
  }
  const parsed = (operation.input as z.ZodType).safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  // Programs call these APIs: the detail names the field ("hex: ..."), and `errors` lists each.
  return { ok: false, refusal: invalidInputFromZod(parsed.error, { root: "input", fieldInDetail: true }) };
}
