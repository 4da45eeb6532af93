/**
 * LinkedIn posts, read from the public embed of the post (`/embed/feed/update/urn:li:<kind>:<id>`,
 * not the activity page the issue names: decision 054 says why):
 * the card LinkedIn renders for logged-out visitors of other sites, so it needs no account and
 * no slug (a `/feed/update/` link has none), and it carries what yt-dlp reads on the public post
 * page: the `<video data-sources>` JSON of progressive renditions (`{src, type, data-bitrate}`)
 * with `data-poster-url`, or the post's images in its `feed-images-content` list.
 *
 * LinkedIn answers a refused visitor by redirecting to its sign-in wall (`/authwall`), and a
 * client it blocks outright with the non-standard status 999.
 */
import type { ExtractedMedia, Extraction, ExtractionFailure, PostRef } from "~workers/hosted/capabilities";
import {
  type ExtractorDeps,
  failureFromStatus,
  hostGuardedFetch,
  MAX_PAGE_BYTES,
  outdated,
  type PlatformExtractor,
  readText,
} from "../extractor";
import { attribute, BROWSER_PAGE_HEADERS, decodeEntities, metaContent } from "../html";

const URN_KINDS = new Set(["activity", "ugcPost", "share"]);

export function linkedinExtractor(deps: ExtractorDeps): PlatformExtractor {
  const www = deps.baseUrls.www ?? "https://www.linkedin.com";
  const apiHosts = [new URL(www).hostname];
  // The fetch we are given (index.ts) also admits LinkedIn's CDN; this guard, nested in it,
  // judges every hop of a redirect (the sign-in wall's among them) against the page host alone.
  const fetchPage = hostGuardedFetch(deps.fetch, apiHosts);
  return {
    platform: "linkedin",
    apiHosts,
    mediaHosts: [".licdn.com"],
    async extract(ref: PostRef, signal: AbortSignal): Promise<Extraction> {
      if (!/^\d{1,25}$/.test(ref.id)) return gone();
      const kind = URN_KINDS.has(ref.kind) ? ref.kind : "activity";
      const response = await fetchPage(`${www}/embed/feed/update/urn:li:${kind}:${ref.id}`, {
        signal,
        // LinkedIn serves its guest pages to browsers; a bare client is more often walled.
        headers: BROWSER_PAGE_HEADERS,
      });
      if (response.status === 999) {
        await response.body?.cancel();
        return {
          ok: false,
          kind: "upstream-blocked",
          detail: "LinkedIn refuses requests from our servers (its status 999).",
        };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        return failureFromStatus("linkedin", response);
      }
      if (isSignInPath(response.url)) {
        await response.body?.cancel();
        return signInWall();
      }
      return readEmbed(ref.id, await readText(response, MAX_PAGE_BYTES));
    },
  };
}

