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
  // Answers fetched ahead (the main document), served once when the browser asks for them,
  // keyed by the address as Chromium asks for it (`https://docs.example.com/`), whatever the
  // caller typed (`https://Docs.Example.com`): a miss would fetch the live page instead.
  const ready = new Map<string, ResourceAnswer>();
  // Bytes promised to fetches still in flight: a page's requests run at once, so the budget is
  // reserved before each fetch and what it did not use is given back when it ends.
  let reserved = 0;
  let settled: { promise: Promise<void>; resolve: () => void } | undefined;
  let inFlight = 0;

  const refuse = (url: string, reason: string): ResourceAnswer => {
    stats.refused.push(url);
    return { kind: "abort", reason };
  };

  const fetchWithin = async (url: string): Promise<FetchedResource> => {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) return { ok: false, detail: "The page ran out of time." };
    stats.requests += 1;
    const free = () => limits.maxTotalBytes - stats.bytes - reserved;
    // While other fetches hold the rest of the budget, wait for one to end and give back what
    // it did not use, rather than refusing a resource the budget may yet have room for.
    while (free() <= 0 && inFlight > 0 && Date.now() < options.deadline) {
      settled ??= Promise.withResolvers<void>();
      await settled.promise;
    }
    const maxBytes = Math.min(limits.maxBytesEach, free());
    if (maxBytes <= 0) return { ok: false, detail: `The page's resources passed ${limits.maxTotalBytes} bytes.` };
    reserved += maxBytes;
    inFlight += 1;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<FetchedResource>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, detail: `${url} took too long to answer.` }), remaining);
    });
    try {
      const fetched = await Promise.race([fetchResource(url, { maxBytes }), late]);
      if (fetched.ok) stats.bytes += Math.min(fetched.bytes.byteLength, maxBytes);
      return fetched.ok && fetched.bytes.byteLength > maxBytes
        ? { ok: false, detail: `${url} passed the ${maxBytes} bytes it was allowed.` }
        : fetched;
    } finally {
      clearTimeout(timer);
      reserved -= maxBytes;
      inFlight -= 1;
      const waiting = settled;
      settled = undefined;
      waiting?.resolve();
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
      ready.set(canonical(url), { kind: "respond", status: 200, contentType, body, headers: ANSWER_HEADERS });
    },
    async prefetch(url) {
      const fetched = await fetchWithin(url);
      if (!fetched.ok) return fetched;
      if (canonical(fetched.finalUrl) !== canonical(url)) {
        // Redirected: the browser follows our redirect, so the page's address (and what its
        // relative URLs resolve against) is where the document really came from.
        ready.set(canonical(url), {
          kind: "respond",
          status: 302,
          contentType: "text/plain",
          body: new Uint8Array(),
          headers: { ...ANSWER_HEADERS, location: fetched.finalUrl },
        });
      }
      ready.set(canonical(fetched.finalUrl), respond(fetched));
      return fetched;
    },
    async answer({ url, method }) {
      const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
      if (scheme === "data:" || scheme === "blob:") return { kind: "native" };
      const key = canonical(url);
      const prepared = ready.get(key);
      if (prepared) {
        ready.delete(key);
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

/** A URL as the browser asks for it: WHATWG-serialised (lower-case host, a path of at least `/`), with no fragment. */
export function canonical(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    return url;
  }
}
