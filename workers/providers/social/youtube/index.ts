/**
 * YouTube through its innertube player API (`POST {www}/youtubei/v1/player`), asked as the apps
 * whose answers carry direct media URLs: the web player's answers carry `signatureCipher`s
 * that only YouTube's own player JavaScript can undo, and running that needs an evaluator,
 * which Workers forbid. Written by hand rather than with youtubei.js: decision 053 has what was
 * measured.
 *
 * The clients are asked in order, and the next one only when an answer is unusable for a
 * reason that belongs to the client (no direct URLs, another video's answer, "unplayable" on
 * this app): what belongs to the video or to our address (private, deleted, region, bot check,
 * rate limit) is the answer, and asking again would only spend more of our address's standing.
 *
 * Media URLs (googlevideo.com) work only from the address that asked for them, so every
 * medium is `boundToRequester` and the API answers a tunnel URL in its place.
 */
import { z } from "zod";
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
  hostGuardedFetch,
  hostMatches,
  MAX_JSON_BYTES,
  outdated,
  type PlatformExtractor,
  readJson,
} from "../extractor";

/**
 * An innertube client: what the app sends as its context and headers. Versions follow yt-dlp's
 * table (2026-08); YouTube refuses or degrades versions it has retired, so these are the
 * values to update when answers turn into `extractor-outdated`.
 */
export interface InnertubeClient {
  /** `X-YouTube-Client-Name`: the client's number. */
  id: number;
  context: {
    clientName: string;
    clientVersion: string;
    deviceMake: string;
    deviceModel: string;
    userAgent: string;
    osName: string;
    osVersion: string;
  };
}

/**
 * visionOS first: yt-dlp's only default client that needs no player JavaScript, and whose
 * direct URLs need no proof-of-origin token. iOS second (cobalt's default): its answers carry
 * direct URLs too, though YouTube may refuse its media without a token, so it is the fallback.
 * ANDROID_VR 1.65.10 is left out: since 2026-08-17 YouTube refuses (403) every format it answers.
 */
export const INNERTUBE_CLIENTS: readonly InnertubeClient[] = [
  {
    id: 101,
    context: {
      clientName: "VISIONOS",
      clientVersion: "1.02",
      deviceMake: "Apple",
      deviceModel: "RealityDevice17,1",
      userAgent:
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_7_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15",
      osName: "visionOS",
      osVersion: "26.5.23O471",
    },
  },
  {
    id: 5,
    context: {
      clientName: "IOS",
      clientVersion: "21.26.4",
      deviceMake: "Apple",
      deviceModel: "iPhone16,2",
      userAgent: "com.google.ios.youtube/21.26.4 (iPhone16,2; U; CPU iOS 18_3_2 like Mac OS X;)",
      osName: "iPhone",
      osVersion: "18.3.2.22D82",
    },
  },
];

/**
 * googlevideo answers one long request at about the video's playback speed, and ranges of up
 * to ~10 MB at full speed: the tunnel fetches YouTube's media in ranges of this size (yt-dlp's
 * `http_chunk_size` for YouTube is 10 MiB; cobalt's chunks are 8 MB).
 */
export const YOUTUBE_MEDIA_CHUNK_BYTES = 10 * 1024 * 1024;

/** googlevideo.com serves every format; anything else in an answer is not followed. */
export const YOUTUBE_MEDIA_HOSTS = [".googlevideo.com"] as const;
/** Thumbnails are answered as URLs (not tunnelled), so only YouTube's image hosts are passed on. */
const THUMBNAIL_HOSTS = [".ytimg.com"];
/** The public site, for the author's link: the configured base URL may be a proxy's. */
const PUBLIC_SITE = "https://www.youtube.com";

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** The body the player endpoint gets from `client` for `videoId`. */
export function playerRequestBody(client: InnertubeClient, videoId: string) {
  return {
    context: { client: { ...client.context, hl: "en", timeZone: "UTC", utcOffsetMinutes: 0 } },
    videoId,
    playbackContext: { contentPlaybackContext: { html5Preference: "HTML5_PREF_WANTS" } },
    // Without these the answer for a video flagged "may be inappropriate" is an interstitial.
    contentCheckOk: true,
    racyCheckOk: true,
  };
}

// ---- The player answer, as far as it is read ----

/** `{simpleText}` or `{runs: [{text}]}`: YouTube's two ways of writing a text. */
const TextSchema = z.union([
  z.object({ simpleText: z.string() }),
  z.object({ runs: z.array(z.object({ text: z.string() })) }),
]);

