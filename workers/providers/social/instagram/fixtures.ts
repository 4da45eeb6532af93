/**
 * Instagram's answers, recorded and trimmed to the fields the extractor reads plus some of the
 * noise around them, in the shapes Instagram serves logged out: the embed page's ServerJS
 * payload (`contextJSON` → `gql_data.shortcode_media`), the GraphQL post query's
 * `data.xdt_shortcode_media`, the route definitions' `tracePolicy`, and `web_profile_info`'s
 * `data.user`. Shortcodes, ids and CDN signatures are made up; every media URL is on the
 * real CDN host and is answered by the fake with `fakeMediaResponse`.
 */
import type { FixtureScenario } from "../fake-platform";

/** The post URLs the fake records, as a user would paste them. */
export const INSTAGRAM_FIXTURE_URLS = {
  public: "https://www.instagram.com/reel/C8xYzAbCdEf/",
  carousel: "https://www.instagram.com/p/C7qRsTuVwXy/",
  private: "https://www.instagram.com/p/C6pRvTaCcNt/",
  deleted: "https://www.instagram.com/p/C5dElEtEdPo/",
  loginWall: "https://www.instagram.com/p/C4lOgInWaLl/",
  rateLimited: "https://www.instagram.com/reel/C3sLoWdOwNn/",
  changedShape: "https://www.instagram.com/p/C2nEwShApEx/",
} as const satisfies Partial<Record<FixtureScenario, string>>;

/** The profile URLs the fake records (the older path's `type: "profile_pic"`). */
export const INSTAGRAM_PROFILE_FIXTURE_URLS = {
  public: "https://www.instagram.com/nasa/",
  deleted: "https://www.instagram.com/no.such.account.here/",
  loginWall: "https://www.instagram.com/walled.account/",
  rateLimited: "https://www.instagram.com/busy.account/",
  changedShape: "https://www.instagram.com/reshaped.account/",
} as const satisfies Partial<Record<FixtureScenario, string>>;

/** A media file the fake CDN serves: its bytes are `fakeMediaBytes(seed, …)`. */
export interface RecordedMedia {
  url: string;
  seed: string;
  size: number;
  mimeType: string;
}