/** The post's media and facts from the embed card's HTML. */
export function readEmbed(id: string, html: string): Extraction {
  if (isSignInPage(html)) return signInWall();
  const card = /data-test-id="main-feed-activity(?:-embed)?-card__commentary"|data-activity-urn="urn:li:/.test(html);
  const video = videoOf(html);
  if (video && !video.ok) return video;
  const media: ExtractedMedia[] = video?.media ?? imagesOf(html);
  if (media.length === 0) {
    // A card we recognise with neither video nor image is a text post: nothing to download.
    // Without the card's markers the page is not the shape we read.
    return card
      ? { ok: false, kind: "content-unavailable", detail: "This LinkedIn post has no video or image." }
      : outdated("linkedin", "embed card (commentary, video or images)");
  }
  const actor =
    /<a\b[^>]*data-tracking-control-name="public_post_(?:embed_)?feed-actor-name"[^>]*>([\s\S]*?)<\/a>/.exec(html);
  const actorHref = actor ? attribute(actor[0], "href") : null;
  const handle = actorHref
    ? /\/(in|company|school|showcase)\/([^/?#]+)/.exec(new URL(actorHref, "https://www.linkedin.com").pathname)
    : null;
  const commentary = /<p\b[^>]*data-test-id="main-feed-activity(?:-embed)?-card__commentary"[^>]*>([\s\S]*?)<\/p>/.exec(
    html,
  )?.[1];
  return {
    ok: true,
    post: {
      platform: "linkedin",
      id,
      title: commentary ? textOf(commentary) || null : metaContent(html, "og:title"),
      author: {
        name: actor?.[1] ? textOf(actor[1]) || null : null,
        handle: handle?.[2] ? decodeURIComponent(handle[2]) : null,
        url: handle ? `https://www.linkedin.com/${handle[1]}/${handle[2]}` : null,
      },
      thumbnail: video?.poster ?? media.find((item) => item.type === "image")?.url ?? metaContent(html, "og:image"),
      durationSec: null,
      media,
    },
  };
}

type VideoRead = { ok: true; media: ExtractedMedia[]; poster: string | null } | ExtractionFailure;

/**
 * The `<video data-sources>` renditions in LinkedIn's order (the handler ranks them), all of the
 * post's one item; null when the post has no video.
 */
function videoOf(html: string): VideoRead | null {
  const tag = /<video\b[^>]*>/.exec(html)?.[0];
  if (!tag) return null;
  const raw = attribute(tag, "data-sources");
  let sources: unknown;
  try {
    sources = raw ? JSON.parse(raw) : null;
  } catch {
    sources = null;
  }
  if (!Array.isArray(sources)) return outdated("linkedin", "video data-sources");
  const media: ExtractedMedia[] = [];
  for (const source of sources as unknown[]) {
    if (typeof source !== "object" || source === null) continue;
    const { src, type, "data-bitrate": bitrate } = source as Record<string, unknown>;
    // Progressive files only: an HLS playlist is no file a client can fetch with one GET.
    if (typeof src !== "string" || !src.startsWith("https://")) continue;
    const mimeType = typeof type === "string" ? type : "video/mp4";
    if (!mimeType.startsWith("video/")) continue;
    // The rendition's name (`mp4-720p-30fp-crf28`) is LinkedIn's label; it does not say which
    // side it measures (a `640p` sits between 360p and 720p), so no width or height is claimed.
    const label = /\/mp4-(\d+)p-/.exec(src)?.[1];
    media.push({
      url: src,
      type: "video",
      quality: label ? `${label}p` : typeof bitrate === "number" ? `${Math.round(bitrate / 1000)}k` : null,
      width: null,
      height: null,
      mimeType,
      hasAudio: true,
      ...(typeof bitrate === "number" && bitrate > 0 ? { bitrate } : {}),
    });
  }
  if (media.length === 0) return outdated("linkedin", "video data-sources without a progressive file");
  return { ok: true, media, poster: attribute(tag, "data-poster-url") };
}

/** The post's own images (the `feed-images-content` list), once each, in the post's order, one item each. */
function imagesOf(html: string): ExtractedMedia[] {
  const start = html.indexOf('data-test-id="feed-images-content"');
  if (start < 0) return [];
  const end = html.indexOf("</ul>", start);
  const block = html.slice(start, end < 0 ? undefined : end);
  const seen = new Set<string>();
  const media: ExtractedMedia[] = [];
  for (const [tag] of block.matchAll(/<img\b[^>]*>/g)) {
    const url = attribute(tag, "data-delayed-url") ?? attribute(tag, "src");
    if (!url?.startsWith("https://") || seen.has(url)) continue;
    seen.add(url);
    // LinkedIn's image URLs carry no extension; its feed images are JPEG.
    media.push({
      item: media.length,
      url,
      type: "image",
      quality: null,
      width: null,
      height: null,
      mimeType: "image/jpeg",
      hasAudio: false,
    });
  }
  return media;
}

/** Where LinkedIn sends a visitor it wants signed in. */
function isSignInPath(url: string): boolean {
  if (!url) return false;
  return /^\/(authwall|login|uas\/login|checkpoint|signup)\b/.test(new URL(url).pathname);
}

/**
 * The sign-in wall's page, for when the redirect's address is not at hand: only a sign-in page
 * asks for a password (a post's card links to sign-in, but has no such field).
 */
function isSignInPage(html: string): boolean {
  if (/<input\b[^>]*type="password"/.test(html)) return true;
  // The title is read whole, then its words looked for: a post's title carries its author's
  // words, and `[^<]*(Sign In|…)[^<]*\| LinkedIn` in one pattern backtracks over a run of them.
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
  return title !== undefined && /\| LinkedIn\s*$/.test(title) && /Sign Up|Sign In|Log In/i.test(title);
}

function signInWall(): ExtractionFailure {
  return { ok: false, kind: "login-required", detail: "LinkedIn shows this post only to signed-in members." };
}

function gone(): ExtractionFailure {
  return {
    ok: false,
    kind: "content-unavailable",
    detail: "LinkedIn has no such post: it was deleted or never existed.",
  };
}

/** Markup to its text: tags dropped, `<br>` as a space, entities decoded, whitespace collapsed. */
function textOf(markup: string): string {
  return decodeEntities(markup.replace(/<br\s*\/?>/gi, " ").replace(/<[^>]+>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}