const FormatSchema = z.object({
  itag: z.number().int(),
  url: z.string().optional(),
  signatureCipher: z.string().optional(),
  mimeType: z.string(),
  bitrate: z.number().optional(),
  averageBitrate: z.number().optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  contentLength: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
  qualityLabel: z.string().optional(),
  audioQuality: z.string().optional(),
  drmFamilies: z.array(z.string()).optional(),
  /** FORMAT_STREAM_TYPE_OTF: served in numbered segments, so its URL alone is not the file. */
  type: z.string().optional(),
  isDrc: z.boolean().optional(),
  audioTrack: z.object({ audioIsDefault: z.boolean().optional() }).optional(),
});
type Format = z.infer<typeof FormatSchema>;

/** A field that is absent, or treated as absent when its shape is not the one read. */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const PlayerResponseSchema = z.object({
  playabilityStatus: z
    .object({
      status: z.string(),
      reason: z.string().optional(),
      messages: z.array(z.string()).optional(),
      errorScreen: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  // The video's description is read leniently: a field in a new shape costs only that field.
  videoDetails: z
    .object({
      videoId: z.string(),
      title: lenient(z.string()),
      lengthSeconds: lenient(z.string().regex(/^\d+$/)),
      author: lenient(z.string()),
      channelId: lenient(z.string()),
      isLive: z.boolean().optional(),
      thumbnail: lenient(
        z.object({
          thumbnails: z.array(
            z.object({ url: z.string(), width: z.number().optional(), height: z.number().optional() }),
          ),
        }),
      ),
    })
    .optional(),
  streamingData: z
    .object({
      formats: z.array(z.unknown()).optional(),
      adaptiveFormats: z.array(z.unknown()).optional(),
      licenseInfos: z.array(z.unknown()).optional(),
    })
    .optional(),
  microformat: lenient(z.object({ playerMicroformatRenderer: z.object({ ownerProfileUrl: z.string().optional() }) })),
});
type PlayerResponse = z.infer<typeof PlayerResponseSchema>;

/** One client's outcome; `tryNext` when the next client may do better. */
type Attempt = Extraction & { tryNext?: boolean };

export function youtubeExtractor(deps: ExtractorDeps): PlatformExtractor {
  const www = (deps.baseUrls.www ?? PUBLIC_SITE).replace(/\/+$/, "");
  const apiHosts = [new URL(www).hostname];
  // The extractor needs only the player endpoint. The fetch we are given (index.ts) also admits
  // googlevideo for the tunnel; this guard, nested in it, judges every hop of a redirect against
  // the API host alone (hostGuardedFetch hands a nested guard each 3xx).
  const fetchApi = hostGuardedFetch(deps.fetch, apiHosts);

  async function ask(client: InnertubeClient, ref: PostRef, signal: AbortSignal): Promise<Attempt> {
    const response = await fetchApi(`${www}/youtubei/v1/player?prettyPrint=false`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": client.context.userAgent,
        "x-youtube-client-name": String(client.id),
        "x-youtube-client-version": client.context.clientVersion,
        origin: www,
      },
      body: JSON.stringify(playerRequestBody(client, ref.id)),
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      // 400 is this client's request refused (a retired version, a changed context): another may pass.
      return { ...failureFromStatus("youtube", response), tryNext: response.status === 400 };
    }
    // Past its bound the read throws, which the composition answers as extractor-outdated.
    const json = await readJson(response, MAX_JSON_BYTES);
    if (json === null) return { ...outdated("youtube", "player response is not JSON"), tryNext: true };
    const parsed = PlayerResponseSchema.safeParse(json);
    if (!parsed.success) {
      const path = parsed.error.issues[0]?.path.join(".") ?? "";
      return { ...outdated("youtube", `player response ${path}`), tryNext: true };
    }
    return readPlayerResponse(parsed.data, ref);
  }

  return {
    platform: "youtube",
    apiHosts,
    mediaHosts: YOUTUBE_MEDIA_HOSTS,
    imageHosts: THUMBNAIL_HOSTS,
    mediaChunkBytes: YOUTUBE_MEDIA_CHUNK_BYTES,
    async extract(ref, signal) {
      if (!VIDEO_ID.test(ref.id)) {
        return { ok: false, kind: "content-unavailable", detail: "YouTube has no video with that id." };
      }
      const failures: ExtractionFailure[] = [];
      for (const client of INNERTUBE_CLIENTS) {
        const { tryNext, ...attempt } = await ask(client, ref, signal);
        if (attempt.ok) return attempt as Extraction;
        failures.push(attempt as ExtractionFailure);
        if (!tryNext) break;
      }
      // What the video itself said outranks a client's unusable answer.
      return failures.find((failure) => failure.kind !== "extractor-outdated") ?? (failures[0] as ExtractionFailure);
    },
  };
}

/** Every text of the playability status (reason, messages, error screen), lower-cased. */
function playabilityText(status: NonNullable<PlayerResponse["playabilityStatus"]>): string {
  const texts = [status.reason ?? "", ...(status.messages ?? [])];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const text = TextSchema.safeParse(node);
      if (text.success)
        texts.push("simpleText" in text.data ? text.data.simpleText : text.data.runs.map((run) => run.text).join(""));
      else Object.values(node).forEach(walk);
    }
  };
  walk(status.errorScreen);
  // YouTube writes "you’re" with a typographic apostrophe.
  return texts.join(" \n").toLowerCase().replaceAll("’", "'");
}

