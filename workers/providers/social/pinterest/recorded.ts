/**
 * Pinterest's answers for the fixture pins (pinterest/fixtures.ts): pin pages carrying the pin in
 * their Redux state (`__PWS_INITIAL_PROPS__`, snake_case, as yt-dlp's and cobalt's readers find
 * it) or only in Relay's camelCase form, the PinResource endpoint's answers, and the pin.it
 * redirect chain, trimmed to the fields the extractor reads plus some of the noise around them.
 * Hand-made for offline use: the ids, texts and media are illustrative, the structure is Pinterest's.
 */

export type PinterestRecord =
  { page: string; resource?: { status: number; body: unknown } } | { status: number; headers?: Record<string, string> };

/** The media files the fake CDN serves, by URL without its query. */
export const PINTEREST_MEDIA: Record<string, { size: number; mimeType: string }> = {};

function file(url: string, size: number, mimeType: string): string {
  PINTEREST_MEDIA[url] = { size, mimeType };
  return url;
}

/** pin.it codes and the pin each leads to. */
export const PINTEREST_SHORT_LINKS: Record<string, string> = { "4xQmZ8tVb": "1055599907085577" };

const NASA = { full_name: "NASA", username: "nasa", id: "1055600044522311000", type: "user" };

const image = (hash: string, width: number, height: number, ext = "jpg", size = 240_000) => ({
  "236x": {
    url: `https://i.pinimg.com/236x/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.${ext}`,
    width: 236,
    height: Math.round((height * 236) / width),
  },
  "736x": {
    url: `https://i.pinimg.com/736x/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.${ext}`,
    width: 736,
    height: Math.round((height * 736) / width),
  },
  orig: {
    url: file(
      `https://i.pinimg.com/originals/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.${ext}`,
      size,
      ext === "png" ? "image/png" : "image/jpeg",
    ),
    width,
    height,
  },
});

const videoList = (hash: string, durationMs: number) => ({
  V_HLSV3_MOBILE: {
    url: `https://v1.pinimg.com/videos/mc/hls/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.m3u8`,
    width: 360,
    height: 640,
    duration: durationMs,
    thumbnail: "",
  },
  V_720P: {
    url: file(
      `https://v1.pinimg.com/videos/mc/720p/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.mp4`,
      3_145_728,
      "video/mp4",
    ),
    width: 720,
    height: 1280,
    duration: durationMs,
    thumbnail: "",
  },
  V_HLSV4: {
    url: `https://v1.pinimg.com/videos/mc/hls/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}_v4.m3u8`,
    width: 720,
    height: 1280,
    duration: durationMs,
    thumbnail: "",
  },
  V_EXP4: {
    url: file(
      `https://v1.pinimg.com/videos/mc/expMp4/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}_t4.mp4`,
      1_048_576,
      "video/mp4",
    ),
    width: 540,
    height: 960,
    duration: durationMs,
    thumbnail: "",
  },
});

function pinPage(
  pin: { id: string; title: string },
  data: { redux?: Record<string, unknown>; relay?: string },
): string {
  const state = data.redux
    ? `<script id="__PWS_INITIAL_PROPS__" type="application/json">${JSON.stringify({
        isDesktop: true,
        initialReduxState: { pins: { [pin.id]: data.redux }, users: {}, boards: {}, resources: {} },
        context: { locale: "en-US", country: "US", is_authenticated: false },
      })}</script>`
    : "";
  const relay = data.relay
    ? `<script>__PWS_RELAY_REGISTER_COMPLETED_REQUEST__("CloseupDetailQuery", ${data.relay});</script>`
    : "";
  return `<!DOCTYPE html><html lang="en-US" dir="ltr"><head>
<meta charset="utf-8">
<title>${pin.title}</title>
<link rel="canonical" href="https://www.pinterest.com/pin/${pin.id}/">
<meta property="og:url" content="https://www.pinterest.com/pin/${pin.id}/">
<meta property="og:site_name" content="Pinterest">
<meta name="robots" content="max-image-preview:large">
<script id="__PWS_INIT_CONFIG__" type="application/json">{"appVersion":"c4b7a1e","gk":{}}</script>
${state}
</head><body><div id="__PWS_ROOT__"></div>${relay}
<script src="https://s.pinimg.com/webapp/runtime-7e1f2a.js" defer></script></body></html>`;
}

const ARTEMIS_PIN = {
  id: "1055599907085543",
  type: "pin",
  title: "Artemis II: the core stage rolls out",
  grid_title: "Artemis II core stage",
  description: "The Space Launch System core stage for Artemis II on its way to the Vehicle Assembly Building.",
  created_at: "Sat, 26 Oct 2024 21:10:00 +0000",
  repin_count: 212,
  domain: "Uploaded by user",
  is_video: true,
  closeup_attribution: NASA,
  pinner: NASA,
  images: image("a1b2c3d4e5f60718293a4b5c6d7e8f90", 720, 1280, "jpg", 188_416),
  videos: { id: "8412256", video_list: videoList("0f1e2d3c4b5a69788796a5b4c3d2e1f0", 15_280) },
  story_pin_data: null,
  carousel_data: null,
  embed: null,
};

