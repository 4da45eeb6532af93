/**
 * Social Media Videos Downloader: a post's URL on YouTube, Instagram, Facebook, X, LinkedIn or
 * Pinterest → its media links in one envelope (decision 051). The platforms are read by one
 * extractor each (workers/providers/social), the recorded fakes in development and tests.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleDownload } from "./handler";
import { LEGACY_DOWNLOAD_ROUTE } from "./legacy";
import { getProfile } from "./profile";
import { DownloadAnswerSchema, DownloadInputSchema, type DownloadAnswer } from "./schema";

/** The pinned public posts the fakes record: the docs' examples and the live demo's. */
export const PINNED_POSTS = {
  youtube: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  instagramReel: "https://www.instagram.com/reel/C8xYzAbCdEf/",
  instagramCarousel: "https://www.instagram.com/p/C7qRsTuVwXy/",
  facebook: "https://www.facebook.com/NASA/videos/1003263494553473/",
  x: "https://x.com/NASA/status/1850214830462251210",
  linkedin: "https://www.linkedin.com/posts/nasa_artemis-activity-7262145368218238976-AbCd",
  pinterest: "https://www.pinterest.com/pin/1055599907085543/",
} as const;

export const MAX_BODY_BYTES = 4 * 1024;

const DESCRIPTION =
  "Give the post's link as the platform's Share button writes it; the platform is recognised from the link, and tracking parameters (`utm_*`, `si`, `igsh`, `feature`, `s`, `t`, …) are ignored. " +
  "YouTube: `youtube.com/watch`, `youtu.be`, `/shorts/`, `/live/`, `/embed/`, and the `m.` and `music.` hosts; read through YouTube's innertube API with clients that need no signature deciphering, so a video answers its muxed file (video with sound, usually 360p) and its separate video-only and audio streams (`hasAudio: false` on the video-only ones: join them yourself, for example with ffmpeg). " +
  "Instagram: `/p/`, `/reel/`, `/reels/`, `/tv/` and `instagr.am`, read from the post's embed and GraphQL answers; a carousel lists every item. " +
  "Facebook: `/<page>/videos/<id>`, `/watch?v=`, `/reel/`, `/share/v/`, `/share/r/` and `fb.watch` (the short links are followed on Facebook's own hosts), read from the page's native video URLs (HD and SD). " +
  "X (Twitter): `x.com`, `twitter.com` and `mobile.twitter.com` status links, read through X's syndication answer with a guest-token fallback; every video and photo of the post is listed. " +
  "LinkedIn: `/posts/…-activity-<id>-…` and `/feed/update/urn:li:activity:<id>`, read from the post's public embed card (decision 054). " +
  "Pinterest: `/pin/<id>` on pinterest.com and its country domains (`pinterest.co.uk`, `pinterest.fr`, …) and `pin.it`, read from the pin's data (a video pin's MP4, or the original image). " +
  "The answer is one envelope for every platform: `platform`, the platform's `id`, `title`, `author` (`name`, `handle`, `url`), `thumbnail`, `durationSec`, and `media`, each with its `item`, `url`, `type` (video, audio, image), `quality`, `width`, `height`, `mimeType`, `hasAudio` and, where the platform says it, `sizeBytes`. " +
  "A video's size is its short side, the smaller of `width` and `height`, when both are known (a vertical 720×1280 video is 720p, as the platforms label it), else the number in its `quality` label (`720p`, `1080p60`, `mp4-640p`; a label such as `SD`, `HD` or `832k` gives none), else unknown. " +
  "`item` numbers the post's items from 0 in the post's order (a carousel's pictures and videos, a thread's videos), and a video's qualities share its item; `media` lists the items in that order, and within an item best first: videos by size, unknown sizes after known ones, and at equal sizes a file with sound before one without (it plays as it is), then by bitrate and size; then audio by bitrate; then images. `quality` 1080, 720, 480 or 360 applies to each item alone and never drops one: it keeps the item's videos of a known size up to that; when none fits, its videos of unknown size (Facebook's SD file, for one, comes without dimensions), and when there are none, its smallest video; `audioOnly` (or `quality: audio`) answers each item's audio streams, or its videos that carry sound where the platform has no separate audio, leaving out items without sound. " +
  "Where a platform's media URL works only from the address that asked for it (YouTube's), `url` is a signed tunnel URL on our host (`/api/v1/youtube-instagram-video-downloader/tunnel/<token>`) that streams the file through us with `Range` support; it names that one file and expires in 15 minutes, so download soon or ask again. Other platforms' URLs are their CDNs' own, which also expire after hours or days. " +
  "Failures are typed problems, never an empty answer: `unsupported-url` (422), `content-private` (403), `content-unavailable` (404, or `content-region-locked` 451 when the platform blocks it where we asked from), `login-required` (403: a login wall or bot check), `upstream-rate-limited` (429 with `Retry-After`), `upstream-blocked` (503, `retryable: false`: the platform refuses our addresses), `upstream-failed` (502, `retryable: true`: the platform could not be reached just now), `extractor-outdated` (502: the platform changed its pages; we log it and fix the reader), `drm-protected` (422). " +
  "A call counts when it answers media. A failed extraction is given back to your month, and a URL refused before anything was fetched never counts. Answers are kept for 5 minutes by the post's canonical URL, so asking again at once is quick and spares the platform. One call reads one post; the body is at most 4 KiB. " +
  "You must have the right to download what you ask for: your own posts, media under a licence that allows it (the example, Big Buck Bunny, is the Blender Foundation's under CC BY), or with the rights holder's permission. This API does not sign in to platforms, does not read private posts, and refuses DRM-protected media. " +
  "In development the platforms are recorded fakes; these links work in the live demo: " +
  Object.values(PINNED_POSTS)
    .map((url) => `\`${url}\``)
    .join(", ") +
  ". " +
  "Compared with [cobalt](https://github.com/imputnet/cobalt) (open source, self-hosted or its public instance) and the downloaders sold on [RapidAPI](https://rapidapi.com/search/video%20downloader): " +
  "cobalt answers one file per call (a redirect, a tunnel or a picker) and merges YouTube's video and audio on its server, where this API lists every quality of the post at once and leaves the merging to you; cobalt reads more services (TikTok, Reddit, Vimeo, SoundCloud, …) and needs an instance of your own for steady use, while this one is hosted with a key, a quota and rate-limit headers. " +
  "RapidAPI's downloaders are many sellers, mostly one platform each, each with its own answer shape and error style; here one envelope covers six platforms, and every failure is an RFC 9457 problem that tells a private post from a deleted one, a login wall, the platform's rate limit and an outdated reader, instead of a `200` with an error string. " +
  "Left out: downloading or merging the files for you, playlists and channels, stories, subtitles, and posts behind a login.";

