/**
 * What every platform's extractor is: one module per platform (youtube/, instagram/, …) behind
 * this interface, composed by index.ts into the `SocialMedia` capability. An extractor talks
 * only to its platform's own hosts, through the fetch `hostGuardedFetch` builds: the caller's
 * URL was reduced to a `PostRef` before any extractor saw it, so no caller text picks a host.
 */
import type { Extraction, ExtractionFailure, Platform, PostRef, ProfileExtraction } from "~workers/hosted/capabilities";

export interface PlatformExtractor {
  platform: Platform;
  /**
   * Host names this extractor fetches (its API and page hosts, from its configured base URLs)
   * and its media CDNs, which the tunnel may fetch. `.example.com` matches every subdomain of
   * example.com; a bare name matches only itself.
   */
  apiHosts: readonly string[];
  mediaHosts: readonly string[];
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

/**
 * A fetch that refuses (throws `ForeignHostError`) any URL that is not https on one of `hosts`,
 * and follows redirects itself so each hop is judged the same way: a platform answer can never
 * send us to a host that is not the platform's.
 */
export function hostGuardedFetch(base: typeof fetch, hosts: readonly string[], maxRedirects = 5): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, { ...init, redirect: "manual" });
    for (let hop = 0; ; hop++) {
      const url = new URL(request.url);
      if (url.protocol !== "https:" || !hostMatches(url.hostname, hosts)) throw new ForeignHostError(url.hostname);
      const response = await base(request);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location || hop >= maxRedirects) return response;
      await response.body?.cancel();
      // A redirect repeats a GET or HEAD; any other method's redirect is answered as it came.
      if (request.method !== "GET" && request.method !== "HEAD") return response;
      request = new Request(new URL(location, url), { method: request.method, headers: request.headers, signal: request.signal, redirect: "manual" });
    }
  };
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
      return { ok: false, kind: "login-required", detail: `${name} asks for a signed-in user before it shows this post.` };
    case 404:
    case 410:
      return { ok: false, kind: "content-unavailable", detail: `${name} has no such post: it was deleted or never existed.` };
    case 451:
      return { ok: false, kind: "content-unavailable", regionLocked: true, detail: `${name} blocks this post where we asked from.` };
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

export const PLATFORM_NAMES: Record<Platform, string> = {
  youtube: "YouTube",
  instagram: "Instagram",
  facebook: "Facebook",
  x: "X",
  linkedin: "LinkedIn",
  pinterest: "Pinterest",
};