const WEBB_CAROUSEL_PIN = {
  id: "1055599907085611",
  type: "pin",
  title: "",
  grid_title: "Webb's nebula in three filters",
  description: " ",
  closeup_attribution: NASA,
  images: image("b2c3d4e5f60718293a4b5c6d7e8f90a1", 1200, 1200),
  videos: null,
  carousel_data: {
    id: "4213372",
    index: 0,
    carousel_slots: [
      {
        id: "1",
        title: "Near-infrared",
        images: image("c3d4e5f60718293a4b5c6d7e8f90a1b2", 1200, 1200, "jpg", 301_113),
      },
      { id: "2", title: "Mid-infrared", images: image("d4e5f60718293a4b5c6d7e8f90a1b2c3", 1200, 1500, "jpg", 288_730) },
      { id: "3", title: "Composite", images: image("e5f60718293a4b5c6d7e8f90a1b2c3d4", 1600, 900, "png", 912_004) },
    ],
  },
};

const MOON_IMAGE_PIN = {
  id: "1055599907085577",
  type: "pin",
  title: "Full Moon over the Vehicle Assembly Building",
  description: "",
  pinner: { full_name: "Kennedy Space Center", username: "nasakennedy" },
  images: image("f60718293a4b5c6d7e8f90a1b2c3d4e5", 2400, 1600, "jpg", 624_118),
  videos: null,
};

const STORY_PIN = {
  id: "1055599907085588",
  type: "pin",
  title: "How a spacesuit is made",
  native_creator: NASA,
  images: image("0718293a4b5c6d7e8f90a1b2c3d4e5f6", 720, 1280),
  videos: null,
  story_pin_data: {
    id: "5120033",
    page_count: 2,
    pages: [
      {
        id: "p1",
        layout: 0,
        blocks: [
          {
            block_type: 3,
            type: "story_pin_video_block",
            video: {
              id: "8412301",
              video_list: {
                V_EXP7: {
                  url: file(
                    "https://v1.pinimg.com/videos/iht/expMp4/18/29/3a/18293a4b5c6d7e8f90a1b2c3d4e5f607_720w.mp4",
                    2_202_009,
                    "video/mp4",
                  ),
                  width: 720,
                  height: 1280,
                  duration: 14_900,
                },
                V_HLSV3_MOBILE: {
                  url: "https://v1.pinimg.com/videos/iht/hls/18/29/3a/18293a4b5c6d7e8f90a1b2c3d4e5f607_mobile.m3u8",
                  width: 360,
                  height: 640,
                  duration: 14_900,
                },
              },
            },
          },
        ],
      },
      {
        id: "p2",
        layout: 0,
        blocks: [
          {
            block_type: 2,
            type: "story_pin_image_block",
            image: { images: { originals: image("293a4b5c6d7e8f90a1b2c3d4e5f60718", 1080, 1920).orig } },
          },
        ],
      },
    ],
  },
};

const RELAY_PIN = {
  ...ARTEMIS_PIN,
  id: "1055599907085622",
  title: "Liftoff, seen from the pad camera",
  images: image("3a4b5c6d7e8f90a1b2c3d4e5f6071829", 1080, 1920),
  videos: { id: "8412377", video_list: videoList("4b5c6d7e8f90a1b2c3d4e5f60718293a", 31_040) },
};

/** Recorded answers by pin id. */
export const PINTEREST_RECORDED: Record<string, PinterestRecord> = {
  [ARTEMIS_PIN.id]: { page: pinPage(ARTEMIS_PIN, { redux: ARTEMIS_PIN }) },
  [WEBB_CAROUSEL_PIN.id]: {
    page: pinPage({ id: WEBB_CAROUSEL_PIN.id, title: "Webb's nebula" }, { redux: WEBB_CAROUSEL_PIN }),
  },
  [MOON_IMAGE_PIN.id]: { page: pinPage(MOON_IMAGE_PIN, { redux: MOON_IMAGE_PIN }) },
  [STORY_PIN.id]: { page: pinPage(STORY_PIN, { redux: STORY_PIN }) },
  [RELAY_PIN.id]: {
    page: pinPage(RELAY_PIN, {
      relay: JSON.stringify({
        data: {
          v3GetPinQuery: {
            data: {
              __typename: "Pin",
              entityId: RELAY_PIN.id,
              title: RELAY_PIN.title,
              imageSpec_orig: RELAY_PIN.images.orig,
            },
          },
        },
      }),
    }),
    resource: {
      status: 200,
      body: { resource_response: { status: "success", code: 0, message: "ok", data: RELAY_PIN }, client_context: {} },
    },
  },
  // Deleted: the page still answers, its data saying the pin is gone (cobalt's check).
  "1055599907085699": {
    page: pinPage(
      { id: "1055599907085699", title: "Pinterest" },
      {
        relay: JSON.stringify({
          data: { v3GetPinQuery: { data: { __typename: "PinNotFound", message: "Pin not found" } } },
        }),
      },
    ),
  },
  "1055599907085700": { status: 429, headers: { "retry-after": "30" } },
  // Neither the page nor the endpoint has the pin's media where we read it.
  "1055599907085701": {
    page: pinPage({ id: "1055599907085701", title: "Pinterest" }, {}),
    resource: {
      status: 200,
      body: {
        resource_response: {
          status: "success",
          data: {
            id: "1055599907085701",
            type: "pin",
            mediaAssets: { primary: { uri: "https://i.pinimg.com/originals/00/00/00/x.jpg" } },
          },
        },
      },
    },
  },
};