/** The failure a playability status other than OK means, or null for OK. */
function playabilityFailure(status: NonNullable<PlayerResponse["playabilityStatus"]>): Attempt | null {
  if (status.status === "OK") return null;
  const text = playabilityText(status);
  const captcha = status.errorScreen !== undefined && "playerCaptchaViewModel" in status.errorScreen;
  if (text.includes("not a bot") || captcha) {
    return {
      ok: false,
      kind: "login-required",
      detail:
        "YouTube asks us to sign in to confirm we are not a bot: it is refusing requests from our servers for now.",
    };
  }
  if (text.includes("private")) {
    return {
      ok: false,
      kind: "content-private",
      detail: "This YouTube video is private: only the people its owner chose may see it.",
    };
  }
  if (
    status.status === "AGE_CHECK_REQUIRED" ||
    status.status === "AGE_VERIFICATION_REQUIRED" ||
    /confirm your age|age-restricted|inappropriate for some users/.test(text)
  ) {
    return {
      ok: false,
      kind: "login-required",
      detail: "This YouTube video is age-restricted: YouTube shows it only to a signed-in adult.",
    };
  }
  if (/members-only|join this channel/.test(text)) {
    return {
      ok: false,
      kind: "login-required",
      detail: "This YouTube video is for the channel's members only: YouTube shows it only to a signed-in member.",
    };
  }
  if (/in your country|in your region/.test(text)) {
    return {
      ok: false,
      kind: "content-unavailable",
      regionLocked: true,
      detail: "The uploader has not made this YouTube video available where we asked from.",
    };
  }
  if (/try again later|request limit/.test(text)) {
    return {
      ok: false,
      kind: "upstream-rate-limited",
      detail: "YouTube is limiting how often we may ask; try again later.",
    };
  }
  switch (status.status) {
    case "LIVE_STREAM_OFFLINE":
      return {
        ok: false,
        kind: "content-unavailable",
        detail: "This YouTube live stream or premiere has not started: there is nothing to download yet.",
      };
    case "LOGIN_REQUIRED":
      return { ok: false, kind: "login-required", detail: "YouTube shows this video only to a signed-in user." };
    case "ERROR":
      return {
        ok: false,
        kind: "content-unavailable",
        detail: "YouTube has no such video: it was removed or never existed.",
      };
    case "UNPLAYABLE":
      // Often the app's own limit (made-for-kids videos, embedding turned off): another client may play it.
      return {
        ok: false,
        kind: "content-unavailable",
        detail: `YouTube will not play this video${status.reason ? `: ${status.reason}` : "."}`,
        tryNext: true,
      };
    default:
      return { ...outdated("youtube", `playabilityStatus.status ${status.status.slice(0, 40)}`), tryNext: true };
  }
}

