/**
 * Facebook's pages, recorded and trimmed to what the extractor reads plus some of the noise
 * around it, in the shapes Facebook serves a logged-out browser: Relay's prefetched results in
 * `<script type="application/json" data-sjs>` blobs (`RelayPrefetchedStreamCache` →
 * `__bbox.result.data`), slashes escaped as Facebook escapes them; the page's og: tags; the
 * login page; the "This content isn't available" page. Ids other than the pinned video's and
 * all CDN signatures are made up; every media URL is on the real CDN host and is answered by
 * the fake with `fakeMediaResponse`.
 */
import type { FixtureScenario } from "../fake-platform";

/** The post URLs the fake records, as a user would paste them. */
export const FACEBOOK_FIXTURE_URLS = {
  public: "https://www.facebook.com/NASA/videos/1003263494553473/",
  multiQuality: "https://www.facebook.com/NASA/videos/1003263494553473/",
  deleted: "https://www.facebook.com/NASA/videos/1111111111111111/",
  loginWall: "https://www.facebook.com/watch/?v=2222222222222222",
  rateLimited: "https://www.facebook.com/NASA/videos/3333333333333333/",
  changedShape: "https://www.facebook.com/NASA/videos/4444444444444444/",
} as const satisfies Partial<Record<FixtureScenario, string>>;

/**
 * Links the fake also records: a reel, and share links that Facebook redirects to a video
 * (`offSite` redirects away from Facebook, as a link post's share link may).
 */
export const FACEBOOK_LINK_FIXTURE_URLS = {
  reel: "https://www.facebook.com/reel/1187604102498762/",
  shareVideo: "https://www.facebook.com/share/v/1AbCdEfGhJ/",
  shareReel: "https://www.facebook.com/share/r/1XyZaBcDeF/",
  fbWatch: "https://fb.watch/t1AbCdEfGh/",
  offSite: "https://www.facebook.com/share/v/1OffSiTe00/",
} as const;

export const PINNED_VIDEO_ID = "1003263494553473";
export const REEL_ID = "1187604102498762";
const RELATED_VIDEO_ID = "871234509876543";

export interface RecordedMedia {
  url: string;
  seed: string;
  size: number;
  mimeType: string;
}

