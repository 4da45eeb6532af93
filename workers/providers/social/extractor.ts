/**
 * What every platform's extractor is: one module per platform (youtube/, instagram/, …) behind
 * this interface, composed by index.ts into the `SocialMedia` capability. An extractor talks
 * only to its platform's own hosts, through the fetch `hostGuardedFetch` builds: the caller's
 * URL was reduced to a `PostRef` before any extractor saw it, so no caller text picks a host.
 */
import {
  PLATFORM_NAMES,
  type Extraction,
  type ExtractionFailure,
  type Platform,
  type PostRef,
  type ProfileExtraction,
} from "~workers/hosted/capabilities";

export interface PlatformExtractor {
  platform: Platform;
  /**
   * Host names this extractor fetches (its API and page hosts, from its configured base URLs)
   * and its media CDNs, which the tunnel may fetch. `.example.com` matches every subdomain of
   * example.com; a bare name matches only itself.
   */
  apiHosts: readonly string[];
  mediaHosts: readonly string[];
  /**
   * Hosts a post's thumbnail or a profile's picture may be on besides the media hosts (YouTube's
   * i.ytimg.com); absent, the API hosts stand for them (a page's og:image on the platform itself).
   */
  imageHosts?: readonly string[];
  /**
   * Where the media CDN throttles one long request: the tunnel fetches this platform's media in
   * ranges of at most this many bytes (SocialMedia.mediaChunkBytes). Absent: one fetch.
   */
  mediaChunkBytes?: number;
  extract(ref: PostRef, signal: AbortSignal): Promise<Extraction>;
  /** Instagram only: a profile by user name. */
  profile?(username: string, signal: AbortSignal): Promise<ProfileExtraction>;
}

/** What an extractor is built from: its base URLs (configuration) and the network. */
export interface ExtractorDeps {
  /** The platform's upstream base URLs by name (`api`, `page`, `syndication`, …), without a trailing slash. */
  baseUrls: Record<string, string>;
  /** `fetch`, already restricted to the extractor's hosts (or the recorded fakes in development). */
  fetch: typeof fetch;
}

export class ForeignHostError extends Error {
  constructor(readonly host: string) {
    super(`refused to fetch ${host}: not one of the platform's hosts`);
  }
}

/** Whether `host` is one of `patterns` (`.example.com` = any subdomain of example.com, or itself). */
export function hostMatches(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return patterns.some((pattern) =>
    pattern.startsWith(".") ? name === pattern.slice(1) || name.endsWith(pattern) : name === pattern,
  );
}

/** Whether `url` is an https URL on one of `hosts` (as `hostMatches`): a media or picture URL an answer may name. */
export function isHttpsOn(url: unknown, hosts: readonly string[]): url is string {
  if (typeof url !== "string") return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && hostMatches(parsed.hostname, hosts);
  } catch {
    return false;
  }
}

/**
 * A fetch that refuses (throws `ForeignHostError`) any URL that is not https on one of `hosts`,
 * and follows redirects itself so each hop is judged the same way: a platform answer can never
 * send us to a host that is not the platform's.
 *
 * A caller that asks for `redirect: "manual"` gets the 3xx back unfollowed, as from `fetch`.
 * That is what lets guards nest: an extractor's own guard over its API hosts, built on the
 * composition's guard over API and media hosts (index.ts), sees every hop and judges it by the
 * narrower list, so a page's redirect cannot land on a media CDN and be read as a page, while
 * each hop still passes the wider guard too.
 */
export function hostGuardedFetch(base: typeof fetch, hosts: readonly string[], maxRedirects = 5): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, { ...init, redirect: "manual" });
    const manual = (init?.redirect ?? (input instanceof Request ? input.redirect : "follow")) === "manual";
    for (let hop = 0; ; hop++) {
      const url = new URL(request.url);
      if (url.protocol !== "https:" || !hostMatches(url.hostname, hosts)) throw new ForeignHostError(url.hostname);
      const response = await base(request);
      const location = response.headers.get("location");
      if (manual || response.status < 300 || response.status >= 400 || !location || hop >= maxRedirects)
        return response;
      await response.body?.cancel();
      // A redirect repeats a GET or HEAD; any other method's redirect is answered as it came.
      if (request.method !== "GET" && request.method !== "HEAD") return response;
      request = new Request(new URL(location, url), {
        method: request.method,
        headers: request.headers,
        signal: request.signal,
        redirect: "manual",
      });
    }
  };
}

