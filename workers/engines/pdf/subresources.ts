/**
 * What a printed page may load. The browser engines intercept every request the page makes
 * (the document itself, style sheets, fonts, images, scripts, the page's own fetch/XHR) and
 * answer it with bytes fetched through the main Worker's outbound guard (`fetchResource`:
 * public addresses only, checked on each redirect), so a page can reach nothing the caller
 * could not have named as a URL. What the guard refuses, or what goes past the budget, is
 * aborted: the page sees a network error, as for any missing resource, and still prints.
 */
import type { FetchedResource, ResourceFetcher } from "~workers/hosted/capabilities";

export const SUBRESOURCE_LIMITS = {
  /** Requests a page may make, the document included. */
  maxRequests: 50,
  /** Bytes of every answer together. */
  maxTotalBytes: 20 * 1024 * 1024,
  /** Bytes of one answer (well under the 32 MiB a CDP WebSocket message may carry once base64'd). */
  maxBytesEach: 5 * 1024 * 1024,
} as const;

/** How the engine answers one intercepted request. */
export type ResourceAnswer =
  /** Left to the browser: `data:` and `blob:` URLs never leave it. */
  | { kind: "native" }
  | { kind: "respond"; status: number; contentType: string; body: Uint8Array; headers: Record<string, string> }
  | { kind: "abort"; reason: string };

export interface ResourceGate {
  /** Fetches the main document before the browser is opened; its refusal is the caller's error. */
  prefetch(url: string): Promise<FetchedResource>;
  /** Serves the caller's own HTML at `url` (a `baseUrl`), so its relative URLs resolve there. */
  provide(url: string, body: Uint8Array, contentType: string): void;
  answer(request: { url: string; method: string }): Promise<ResourceAnswer>;
  /** Requests answered or refused so far, for the engine's log and the tests. */
  readonly stats: { requests: number; bytes: number; refused: string[] };
}

/**
 * `Access-Control-Allow-Origin: *` on every answer: the bytes were fetched without cookies
 * through the guard, so no page could read anything with it the caller could not fetch
 * directly, and without it a web font or module script from another origin (fonts.gstatic.com)
 * would be refused, because the origin server's own CORS headers are not carried over.
 */
const ANSWER_HEADERS = { "access-control-allow-origin": "*" };

export function createResourceGate(
  fetchResource: ResourceFetcher,
  options: { deadline: number; limits?: Partial<Record<keyof typeof SUBRESOURCE_LIMITS, number>> },
): ResourceGate {
  const limits: Record<keyof typeof SUBRESOURCE_LIMITS, number> = { ...SUBRESOURCE_LIMITS, ...options.limits };
  const stats = { requests: 0, bytes: 0, refused: [] as string[] };
  // Answers fetched ahead (the main document), served once when the browser asks for them.
  const ready = new Map<string, ResourceAnswer>();

  const refuse = (url: string, reason: string): ResourceAnswer => {
    stats.refused.push(url);
    return { kind: "abort", reason };
  };

  const fetchWithin = async (url: string): Promise<FetchedResource> => {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) return { ok: false, detail: "The page ran out of time." };
    stats.requests += 1;
    const maxBytes = Math.min(limits.maxBytesEach, limits.maxTotalBytes - stats.bytes);
    if (maxBytes <= 0) return { ok: false, detail: `The page's resources passed ${limits.maxTotalBytes} bytes.` };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<FetchedResource>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, detail: `${url} took too long to answer.` }), remaining);
    });
    try {
      const fetched = await Promise.race([fetchResource(url, { maxBytes }), late]);
      if (fetched.ok) stats.bytes += fetched.bytes.byteLength;
      return fetched;
    } finally {
      clearTimeout(timer);
    }
  };

  const respond = (fetched: FetchedResource & { ok: true }): ResourceAnswer => ({
    kind: "respond",
    status: 200,
    contentType: fetched.contentType || "application/octet-stream",
    body: fetched.bytes,
    headers: ANSWER_HEADERS,
  });

  return {
    stats,
    provide(url, body, contentType) {
      ready.set(url, { kind: "respond", status: 200, contentType, body, headers: ANSWER_HEADERS });
    },
    async prefetch(url) {
      const fetched = await fetchWithin(url);
      if (!fetched.ok) return fetched;
      if (fetched.finalUrl !== url) {
        // Redirected: the browser follows our redirect, so the page's address (and what its
        // relative URLs resolve against) is where the document really came from.
        ready.set(url, {
          kind: "respond",
          status: 302,
          contentType: "text/plain",
          body: new Uint8Array(),
          headers: { ...ANSWER_HEADERS, location: fetched.finalUrl },
        });
      }
      ready.set(fetched.finalUrl, respond(fetched));
      return fetched;
    },
    async answer({ url, method }) {
      const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
      if (scheme === "data:" || scheme === "blob:") return { kind: "native" };
      const prepared = ready.get(url);
      if (prepared) {
        ready.delete(url);
        return prepared;
      }
      if (scheme !== "http:" && scheme !== "https:") return refuse(url, "accessdenied");
      // The guard fetches with GET only; a form post or a script's POST is not sent anywhere.
      if (method !== "GET" && method !== "HEAD") return refuse(url, "accessdenied");
      if (stats.requests >= limits.maxRequests) return refuse(url, "blockedbyclient");
      const fetched = await fetchWithin(url);
      if (!fetched.ok) return refuse(url, "accessdenied");
      return respond(fetched);
    },
  };
}
