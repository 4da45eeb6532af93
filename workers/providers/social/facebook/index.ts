/**
 * Facebook: a public video or reel read from its page as a logged-out browser gets it, as cobalt
 * and yt-dlp read it. The page's inline JSON (`<script type="application/json" data-sjs>`,
 * Relay's prefetched results) holds the Video object with its progressive MP4s:
 * `browser_native_hd_url` / `browser_native_sd_url` (also under `videoDeliveryLegacyFields`),
 * the older `playable_url_quality_hd` / `playable_url`, or the newer
 * `videoDeliveryResponseResult.progressive_urls`; pages of the old player carry
 * `hd_src` / `sd_src` in script text, read as a last resort. A page holds its related videos
 * too, so the Video whose id is the post's is taken, the first one only when the id is unknown.
 *
 * Share links (/share/v/…, /share/r/…, fb.watch/…) name no video: they are fetched and their
 * redirects followed, hop by hop and only onto Facebook's own hosts, to the video's page,
 * whose canonical URL gives the video's id.
 *
 * Facebook does not tell a private video from a deleted one: a logged-out visitor gets the same
 * "This content isn't available" page for both, so both are `content-unavailable`. A video it
 * serves only encrypted (licensed films and shows) is `drm-protected`.
 */
import type {
  ExtractedMedia,
  ExtractedPost,
  Extraction,
  ExtractionFailure,
  PostRef,
} from "~workers/hosted/capabilities";
import {
  type ExtractorDeps,
  failureFromStatus,
  ForeignHostError,
  hostGuardedFetch,
  isHttpsOn,
  MAX_PAGE_BYTES,
  outdated,
  type PlatformExtractor,
  readText,
} from "../extractor";
import { BROWSER_PAGE_HEADERS, decodeEntities, metaContent } from "../html";

const PUBLIC_ORIGIN = "https://www.facebook.com";
const MEDIA_HOSTS = [".fbcdn.net"] as const;
/** Hosts Facebook's own redirects use: its main host's other faces and the short-link host. */
// Constants, not configuration: fb.watch is the host of the link the caller pasted, and the
// platform picks where it and its other faces redirect (decision 054).
const FACEBOOK_HOSTS = ["www.facebook.com", "m.facebook.com", "web.facebook.com", "fb.watch"];
const ID = /^\d{1,25}$/;
const SHARE_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** The URL keys of a Video object, best first within each quality. */
const HD_KEYS = ["browser_native_hd_url", "playable_url_quality_hd", "hd_src", "hd_src_no_ratelimit"] as const;
const SD_KEYS = ["browser_native_sd_url", "playable_url", "sd_src", "sd_src_no_ratelimit"] as const;
const URL_KEYS: readonly string[] = [...HD_KEYS, ...SD_KEYS];

type Json = Record<string, unknown>;

/** A Video object found in the page, with the objects around it (nearest first) for its owner. */
interface Found {
  video: Json;
  ancestors: Json[];
}

