/**
 * A request whose upload reports its progress. `fetch` cannot tell how much of a request body
 * has been sent (streaming bodies are not an upload meter, and need HTTP/2), so the live demo
 * sends files with XMLHttpRequest, whose `upload` events do, and reads the answer back as a
 * `Response` so the rest of the page treats both paths alike.
 */

export interface UploadProgress {
  loaded: number;
  /** Null when the browser cannot tell the body's size. */
  total: number | null;
}

/** Statuses whose Response may carry no body (the constructor throws otherwise). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** How long the live demo waits for an answer: the gateway gives a handler 25 s, uploads take longer. */
export const DEMO_TIMEOUT_MS = 60_000;

/**
 * A signal that aborts when `parent` does (the page is left) or when `timeoutMs` pass, the
 * latter with a TimeoutError whose message says so. `clear` stops the clock once answered.
 */
export function withDeadline(
  parent: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new DOMException(`The server did not answer within ${Math.round(timeoutMs / 1000)} seconds.`, "TimeoutError"),
      ),
    timeoutMs,
  );
  const follow = () => controller.abort(parent?.reason);
  if (parent?.aborted) follow();
  else parent?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", follow);
    },
  };
}

export function sendWithProgress(
  url: string,
  init: { method: string; headers: Record<string, string>; body: XMLHttpRequestBodyInit; signal?: AbortSignal },
  onProgress: (progress: UploadProgress) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal } = init;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const request = new XMLHttpRequest();
    // Leaving the page or running out of time stops the upload instead of letting it run on.
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.open(init.method, url);
    request.responseType = "blob";
    for (const [name, value] of Object.entries(init.headers)) request.setRequestHeader(name, value);
    request.upload.addEventListener("progress", (event) =>
      onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : null }),
    );
    request.addEventListener("load", () => {
      const body = NULL_BODY_STATUSES.has(request.status) ? null : (request.response as Blob);
      resolve(
        new Response(body, {
          status: request.status,
          statusText: request.statusText,
          headers: parseResponseHeaders(request.getAllResponseHeaders()),
        }),
      );
    });
    request.addEventListener("error", () => reject(new TypeError("The request did not reach the server.")));
    request.addEventListener("abort", () =>
      reject(signal?.aborted ? signal.reason : new DOMException("The upload was cancelled.", "AbortError")),
    );
    request.send(init.body);
  });
}

/** `getAllResponseHeaders()`'s CRLF-separated `name: value` lines as Headers. */
export function parseResponseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header name the Headers class refuses is one the page never reads.
    }
  }
  return headers;
}

/** "42%" of a known size, or the bytes sent so far when the size is unknown. */
export function progressLabel(progress: UploadProgress): string {
  if (progress.total && progress.total > 0)
    return `${Math.min(100, Math.round((progress.loaded / progress.total) * 100))}%`;
  const kib = progress.loaded / 1024;
  return kib < 1024 ? `${Math.round(kib)} KB` : `${(kib / 1024).toFixed(1)} MB`;
}