/** A tunnel URL as the API answers one (the token, cut short here, changes with every call). */
const tunnel = (tail: string) =>
  `https://portico.dev${TUNNEL_PATH_EXAMPLE}/eyJ1IjoiaHR0cHM6Ly9ycjQtLS1zbi00ZzVsem5l…${tail}`;
const TUNNEL_PATH_EXAMPLE = "/api/v1/youtube-instagram-video-downloader/tunnel";

/**
 * The example's answer, as the recorded YouTube answers Big Buck Bunny (workers/providers/
 * social/youtube): every quality YouTube lists, best first, the muxed 360p (the one file with
 * sound) before the video-only 360p. Every media URL is a tunnel URL: googlevideo's work only
 * from the address that asked (and in development the recorded CDN lives inside the Worker).
 */
const BIG_BUCK_BUNNY: DownloadAnswer = {
  platform: "youtube",
  id: "aqz-KE-bpKQ",
  title: "Big Buck Bunny 60fps 4K - Official Blender Foundation Short Film",
  author: {
    name: "Blender",
    handle: "@BlenderOfficial",
    url: "https://www.youtube.com/@BlenderOfficial",
  },
  thumbnail: "https://i.ytimg.com/vi/aqz-KE-bpKQ/maxresdefault.jpg",
  durationSec: 635,
  media: [
    {
      item: 0,
      url: tunnel("Q3xN"),
      type: "video",
      quality: "2160p60",
      width: 3840,
      height: 2160,
      mimeType: "video/webm",
      hasAudio: false,
      sizeBytes: 3604480,
    },
    {
      item: 0,
      url: tunnel("Vb7k"),
      type: "video",
      quality: "1080p60",
      width: 1920,
      height: 1080,
      mimeType: "video/mp4",
      hasAudio: false,
      sizeBytes: 2457600,
    },
    {
      item: 0,
      url: tunnel("p2Qa"),
      type: "video",
      quality: "1080p60",
      width: 1920,
      height: 1080,
      mimeType: "video/webm",
      hasAudio: false,
      sizeBytes: 2097152,
    },
    {
      item: 0,
      url: tunnel("Xk3b"),
      type: "video",
      quality: "720p60",
      width: 1280,
      height: 720,
      mimeType: "video/mp4",
      hasAudio: false,
      sizeBytes: 1433600,
    },
    {
      item: 0,
      url: tunnel("Zt9c"),
      type: "video",
      quality: "720p60",
      width: 1280,
      height: 720,
      mimeType: "video/webm",
      hasAudio: false,
      sizeBytes: 1228800,
    },
    {
      item: 0,
      url: tunnel("Hw4e"),
      type: "video",
      quality: "480p",
      width: 854,
      height: 480,
      mimeType: "video/mp4",
      hasAudio: false,
      sizeBytes: 716800,
    },
    {
      item: 0,
      url: tunnel("Rm8s"),
      type: "video",
      quality: "360p",
      width: 640,
      height: 360,
      mimeType: "video/mp4",
      hasAudio: true,
    },
    {
      item: 0,
      url: tunnel("Ty5u"),
      type: "video",
      quality: "360p",
      width: 640,
      height: 360,
      mimeType: "video/mp4",
      hasAudio: false,
      sizeBytes: 460800,
    },
    {
      item: 0,
      url: tunnel("Jd2f"),
      type: "video",
      quality: "144p",
      width: 256,
      height: 144,
      mimeType: "video/mp4",
      hasAudio: false,
      sizeBytes: 122880,
    },
    {
      item: 0,
      url: tunnel("Lq6g"),
      type: "audio",
      quality: "audio 135k",
      width: null,
      height: null,
      mimeType: "audio/webm",
      hasAudio: true,
      sizeBytes: 296960,
    },
    {
      item: 0,
      url: tunnel("Nc1h"),
      type: "audio",
      quality: "audio 130k",
      width: null,
      height: null,
      mimeType: "audio/mp4",
      hasAudio: true,
      sizeBytes: 327680,
    },
    {
      item: 0,
      url: tunnel("Pz0j"),
      type: "audio",
      quality: "audio 53k",
      width: null,
      height: null,
      mimeType: "audio/webm",
      hasAudio: true,
      sizeBytes: 112640,
    },
  ],
};