export function facebookExtractor(deps: ExtractorDeps): PlatformExtractor {
  const www = baseUrl(deps, "www");
  const apiHosts = [...new Set([new URL(www).hostname, ...FACEBOOK_HOSTS])];
  // The fetch we are given (index.ts) admits Facebook's pages and its CDN; this guard, nested in
  // it, judges every hop of a page's or share link's redirects against the page hosts alone
  // (hostGuardedFetch hands a nested guard each 3xx), so no hop lands on the CDN as a page.
  const fetchGuarded = hostGuardedFetch(deps.fetch, apiHosts);

  const onMediaHost = (url: unknown): url is string => isHttpsOn(url, MEDIA_HOSTS);

  /** The page to fetch: the canonical URL's path on the configured host, fb.watch as it is. */
  function pageUrlOf(ref: PostRef): string | null {
    const url = new URL(ref.url);
    if (ref.kind === "share") {
      if (!SHARE_TOKEN.test(ref.id)) return null;
      if (url.hostname === "fb.watch") return `https://fb.watch/${ref.id}/`;
      const kind = /^\/share\/([vr])\//.exec(url.pathname)?.[1];
      return kind ? `${www}/share/${kind}/${ref.id}/` : null;
    }
    if (!ID.test(ref.id)) return null;
    return `${www}${url.pathname}${url.search}`;
  }

  function mediaOf(video: Json): ExtractedMedia[] {
    const fields = [video, asObject(video.videoDeliveryLegacyFields)].filter((value): value is Json => value !== null);
    const pick = (keys: readonly string[]) => {
      for (const object of fields) for (const key of keys) if (onMediaHost(object[key])) return object[key] as string;
      return null;
    };
    let hd = pick(HD_KEYS);
    let sd = pick(SD_KEYS);
    const progressive = asObject(
      asObject(video.videoDeliveryResponseFragment)?.videoDeliveryResponseResult,
    )?.progressive_urls;
    for (const entry of Array.isArray(progressive) ? progressive : []) {
      const url = asObject(entry)?.progressive_url;
      const quality = String(asObject(asObject(entry)?.metadata)?.quality ?? "").toLowerCase();
      if (!onMediaHost(url)) continue;
      if (quality === "hd") hd ??= url;
      else sd ??= url;
    }
    const width = integer(video.original_width) ?? integer(video.width);
    const height = integer(video.original_height) ?? integer(video.height);
    const media: ExtractedMedia[] = [];
    // Facebook labels its two progressive files HD and SD; only HD's size is in the page (the
    // video's own), SD's is Facebook's choice of a smaller one.
    if (hd) media.push({ url: hd, type: "video", quality: "HD", width, height, mimeType: "video/mp4", hasAudio: true });
    if (sd && sd !== hd) {
      const sdOnly = !hd;
      media.push({
        url: sd,
        type: "video",
        quality: "SD",
        width: sdOnly ? width : null,
        height: sdOnly ? height : null,
        mimeType: "video/mp4",
        hasAudio: true,
      });
    }
    return media;
  }

  function postOf(
    id: string,
    found: Found,
    media: ExtractedMedia[],
    html: string,
    canonical: string | null,
  ): ExtractedPost {
    const { video, ancestors } = found;
    const owner = [video, ...ancestors]
      .flatMap((object) => [
        asObject(object.owner),
        asObject(object.video_owner),
        asObject(asObject(object.short_form_video_context)?.video_owner),
      ])
      .find((candidate) => typeof candidate?.name === "string");
    const ownerUrl = typeof owner?.url === "string" && isFacebookUrl(owner.url) ? owner.url : null;
    const handle = handleOf(ownerUrl) ?? handleOf(canonical);
    const thumbnail = [
      asObject(asObject(video.preferred_thumbnail)?.image)?.uri,
      asObject(video.thumbnailImage)?.uri,
      metaContent(html, "og:image"),
    ].find(onMediaHost);
    const durationMs = numberOf(video.playable_duration_in_ms);
    const durationSec = durationMs !== null ? durationMs / 1000 : numberOf(video.length_in_second);
    const title =
      (typeof video.name === "string" && video.name) ||
      (typeof asObject(video.title)?.text === "string" && (asObject(video.title)?.text as string)) ||
      (metaContent(html, "og:title") ?? "").replace(/\s*\|\s*Facebook$/, "") ||
      null;
    return {
      platform: "facebook",
      id,
      title,
      author: {
        name: typeof owner?.name === "string" ? owner.name : null,
        handle,
        url:
          ownerUrl ??
          (handle
            ? `${PUBLIC_ORIGIN}/${handle}`
            : typeof owner?.id === "string"
              ? `${PUBLIC_ORIGIN}/${owner.id}`
              : null),
      },
      thumbnail: thumbnail ?? null,
      durationSec,
      media,
    };
  }

  return {
    platform: "facebook",
    apiHosts,
    mediaHosts: MEDIA_HOSTS,

    async extract(ref: PostRef, signal: AbortSignal): Promise<Extraction> {
      const pageUrl = pageUrlOf(ref);
      if (!pageUrl) return unavailable("Facebook has no video at that link.");
      let response: Response;
      try {
        response = await fetchGuarded(pageUrl, { headers: BROWSER_PAGE_HEADERS, signal });
      } catch (error) {
        if (!(error instanceof ForeignHostError)) throw error;
        // A share link may lead anywhere a post links to; we follow it only on Facebook.
        if (ref.kind === "share")
          return unavailable("That Facebook link leads away from Facebook, not to a video on it.");
        return outdated("facebook", `redirect to ${error.host}`);
      }
      if (response.status === 429) {
        await response.body?.cancel();
        return failureFromStatus("facebook", response);
      }
      const html = await readText(response, MAX_PAGE_BYTES);
      if (response.status === 404 || response.status === 410) return unavailable();
      if (!response.ok) return failureFromStatus("facebook", response);

      const canonical = canonicalUrlOf(html, response.url);
      const targetId = ref.kind === "share" ? idOf(canonical) : ref.id;
      const videos = findVideos(html);
      const readable = videos
        .map((found) => ({ found, media: mediaOf(found.video) }))
        .filter((entry) => entry.media.length > 0);
      const chosen =
        readable.find((entry) => targetId !== null && videoIdOf(entry.found.video) === targetId) ?? readable[0];
      if (chosen) {
        const id = targetId ?? videoIdOf(chosen.found.video);
        if (id) return { ok: true, post: postOf(id, chosen.found, chosen.media, html, canonical) };
      }
      const legacy = legacyMedia(html).filter((item) => onMediaHost(item.url));
      if (legacy.length > 0 && targetId) {
        return { ok: true, post: postOf(targetId, { video: {}, ancestors: [] }, legacy, html, canonical) };
      }
      // No file we can give: a licensed video Facebook serves only encrypted is refused as DRM,
      // not logged as a page we no longer read.
      const target = videos.find((found) => targetId !== null && videoIdOf(found.video) === targetId) ?? videos[0];
      if (target && isDrmProtected(target.video)) {
        return {
          ok: false,
          kind: "drm-protected",
          detail: "This Facebook video is protected by DRM: it cannot be downloaded.",
        };
      }
      return failureOfPage(html, videos.length > 0);
    },
  };
}

