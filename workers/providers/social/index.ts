/**
 * The `SocialMedia` capability (Social Media Videos Downloader): the six platforms' extractors
 * composed into one, real or recorded by configuration (SOCIAL_PROVIDER), decision 051.
 *
 * - Each extractor fetches through `hostGuardedFetch` over its own hosts (its API hosts and its
 *   media CDNs): neither a caller's text nor a platform's redirect can send it anywhere else.
 * - A thrown fetch is a typed failure, never a 500: a network error (the platform unreachable,
 *   the connection cut) is `upstream-failed`, retryable, since a Worker cannot tell a refusal
 *   from a passing fault in a thrown fetch (a platform that refuses us answers, with a status
 *   the extractor reads as `upstream-blocked`); a `ForeignHostError` (the platform redirected us
 *   off its hosts, or the extractor built a URL on a host it does not declare) and any other
 *   throw from the extractor's reading are `extractor-outdated`, since both mean the answer is
 *   not the shape the extractor was written for. Only the handler's own time limit (its signal
 *   aborted) is thrown on, for the gateway to answer.
 * - `extractor-outdated` is logged with the platform, what was missing and a SHA-256 prefix of
 *   the canonical URL, so it can be reproduced without logging what the caller asked for.
 * - A post's thumbnail off the platform's media and image hosts (`pictureHosts`) is answered as
 *   null, and a profile whose picture is off them is `extractor-outdated`: the envelope promises
 *   the platform's URLs, and a page's text (og:image, a poster attribute) must not name another.
 * - Successful extractions are kept in KV by canonical URL for a few minutes (cache.ts), but
 *   live, not a post with media bound to the address that asked (YouTube's googlevideo `ip=`):
 *   KV is global, and a post read from another location's address would hand this one's tunnel
 *   URLs it cannot fetch (decision 052). Fake mode's bound media are served inside every Worker.
 * - In fake mode the recorded CDNs exist only inside the Worker, so every media is marked
 *   `boundToRequester`, and so are a thumbnail and a profile picture on the platform's media
 *   hosts: the API answers tunnel URLs, and the live demo's links and images work in a browser.
 *   A picture elsewhere (YouTube's i.ytimg.com, which the fakes do not record and the tunnel
 *   does not serve) stays as it is. Live, nothing is marked here: the extractors say what is bound.
 */
import type { Config } from "~workers/config";
import {
  PLATFORM_NAMES,
  type Extraction,
  type ExtractionFailure,
  type Platform,
  type PostRef,
  type ProfileExtraction,
  type SocialMedia,
} from "~workers/hosted/capabilities";
import { sha256Hex } from "~workers/platform/ids";
import { lazyFetch } from "../fakes";
import { readCachedPost, writeCachedPost } from "./cache";
import { facebookExtractor } from "./facebook";
import { instagramExtractor } from "./instagram";
import { linkedinExtractor } from "./linkedin";
import { pinterestExtractor } from "./pinterest";
import { xExtractor } from "./x";
import { youtubeExtractor } from "./youtube";
import {
  ForeignHostError,
  hostGuardedFetch,
  hostMatches,
  outdated,
  type ExtractorDeps,
  type PlatformExtractor,
} from "./extractor";

/** A platform module's factory (`youtubeExtractor`, `instagramExtractor`, …). */
export type ExtractorFactory = (deps: ExtractorDeps) => PlatformExtractor;

/** Each platform's factory and the base URLs it is given, by the names its module reads. */
export interface ExtractorPlan {
  platform: Platform;
  factory: ExtractorFactory;
  baseUrls: Record<string, string>;
}

export type SocialConfig = Pick<
  Config,
  | "SOCIAL_PROVIDER"
  | "YOUTUBE_BASE_URL"
  | "INSTAGRAM_BASE_URL"
  | "FACEBOOK_BASE_URL"
  | "X_SYNDICATION_URL"
  | "X_API_URL"
  | "LINKEDIN_BASE_URL"
  | "PINTEREST_BASE_URL"
>;

/**
 * The platform modules' factories. A platform missing here is not read in this build: its
 * posts are refused by `extract` with a thrown error (a defect of ours, answered 502).
 */
export const EXTRACTOR_FACTORIES: Partial<Record<Platform, ExtractorFactory>> = {
  youtube: youtubeExtractor,
  instagram: instagramExtractor,
  facebook: facebookExtractor,
  x: xExtractor,
  linkedin: linkedinExtractor,
  pinterest: pinterestExtractor,
};

const trimmed = (url: string) => url.replace(/\/+$/, "");

/** The base URLs each platform module is given (common14: youtube {www}, x {syndication, api}, …). */
export function platformBaseUrls(config: SocialConfig): Record<Platform, Record<string, string>> {
  return {
    youtube: { www: trimmed(config.YOUTUBE_BASE_URL) },
    instagram: { www: trimmed(config.INSTAGRAM_BASE_URL) },
    facebook: { www: trimmed(config.FACEBOOK_BASE_URL) },
    x: { syndication: trimmed(config.X_SYNDICATION_URL), api: trimmed(config.X_API_URL) },
    linkedin: { www: trimmed(config.LINKEDIN_BASE_URL) },
    pinterest: { www: trimmed(config.PINTEREST_BASE_URL) },
  };
}

