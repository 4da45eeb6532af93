/**
 * X's answers for the fixture posts (x/fixtures.ts), in the shapes the syndication endpoint and
 * the guest GraphQL API answer (as cobalt, yt-dlp and react-tweet read them), trimmed to the
 * fields the extractor reads plus some of the noise around them. Hand-made for offline use: the
 * ids, texts and media are illustrative, the structure is X's.
 */

export interface RecordedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A 429 from X's API: the fake sets `x-rate-limit-reset` this many seconds after its clock. */
  resetInSeconds?: number;
}

export interface XRecord {
  syndication: RecordedAnswer;
  /** TweetResultByRestId for a guest; absent = the fixture never needs it. */
  graphql?: RecordedAnswer;
}

/** The media files the fake CDN serves, by URL without its query. */
export const X_MEDIA: Record<string, { size: number; mimeType: string }> = {};

function file(url: string, size: number, mimeType: string): string {
  X_MEDIA[url.split("?")[0] ?? url] = { size, mimeType };
  return url;
}

const NASA_USER = {
  id_str: "11348282",
  name: "NASA",
  profile_image_url_https: "https://pbs.twimg.com/profile_images/1321163587679784960/0ZxKlEKB_normal.jpg",
  profile_image_shape: "Circle",
  screen_name: "NASA",
  verified: false,
  verified_type: "Government",
  is_blue_verified: false,
};

const sizes = (w: number, h: number) => ({
  large: { h, resize: "fit", w },
  medium: { h: Math.round((h * 1200) / Math.max(w, h)), resize: "fit", w: Math.round((w * 1200) / Math.max(w, h)) },
  small: { h: Math.round((h * 680) / Math.max(w, h)), resize: "fit", w: Math.round((w * 680) / Math.max(w, h)) },
  thumb: { h: 150, resize: "crop", w: 150 },
});

// ---- the pinned public post: one video, four mp4 renditions and an HLS playlist ----

const ARTEMIS_POSTER = file(
  "https://pbs.twimg.com/amplify_video_thumb/1850214600325668864/img/Xq3kLm9PzR2tYw8v.jpg",
  148_224,
  "image/jpeg",
);
const ARTEMIS_VARIANTS = [
  {
    content_type: "application/x-mpegURL",
    url: "https://video.twimg.com/amplify_video/1850214600325668864/pl/Rk2mTq8sVw4LxY0a.m3u8?tag=16",
  },
  {
    bitrate: 288000,
    content_type: "video/mp4",
    url: file(
      "https://video.twimg.com/amplify_video/1850214600325668864/vid/avc1/480x270/bP7nQ2rS5tU8vW1x.mp4?tag=16",
      262_144,
      "video/mp4",
    ),
  },
  {
    bitrate: 2176000,
    content_type: "video/mp4",
    url: file(
      "https://video.twimg.com/amplify_video/1850214600325668864/vid/avc1/1280x720/dR9pS4tU7vW0xY3z.mp4?tag=16",
      1_572_864,
      "video/mp4",
    ),
  },
  {
    bitrate: 832000,
    content_type: "video/mp4",
    url: file(
      "https://video.twimg.com/amplify_video/1850214600325668864/vid/avc1/640x360/cQ8oR3sT6uV9wX2y.mp4?tag=16",
      655_360,
      "video/mp4",
    ),
  },
  {
    bitrate: 10368000,
    content_type: "video/mp4",
    url: file(
      "https://video.twimg.com/amplify_video/1850214600325668864/vid/avc1/1920x1080/eS0qT5uV8wX1yZ4a.mp4?tag=16",
      4_718_592,
      "video/mp4",
    ),
  },
];