const oe = "6745B2C4";
export const FACEBOOK_MEDIA = {
  pinnedHd: {
    url: `https://video.fmnl4-1.fna.fbcdn.net/o1/v/t2/f2/m69/AQOx3mP7vK9wTz2LqYb5Ne8RcJd1UfHg4SaWo6iBtEkVrXyM.mp4?strext=1&_nc_cat=111&_nc_sid=5e9851&_nc_ht=video.fmnl4-1.fna.fbcdn.net&_nc_ohc=Vx3pQ8mZkLwQ7kNvgF1aB2c&efg=eyJ2ZW5jb2RlX3RhZyI6Inhwdl9wcm9ncmVzc2l2ZS5GQUNFQk9PSy4uQzMuMTkyMC5kYXNoX2gyNjQtYmFzaWMtZ2VuMl8xMDgwcCJ9&_nc_zt=28&oh=00_AYBk4Rq7WpZ2sNx1vLmY9cEe3uHh6GbDo8iFaTyVqC1Zqw&oe=${oe}`,
    seed: "facebook-1003263494553473-hd",
    size: 256_400,
    mimeType: "video/mp4",
  },
  pinnedSd: {
    url: `https://video.fmnl4-2.fna.fbcdn.net/o1/v/t2/f2/m69/AQPy8nQ2wL4xUa7MrZc6Of9SdKe2VgIh5TbXp7jCuFlWsYzN.mp4?strext=1&_nc_cat=104&_nc_sid=5e9851&_nc_ht=video.fmnl4-2.fna.fbcdn.net&_nc_ohc=Rk8nM2pQyLwQ3vXcBbN7dH5&efg=eyJ2ZW5jb2RlX3RhZyI6Inhwdl9wcm9ncmVzc2l2ZS5GQUNFQk9PSy4uQzMuMzYwLnN2ZV9zZCJ9&_nc_zt=28&oh=00_AYCp2Lk8QzW5sRt1vNbY7kXe4uJh9GcDo3iFaTyVqE2Zrw&oe=${oe}`,
    seed: "facebook-1003263494553473-sd",
    size: 98_700,
    mimeType: "video/mp4",
  },
  pinnedThumbnail: {
    url: `https://scontent.fmnl4-1.fna.fbcdn.net/v/t15.5256-10/465123456_1003264491220040_2345678901234567890_n.jpg?stp=dst-jpg_s960x960_tt6&_nc_cat=109&ccb=1-7&_nc_sid=7965db&_nc_ohc=Hd4TkL9pRyQ2vXcZbM8dK1&_nc_ht=scontent.fmnl4-1.fna.fbcdn.net&oh=00_AYAq7Lt1WrP5sMz9vKnY3xDe2uHh8GbCo4iEaSyUqB1Ytw&oe=${oe}`,
    seed: "facebook-1003263494553473-thumb",
    size: 34_100,
    mimeType: "image/jpeg",
  },
  reelHd: {
    url: `https://video.fmnl4-3.fna.fbcdn.net/o1/v/t2/f2/m366/AQMz5rT1yN8vXb3QsWd7Pg0TeLf3WhJi6UcYq8kDvGmXtAbO.mp4?strext=1&_nc_cat=101&_nc_sid=9a5d50&_nc_ht=video.fmnl4-3.fna.fbcdn.net&_nc_ohc=Nm5qL2pTyQ8wXcVbR1dJ7&efg=eyJ2ZW5jb2RlX3RhZyI6Inhwdl9wcm9ncmVzc2l2ZS5GQUNFQk9PSy4uQzMuNzIwLmRhc2hfaDI2NC1iYXNpYy1nZW4yXzcyMHAifQ&oh=00_AYDm3Rk6WqZ1sPx8vLnY2cFe7uHh5GbEo9iGaUyWqD4Zsw&oe=${oe}`,
    seed: "facebook-reel-1187604102498762-hd",
    size: 171_250,
    mimeType: "video/mp4",
  },
  reelSd: {
    url: `https://video.fmnl4-3.fna.fbcdn.net/o1/v/t2/f2/m69/AQNa6sU2zO9wYc4RtXe8Qh1UfMg4XiKj7VdZr9lEwHnYuBcP.mp4?strext=1&_nc_cat=101&_nc_sid=9a5d50&_nc_ht=video.fmnl4-3.fna.fbcdn.net&_nc_ohc=Pq6rM3pUyQ9wXcWbS2dK8&efg=eyJ2ZW5jb2RlX3RhZyI6Inhwdl9wcm9ncmVzc2l2ZS5GQUNFQk9PSy4uQzMuMzYwLnN2ZV9zZCJ9&oh=00_AYBn4Sl7XrA2tQy9wMoZ3dGf8vIi6HcFp0jHbVzXrE5Atw&oe=${oe}`,
    seed: "facebook-reel-1187604102498762-sd",
    size: 64_900,
    mimeType: "video/mp4",
  },
  relatedSd: {
    url: `https://video.fmnl4-1.fna.fbcdn.net/o1/v/t2/f2/m69/AQRelAtEdVidE0SdOnLyNotTheOneAskedForXyZ1.mp4?strext=1&_nc_cat=100&_nc_sid=5e9851&_nc_ht=video.fmnl4-1.fna.fbcdn.net&oh=00_AYRelatedSignatureNotAskedFor000000000000w&oe=${oe}`,
    seed: "facebook-871234509876543-sd",
    size: 40_000,
    mimeType: "video/mp4",
  },
} as const satisfies Record<string, RecordedMedia>;

const NASA_PAGE = {
  __typename: "Page",
  id: "100044561550831",
  name: "NASA - National Aeronautics and Space Administration",
  url: "https://www.facebook.com/NASA",
  is_verified: true,
  profile_picture: { uri: FACEBOOK_MEDIA.pinnedThumbnail.url },
};

/** The pinned video's Video object, as the watch page's Relay data carries it. */
export const PINNED_VIDEO = {
  __typename: "Video",
  id: PINNED_VIDEO_ID,
  videoId: PINNED_VIDEO_ID,
  is_live_streaming: false,
  is_looping: false,
  is_huddle: false,
  is_podcast_video: false,
  is_spherical: false,
  can_viewer_share: true,
  width: 1920,
  height: 1080,
  original_width: 1920,
  original_height: 1080,
  aspect_ratio: 1.7777777777778,
  playable_duration_in_ms: 612_480,
  length_in_second: 612.48,
  publish_time: 1668675600,
  title: { text: "Artemis I Launch to the Moon (Official NASA Broadcast)" },
  savable_description: { text: "Liftoff! Artemis I launches from Kennedy Space Center's Launch Pad 39B." },
  preferred_thumbnail: {
    image: { uri: FACEBOOK_MEDIA.pinnedThumbnail.url },
    image_preview_payload: null,
    id: "1003264491220040",
  },
  owner: NASA_PAGE,
  captions_url: null,
  video_available_captions_locales: [],
  dash_manifest_url: null,
  browser_native_hd_url: FACEBOOK_MEDIA.pinnedHd.url,
  browser_native_sd_url: FACEBOOK_MEDIA.pinnedSd.url,
  videoDeliveryLegacyFields: {
    id: PINNED_VIDEO_ID,
    browser_native_hd_url: FACEBOOK_MEDIA.pinnedHd.url,
    browser_native_sd_url: FACEBOOK_MEDIA.pinnedSd.url,
    dash_manifest_url: null,
  },
  spherical_video_fallback_urls: null,
  video_status_type: "PUBLISHED",
};