/** The Worker's SocialMedia: the platforms themselves, or their recorded fakes (reached only through loadFakes()). */
export function socialMediaFor(
  config: SocialConfig,
  kv: KVNamespace,
  factories: Partial<Record<Platform, ExtractorFactory>> = EXTRACTOR_FACTORIES,
): SocialMedia {
  // Composed on first use: the gateway makes its services for every call, and composing the six
  // extractors was a measurable part of each call's CPU (#17) though few calls are the downloader's.
  let composed: SocialMedia | undefined;
  const media = (): SocialMedia => {
    if (composed) return composed;
    const live = config.SOCIAL_PROVIDER === "live";
    const base: typeof fetch = live ? fetch : lazyFetch((fakes) => fakes.fakeSocialFetch());
    const baseUrls = platformBaseUrls(config);
    const plans = (Object.entries(factories) as [Platform, ExtractorFactory][]).map(([platform, factory]) => ({
      platform,
      factory,
      baseUrls: baseUrls[platform],
    }));
    composed = createSocialMedia({ plans, fetch: base, kv, bindAllMedia: !live });
    return composed;
  };
  return {
    extract: (ref, signal, options) => media().extract(ref, signal, options),
    profile: (username, signal) => media().profile(username, signal),
    openMedia: (url, init) => media().openMedia(url, init),
    mediaChunkBytes: (url) => media().mediaChunkBytes(url),
  };
}

class UpstreamUnreachableError extends Error {}

interface Composed {
  extractor: PlatformExtractor;
  /** Where its thumbnails and profile pictures may be (pictureHosts). */
  pictures: readonly string[];
  /** Fetch over the extractor's media hosts only (the tunnel's). */
  mediaFetch: typeof fetch;
}

/**
 * The composition itself, over any fetch (the real one, the fakes', a test's). `bindAllMedia`
 * marks every media `boundToRequester` (fake mode).
 */
export function createSocialMedia(options: {
  plans: readonly ExtractorPlan[];
  fetch: typeof fetch;
  kv: KVNamespace;
  bindAllMedia?: boolean;
}): SocialMedia {
  // Tells a network failure (the platform unreachable) from a throw of the extractor's own.
  const network: typeof fetch = async (input, init) => {
    try {
      return await options.fetch(input, init);
    } catch (error) {
      if (isAbort(error, init?.signal ?? (input instanceof Request ? input.signal : undefined))) throw error;
      throw new UpstreamUnreachableError(error instanceof Error ? error.message : String(error));
    }
  };
  const composed = new Map<Platform, Composed>();
  for (const plan of options.plans) {
    // The extractor declares its hosts, and its fetch is guarded by them: built after it.
    let guarded: typeof fetch = () => Promise.reject(new Error("extractor fetched while being built"));
    const extractor = plan.factory({ baseUrls: plan.baseUrls, fetch: (input, init) => guarded(input, init) });
    guarded = hostGuardedFetch(network, [...extractor.apiHosts, ...extractor.mediaHosts]);
    composed.set(plan.platform, {
      extractor,
      pictures: pictureHosts(extractor),
      mediaFetch: hostGuardedFetch(network, extractor.mediaHosts),
    });
  }
  const find = (platform: Platform): Composed => {
    const found = composed.get(platform);
    if (!found) throw new Error(`no extractor for ${platform} in this build`);
    return found;
  };

  return {
    async extract(ref, signal, extractOptions) {
      const { extractor, pictures } = find(ref.platform);
      const cached = extractOptions?.fresh ? null : await readCachedPost(options.kv, ref.url);
      if (cached) return { ok: true, post: cached };
      const extraction = await guard(ref.platform, signal, () => extractor.extract(ref, signal));
      const checked = await checkExtraction(extractor, pictures, ref, extraction, options.bindAllMedia === true);
      if (checked.ok && (options.bindAllMedia === true || !checked.post.media.some((item) => item.boundToRequester))) {
        await writeCachedPost(options.kv, ref.url, checked.post);
      }
      return checked;
    },
    async profile(username, signal): Promise<ProfileExtraction> {
      const { extractor, pictures } = find("instagram");
      if (!extractor.profile) throw new Error("the Instagram extractor reads no profiles in this build");
      const read = extractor.profile.bind(extractor);
      let result = await guard("instagram", signal, () => read(username, signal));
      if (result.ok && !isMediaUrl(result.profile.profilePic, pictures)) {
        // The answer names a picture off Instagram's hosts: not the shape the reader was written for.
        result = outdated("instagram", "a profile picture off its hosts");
      }
      if (result.ok && options.bindAllMedia && isMediaUrl(result.profile.profilePic, extractor.mediaHosts)) {
        return { ok: true, profile: { ...result.profile, profilePicBoundToRequester: true } };
      }
      if (!result.ok && result.kind === "extractor-outdated") {
        console.warn(
          `[social] extractor-outdated platform=instagram kind=profile url#=${await urlHash(username)} what=${result.what}`,
        );
      }
      return result;
    },
    mediaChunkBytes(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return null;
      }
      if (parsed.protocol !== "https:") return null;
      const owner = [...composed.values()].find(({ extractor }) => hostMatches(parsed.hostname, extractor.mediaHosts));
      return owner?.extractor.mediaChunkBytes ?? null;
    },
    async openMedia(url, init) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return null;
      }
      if (parsed.protocol !== "https:") return null;
      const owner = [...composed.values()].find(({ extractor }) => hostMatches(parsed.hostname, extractor.mediaHosts));
      if (!owner) return null;
      const headers = new Headers();
      if (init.range) headers.set("range", init.range);
      try {
        return await owner.mediaFetch(parsed.href, { method: init.method ?? "GET", headers, signal: init.signal });
      } catch (error) {
        if (isAbort(error, init.signal)) throw error;
        // A CDN that redirects off its own hosts, or cannot be reached: a gateway error to relay.
        console.warn(
          `[social] media fetch failed (${owner.extractor.platform}):`,
          error instanceof Error ? error.message : error,
        );
        return new Response(null, { status: 502 });
      }
    },
  };
}