export const definition: HostedApiDefinition = {
  slug: "youtube-instagram-video-downloader",
  operations: [
    defineOperation({
      id: "downloadMedia",
      method: "POST",
      path: "",
      summary: "A post's video, audio and image links on YouTube, Instagram, Facebook, X, LinkedIn or Pinterest",
      description: DESCRIPTION,
      inputSource: "json",
      input: DownloadInputSchema,
      output: { kind: "json", schema: DownloadAnswerSchema, example: BIG_BUCK_BUNNY },
      example: { url: PINNED_POSTS.youtube, quality: "best" },
      maxBodyBytes: MAX_BODY_BYTES,
      errors: [
        {
          type: "unsupported-url",
          when: "The URL is not a post on one of the six platforms, or is a look-alike host.",
        },
        { type: "content-private", when: "The post is visible only to its audience." },
        {
          type: "content-unavailable",
          when: "The post was deleted or never existed, or holds no sound when `audioOnly` asked for it.",
        },
        { type: "content-region-locked", when: "The platform blocks the post where we asked from." },
        {
          type: "login-required",
          when: "The platform shows the post only to a signed-in user, or asked for a bot check.",
        },
        { type: "upstream-rate-limited", when: "The platform throttled us; `Retry-After` says when to try again." },
        {
          type: "upstream-blocked",
          when: "The platform refuses our addresses (`retryable: false`).",
        },
        {
          type: "upstream-failed",
          when: "The platform could not be reached just now (`retryable: true`).",
        },
        {
          type: "extractor-outdated",
          when: "The platform's answer no longer has the shape we read; logged and fixed on our side.",
        },
        { type: "drm-protected", when: "The media is encrypted with DRM." },
      ],
      handler: handleDownload,
    }),
    getProfile,
  ],
  legacyRoutes: [LEGACY_DOWNLOAD_ROUTE],
};