/**
 * Whether a Video object is served only encrypted: its `is_drm` flag, or a DASH manifest it
 * carries (where yt-dlp reads them: `dash_manifest`, `dash_manifest_xml_string`, `manifest_xml`,
 * the delivery result's `dash_manifests[].manifest_xml`) declaring Common Encryption with a
 * `<ContentProtection>` element, the standard DASH mark of DRM (yt-dlp percent-decodes these
 * manifests first, so the element is looked for percent-encoded too). Asked only when the video has no
 * progressive file we read: a flagged video with a clear progressive file is still read.
 */
function isDrmProtected(video: Json): boolean {
  const objects = [video, asObject(video.videoDeliveryLegacyFields)].filter((value): value is Json => value !== null);
  if (objects.some((object) => object.is_drm === true)) return true;
  const result = asObject(asObject(video.videoDeliveryResponseFragment)?.videoDeliveryResponseResult);
  const manifests = [
    ...objects.flatMap((object) => [object.dash_manifest, object.dash_manifest_xml_string, object.manifest_xml]),
    ...(Array.isArray(result?.dash_manifests) ? result.dash_manifests : []).map(
      (entry) => asObject(entry)?.manifest_xml,
    ),
  ];
  return manifests.some((manifest) => typeof manifest === "string" && /(?:<|%3C)ContentProtection\b/i.test(manifest));
}

/** Why a page without a video we can read has none, from what it says. */
function failureOfPage(html: string, hasVideoObject: boolean): ExtractionFailure {
  const text = html.replace(/&#0?39;|&#x27;|\\u2019/g, "'").replace(/’/g, "'");
  if (/You're Temporarily Blocked|you were misusing this feature by going too fast/i.test(text)) {
    return {
      ok: false,
      kind: "upstream-rate-limited",
      detail: "Facebook is limiting how often we may ask; try again later.",
    };
  }
  if (/This content isn't available|This video isn't available|The link you followed may be broken/i.test(text)) {
    return unavailable();
  }
  if (/>You must log in to continue|id="login_form"|id="loginbutton"/.test(text)) {
    return {
      ok: false,
      kind: "login-required",
      detail: "Facebook asks for a signed-in user before it shows this video.",
    };
  }
  return outdated(
    "facebook",
    hasVideoObject ? "Video without browser_native_hd_url/sd_url" : "page without a Video object",
  );
}

function unavailable(
  detail = "Facebook says this video is not available: it was deleted, or its owner shares it only with some people.",
): ExtractionFailure {
  return { ok: false, kind: "content-unavailable", detail };
}

/** Every object of the page's inline JSON carrying a video URL key (directly or in its legacy fields). */
function findVideos(html: string): Found[] {
  const found: Found[] = [];
  const blobs = html.matchAll(/<script type="application\/json"[^>]*>([\s\S]*?)<\/script>/g);
  const walk = (value: unknown, ancestors: Json[], depth: number): void => {
    if (depth > 80 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, ancestors, depth + 1);
      return;
    }
    const object = value as Json;
    const carries = (candidate: Json | null) =>
      candidate !== null && URL_KEYS.some((key) => typeof candidate[key] === "string");
    const isVideo =
      carries(object) ||
      carries(asObject(object.videoDeliveryLegacyFields)) ||
      asObject(object.videoDeliveryResponseFragment) !== null ||
      (object.__typename === "Video" && ("playable_duration_in_ms" in object || "videoId" in object));
    if (isVideo) found.push({ video: object, ancestors });
    for (const [key, child] of Object.entries(object)) {
      // A video's own delivery fields are read with it, not found again as another video.
      if (isVideo && (key === "videoDeliveryLegacyFields" || key === "videoDeliveryResponseFragment")) continue;
      walk(child, [object, ...ancestors], depth + 1);
    }
  };
  for (const blob of blobs) {
    try {
      walk(JSON.parse(blob[1] ?? ""), [], 0);
    } catch {
      // A script that is not JSON is not one of the page's data blobs.
    }
  }
  // Keep only the innermost of nested matches (a story carrying a video's keys through a child).
  return found.filter((entry) => !found.some((other) => other !== entry && other.ancestors.includes(entry.video)));
}

