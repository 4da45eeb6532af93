/**
 * A document sent to an API (a résumé), the ways an image is: a multipart file or a base64 data
 * URL in JSON, bounded at 10 MB like an image and refused the same way, as invalid input at its
 * field (422) before anything is decoded. The data-URL form, its length bound and the decoding
 * are the image APIs' own (workers/hosted/_image), not a copy.
 */
import { z } from "zod";
import { problemResult } from "~workers/hosted/definition";
import { DATA_URL_PREFIX, decodeDataUrl } from "../_image/input";
import { MAX_DATA_URL_LENGTH, MAX_IMAGE_BYTES, SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { failure, type Outcome } from "../_image/outcome";
import { fileBytes } from "./engines";

/** Largest document file accepted: an image's bound, for the same isolate memory. */
export const MAX_DOCUMENT_BYTES = MAX_IMAGE_BYTES;
/** Request body bound for one document: room for it as a base64 data URL in JSON (~13.4 MB). */
export const DOCUMENT_BODY_BYTES = SINGLE_IMAGE_BODY_BYTES;

const MAX_MB = MAX_DOCUMENT_BYTES / (1024 * 1024);

/** `noun` names the document in messages ("A résumé"); `example` is a data URL's start. */
export function documentSourceSchema(noun: string, example: string) {
  const tooLarge = `${noun} may be at most ${MAX_MB} MB.`;
  return z.union([
    z
      .instanceof(File, { message: "Expected a file." })
      .refine((file) => file.size > 0, "The uploaded file is empty.")
      .refine((file) => file.size <= MAX_DOCUMENT_BYTES, tooLarge),
    z
      .string()
      .max(MAX_DATA_URL_LENGTH, tooLarge)
      .regex(DATA_URL_PREFIX, `${noun} sent as text must be a base64 data URL (\`${example}\`).`),
  ]);
}

/** The document's bytes, bounded again here for callers that did not go through the schema. */
export async function documentBytes(source: File | string, noun: string): Promise<Outcome<Uint8Array>> {
  const tooLarge = `${noun} may be at most ${MAX_MB} MB.`;
  if (typeof source === "string") return decodeDataUrl(source, { maxBytes: MAX_DOCUMENT_BYTES, message: tooLarge });
  if (source.size > MAX_DOCUMENT_BYTES) return failure(problemResult("invalid-input", tooLarge));
  return { ok: true, value: await fileBytes(source) };
}
