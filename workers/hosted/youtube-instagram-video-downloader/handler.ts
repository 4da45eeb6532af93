/**
 * The caller's URL → the post's media, in one envelope for every platform (decision 051):
 * recognised (recognise.ts) before anything is fetched, read by the platform's extractor
 * (ctx.social), arranged for the asked quality best first, and each media bound to the
 * requester's address replaced by a tunnel URL on our host (decision 052).
 */
import {
  PLATFORM_NAMES,
  type ExtractedMedia,
  type ExtractedPost,
  type ExtractionFailure,
  type PostRef,
} from "../capabilities";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { recognisePostUrl } from "./recognise";
import type { DownloadAnswer, DownloadInput, Media } from "./schema";

/** When the platform throttled us without saying for how long. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

export type Download = { ok: true; answer: DownloadAnswer } | { ok: false; problem: HandlerResult };

export async function handleDownload(input: DownloadInput, ctx: OperationContext): Promise<HandlerResult> {
  const outcome = await downloadMedia(input, ctx);
  return outcome.ok ? json(outcome.answer) : outcome.problem;
}

/** The whole call, as a value: the older path (`POST /api/download/videos`) shapes the same outcome its own way. */
export async function downloadMedia(input: DownloadInput, ctx: OperationContext): Promise<Download> {
  const recognised = recognisePostUrl(input.url);
  if (!recognised.ok) {
    return {
      ok: false,
      problem: problemResult("unsupported-url", recognised.reason, { errors: { url: recognised.reason } }),
    };
  }
  const { ref } = recognised;
  const extraction = await ctx.social.extract(ref, ctx.signal);
  if (!extraction.ok) return { ok: false, problem: failureProblem(extraction, ref.platform, ref.id) };
  const post = extraction.post;
  const media = arrangeMedia(post.media, input);
  if (media.length === 0) {
    return {
      ok: false,
      problem: problemResult(
        "content-unavailable",
        `This ${PLATFORM_NAMES[post.platform]} post has no sound to answer: it holds only images or silent video.`,
        { platform: post.platform, id: post.id },
      ),
    };
  }
  const answered = await Promise.all(media.map((item, index) => answerMedia(ref, post, item, index, ctx)));
  return {
    ok: true,
    answer: {
      platform: post.platform,
      id: post.id,
      title: post.title,
      author: post.author,
      thumbnail:
        post.thumbnail === null
          ? null
          : await answerPicture(
              post.thumbnail,
              post.thumbnailBoundToRequester,
              `${post.platform}-${post.id}-thumbnail`,
              ctx,
            ),
      durationSec: post.durationSec,
      media: answered,
    },
  };
}

/**
 * The media the caller asked for: the post's items in its order (`item`, absent = 0: a
 * carousel's or a thread's items are separate, a video's renditions share one), and within
 * each item its renditions best first (arrangeItem). Every item keeps its place whatever the
 * quality: a cap never drops a whole item, as an item all of whose videos are too large keeps
 * its smallest. Only `audioOnly` may leave an item out, when it has no sound at all.
 */
export function arrangeMedia(
  media: readonly ExtractedMedia[],
  input: Pick<DownloadInput, "quality" | "audioOnly">,
): ExtractedMedia[] {
  const items = Map.groupBy(media, (entry) => entry.item ?? 0);
  return [...items.keys()].sort((a, b) => a - b).flatMap((item) => arrangeItem(items.get(item) ?? [], input));
}

/**
 * One item's renditions, best first (the docs say this rule):
 * - a video's size is its short side, min(width, height), when both are known (a 720×1280
 *   vertical video is 720p, as X, Instagram and YouTube label it), else the number in its
 *   quality label (`720p`, `1080p60`, `mp4-640p`; `SD`, `HD` or `832k` say none), else unknown;
 * - videos by size, unknown after known; at equal sizes (or both unknown) a file with sound
 *   before one without (a muxed 360p before a video-only 360p: it plays as it is), then
 *   bitrate, then size in bytes;
 * - then audio by bitrate, then size; then images in the post's own order;
 * - `quality` 1080/720/480/360 keeps the videos of a known size up to that; when none fits, the
 *   videos of unknown size (one may be the small file asked for, as Facebook's SD, which comes
 *   with no dimensions), and when there are none, the smallest known one, so the caller still
 *   gets the video; audio and images stay;
 * - `audioOnly` (or `quality: audio`) answers the audio streams, or, where the item has none,
 *   its videos that carry sound.
 * Sorting is stable, so media the rule cannot tell apart keep the platform's order.
 */