const oe = "6745A1F3";
export const INSTAGRAM_MEDIA = {
  reelVideo: {
    url: `https://scontent-lga3-2.cdninstagram.com/o1/v/t16/f2/m86/AQPqJ5vF3kX7Yt1Wd9uQ0cLr2bNn8hGz4sEo6iTmKyUaDfVe_video_dashinit.mp4?stp=dst-mp4&efg=eyJxZV9ncm91cHMiOiJbXCJpZ193ZWJfZGVsaXZlcnlfdnRzX290ZlwiXSJ9&_nc_ht=scontent-lga3-2.cdninstagram.com&_nc_cat=104&vs=1203948576123987_2410998811&_nc_vs=HBksFQIYUmlnX3hwdl9yZWVsc19wZXJtYW5lbnRfc3JfcHJvZC8&oh=00_AYBx7Kq2RzX1p9dWcE3tVnFu5sLhM0aGiJoYkQwTeNr4Cw&oe=${oe}`,
    seed: "instagram-reel-C8xYzAbCdEf",
    size: 187_345,
    mimeType: "video/mp4",
  },
  reelPoster: {
    url: `https://scontent-lga3-1.cdninstagram.com/v/t51.29350-15/449812734_1012345678901234_5551234567890123456_n.jpg?stp=dst-jpg_e35_p720x720&_nc_ht=scontent-lga3-1.cdninstagram.com&_nc_cat=1&_nc_ohc=Qm3ZkT8bYxAQ7kNvgGq2xW1&edm=AOQ1c0wBAAAA&oh=00_AYCm1Rt4dQe8vW2pZkL9sXn3uHyBo6aJcFgE5iMtVrY7Tw&oe=${oe}`,
    seed: "instagram-poster-C8xYzAbCdEf",
    size: 48_211,
    mimeType: "image/jpeg",
  },
  carouselImage1: {
    url: `https://scontent-lga3-1.cdninstagram.com/v/t51.29350-15/447100221_1098765432109876_1112223334445556667_n.jpg?stp=dst-jpg_e35_p1080x1080&_nc_ht=scontent-lga3-1.cdninstagram.com&_nc_cat=100&_nc_ohc=Lk2YpR7sQwAQ9xHbFdN3vC4&edm=AOQ1c0wBAAAA&oh=00_AYAp4Lm8QzW1sRt6vNbY3kXe9uJh2GcDo5iFaTyVqE0Zrw&oe=${oe}`,
    seed: "instagram-carousel-C7qRsTuVwXy-1",
    size: 96_512,
    mimeType: "image/jpeg",
  },
  carouselVideo2: {
    url: `https://scontent-lga3-2.cdninstagram.com/o1/v/t16/f2/m69/AQNw8Yt2vB5cXz0Qe4rKd7LpS1gJm9uF3hTaW6iEo2nRyVbC_carousel.mp4?stp=dst-mp4&efg=eyJ2ZW5jb2RlX3RhZyI6InhwdnNfY2Fyb3VzZWwifQ&_nc_ht=scontent-lga3-2.cdninstagram.com&_nc_cat=107&vs=998877665544332_1209384756&oh=00_AYDk7Wq1Ez3sPt9rLyN2vUb5xMc8hGaJo4iTfKdVeR6Qnw&oe=${oe}`,
    seed: "instagram-carousel-C7qRsTuVwXy-2",
    size: 143_880,
    mimeType: "video/mp4",
  },
  carouselPoster2: {
    url: `https://scontent-lga3-1.cdninstagram.com/v/t51.29350-15/447100222_2233445566778899_9998887776665554443_n.jpg?stp=dst-jpg_e35_p1080x1080&_nc_ht=scontent-lga3-1.cdninstagram.com&_nc_cat=108&_nc_ohc=Tz5RkM2pQyAQ1wXcBvN8dL3&edm=AOQ1c0wBAAAA&oh=00_AYBr2Kt7WpQ4sNz1vLmY8xEe3uJh6GcDo9iFaTyVqC5Zsw&oe=${oe}`,
    seed: "instagram-carousel-C7qRsTuVwXy-2-poster",
    size: 51_007,
    mimeType: "image/jpeg",
  },
  carouselImage3: {
    url: `https://scontent-lga3-1.cdninstagram.com/v/t51.29350-15/447100223_5566778899001122_3332221110009998887_n.webp?stp=dst-webp_e35_p1080x1350&_nc_ht=scontent-lga3-1.cdninstagram.com&_nc_cat=103&_nc_ohc=Wn4TkL1pRyAQ6vXcZbM2dK8&edm=AOQ1c0wBAAAA&oh=00_AYCq9Lt3WrP2sMz5vKnY1xDe7uHh4GbCo8iEaSyUqB6Ytw&oe=${oe}`,
    seed: "instagram-carousel-C7qRsTuVwXy-3",
    size: 88_300,
    mimeType: "image/webp",
  },
  profilePicHd: {
    url: `https://scontent-lga3-2.cdninstagram.com/v/t51.2885-19/29090066_159271188110124_1152068159029641216_n.jpg?stp=dst-jpg_s320x320&_nc_ht=scontent-lga3-2.cdninstagram.com&_nc_cat=1&_nc_ohc=Bq7YkR3sPwAQ2xNbHdL5vF9&edm=AOQ1c0wBAAAA&oh=00_AYD3Lk9QpW2sRz7vNbX4kYe1uJh8GcFo6iDaTrVqE2Zuw&oe=${oe}`,
    seed: "instagram-profile-nasa-hd",
    size: 21_450,
    mimeType: "image/jpeg",
  },
  profilePic: {
    url: `https://scontent-lga3-2.cdninstagram.com/v/t51.2885-19/29090066_159271188110124_1152068159029641216_n.jpg?stp=dst-jpg_s150x150&_nc_ht=scontent-lga3-2.cdninstagram.com&_nc_cat=1&_nc_ohc=Bq7YkR3sPwAQ2xNbHdL5vF9&edm=AOQ1c0wBAAAA&oh=00_AYA8Lk2QpW7sRz1vNbX9kYe4uJh3GcFo2iDaTrVqE6Zvw&oe=${oe}`,
    seed: "instagram-profile-nasa",
    size: 6_820,
    mimeType: "image/jpeg",
  },
} as const satisfies Record<string, RecordedMedia>;

const nasaOwner = {
  id: "528817151",
  username: "nasa",
  full_name: "NASA",
  is_verified: true,
  is_private: false,
  profile_pic_url: INSTAGRAM_MEDIA.profilePic.url,
  edge_owner_to_timeline_media: { count: 4398 },
  edge_followed_by: { count: 97_412_345 },
};