/**
 * Upper bounds on what an extractor reads of one upstream body. A platform, or anything else
 * answering on its host, could send gigabytes, and a body read as text is held whole in the
 * isolate's 128 MB. The bounds sit far above the real answers (a YouTube or Facebook page with
 * its inline data is 1–3 MB of HTML; the JSON read — innertube's player answer, syndication,
 * GraphQL, PinResource — is tens to a few hundred KB), so a page that grows is still read, while
 * a runaway body is cut off a chunk past the bound.
 */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
export const MAX_JSON_BYTES = 2 * 1024 * 1024;

/**
 * An upstream body past its bound. Thrown rather than answered so every read site stays one
 * line; the composition (index.ts) answers any throw of an extractor's reading as
 * `extractor-outdated`, which this is: the answer is not the shape we read.
 */
export class UpstreamTooLargeError extends Error {
  constructor(
    readonly host: string,
    readonly maxBytes: number,
  ) {
    super(`an answer from ${host} over ${maxBytes} bytes`);
  }
}

/**
 * The body as UTF-8 text (as `Response.text()` reads it), streamed and given up past `maxBytes`:
 * a declared Content-Length over the bound is refused before any byte is read, and the stream
 * is cancelled as soon as what came exceeds it. Throws `UpstreamTooLargeError`.
 */
export async function readText(response: Response, maxBytes: number): Promise<string> {
  let host = "the platform";
  try {
    host = new URL(response.url).hostname;
  } catch {
    // A response we built ourselves has no URL.
  }
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new UpstreamTooLargeError(host, maxBytes);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let read = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > maxBytes) {
      await reader.cancel();
      throw new UpstreamTooLargeError(host, maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** The body parsed as JSON, null when it is not JSON; bounded as `readText` (which throws past it). */
export async function readJson(response: Response, maxBytes: number = MAX_JSON_BYTES): Promise<unknown> {
  const text = await readText(response, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The failure an upstream's HTTP status means when the platform said nothing more specific:
 * 429 throttling (with its Retry-After), 401/403 a wall, 404/410 gone, 451 a legal block,
 * anything else unexpected is treated as the page's shape having changed.
 */
export function failureFromStatus(platform: Platform, response: Response): ExtractionFailure {
  const name = PLATFORM_NAMES[platform];
  switch (response.status) {
    case 429: {
      const retryAfter = Number(response.headers.get("retry-after"));
      return {
        ok: false,
        kind: "upstream-rate-limited",
        detail: `${name} is limiting how often we may ask; try again later.`,
        ...(Number.isFinite(retryAfter) && retryAfter > 0 && { retryAfterSeconds: Math.ceil(retryAfter) }),
      };
    }
    case 401:
    case 403:
      return {
        ok: false,
        kind: "login-required",
        detail: `${name} asks for a signed-in user before it shows this post.`,
      };
    case 404:
    case 410:
      return {
        ok: false,
        kind: "content-unavailable",
        detail: `${name} has no such post: it was deleted or never existed.`,
      };
    case 451:
      return {
        ok: false,
        kind: "content-unavailable",
        regionLocked: true,
        detail: `${name} blocks this post where we asked from.`,
      };
    default:
      return {
        ok: false,
        kind: "extractor-outdated",
        what: `HTTP ${response.status}`,
        detail: `${name} answered in a way we do not read (HTTP ${response.status}).`,
      };
  }
}

/** The page or answer lacks what the extractor reads: `what` names it for the log. */
export function outdated(platform: Platform, what: string): ExtractionFailure {
  return {
    ok: false,
    kind: "extractor-outdated",
    what,
    detail: `${PLATFORM_NAMES[platform]} changed how it serves this post, and our reader needs an update; we have been told.`,
  };
}
