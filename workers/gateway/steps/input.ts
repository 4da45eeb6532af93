/**
 * Step 4: the call's input, read from the query, a JSON body or a multipart form within the
 * operation's size limit (request-input.ts), reshaped for an older client where the route says
 * so, and parsed with the operation's schema. The handler only ever sees input that parsed.
 */
import { z } from "zod";
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
  /** An older path serving several operations: the one whose schema reads this body (before `adapt`). */
  select?: (raw: Record<string, unknown>) => Pick<Operation, "input">,
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
  let schema = operation.input as z.ZodType;
  try {
    if (select) schema = select(raw).input as z.ZodType;
    if (adapt) raw = adapt(raw);
  } catch (error) {
    // An adapter that checks the older fields itself names them, as the schema would.
    if (error instanceof z.ZodError) {
      return { ok: false, refusal: invalidInputFromZod(error, { root: "input", fieldInDetail: true }) };
    }
    return { ok: false, refusal: { type: "invalid-input", detail: "The request does not have the expected shape." } };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  // Programs call these APIs: the detail names the field ("hex: ..."), and `errors` lists each.
  return { ok: false, refusal: invalidInputFromZod(parsed.error, { root: "input", fieldInDetail: true }) };
}