/** The old player's `hd_src` / `sd_src` (and the native keys) in script text that is not JSON. */
function legacyMedia(html: string): ExtractedMedia[] {
  const first = (keys: readonly string[]) => {
    for (const key of keys) {
      const literal = new RegExp(`"?${key}"?\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(html)?.[1];
      if (!literal) continue;
      try {
        const value: unknown = JSON.parse(literal);
        if (typeof value === "string" && value) return value;
      } catch {
        // not a JSON string literal: keep looking
      }
    }
    return null;
  };
  const hd = first(HD_KEYS);
  const sd = first(SD_KEYS);
  const media: ExtractedMedia[] = [];
  if (hd)
    media.push({
      url: hd,
      type: "video",
      quality: "HD",
      width: null,
      height: null,
      mimeType: "video/mp4",
      hasAudio: true,
    });
  if (sd && sd !== hd)
    media.push({
      url: sd,
      type: "video",
      quality: "SD",
      width: null,
      height: null,
      mimeType: "video/mp4",
      hasAudio: true,
    });
  return media;
}

/** The page's canonical URL: where its response came from if a redirect told us, else its `<link rel="canonical">` or og:url. */
function canonicalUrlOf(html: string, responseUrl: string): string | null {
  const link = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
  const candidates = [responseUrl, link && decodeEntities(link), metaContent(html, "og:url")];
  for (const url of candidates) {
    if (url && isFacebookUrl(url) && idOf(url)) return url;
  }
  return null;
}

/** A video's id from a Facebook URL: /<page>/videos/[<title>/]<id>, /reel/<id>, /watch/?v=<id>, /video.php?v=<id>. */
function idOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    const v = parsed.searchParams.get("v");
    if ((parsed.pathname.startsWith("/watch") || parsed.pathname === "/video.php") && v && ID.test(v)) return v;
    const segments = parsed.pathname.split("/").filter(Boolean);
    if (segments[0] === "reel" && segments[1] && ID.test(segments[1])) return segments[1];
    if (segments[1] === "videos") return [...segments.slice(2)].reverse().find((segment) => ID.test(segment)) ?? null;
    return null;
  } catch {
    return null;
  }
}

/** A page's name from its URL (`NASA` of https://www.facebook.com/NASA/videos/…), not a path Facebook uses itself. */
function handleOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const first = new URL(url).pathname.split("/").filter(Boolean)[0];
    if (
      !first ||
      ["watch", "reel", "video.php", "share", "profile.php", "story.php", "groups", "people"].includes(first)
    )
      return null;
    return /^[A-Za-z0-9.-]{1,80}$/.test(first) ? first : null;
  } catch {
    return null;
  }
}

function isFacebookUrl(url: string): boolean {
  return isHttpsOn(url, [".facebook.com"]);
}

function videoIdOf(video: Json): string | null {
  for (const key of ["videoId", "id", "video_id"]) {
    const value = video[key];
    if ((typeof value === "string" || typeof value === "number") && ID.test(String(value))) return String(value);
  }
  return null;
}

function asObject(value: unknown): Json | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
}

function numberOf(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;
}

function baseUrl(deps: ExtractorDeps, name: string): string {
  const url = deps.baseUrls[name];
  if (!url) throw new Error(`the Facebook extractor needs baseUrls.${name}`);
  return url.replace(/\/+$/, "");
}
