/**
 * Turning a call into the plain object an operation's schema parses: the query string, a JSON
 * body or multipart fields (files as `File`, repeated fields as arrays), plus path parameters.
 * The body is read with a size cap, whatever Content-Length claims: a streamed body without one
 * is cut at the cap. A body that is not read (too large by its Content-Length, or a call whose
 * input is the query string) is cancelled, so its bytes are not left on a keep-alive connection.
 */
import type { InputSource } from "~workers/hosted/definition";
import { readAtMost } from "~workers/http/request-body";

export type ReadInputResult =
  { ok: true; input: Record<string, unknown> } | { ok: false; reason: "too-large" | "malformed"; detail: string };

/**
 * Query parameters the gateway itself uses, never passed to an API: `as`, and a signed URL's
 * own three (verified in the authenticate step before the input is read).
 */
const GATEWAY_PARAMS = new Set(["as", "key_id", "expires", "signature"]);

async function discardBody(request: Request): Promise<void> {
  await request.body?.cancel().catch(() => undefined);
}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await discardBody(request);
    return null;
  }
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const read = await readAtMost(reader, maxBytes);
  if (read.ok) return read.bytes;
  // Stop reading at the cap; the entry's guard reads the rest away for the connection's sake.
  await reader.cancel();
  return null;
}

function queryObject(url: URL): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of url.searchParams) {
    if (GATEWAY_PARAMS.has(key)) continue;
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

export async function readInput(
  request: Request,
  source: InputSource,
  params: Record<string, string>,
  maxBytes: number,
): Promise<ReadInputResult> {
  const url = new URL(request.url);
  if (source === "query" || request.method === "GET" || request.method === "DELETE") {
    await discardBody(request);
    return { ok: true, input: { ...queryObject(url), ...params } };
  }
  const bytes = await readCapped(request, maxBytes);
  if (!bytes) return { ok: false, reason: "too-large", detail: `Keep the request body under ${maxBytes} bytes.` };
  const type = request.headers.get("content-type") ?? "";
  const multipart = type.startsWith("multipart/form-data");
  if (multipart && source !== "json") {
    try {
      const form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": type },
      }).formData();
      const fields: Record<string, unknown> = {};
      for (const [key, value] of form) {
        const existing = fields[key];
        fields[key] =
          existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
      }
      return { ok: true, input: { ...fields, ...params } };
    } catch {
      return { ok: false, reason: "malformed", detail: "The multipart body could not be read." };
    }
  }
  if (source === "multipart") {
    return { ok: false, reason: "malformed", detail: "Send this call as multipart/form-data." };
  }
  if (bytes.byteLength === 0) return { ok: true, input: { ...params } };
  try {
    const body: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      return { ok: false, reason: "malformed", detail: "The JSON body must be an object." };
    }
    return { ok: true, input: { ...(body as Record<string, unknown>), ...params } };
  } catch {
    // A form-encoded body is not read (JSON sent under that type, as `curl -d` does, is): say
    // what to send rather than that it is bad JSON.
    if (type.startsWith("application/x-www-form-urlencoded")) {
      return {
        ok: false,
        reason: "malformed",
        detail: `A form-encoded body is not read here: send JSON (Content-Type: application/json)${source === "json" ? "" : " or multipart/form-data"}.`,
      };
    }
    return { ok: false, reason: "malformed", detail: "The body is not valid JSON." };
  }
}