/** Runs an extractor's call with its throws turned into typed failures (see the module's comment). */
async function guard<T extends Extraction | ProfileExtraction>(
  platform: Platform,
  signal: AbortSignal,
  run: () => Promise<T>,
): Promise<T | ExtractionFailure> {
  try {
    return await run();
  } catch (error) {
    if (isAbort(error, signal)) throw error;
    if (error instanceof UpstreamUnreachableError) {
      return {
        ok: false,
        kind: "upstream-failed",
        detail: `${PLATFORM_NAMES[platform]} could not be reached from our servers just now; try again in a moment.`,
      };
    }
    if (error instanceof ForeignHostError) return outdated(platform, `a fetch of ${error.host}, not one of its hosts`);
    return outdated(platform, `the reader threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * An extraction as the API may answer it: its media only on the platform's declared media
 * hosts over https (an answer naming any other host is not the platform's shape), never an
 * empty success, `extractor-outdated` logged.
 */
async function checkExtraction(
  extractor: PlatformExtractor,
  pictures: readonly string[],
  ref: PostRef,
  extraction: Extraction,
  bindAllMedia: boolean,
): Promise<Extraction> {
  let result = extraction;
  if (result.ok) {
    const media = result.post.media.filter((item) => isMediaUrl(item.url, extractor.mediaHosts));
    if (media.length < result.post.media.length) {
      console.warn(
        `[social] ${ref.platform} answered media off its media hosts, left out: url#=${await urlHash(ref.url)}`,
      );
    }
    if (media.length === 0) {
      result = outdated(
        ref.platform,
        result.post.media.length === 0 ? "no media in a successful answer" : "media only on hosts it does not declare",
      );
    } else {
      const marked = bindAllMedia ? media.map((item) => ({ ...item, boundToRequester: true })) : media;
      // A thumbnail off the platform's hosts is dropped, not answered: the envelope promises platform URLs.
      const thumbnail =
        result.post.thumbnail !== null && isMediaUrl(result.post.thumbnail, pictures) ? result.post.thumbnail : null;
      const thumbnailBound = bindAllMedia && thumbnail !== null && isMediaUrl(thumbnail, extractor.mediaHosts);
      result = {
        ok: true,
        post: {
          ...result.post,
          thumbnail,
          media: marked,
          ...(thumbnailBound && { thumbnailBoundToRequester: true }),
        },
      };
    }
  }
  if (!result.ok && result.kind === "extractor-outdated") {
    console.warn(
      `[social] extractor-outdated platform=${ref.platform} kind=${ref.kind} url#=${await urlHash(ref.url)} what=${result.what}`,
    );
  }
  return result;
}

/**
 * Where a post's thumbnail or a profile's picture may be: the platform's media hosts and the
 * image hosts its extractor declares (`imageHosts`), else its API hosts (a page's og:image on
 * the platform's own host).
 */
function pictureHosts(extractor: PlatformExtractor): readonly string[] {
  return [...extractor.mediaHosts, ...(extractor.imageHosts ?? extractor.apiHosts)];
}

function isMediaUrl(url: string, hosts: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && hostMatches(parsed.hostname, hosts);
  } catch {
    return false;
  }
}

/** The first 16 hex digits of the URL's SHA-256: enough to find the post again, without logging it. */
export async function urlHash(url: string): Promise<string> {
  return (await sha256Hex(url)).slice(0, 16);
}

function isAbort(error: unknown, signal: AbortSignal | null | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === "AbortError");
}