function readPlayerResponse(answer: PlayerResponse, ref: PostRef): Attempt {
  if (!answer.playabilityStatus) return { ...outdated("youtube", "playabilityStatus"), tryNext: true };
  const failure = playabilityFailure(answer.playabilityStatus);
  if (failure) return failure;
  const details = answer.videoDetails;
  if (!details) return { ...outdated("youtube", "videoDetails"), tryNext: true };
  if (details.videoId !== ref.id) {
    // Another video's answer (YouTube's "video not available" stand-in): what it gives an
    // address it distrusts, per yt-dlp and NewPipe.
    return {
      ok: false,
      kind: "upstream-blocked",
      detail: "YouTube answered with a different video: it is refusing our servers' requests.",
      tryNext: true,
    };
  }
  if (details.isLive) {
    return {
      ok: false,
      kind: "content-unavailable",
      detail: "This YouTube video is live right now: it can be downloaded once the stream has ended.",
    };
  }
  const streaming = answer.streamingData;
  if (!streaming) return { ...outdated("youtube", "streamingData"), tryNext: true };

  const muxed = (streaming.formats ?? []).flatMap((raw) => readFormat(raw, true));
  const adaptive = (streaming.adaptiveFormats ?? []).flatMap((raw) => readFormat(raw, false));
  const media = [...muxed, ...adaptive].flatMap((format) => (format.medium ? [format.medium] : []));
  if (media.length === 0) {
    const all = [...muxed, ...adaptive].map((format) => format.format);
    if ((streaming.licenseInfos?.length ?? 0) > 0 || all.some((format) => format.drmFamilies?.length)) {
      return {
        ok: false,
        kind: "drm-protected",
        detail: "This YouTube video is protected by DRM: it cannot be downloaded.",
      };
    }
    // Only enciphered URLs means YouTube now treats our client as one that runs its player
    // JavaScript: the client table needs an update, and the next client may still pass.
    const what = all.some((format) => format.signatureCipher)
      ? "streamingData formats only with signatureCipher"
      : "streamingData without direct format URLs";
    return { ...outdated("youtube", what), tryNext: true };
  }

  const ownerUrl = answer.microformat?.playerMicroformatRenderer?.ownerProfileUrl;
  const handle = ownerUrl ? (/\/(@[\w.-]{1,100})$/.exec(ownerUrl)?.[1] ?? null) : null;
  const channelUrl = handle
    ? `${PUBLIC_SITE}/${handle}`
    : details.channelId && /^UC[\w-]{22}$/.test(details.channelId)
      ? `${PUBLIC_SITE}/channel/${details.channelId}`
      : null;
  const post: ExtractedPost = {
    platform: "youtube",
    id: ref.id,
    title: details.title ?? null,
    author: { name: details.author ?? null, handle, url: channelUrl },
    thumbnail: largestThumbnail(details.thumbnail?.thumbnails ?? []),
    durationSec: details.lengthSeconds && details.lengthSeconds !== "0" ? Number(details.lengthSeconds) : null,
    // In the answer's order (muxed formats, then adaptive ones): the handler ranks renditions.
    media,
  };
  return { ok: true, post };
}

/**
 * One format of the answer: the parsed format (kept for the DRM and cipher verdicts) and the
 * medium it gives, if it gives one. A format the schema does not fit is skipped rather than
 * failing the video: YouTube adds kinds of format from time to time.
 */
function readFormat(raw: unknown, muxed: boolean): { format: Format; medium: ExtractedMedia | null }[] {
  const parsed = FormatSchema.safeParse(raw);
  if (!parsed.success) return [];
  const format = parsed.data;
  return [{ format, medium: mediumOf(format, muxed) }];
}

function mediumOf(format: Format, muxed: boolean): ExtractedMedia | null {
  if (!format.url || format.drmFamilies?.length || format.type === "FORMAT_STREAM_TYPE_OTF") return null;
  // Dubbed and loudness-compressed (DRC) copies of the same sound would only crowd the list.
  if (format.isDrc || format.audioTrack?.audioIsDefault === false) return null;
  let url: URL;
  try {
    url = new URL(format.url);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || !hostMatches(url.hostname, YOUTUBE_MEDIA_HOSTS)) return null;
  // `video/mp4; codecs="avc1.640028"` → `video/mp4`: the container is what a caller saves it as.
  const mimeType = format.mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!/^(video|audio)\/[\w.+-]+$/.test(mimeType)) return null;
  const isAudio = mimeType.startsWith("audio/");
  const bitrate = format.averageBitrate ?? format.bitrate;
  const medium: ExtractedMedia = {
    url: url.toString(),
    type: isAudio ? "audio" : "video",
    quality: isAudio
      ? bitrate
        ? `audio ${Math.round(bitrate / 1000)}k`
        : "audio"
      : (format.qualityLabel ?? (format.height ? `${format.height}p` : null)),
    width: isAudio ? null : (format.width ?? null),
    height: isAudio ? null : (format.height ?? null),
    mimeType,
    // `formats` hold video with its sound; `adaptiveFormats` hold video only or sound only.
    hasAudio: isAudio || muxed,
    boundToRequester: true,
    // The itag names the rendition across answers: the tunnel asks again for it when the URL is refused.
    formatId: String(format.itag),
  };
  if (format.contentLength) medium.sizeBytes = Number(format.contentLength);
  if (bitrate) medium.bitrate = bitrate;
  return medium;
}

function largestThumbnail(thumbnails: { url: string; width?: number; height?: number }[]): string | null {
  let best: { url: string; area: number } | null = null;
  for (const thumbnail of thumbnails) {
    let url: URL;
    try {
      url = new URL(thumbnail.url);
    } catch {
      continue;
    }
    if (url.protocol !== "https:" || !hostMatches(url.hostname, THUMBNAIL_HOSTS)) continue;
    const area = (thumbnail.width ?? 0) * (thumbnail.height ?? 0);
    if (!best || area > best.area) best = { url: url.toString(), area };
  }
  return best?.url ?? null;
}