const ARTEMIS_TWEET = {
  __typename: "Tweet",
  lang: "en",
  favorite_count: 8421,
  possibly_sensitive: false,
  created_at: "2024-10-26T21:04:11.000Z",
  display_text_range: [0, 139],
  entities: {
    hashtags: [{ indices: [101, 109], text: "Artemis" }],
    urls: [],
    user_mentions: [],
    symbols: [],
    media: [
      {
        display_url: "pic.x.com/k3Jd9sLq2W",
        expanded_url: "https://x.com/NASA/status/1850214830462251210/video/1",
        indices: [140, 163],
        url: "https://t.co/k3Jd9sLq2W",
      },
    ],
  },
  id_str: "1850214830462251210",
  text: "The rocket that will send astronauts around the Moon is taking shape. Watch the core stage roll out. #Artemis https://t.co/k3Jd9sLq2W",
  user: NASA_USER,
  edit_control: {
    edit_tweet_ids: ["1850214830462251210"],
    editable_until_msecs: "1729980251000",
    is_edit_eligible: true,
    edits_remaining: "5",
  },
  mediaDetails: [
    {
      display_url: "pic.x.com/k3Jd9sLq2W",
      expanded_url: "https://x.com/NASA/status/1850214830462251210/video/1",
      ext_media_availability: { status: "Available" },
      indices: [140, 163],
      media_url_https: ARTEMIS_POSTER,
      original_info: { height: 1080, width: 1920, focus_rects: [] },
      sizes: sizes(1920, 1080),
      type: "video",
      url: "https://t.co/k3Jd9sLq2W",
      video_info: { aspect_ratio: [16, 9], duration_millis: 64_480, variants: ARTEMIS_VARIANTS },
    },
  ],
  video: {
    aspectRatio: [16, 9],
    contentType: "media_entity",
    durationMs: 64_480,
    mediaAvailability: { status: "available" },
    poster: ARTEMIS_POSTER,
    variants: ARTEMIS_VARIANTS.map((variant) => ({ type: variant.content_type, src: variant.url })),
    videoId: { type: "tweet", id: "1850214830462251210" },
    viewCount: 0,
  },
  conversation_count: 312,
  news_action_type: "conversation",
  isEdited: false,
  isStaleEdit: false,
};

// ---- a multi-photo post ----

const WEBB_PHOTOS = [
  { url: file("https://pbs.twimg.com/media/GaR1xYzWkAAb3Cd.jpg", 412_330, "image/jpeg"), w: 4096, h: 4096 },
  { url: file("https://pbs.twimg.com/media/GaR1xZ0WcAEf5Gh.jpg", 388_102, "image/jpeg"), w: 3840, h: 2160 },
  { url: file("https://pbs.twimg.com/media/GaR1x_1XwAIj7Kl.png", 1_204_551, "image/png"), w: 2048, h: 1536 },
];

const WEBB_TWEET = {
  __typename: "Tweet",
  lang: "en",
  favorite_count: 15320,
  possibly_sensitive: false,
  created_at: "2024-10-24T18:20:02.000Z",
  display_text_range: [0, 98],
  entities: { hashtags: [], urls: [], user_mentions: [], symbols: [] },
  id_str: "1849563725161279632",
  text: "Three views of the same nebula, from near-infrared to mid-infrared. Swipe through them all. https://t.co/Wb8aQz1LmN",
  user: { ...NASA_USER, id_str: "2925845837", name: "NASA Webb Telescope", screen_name: "NASAWebb" },
  mediaDetails: WEBB_PHOTOS.map((photo, index) => ({
    display_url: "pic.x.com/Wb8aQz1LmN",
    expanded_url: `https://x.com/NASAWebb/status/1849563725161279632/photo/${index + 1}`,
    ext_media_availability: { status: "Available" },
    ext_media_color: { palette: [{ percentage: 61.2, rgb: { blue: 12, green: 9, red: 10 } }] },
    indices: [92, 115],
    media_url_https: photo.url,
    original_info: {
      height: photo.h,
      width: photo.w,
      focus_rects: [{ x: 0, y: 0, w: photo.w, h: Math.round(photo.w * 0.5625) }],
    },
    sizes: sizes(photo.w, photo.h),
    type: "photo",
    url: "https://t.co/Wb8aQz1LmN",
  })),
  photos: WEBB_PHOTOS.map((photo) => ({
    backgroundColor: { red: 10, green: 9, blue: 12 },
    cropCandidates: [],
    expandedUrl: "",
    url: photo.url,
    width: photo.w,
    height: photo.h,
  })),
  conversation_count: 204,
  news_action_type: "conversation",
  isEdited: false,
  isStaleEdit: false,
};