/** The reel as GraphQL answers it (`xdt_shortcode_media`). */
export const REEL_MEDIA = {
  __typename: "XDTGraphVideo",
  __isXDTGraphMediaInterface: "XDTGraphVideo",
  id: "3400608251904643359",
  shortcode: "C8xYzAbCdEf",
  thumbnail_src: INSTAGRAM_MEDIA.reelPoster.url,
  dimensions: { height: 1280, width: 720 },
  gating_info: null,
  fact_check_overall_rating: null,
  fact_check_information: null,
  sensitivity_friction_info: null,
  sharing_friction_info: { should_have_sharing_friction: false, bloks_app_url: null },
  media_overlay_info: null,
  media_preview: "ABgqnRk8zYjHQbA...",
  display_url: INSTAGRAM_MEDIA.reelPoster.url,
  display_resources: [
    { src: INSTAGRAM_MEDIA.reelPoster.url, config_width: 640, config_height: 1137 },
    { src: INSTAGRAM_MEDIA.reelPoster.url, config_width: 720, config_height: 1280 },
  ],
  accessibility_caption: null,
  dash_info: { is_dash_eligible: true, video_dash_manifest: null, number_of_qualities: 4 },
  has_audio: true,
  video_url: INSTAGRAM_MEDIA.reelVideo.url,
  video_view_count: 1_204_331,
  video_play_count: 3_912_008,
  encoding_status: null,
  is_published: true,
  product_type: "clips",
  title: "",
  video_duration: 58.433,
  clips_music_attribution_info: {
    artist_name: "nasa",
    song_name: "Original audio",
    uses_original_audio: true,
    should_mute_audio: false,
    audio_id: "1203948576123987",
  },
  is_video: true,
  tracking_token: "eyJ2ZXJzaW9uIjo1LCJwYXlsb2FkIjp7ImlzX2FuYWx5dGljc190cmFja2VkIjp0cnVlfX0=",
  upcoming_event: null,
  edge_media_to_tagged_user: { edges: [] },
  owner: nasaOwner,
  edge_media_to_caption: {
    edges: [
      {
        node: {
          created_at: "1719504000",
          text: "Go behind the scenes of the Artemis II crew's launch-day rehearsal at Kennedy Space Center. 🚀\n\n#NASA #Artemis #Moon",
          id: "17987654321098765",
        },
      },
    ],
  },
  can_see_insights_as_brand: false,
  caption_is_edited: false,
  has_ranked_comments: false,
  like_and_view_counts_disabled: false,
  edge_media_to_parent_comment: { count: 2311, page_info: { has_next_page: true, end_cursor: "" }, edges: [] },
  edge_media_preview_like: { count: 181_220, edges: [] },
  comments_disabled: false,
  taken_at_timestamp: 1719504000,
  location: null,
  is_ad: false,
  viewer_has_liked: false,
  viewer_has_saved: false,
  is_affiliate: false,
  is_paid_partnership: false,
};

/** The carousel as GraphQL answers it: an image, a video, an image. */
export const CAROUSEL_MEDIA = {
  __typename: "XDTGraphSidecar",
  __isXDTGraphMediaInterface: "XDTGraphSidecar",
  id: "3380592281921193458",
  shortcode: "C7qRsTuVwXy",
  thumbnail_src: INSTAGRAM_MEDIA.carouselImage1.url,
  dimensions: { height: 1080, width: 1080 },
  gating_info: null,
  media_preview: null,
  display_url: INSTAGRAM_MEDIA.carouselImage1.url,
  accessibility_caption: "Photo by NASA on May 30, 2024.",
  is_video: false,
  tracking_token: "eyJ2ZXJzaW9uIjo1LCJwYXlsb2FkIjp7ImlzX2FuYWx5dGljc190cmFja2VkIjpmYWxzZX19",
  owner: nasaOwner,
  edge_media_to_caption: {
    edges: [
      {
        node: {
          created_at: "1717027200",
          text: "Three views of the Moon from Orion, swipe ➡️",
          id: "17912345678901234",
        },
      },
    ],
  },
  edge_sidecar_to_children: {
    edges: [
      {
        node: {
          __typename: "XDTGraphImage",
          id: "3380592275112345601",
          shortcode: "C7qRsSo1AbC",
          dimensions: { height: 1080, width: 1080 },
          display_url: INSTAGRAM_MEDIA.carouselImage1.url,
          display_resources: [{ src: INSTAGRAM_MEDIA.carouselImage1.url, config_width: 1080, config_height: 1080 }],
          accessibility_caption: "The lunar far side, lit by the Sun.",
          is_video: false,
          tracking_token: "eyJ2ZXJzaW9uIjo1fQ==",
          edge_media_to_tagged_user: { edges: [] },
        },
      },
      {
        node: {
          __typename: "XDTGraphVideo",
          id: "3380592275112345602",
          shortcode: "C7qRsSo2DeF",
          dimensions: { height: 1080, width: 1080 },
          display_url: INSTAGRAM_MEDIA.carouselPoster2.url,
          display_resources: [{ src: INSTAGRAM_MEDIA.carouselPoster2.url, config_width: 1080, config_height: 1080 }],
          accessibility_caption: null,
          dash_info: { is_dash_eligible: false, video_dash_manifest: null, number_of_qualities: 0 },
          has_audio: false,
          video_url: INSTAGRAM_MEDIA.carouselVideo2.url,
          video_view_count: 88_120,
          is_video: true,
          tracking_token: "eyJ2ZXJzaW9uIjo1fQ==",
          edge_media_to_tagged_user: { edges: [] },
        },
      },
      {
        node: {
          __typename: "XDTGraphImage",
          id: "3380592275112345603",
          shortcode: "C7qRsSo3GhI",
          dimensions: { height: 1350, width: 1080 },
          display_url: INSTAGRAM_MEDIA.carouselImage3.url,
          display_resources: [{ src: INSTAGRAM_MEDIA.carouselImage3.url, config_width: 1080, config_height: 1350 }],
          accessibility_caption: "Earthrise over the lunar horizon.",
          is_video: false,
          tracking_token: "eyJ2ZXJzaW9uIjo1fQ==",
          edge_media_to_tagged_user: { edges: [] },
        },
      },
    ],
  },
  edge_media_preview_like: { count: 402_118, edges: [] },
  comments_disabled: false,
  taken_at_timestamp: 1717027200,
  location: null,
  is_ad: false,
};