function arrangeItem(media: readonly ExtractedMedia[], input: Pick<DownloadInput, "quality" | "audioOnly">) {
  const videos = media
    .filter((item) => item.type === "video")
    .map((item) => ({ item, size: videoSize(item) }))
    .sort(byVideoRank);
  const audio = media.filter((item) => item.type === "audio").sort(byAudioRank);
  const images = media.filter((item) => item.type === "image");
  if (input.audioOnly || input.quality === "audio") {
    return audio.length > 0 ? audio : videos.map(({ item }) => item).filter((item) => item.hasAudio);
  }
  if (input.quality === "best") return [...videos.map(({ item }) => item), ...audio, ...images];
  const limit = Number(input.quality);
  const known = videos.filter((video) => video.size !== null);
  const fitting = known.filter((video) => video.size !== null && video.size <= limit);
  const unknown = videos.filter((video) => video.size === null);
  const smallest = known.at(-1);
  const chosen = fitting.length > 0 ? fitting : unknown.length > 0 || !smallest ? unknown : [smallest];
  return [...chosen.map(({ item }) => item), ...audio, ...images];
}

/** A video's size as the quality rule reads it (see arrangeMedia), or null when unknown. */
export function videoSize(item: Pick<ExtractedMedia, "width" | "height" | "quality">): number | null {
  if (item.width !== null && item.height !== null) return Math.min(item.width, item.height);
  const label = /(?<!\d)(\d{2,4})p(?![a-z])/i.exec(item.quality ?? "");
  return label ? Number(label[1]) : null;
}

interface SizedVideo {
  item: ExtractedMedia;
  size: number | null;
}

function byVideoRank(a: SizedVideo, b: SizedVideo): number {
  return (
    (b.size ?? -1) - (a.size ?? -1) ||
    Number(b.item.hasAudio) - Number(a.item.hasAudio) ||
    (b.item.bitrate ?? 0) - (a.item.bitrate ?? 0) ||
    (b.item.sizeBytes ?? 0) - (a.item.sizeBytes ?? 0)
  );
}

function byAudioRank(a: ExtractedMedia, b: ExtractedMedia): number {
  return (b.bitrate ?? 0) - (a.bitrate ?? 0) || (b.sizeBytes ?? 0) - (a.sizeBytes ?? 0);
}

const EXTENSIONS: Record<string, string> = {
  "video/mp4": "mp4",
  "video/webm": "webm",
  "audio/mp4": "m4a",
  "audio/webm": "webm",
  "audio/mpeg": "mp3",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
};

/** One media as answered: the platform's URL, or a tunnel URL where the platform's works only from our address. */
async function answerMedia(
  ref: PostRef,
  post: ExtractedPost,
  item: ExtractedMedia,
  index: number,
  ctx: OperationContext,
): Promise<Media> {
  const mimeType = item.mimeType;
  let url = item.url;
  if (item.boundToRequester) {
    const essence = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
    const extension = EXTENSIONS[essence] ?? essence.split("/")[1] ?? "bin";
    const label = (item.quality ?? item.type).replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
    url = await ctx.tunnelUrl(item.url, {
      mimeType,
      filename: `${post.platform}-${post.id}-${index + 1}${label ? `-${label}` : ""}.${extension}`,
      // A rendition the extractor names can be asked for again when its URL is refused from the tunnel's address.
      ...(item.formatId !== undefined && { source: { ref, formatId: item.formatId } }),
    });
  }
  return {
    item: item.item ?? 0,
    url,
    type: item.type,
    quality: item.quality,
    width: item.width,
    height: item.height,
    mimeType,
    hasAudio: item.hasAudio,
    ...(item.sizeBytes !== undefined && { sizeBytes: item.sizeBytes }),
  };
}

/**
 * A post's thumbnail or a profile's picture as answered: the platform's URL, or a tunnel URL
 * where it is marked bound (fake mode's recorded CDNs, which exist only inside the Worker). Its
 * type is read from the path's extension, else JPEG (what the platforms serve pictures as); the
 * tunnel answers with that type.
 */
export async function answerPicture(
  url: string,
  bound: boolean | undefined,
  name: string,
  ctx: Pick<OperationContext, "tunnelUrl">,
): Promise<string> {
  if (!bound) return url;
  const extension = /\.(png|webp|gif)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? "jpg";
  return ctx.tunnelUrl(url, {
    mimeType: extension === "jpg" ? "image/jpeg" : `image/${extension}`,
    filename: `${name}.${extension}`,
  });
}

/**
 * A typed failure as the API's problem; none counts (decision 051): each type is marked
 * uncounted, and `upstream-failed` is a 502, which the gateway never counts.
 */
export function failureProblem(failure: ExtractionFailure, platform: string, id: string): HandlerResult {
  const about = { platform, id };
  switch (failure.kind) {
    case "content-unavailable":
      return failure.regionLocked
        ? problemResult("content-region-locked", failure.detail, about)
        : problemResult("content-unavailable", failure.detail, about);
    case "upstream-rate-limited": {
      const retryAfter = failure.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
      return problemResult(
        "upstream-rate-limited",
        failure.detail,
        { ...about, retryAfterSeconds: retryAfter },
        {
          "retry-after": String(retryAfter),
        },
      );
    }
    case "upstream-blocked":
      return problemResult("upstream-blocked", failure.detail, { ...about, retryable: false });
    case "upstream-failed":
      return problemResult("upstream-failed", failure.detail, { ...about, retryable: true });
    case "content-private":
    case "login-required":
    case "extractor-outdated":
    case "drm-protected":
      return problemResult(failure.kind, failure.detail, about);
  }
}