// ---- a GIF, only reachable through the guest GraphQL API (syndication answers 503) ----

const GIF_ID = "GZz9AbCWAAAx1Yz";
const MARSHALL_GRAPHQL = {
  data: {
    tweetResult: {
      result: {
        __typename: "Tweet",
        rest_id: "1843333445566778899",
        core: {
          user_results: {
            result: {
              __typename: "User",
              id: "VXNlcjo0NDk3NjcyNzc=",
              rest_id: "449767277",
              core: {
                created_at: "Thu Dec 29 13:42:11 +0000 2011",
                name: "NASA's Marshall Center",
                screen_name: "NASA_Marshall",
              },
              legacy: { followers_count: 402311, name: "NASA's Marshall Center", screen_name: "NASA_Marshall" },
            },
          },
        },
        views: { count: "90412", state: "EnabledWithCount" },
        legacy: {
          created_at: "Wed Oct 09 15:11:40 +0000 2024",
          conversation_id_str: "1843333445566778899",
          full_text: "Engines: tested. Team: thrilled. https://t.co/Gf4hJk8LmP",
          lang: "en",
          favorite_count: 2210,
          extended_entities: {
            media: [
              {
                display_url: "pic.x.com/Gf4hJk8LmP",
                expanded_url: "https://x.com/NASA_Marshall/status/1843333445566778899/photo/1",
                id_str: "1843333400012345678",
                media_key: "16_1843333400012345678",
                media_url_https: file(`https://pbs.twimg.com/tweet_video_thumb/${GIF_ID}.jpg`, 52_118, "image/jpeg"),
                original_info: { height: 270, width: 480 },
                type: "animated_gif",
                url: "https://t.co/Gf4hJk8LmP",
                video_info: {
                  aspect_ratio: [16, 9],
                  variants: [
                    {
                      bitrate: 0,
                      content_type: "video/mp4",
                      url: file(`https://video.twimg.com/tweet_video/${GIF_ID}.mp4`, 318_440, "video/mp4"),
                    },
                  ],
                },
              },
            ],
          },
        },
      },
    },
  },
};

/** The pinned post as GraphQL's `legacy` carries it (extended_entities instead of mediaDetails). */
const ARTEMIS_GRAPHQL_LEGACY = {
  full_text: ARTEMIS_TWEET.text,
  lang: "en",
  extended_entities: {
    media: ARTEMIS_TWEET.mediaDetails.map((media) => ({
      ...media,
      id_str: "1850214600325668864",
      media_key: "13_1850214600325668864",
    })),
  },
};

const graphqlOf = (result: unknown) => ({
  status: 200,
  body: { data: { tweetResult: result === undefined ? {} : { result } } },
});