/**
 * The reel as its embed page carries it: the same node without `video_url` (the embed plays
 * nothing itself, it shows the poster and links to the reel), so the extractor must go on to
 * the GraphQL query for the video.
 */
export const REEL_EMBED_MEDIA = (() => {
  const { video_url: _unused, dash_info: _dash, ...rest } = REEL_MEDIA;
  return rest;
})();

/** `data.user` of `web_profile_info` for nasa. */
export const NASA_PROFILE_USER = {
  ai_agent_type: null,
  biography: "Exploring the universe and our home planet. 🌎",
  bio_links: [
    {
      title: "",
      lynx_url: "https://l.instagram.com/?u=https%3A%2F%2Fwww.nasa.gov%2F",
      url: "https://www.nasa.gov/",
      link_type: "external",
    },
  ],
  biography_with_entities: { raw_text: "Exploring the universe and our home planet. 🌎", entities: [] },
  external_url: "https://www.nasa.gov/",
  fbid: "17841400977813181",
  full_name: "NASA",
  edge_followed_by: { count: 97_412_345 },
  edge_follow: { count: 82 },
  id: "528817151",
  is_business_account: true,
  is_private: false,
  is_verified: true,
  category_name: "Government organization",
  profile_pic_url: INSTAGRAM_MEDIA.profilePic.url,
  profile_pic_url_hd: INSTAGRAM_MEDIA.profilePicHd.url,
  username: "nasa",
  edge_owner_to_timeline_media: { count: 4398, page_info: { has_next_page: true, end_cursor: "QVFE" }, edges: [] },
};

// ---- Pages ----

const LSD = "AVpQ3mK8xLw";
const CSRF = "kS9vJ2qXwE7rT4nB1mY6zC8dF3gH5aLp";