/** A video the watch page recommends beside the pinned one: never the answer for the pinned one. */
const RELATED_VIDEO = {
  __typename: "Video",
  id: RELATED_VIDEO_ID,
  videoId: RELATED_VIDEO_ID,
  playable_duration_in_ms: 95_000,
  width: 640,
  height: 360,
  title: { text: "Sunrise over the ISS" },
  owner: NASA_PAGE,
  browser_native_hd_url: null,
  browser_native_sd_url: FACEBOOK_MEDIA.relatedSd.url,
};

/** The reel as its page carries it: the creation story's short-form context, with the older URL keys. */
export const REEL_STORY = {
  __typename: "Story",
  id: "UzpfSTEwMDA0NDU2MTU1MDgzMTpWSzoxMTg3NjA0MTAyNDk4NzYy",
  post_id: "998877665544332",
  short_form_video_context: {
    video_owner: { __typename: "User", id: "100089512345678", name: "Space Coast Launches", is_verified: false },
    shareable_url: `https://www.facebook.com/reel/${REEL_ID}`,
    playback_video: {
      __typename: "Video",
      id: REEL_ID,
      width: 720,
      height: 1280,
      length_in_second: 29.6,
      preferred_thumbnail: { image: { uri: FACEBOOK_MEDIA.pinnedThumbnail.url } },
      playable_url: FACEBOOK_MEDIA.reelSd.url,
      playable_url_quality_hd: FACEBOOK_MEDIA.reelHd.url,
      is_looping: true,
    },
  },
};

/** A Video object in a shape the extractor does not read: DASH manifests only, no progressive file. */
export const RESHAPED_VIDEO = {
  __typename: "Video",
  id: "4444444444444444",
  videoId: "4444444444444444",
  playable_duration_in_ms: 42_000,
  owner: NASA_PAGE,
  videoDeliveryResponseFragment: {
    videoDeliveryResponseResult: {
      dash_manifest_urls: [
        { manifest_url: "https://video.fmnl4-1.fna.fbcdn.net/dash/4444444444444444.mpd", representation_type: "DASH" },
      ],
      progressive_urls: [],
      hls_playlist_urls: [],
    },
  },
};

