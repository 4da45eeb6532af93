/**
 * Bounding a request body before anything buffers it (issue #10, point 5). `request.formData()`,
 * `.json()` and `.text()` read a body whole, whatever its size, so the Workers cap it here first:
 * a declared Content-Length over the cap is refused before any of it is kept, and a body
 * without one (chunked) is kept only up to the cap and then refused.
 */

/** Forms and JSON calls: pages' actions and the platform API (sign-in, settings, payments…). */
export const FORM_BODY_LIMIT = 64 * 1024;
/** Payment-provider events: a PayPal envelope with its resource is a few KiB; this leaves room. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;
/**
 * How much of a refused body is still read and thrown away (see `discardBody`); a body
 * declared larger is not read at all.
 */
export const DISCARD_READ_LIMIT = 1024 * 1024;

export type BufferedRequest = { ok: true; request: Request } | { ok: false };

/**
 * A copy of `request` over its body's bytes, read whole, or `{ ok: false }` once the body is
 * larger than `maxBytes`. The copy's body has a known length, so whoever reads it next reads
 * memory, not the socket.
 */
export async function bufferBody(request: Request, maxBytes: number): Promise<BufferedRequest> {
  if (!request.body) return { ok: true, request };
  if (declaredLength(request) > maxBytes) {
    await discardBody(request);
    return { ok: false };
  }
  const reader = request.body.getReader();
  const read = await readAtMost(reader, maxBytes);
  if (!read.ok) {
    await drain(reader, read.read);
    return { ok: false };
  }
  const headers = new Headers(request.headers);
  // The copy is not chunked any more: say how long it is, as a client that sent it whole would.
  headers.delete("transfer-encoding");
  headers.set("content-length", String(read.bytes.byteLength));
  return { ok: true, request: new Request(request, { body: read.bytes, headers }) };
}

/**
 * Reads a body to its end, or stops as soon as more than `maxBytes` have come: its bytes, or
 * how many were read. What to do with the rest (read it away, cancel it) is the caller's choice.
 */
export async function readAtMost(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
): Promise<{ ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; read: number }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) return { ok: false, read: size };
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/**
 * Lets go of a body the Worker answers without reading (a refusal). A body left unread, or
 * cancelled, makes the runtime close the keep-alive connection it came on as it answers; a
 * client (the dev server's pool, a proxy) that has already sent its next request on that
 * connection then gets a failure instead of an answer. So the body is read to its end and
 * thrown away, as long as it is small enough for that to be cheap; past DISCARD_READ_LIMIT
 * the connection is not worth keeping, and the body is cancelled.
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  if (declaredLength(request) > DISCARD_READ_LIMIT) {
    await request.body.cancel().catch(() => undefined);
    return;
  }
  await drain(request.body.getReader(), 0);
}

/**
 * `request` with its body passed through, for a router that may refuse without reading it
 * (the gateway does, before it takes a call's input): cancelling the body reads it away
 * instead (as `discardBody` does), and `settle()`, called once the answer is ready, reads away
 * whatever the router left unread. Either way the connection stays usable.
 */
export function guardUnreadBody(request: Request): { request: Request; settle: () => Promise<void> } {
  const source = request.body;
  if (!source) return { request, settle: async () => undefined };
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let settled = false;
  let read = 0;
  const open = () => (reader ??= source.getReader());
  const settle = async () => {
    if (settled) return;
    settled = true;
    if (!reader && declaredLength(request) > DISCARD_READ_LIMIT) {
      await source.cancel().catch(() => undefined);
      return;
    }
    await drain(open(), read);
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await open().read();
        if (done) {
          settled = true;
          controller.close();
          return;
        }
        read += value.byteLength;
        controller.enqueue(value);
      },
      cancel: settle,
    },
    { highWaterMark: 0 },
  );
  return { request: new Request(request, { body }), settle };
}

/** Reads the rest of a body and forgets it, or cancels it once more than DISCARD_READ_LIMIT has come. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let read = alreadyRead;
  try {
    while (read <= DISCARD_READ_LIMIT) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: there is nothing left to keep clean.
  }
}

/** The Content-Length a client declared; a missing or unreadable one counts as 0 (the read is capped anyway). */
function declaredLength(request: Request): number {
  const declared = Number(request.headers.get("content-length") ?? "0");
  return Number.isFinite(declared) ? declared : 0;
}