/** The embed page (`/p/<code>/embed/captioned/`) with `context` as its `contextJSON`, or none. */
export function embedPage(shortcode: string, context: unknown | undefined): string {
  const define = JSON.stringify({
    define: [
      ["LSD", [], { token: LSD }, 323],
      ["InstagramSecurityConfig", [], { csrf_token: CSRF }, 1345],
      ["SiteData", [], { server_revision: 1018394821, client_revision: 1018394821, push_phase: "C3" }, 317],
    ],
  });
  const init =
    context === undefined
      ? ""
      : `,"require":[["EmbedSimpleBase","init",[],[${JSON.stringify({ contextJSON: JSON.stringify(context), isOversized: false })}]],["TimeSliceImpl"],["ServerJS"]]`;
  return `<!DOCTYPE html><html lang="en" class="no-js logged-out "><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Instagram</title><link rel="stylesheet" href="https://static.cdninstagram.com/rsrc.php/v3/yB/l/0,cross/kF2vBm7qR0X.css" crossorigin="anonymous">
</head><body class="Embed"><div class="Embed Captioned" data-log-event="captionedEmbedImpression" id="embed-${shortcode}">
<div class="Header"><a class="Avatar InsideRing" href="https://www.instagram.com/nasa/?utm_source=ig_embed&amp;ig_rid=5c2b1e4a" target="_blank"></a></div>
<div class="EmbeddedMedia"><img class="EmbeddedMediaImage" alt="" src="${INSTAGRAM_MEDIA.reelPoster.url.replace(/&/g, "&amp;")}"></div>
<div class="Footer"><a class="ViewProfileButton" href="https://www.instagram.com/p/${shortcode}/?utm_source=ig_embed" target="_blank">View post</a></div></div>
<script type="application/json" data-content-len="412" data-sjs>{"require":[["ScheduledServerJS","handle",null,[{"__bbox":${define}}]]]}</script>
<script type="text/javascript" nonce="r4nd0m">requireLazy(["TimeSliceImpl","ServerJS"],function(TimeSlice,ServerJS){var s=(new ServerJS());s.handle({"define":[["CurrentUserInitialData",[],{"ACCOUNT_ID":"0","USER_ID":"0","NAME":"","SHORT_NAME":null},270]]${init}});});</script>
</body></html>`;
}

/** The embed context around a post's `shortcode_media` (or `null`, as Instagram writes it for a post it will not embed). */
export function embedContext(shortcode: string, media: unknown): unknown {
  return {
    context: {
      type: "captioned",
      shortcode,
      username: media ? "nasa" : null,
      profile_pic_url: media ? INSTAGRAM_MEDIA.profilePic.url : null,
      is_verified: true,
      caption_title_linkified: null,
      media_id: null,
    },
    gql_data: media ? { shortcode_media: media } : null,
  };
}

/** Instagram's "Sorry, this page isn't available." page, answered 404. */
export const NOT_FOUND_PAGE = `<!DOCTYPE html><html lang="en" class="no-js logged-out "><head><meta charset="utf-8"><title>Page not found • Instagram</title></head>
<body><div id="react-root"><h2>Sorry, this page isn't available.</h2><p>The link you followed may be broken, or the page may have been removed. <a href="/">Go back to Instagram.</a></p></div></body></html>`;

/** The login page, where Instagram redirects a logged-out visitor it will not serve. */
export const LOGIN_PAGE = `<!DOCTYPE html><html lang="en" class="no-js not-logged-in client-root"><head><meta charset="utf-8">
<title>Login • Instagram</title><link rel="canonical" href="https://www.instagram.com/accounts/login/" /><meta property="og:site_name" content="Instagram" />
</head><body><div id="react-root"></div>
<script type="application/json" data-sjs>{"require":[["ScheduledServerJS","handle",null,[{"__bbox":{"define":[["PolarisSiteData",[],{"country_code":"US","device_id":"A1B2C3D4-0000-4000-8000-1234567890AB"},1]]}}]]]}</script>
<script type="application/json" data-sjs>{"require":[["PolarisRouter","init",[],[{"routePath":"\\/accounts\\/login\\/","params":{"next":"\\/p\\/"}}]]]}</script></body></html>`;

/** A changed embed page: the post's data moved out of `contextJSON` into a payload we do not read. */
export function reshapedEmbedPage(shortcode: string): string {
  return embedPage(shortcode, undefined).replace(
    "</body>",
    `<script type="application/json" data-sjs>{"require":[["PolarisEmbedRoot","render",[],[{"__bbox":{"media":{"code":"${shortcode}","media_type":2,"video_versions":null}}}]]]}</script></body>`,
  );
}

/** The route definitions' answer (`for (;;);` then JSON), with the post's route's trace policy. */
export function routeDefinitions(shortcode: string, tracePolicy: string): string {
  const path = `/p/${shortcode}/`;
  return `for (;;);${JSON.stringify({
    __ar: 1,
    payload: {
      payloads: {
        [path]: {
          error: false,
          result: {
            type: "route_definition",
            redirect_result: null,
            exports: {
              rootView: {
                resource: { __dr: "PolarisPostRoot.react" },
                props: { media_id: null, media_owner_id: null },
              },
              hostableView: { resource: { __dr: "PolarisPostRoot.react" } },
              meta: { title: "Instagram", accessory: null, favicon: null },
              tracePolicy,
              canonicalRouteName: "comet.igweb.PolarisPostRoute",
            },
          },
        },
      },
    },
    hsrp: { hblp: { consistency: { rev: 1018394821 } } },
    lid: "7442145698321456789",
  })}`;
}