/** Relay's prefetched result, as one `data-sjs` blob carries it (slashes escaped as Facebook does). */
function relayBlob(queryName: string, data: unknown): string {
  const json = JSON.stringify({
    require: [
      [
        "ScheduledServerJS",
        "handle",
        null,
        [
          {
            __bbox: {
              require: [
                [
                  "RelayPrefetchedStreamCache",
                  "next",
                  [],
                  [
                    `adp_${queryName}_${Math.abs(hash(queryName))}`,
                    { __bbox: { complete: true, result: { data, extensions: { is_final: true } } } },
                  ],
                ],
              ],
            },
          },
        ],
      ],
    ],
  }).replace(/\//g, "\\/");
  return `<script type="application/json" data-content-len="${json.length}" data-sjs>${json}</script>`;
}

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (Math.imul(value, 31) + char.charCodeAt(0)) | 0;
  return value;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function page(options: { title: string; canonical?: string; ogImage?: string; body: string }): string {
  return `<!DOCTYPE html><html id="facebook" class="_9dls" lang="en" dir="ltr"><head><meta charset="utf-8" />
<meta name="referrer" content="origin-when-crossorigin" id="meta_referrer" />
<title>${escapeHtml(options.title)} | Facebook</title>
<meta property="og:title" content="${escapeHtml(options.title)}" />
${options.ogImage ? `<meta property="og:image" content="${escapeHtml(options.ogImage)}" />` : ""}
${options.canonical ? `<meta property="og:url" content="${escapeHtml(options.canonical)}" /><link rel="canonical" href="${escapeHtml(options.canonical)}" />` : ""}
<link rel="preload" href="https://static.xx.fbcdn.net/rsrc.php/v3iX0R4/yV/l/en_US/Vn3QxP0m8Kz.js" as="script" crossorigin="anonymous" />
</head><body class="_6s5d _71pn system-fonts--body segoe" dir="ltr"><div id="mount_0_0_Xy"></div>
<script type="application/json" data-content-len="160" data-sjs>{"require":[["ScheduledServerJS","handle",null,[{"__bbox":{"define":[["LSD",[],{"token":"AVoFbL5q2Xc"},323],["CurrentUserInitialData",[],{"ACCOUNT_ID":"0","USER_ID":"0"},270]]}}]]]}</script>
${options.body}
<script>requireLazy(["Bootloader"],function(Bootloader){Bootloader.handlePayload({"consistency":{"rev":1018394821}});});</script>
</body></html>`;
}

/** The pinned video's watch page: a related video's data first, then the pinned one's. */
export const PINNED_VIDEO_PAGE = page({
  title: "Artemis I Launch to the Moon (Official NASA Broadcast)",
  canonical: `https://www.facebook.com/NASA/videos/${PINNED_VIDEO_ID}/`,
  ogImage: FACEBOOK_MEDIA.pinnedThumbnail.url,
  body:
    relayBlob("CometVideoHomeRelatedVideosQuery", { nodes: [{ __typename: "VideoHomeItem", video: RELATED_VIDEO }] }) +
    relayBlob("CometTahoeRootQuery", {
      video: {
        story: {
          id: "UzpfSTEwMDA0NDU2MTU1MDgzMTo5OTg4Nzc",
          url: `https://www.facebook.com/NASA/videos/${PINNED_VIDEO_ID}/`,
        },
        ...PINNED_VIDEO,
      },
    }),
});

export const REEL_PAGE = page({
  title: "Falcon 9 static fire, 29 seconds",
  canonical: `https://www.facebook.com/reel/${REEL_ID}/`,
  body: relayBlob("FBReelsRootWithEntrypointQuery", { video: { creation_story: REEL_STORY } }),
});

export const RESHAPED_VIDEO_PAGE = page({
  title: "Orion's camera during reentry",
  canonical: "https://www.facebook.com/NASA/videos/4444444444444444/",
  body: relayBlob("CometTahoeRootQuery", { video: RESHAPED_VIDEO }),
});

/** The old player's page: `hd_src` / `sd_src` in a ServerJS call in script text, no Relay data. */
export const LEGACY_VIDEO_PAGE = page({
  title: "Artemis I Launch to the Moon (Official NASA Broadcast)",
  canonical: `https://www.facebook.com/NASA/videos/${PINNED_VIDEO_ID}/`,
  body: `<script>bigPipe.beforePageletArrive("pagelet_video");</script><script>(function(){new (require("ServerJS"))().handle({"instances":[["__inst_5b4d0c5d_0_0",["VideoConfig"],[{"videoData":[{"is_hds":false,"video_id":"${PINNED_VIDEO_ID}","stream_type":"progressive","hd_src":${JSON.stringify(FACEBOOK_MEDIA.pinnedHd.url).replace(/\//g, "\\/")},"sd_src":${JSON.stringify(FACEBOOK_MEDIA.pinnedSd.url).replace(/\//g, "\\/")},"hd_tag":"hd_1080p","sd_tag":"sve_sd"}],"minQuality":0}],1]]});})();</script>`,
});

/** What Facebook shows a logged-out visitor for a deleted video and for one shared only with some people. */
export const UNAVAILABLE_PAGE = page({
  title: "Facebook",
  body: `<div role="main"><div class="x1n2onr6"><span dir="auto">This content isn't available right now</span><span dir="auto">When this happens, it's usually because the owner only shared it with a small group of people, changed who can see it or it's been deleted.</span><a href="/">Go to News Feed</a></div></div>`,
});

/** The login page Facebook redirects a video it will not show logged out to. */
export const LOGIN_PAGE = page({
  title: "Log in to Facebook",
  body: `<div id="globalContainer"><div class="_4-u5"><h2 class="uiHeaderTitle">You must log in to continue.</h2>
<form id="login_form" action="/login/device-based/regular/login/?login_attempt=1&amp;next=https%3A%2F%2Fwww.facebook.com%2Fwatch%2F" method="post"><input type="hidden" name="lsd" value="AVoFbL5q2Xc" autocomplete="off" />
<input type="text" class="inputtext" name="email" id="email" /><input type="password" class="inputtext" name="pass" id="pass" /><button value="1" class="_42ft _4jy0" id="loginbutton" name="login" type="submit">Log in</button></form></div></div>`,
});

/** What Facebook answers a request that is not a browser's (no browser user agent). */
export const UNSUPPORTED_BROWSER_PAGE = page({
  title: "Facebook",
  body: `<div><h1>Facebook is not available on this browser</h1><p>To continue using Facebook, get one of the browsers below.</p></div>`,
});