export const X_RECORDED: Record<string, XRecord> = {
  "1850214830462251210": { syndication: { status: 200, body: ARTEMIS_TWEET } },
  "1849563725161279632": { syndication: { status: 200, body: WEBB_TWEET } },
  // Deleted: syndication answers a tombstone where the post was.
  "1848920011345678901": {
    syndication: {
      status: 200,
      body: {
        __typename: "TweetTombstone",
        tombstone: {
          text: {
            text: "This Post was deleted by the Post author. Learn more",
            entities: [
              {
                from_index: 41,
                to_index: 51,
                ref: {
                  __typename: "TimelineUrl",
                  url: "https://help.x.com/rules-and-policies/notices-on-x",
                  url_type: "ExternalUrl",
                },
              },
            ],
            rtl: false,
          },
        },
      },
    },
  },
  // Protected: syndication shows nothing (404); GraphQL says why.
  "1847712300998877665": {
    syndication: { status: 404 },
    graphql: graphqlOf({ __typename: "TweetUnavailable", reason: "Protected" }),
  },
  // Age-restricted: syndication's tombstone is the interstitial's text.
  "1846600112233445566": {
    syndication: {
      status: 200,
      body: {
        __typename: "TweetTombstone",
        tombstone: {
          text: {
            text: "Age-restricted adult content. This content might not be appropriate for people under 18 years old. To view this media, you’ll need to log in to X. Learn more",
            entities: [],
            rtl: false,
          },
        },
      },
    },
  },
  "1841155667788990011": {
    syndication: { status: 404 },
    graphql: graphqlOf({ __typename: "TweetUnavailable", reason: "NsfwLoggedOut" }),
  },
  // Throttled on both: the CDN's bare 429, then the API's with its reset time.
  "1845511223344556677": {
    syndication: { status: 429, headers: { "content-type": "text/plain" }, body: "Rate limit exceeded" },
    graphql: { status: 429, resetInSeconds: 600, body: { errors: [{ code: 88, message: "Rate limit exceeded." }] } },
  },
  // Both answers changed: the video's details and GraphQL's result moved.
  "1844422334455667788": {
    syndication: {
      status: 200,
      body: {
        ...ARTEMIS_TWEET,
        id_str: "1844422334455667788",
        mediaDetails: [
          { ...ARTEMIS_TWEET.mediaDetails[0], video_info: undefined, videoInfo: { variantsV2: ARTEMIS_VARIANTS } },
        ],
      },
    },
    graphql: {
      status: 200,
      body: { data: { tweetResultByRestIdV2: { result: MARSHALL_GRAPHQL.data.tweetResult.result } } },
    },
  },
  "1843333445566778899": {
    syndication: {
      status: 503,
      headers: { "content-type": "text/html" },
      body: "<html><body>Service Unavailable</body></html>",
    },
    graphql: { status: 200, body: MARSHALL_GRAPHQL },
  },
  "1842244556677889900": {
    syndication: {
      status: 200,
      body: {
        ...ARTEMIS_TWEET,
        id_str: "1842244556677889900",
        text: "Happy International Observe the Moon Night! Look up tonight.",
        mediaDetails: undefined,
        video: undefined,
        entities: { hashtags: [], urls: [], user_mentions: [], symbols: [] },
      },
    },
    graphql: graphqlOf({
      __typename: "Tweet",
      rest_id: "1842244556677889900",
      core: {
        user_results: {
          result: {
            __typename: "User",
            rest_id: "11348282",
            core: { name: "NASA", screen_name: "NASA" },
            legacy: { name: "NASA", screen_name: "NASA" },
          },
        },
      },
      legacy: {
        full_text: "Happy International Observe the Moon Night! Look up tonight.",
        lang: "en",
        favorite_count: 5120,
      },
    }),
  },
  // Syndication shows nothing; GraphQL answers a post under a visibility notice whose only
  // media is the post it quotes.
  "1840066778899001122": {
    syndication: { status: 404 },
    graphql: graphqlOf({
      __typename: "TweetWithVisibilityResults",
      tweetInterstitial: { __typename: "ContextualTweetInterstitial", displayType: "NonCompliant" },
      tweet: {
        rest_id: "1840066778899001122",
        core: {
          user_results: {
            result: { __typename: "User", core: { name: "Space Fan", screen_name: "spacefan42" }, legacy: {} },
          },
        },
        legacy: { full_text: "This never gets old https://t.co/Qt7uV2wXyZ", lang: "en" },
        quoted_status_result: { result: { __typename: "Tweet", legacy: ARTEMIS_GRAPHQL_LEGACY } },
      },
    }),
  },
  // Syndication says 404; GraphQL's answer is one we do not read: the 404 is what we know.
  "1839955667788990011": {
    syndication: { status: 404 },
    graphql: graphqlOf({ __typename: "TweetV3", rest_id: "1839955667788990011" }),
  },
};
