/**
 * X (Twitter) posts, read as cobalt and yt-dlp read them: first the syndication endpoint the
 * embed widget calls (`cdn.syndication.twimg.com/tweet-result`, no account, no token dance),
 * then, when that answer settles nothing, a guest token (`POST /1.1/guest/activate.json` with
 * the web client's public bearer) and the GraphQL `TweetResultByRestId` answer, which also says
 * why a post cannot be shown (protected, age-restricted) where syndication only answers 404.
 *
 * Every photo, video and GIF of the post is listed in the post's order, each its own `item`. A
 * video's mp4 variants are each listed, in X's order, sharing the video's item (the handler ranks
 * them); its HLS (m3u8) variant is not: a playlist is no file a client can
 * fetch with one GET (what the older path's bots do with `data[0].url`), and X's mp4 variants
 * already carry the same renditions.
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
  MAX_JSON_BYTES,
  outdated,
  type PlatformExtractor,
  readJson,
} from "../extractor";
import { imageMimeTypeOf } from "../html";

/**
 * The token the embed widget sends with `tweet-result`: the id over 1e15 times π, written in
 * base 36, with every `0` and the point removed. Its source is the widget's own script, as
 * transcribed by Vercel's react-tweet (packages/react-tweet/src/api/fetch-tweet.ts, `getToken`)
 * and yt-dlp (extractor/twitter.py, `_generate_syndication_token`). `Number.prototype.toString(36)`
 * of a fraction is what the browser computes, so V8's answer is the one the widget sends.
 */
export function syndicationToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, "");
}

/**
 * The bearer token x.com's own web client sends for logged-out visitors: a public constant in
 * its JavaScript (yt-dlp and cobalt carry the same one), not a credential of ours.
 */
export const X_WEB_BEARER =
  "AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA";

/** The web client's persisted query id for TweetResultByRestId (it changes when X redeploys its client). */
export const X_TWEET_QUERY = "2ICDjqPd81tulZcYrtpTuQ/TweetResultByRestId";

const VariantSchema = z.object({ content_type: z.string(), url: z.string(), bitrate: z.number().optional() });
const MediaSchema = z.object({
  type: z.string(),
  media_url_https: z.string(),
  original_info: z.object({ width: z.number(), height: z.number() }).optional(),
  video_info: z.object({ duration_millis: z.number().optional(), variants: z.array(VariantSchema) }).optional(),
});
type XMedia = z.infer<typeof MediaSchema>;

const TombstoneSchema = z.object({ text: z.object({ text: z.string() }).optional() }).optional();

const SyndicationSchema = z.discriminatedUnion("__typename", [
  z.object({
    __typename: z.literal("Tweet"),
    text: z.string().optional(),
    user: z.object({ name: z.string().optional(), screen_name: z.string().optional() }).optional(),
    mediaDetails: z.array(MediaSchema).optional(),
    quoted_tweet: z.object({ mediaDetails: z.array(MediaSchema).optional() }).optional(),
  }),
  z.object({ __typename: z.literal("TweetTombstone"), tombstone: TombstoneSchema }),
]);

const UserResultSchema = z
  .object({
    result: z
      .object({
        core: z.object({ name: z.string().optional(), screen_name: z.string().optional() }).optional(),
        legacy: z.object({ name: z.string().optional(), screen_name: z.string().optional() }).optional(),
      })
      .optional(),
  })
  .optional();

const LegacyTweetSchema = z.object({
  full_text: z.string().optional(),
  extended_entities: z.object({ media: z.array(MediaSchema) }).optional(),
});

const GraphqlTweetSchema = z.object({
  __typename: z.literal("Tweet").optional(),
  core: z.object({ user_results: UserResultSchema }).optional(),
  legacy: LegacyTweetSchema,
  quoted_status_result: z.object({ result: z.object({ legacy: LegacyTweetSchema.optional() }).optional() }).optional(),
});

const GraphqlResultSchema = z.discriminatedUnion("__typename", [
  GraphqlTweetSchema.extend({ __typename: z.literal("Tweet") }),
  z.object({ __typename: z.literal("TweetWithVisibilityResults"), tweet: GraphqlTweetSchema }),
  z.object({ __typename: z.literal("TweetUnavailable"), reason: z.string().optional() }),
  z.object({ __typename: z.literal("TweetTombstone"), tombstone: TombstoneSchema }),
]);

