/**
 * Reading the server's problem answers (RFC 9457) on the payment screens: the `reason` a
 * capture failed for, another extension member (e.g. `paymentId`), and the message of one
 * field of a 422.
 */
import { ApiError } from "./api-client";

function problemBody(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== "object") return undefined;
  return error.body as Record<string, unknown>;
}

/** The `reason` member, e.g. "declined" when the buyer's card was refused. */
export function problemReason(error: unknown): string | undefined {
  const reason = problemBody(error)?.reason;
  return typeof reason === "string" ? reason : undefined;
}

/**
 * A string extension member of the problem, e.g. `paymentId` next to `reason: "not-paid"`;
 * undefined when the error is not a problem answer or the member is missing or not a string.
 */
export function problemExtension(error: unknown, member: string): string | undefined {
  const value = problemBody(error)?.[member];
  return typeof value === "string" ? value : undefined;
}

/** The message the server gave for `field` in `errors: [{ field, message }]`, if any. */
export function problemFieldError(error: unknown, field: string): string | undefined {
  const errors = problemBody(error)?.errors;
  if (!Array.isArray(errors)) return undefined;
  for (const entry of errors as unknown[]) {
    if (!entry || typeof entry !== "object") continue;
    const { field: name, message } = entry as { field?: unknown; message?: unknown };
    if (name === field && typeof message === "string") return message;
  }
  return undefined;
}