const GraphqlAnswerSchema = z.object({
  data: z.object({ tweetResult: z.object({ result: z.unknown().optional() }) }),
});

/** What either answer says of a readable post, before it becomes an ExtractedPost. */
interface TweetFacts {
  text: string | null;
  name: string | null;
  handle: string | null;
  media: XMedia[];
}

/** One answer's verdict: `settled` ends the extraction; otherwise the next source is asked. */
type Step = { settled: true; extraction: Extraction } | { settled: false; failure: ExtractionFailure };

export function xExtractor(deps: ExtractorDeps & { now?: () => number }): PlatformExtractor {
  const syndication = deps.baseUrls.syndication ?? "https://cdn.syndication.twimg.com";
  const api = deps.baseUrls.api ?? "https://api.x.com";
  const now = deps.now ?? Date.now;
  const apiHosts = [new URL(syndication).hostname, new URL(api).hostname];
  // The fetch we are given (index.ts) also admits X's media CDNs; this guard, nested in it,
  // judges every hop of a redirect against the API hosts alone, so no answer is read from a CDN.
  const fetchApi = hostGuardedFetch(deps.fetch, apiHosts);

  async function fromSyndication(id: string, signal: AbortSignal): Promise<Step> {
    const url = `${syndication}/tweet-result?id=${id}&lang=en&token=${syndicationToken(id)}`;
    const response = await fetchApi(url, { signal, headers: { accept: "application/json" } });
    if (response.status !== 200) {
      await response.body?.cancel();
      return { settled: false, failure: failureOf(response, now) };
    }
    const parsed = SyndicationSchema.safeParse(await readJson(response, MAX_JSON_BYTES));
    if (!parsed.success) return { settled: false, failure: outdated("x", "syndication tweet-result shape") };
    const tweet = parsed.data;
    if (tweet.__typename === "TweetTombstone")
      return { settled: true, extraction: tombstoneFailure(tweet.tombstone?.text?.text) };
    const own = tweet.mediaDetails ?? [];
    const facts: TweetFacts = {
      text: tweet.text ?? null,
      name: tweet.user?.name ?? null,
      handle: tweet.user?.screen_name ?? null,
      media: own.length > 0 ? own : (tweet.quoted_tweet?.mediaDetails ?? []),
    };
    // Syndication leaves some media out (yt-dlp warns of it), so a post it shows without any
    // is asked of GraphQL before we say it has none.
    if (facts.media.length === 0) return { settled: false, failure: noMedia() };
    const extraction = postOf(id, facts);
    return extraction.ok ? { settled: true, extraction } : { settled: false, failure: extraction };
  }

  async function fromGraphql(id: string, signal: AbortSignal): Promise<Extraction> {
    const headers = {
      authorization: `Bearer ${X_WEB_BEARER}`,
      "x-twitter-active-user": "yes",
      "x-twitter-client-language": "en",
    };
    const activation = await fetchApi(`${api}/1.1/guest/activate.json`, { method: "POST", signal, headers });
    if (activation.status !== 200) {
      await activation.body?.cancel();
      return failureOf(activation, now);
    }
    const guest = z.object({ guest_token: z.string().min(1) }).safeParse(await readJson(activation, MAX_JSON_BYTES));
    if (!guest.success) return outdated("x", "guest/activate.json guest_token");

    const query = new URLSearchParams({
      variables: JSON.stringify({ tweetId: id, withCommunity: false, includePromotedContent: false, withVoice: false }),
      features: JSON.stringify(GRAPHQL_FEATURES),
      fieldToggles: JSON.stringify({ withArticleRichContentState: false }),
    });
    const response = await fetchApi(`${api}/graphql/${X_TWEET_QUERY}?${query}`, {
      signal,
      headers: { ...headers, "x-guest-token": guest.data.guest_token },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return failureOf(response, now);
    }
    const answer = GraphqlAnswerSchema.safeParse(await readJson(response, MAX_JSON_BYTES));
    if (!answer.success) return outdated("x", "graphql data.tweetResult");
    // An id X has no post for (deleted, or never was) answers an empty tweetResult.
    if (answer.data.data.tweetResult.result === undefined) return gone();
    const result = GraphqlResultSchema.safeParse(answer.data.data.tweetResult.result);
    if (!result.success) return outdated("x", "graphql tweetResult.result");
    const tweet = result.data;
    switch (tweet.__typename) {
      case "TweetTombstone":
        return tombstoneFailure(tweet.tombstone?.text?.text);
      case "TweetUnavailable":
        if (tweet.reason === "Protected") {
          return {
            ok: false,
            kind: "content-private",
            detail: "This post is from a protected account: only its approved followers may see it.",
          };
        }
        if (tweet.reason === "NsfwLoggedOut" || tweet.reason === "NsfwViewerHasNoStatedAge") return ageWall();
        return gone();
      case "Tweet":
      case "TweetWithVisibilityResults": {
        const body = tweet.__typename === "Tweet" ? tweet : tweet.tweet;
        const user = body.core?.user_results?.result;
        const own = body.legacy.extended_entities?.media ?? [];
        return postOf(id, {
          text: body.legacy.full_text ?? null,
          name: user?.core?.name ?? user?.legacy?.name ?? null,
          handle: user?.core?.screen_name ?? user?.legacy?.screen_name ?? null,
          media: own.length > 0 ? own : (body.quoted_status_result?.result?.legacy?.extended_entities?.media ?? []),
        });
      }
    }
  }

  return {
    platform: "x",
    apiHosts,
    mediaHosts: ["video.twimg.com", "pbs.twimg.com"],
    async extract(ref: PostRef, signal: AbortSignal): Promise<Extraction> {
      if (!/^\d{1,25}$/.test(ref.id)) return gone();
      const first = await fromSyndication(ref.id, signal);
      if (first.settled) return first.extraction;
      const second = await fromGraphql(ref.id, signal);
      if (second.ok) return second;
      // GraphQL failing for reasons of its own (a changed query, a refused guest token) says
      // less than syndication's own answer about the post, so that answer is kept.
      return second.kind === "extractor-outdated" && first.failure.kind !== "extractor-outdated"
        ? first.failure
        : second;
    },
  };
}

/** The post's media as ExtractedMedia, or the failure that there is none / none we can read. */
function postOf(id: string, facts: TweetFacts): Extraction {
  if (facts.media.length === 0) return noMedia();
  const media: ExtractedMedia[] = [];
  let durationSec: number | null = null;
  // The post's items are numbered in its order, counting only the kinds we read, so the numbers
  // have no gaps; a video's renditions share its number.
  let index = 0;
  for (const item of facts.media) {
    if (item.type === "photo") {
      media.push({
        item: index++,
        url: `${item.media_url_https}?name=orig`,
        type: "image",
        quality: "original",
        width: item.original_info?.width ?? null,
        height: item.original_info?.height ?? null,
        mimeType: imageMimeTypeOf(item.media_url_https),
        hasAudio: false,
      });
      continue;
    }
    if (item.type !== "video" && item.type !== "animated_gif") continue;
    // X's own order: the handler ranks a video's renditions (decision 051).
    const variants = (item.video_info?.variants ?? []).filter((variant) => variant.content_type === "video/mp4");
    if (variants.length === 0) return outdated("x", `${item.type} without mp4 variants`);
    const itemIndex = index++;
    durationSec ??= item.video_info?.duration_millis ? item.video_info.duration_millis / 1000 : null;
    for (const variant of variants) {
      // `/vid/avc1/1280x720/…` names the rendition; a GIF's single file is its original size.
      const size = /\/(\d+)x(\d+)\//.exec(new URL(variant.url).pathname);
      const width = size ? Number(size[1]) : variants.length === 1 ? (item.original_info?.width ?? null) : null;
      const height = size ? Number(size[2]) : variants.length === 1 ? (item.original_info?.height ?? null) : null;
      media.push({
        item: itemIndex,
        url: variant.url,
        type: "video",
        quality:
          width && height
            ? `${Math.min(width, height)}p`
            : variant.bitrate
              ? `${Math.round(variant.bitrate / 1000)}k`
              : null,
        width,
        height,
        mimeType: "video/mp4",
        // X turns GIFs into silent mp4s.
        hasAudio: item.type === "video",
        ...(variant.bitrate ? { bitrate: variant.bitrate } : {}),
      });
    }
  }
  if (media.length === 0) return outdated("x", "media of no type we read");
  const post: ExtractedPost = {
    platform: "x",
    id,
    title: titleOf(facts.text),
    author: { name: facts.name, handle: facts.handle, url: facts.handle ? `https://x.com/${facts.handle}` : null },
    thumbnail: facts.media[0]?.media_url_https ?? null,
    durationSec,
    media,
  };
  return { ok: true, post };
}

/**
 * The post's text without the t.co links X appends for its attached media. Cut from the end one
 * link at a time (lastIndexOf, then an anchored check of the link alone), so the work is linear
 * in the text: the text is its author's, and a repeated group of links and spaces ending in
 * `\s*$` backtracks quadratically over a long run of them.
 */
function titleOf(text: string | null): string | null {
  let title = (text ?? "").trim();
  for (;;) {
    const start = title.lastIndexOf("https://t.co/");
    if (start < 0 || !/^https:\/\/t\.co\/\w+$/.test(title.slice(start))) break;
    title = title.slice(0, start).trimEnd();
  }
  return title || null;
}

/**
 * A refused request's failure; X's API says when its window resets in `x-rate-limit-reset`
 * (epoch seconds) rather than Retry-After.
 */
function failureOf(response: Response, now: () => number): ExtractionFailure {
  const failure = failureFromStatus("x", response);
  const reset = Number(response.headers.get("x-rate-limit-reset"));
  if (
    failure.kind === "upstream-rate-limited" &&
    failure.retryAfterSeconds === undefined &&
    Number.isFinite(reset) &&
    reset > 0
  ) {
    return { ...failure, retryAfterSeconds: Math.max(1, Math.ceil(reset - now() / 1000)) };
  }
  return failure;
}

/** A tombstone stands where a post was: its text says whether an age check or a removal. */
function tombstoneFailure(text: string | undefined): ExtractionFailure {
  if (text?.startsWith("Age-restricted")) return ageWall();
  return { ok: false, kind: "content-unavailable", detail: "X no longer shows this post: it was deleted or withheld." };
}

function ageWall(): ExtractionFailure {
  return {
    ok: false,
    kind: "login-required",
    detail: "X shows this post only to signed-in users who stated their age.",
  };
}

function gone(): ExtractionFailure {
  return { ok: false, kind: "content-unavailable", detail: "X has no such post: it was deleted or never existed." };
}

/**
 * A post X shows but that carries no photo, video or GIF: readable, with nothing to download,
 * so the post is unavailable as media rather than our reader being out of date.
 */
function noMedia(): ExtractionFailure {
  return { ok: false, kind: "content-unavailable", detail: "This X post has no video or image." };
}

/** The feature switches the web client sends with TweetResultByRestId (yt-dlp sends the same). */
const GRAPHQL_FEATURES = {
  creator_subscriptions_tweet_preview_api_enabled: true,
  tweetypie_unmention_optimization_enabled: true,
  responsive_web_edit_tweet_api_enabled: true,
  graphql_is_translatable_rweb_tweet_is_translatable_enabled: true,
  view_counts_everywhere_api_enabled: true,
  longform_notetweets_consumption_enabled: true,
  responsive_web_twitter_article_tweet_consumption_enabled: false,
  tweet_awards_web_tipping_enabled: false,
  freedom_of_speech_not_reach_fetch_enabled: true,
  standardized_nudges_misinfo: true,
  tweet_with_visibility_results_prefer_gql_limited_actions_policy_enabled: true,
  longform_notetweets_rich_text_read_enabled: true,
  longform_notetweets_inline_media_enabled: true,
  responsive_web_graphql_exclude_directive_enabled: true,
  verified_phone_label_enabled: false,
  responsive_web_media_download_video_enabled: false,
  responsive_web_graphql_skip_user_profile_image_extensions_enabled: false,
  responsive_web_graphql_timeline_navigation_enabled: true,
  responsive_web_enhance_cards_enabled: false,
};
