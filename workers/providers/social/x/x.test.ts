import { describe, expect, it } from "vitest";
import { createFakeSocialFetch } from "../fake";
import { fakeMediaBytes } from "../fake-media";
import { hostGuardedFetch, hostMatches, type PlatformExtractor } from "../extractor";
import { createFakeX } from "./fake";
import { X_EXTRA_FIXTURE_URLS, X_FIXTURE_URLS } from "./fixtures";
import { syndicationToken, xExtractor } from "./index";
import { expectPost, refOf } from "../../../../tests/social-extractors";

const BASE_URLS = { syndication: "https://cdn.syndication.twimg.com", api: "https://api.x.com" };

/** The extractor over the fake, behind the host guard, with every URL it fetched. */
function harness(clock?: { fake: number; extractor: number }) {
  const calls: Request[] = [];
  const fake = createFakeSocialFetch([createFakeX(clock ? { now: () => clock.fake } : {})]);
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    calls.push(new Request(request));
    return fake(request);
  };
  const holder: { extractor?: PlatformExtractor } = {};
  const guarded: typeof fetch = (input, init) =>
    hostGuardedFetch(recording, holder.extractor?.apiHosts ?? [])(input, init);
  const extractor = xExtractor({
    baseUrls: BASE_URLS,
    fetch: guarded,
    ...(clock ? { now: () => clock.extractor } : {}),
  });
  holder.extractor = extractor;
  const extract = (url: string | undefined) => extractor.extract(refOf(url), AbortSignal.timeout(5000));
  return { extractor, calls, extract };
}

describe("syndicationToken", () => {
  // Pairs computed with the widget's formula in V8 and, independently, with yt-dlp's Python
  // port of Number.prototype.toString(radix) (yt_dlp/jsinterp.py js_number_to_string).
  it.each([
    ["1850214830462251210", "4hgmd898kch"],
    ["1707234985613447357", "44zfq7hcbzn"],
    ["1683800803968942080", "42xtduatfk"],
    ["1853000000000000001", "4hpdd23smql"],
    ["20", "6dq1a2xwd93"],
  ])("token for %s is %s", (id, token) => {
    expect(syndicationToken(id)).toBe(token);
  });
});

describe("xExtractor over the recorded X", () => {
  it("lists a video's mp4 renditions in X's order, without its HLS playlist, from syndication alone", async () => {
    const { extract, calls } = harness();
    const post = expectPost(await extract(X_FIXTURE_URLS.public));
    expect(post).toMatchObject({
      platform: "x",
      id: "1850214830462251210",
      title:
        "The rocket that will send astronauts around the Moon is taking shape. Watch the core stage roll out. #Artemis",
      author: { name: "NASA", handle: "NASA", url: "https://x.com/NASA" },
      thumbnail: "https://pbs.twimg.com/amplify_video_thumb/1850214600325668864/img/Xq3kLm9PzR2tYw8v.jpg",
      durationSec: 64.48,
    });
    expect(post.media.map((m) => [m.quality, m.width, m.height, m.bitrate, m.mimeType, m.hasAudio, m.type])).toEqual([
      ["270p", 480, 270, 288000, "video/mp4", true, "video"],
      ["720p", 1280, 720, 2176000, "video/mp4", true, "video"],
      ["360p", 640, 360, 832000, "video/mp4", true, "video"],
      ["1080p", 1920, 1080, 10368000, "video/mp4", true, "video"],
    ]);
    // One video: its renditions are all the post's one item.
    expect(post.media.every((m) => m.item === 0)).toBe(true);
    expect(post.media.some((m) => m.url.includes(".m3u8"))).toBe(false);
    expect(post.media.every((m) => !m.boundToRequester)).toBe(true);
    expect(calls.map((c) => new URL(c.url).hostname)).toEqual(["cdn.syndication.twimg.com"]);
    expect(new URL(calls[0]!.url).searchParams.get("token")).toBe("4hgmd898kch");
  });

  it("lists every photo of a multi-photo post at its original size", async () => {
    const post = expectPost(await harness().extract(X_FIXTURE_URLS.carousel));
    expect(post.media.map((m) => [m.url, m.type, m.quality, m.width, m.height, m.mimeType])).toEqual([
      ["https://pbs.twimg.com/media/GaR1xYzWkAAb3Cd.jpg?name=orig", "image", "original", 4096, 4096, "image/jpeg"],
      ["https://pbs.twimg.com/media/GaR1xZ0WcAEf5Gh.jpg?name=orig", "image", "original", 3840, 2160, "image/jpeg"],
      ["https://pbs.twimg.com/media/GaR1x_1XwAIj7Kl.png?name=orig", "image", "original", 2048, 1536, "image/png"],
    ]);
    expect(post.media.map((m) => m.item)).toEqual([0, 1, 2]);
    expect(post.author.handle).toBe("NASAWebb");
    expect(post.durationSec).toBeNull();
  });

  it("numbers a mixed post's items in the post's order, a video's renditions sharing its item", async () => {
    const photo = (name: string) => ({
      type: "photo",
      media_url_https: `https://pbs.twimg.com/media/${name}.jpg`,
      original_info: { width: 1200, height: 800 },
    });
    const variant = (size: string, bitrate: number) => ({
      content_type: "video/mp4",
      bitrate,
      url: `https://video.twimg.com/ext_tw_video/1/pu/vid/avc1/${size}/clip.mp4`,
    });
    const tweet = {
      __typename: "Tweet",
      text: "Two photos around a video",
      user: { name: "NASA", screen_name: "NASA" },
      mediaDetails: [
        photo("first"),
        {
          type: "video",
          media_url_https: "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/poster.jpg",
          original_info: { width: 1280, height: 720 },
          video_info: {
            duration_millis: 5000,
            variants: [
              { content_type: "application/x-mpegURL", url: "https://video.twimg.com/ext_tw_video/1/pu/pl/clip.m3u8" },
              variant("640x360", 832000),
              variant("1280x720", 2176000),
            ],
          },
        },
        photo("last"),
      ],
    };
    const extractor = xExtractor({ baseUrls: BASE_URLS, fetch: async () => Response.json(tweet) });
    const post = expectPost(await extractor.extract(refOf(X_FIXTURE_URLS.public), AbortSignal.timeout(5000)));
    expect(post.media.map((m) => [m.item, m.type, m.width])).toEqual([
      [0, "image", 1200],
      // X's own order within the item: the handler, not the extractor, ranks renditions.
      [1, "video", 640],
      [1, "video", 1280],
      [2, "image", 1200],
    ]);
  });

  it("serves each answered media URL from the fake CDN, with Range", async () => {
    const { extractor, extract } = harness();
    const post = expectPost(await extract(X_FIXTURE_URLS.public));
    const media = createFakeSocialFetch([createFakeX()]);
    for (const item of post.media) {
      expect(hostMatches(new URL(item.url).hostname, extractor.mediaHosts)).toBe(true);
      const response = await media(item.url, { headers: { range: "bytes=100-131" } });
      expect(response.status).toBe(206);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(
        fakeMediaBytes(new URL(item.url).pathname, 100, 132),
      );
    }
  });

  it("answers a deleted post's tombstone as content-unavailable without asking GraphQL", async () => {
    const { extract, calls } = harness();
    expect(await extract(X_FIXTURE_URLS.deleted)).toMatchObject({ ok: false, kind: "content-unavailable" });
    expect(calls).toHaveLength(1);
  });

  it("asks GraphQL with a guest token when syndication shows nothing, and says a protected post is private", async () => {
    const { extract, calls } = harness();
    expect(await extract(X_FIXTURE_URLS.private)).toMatchObject({ ok: false, kind: "content-private" });
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      "GET /tweet-result",
      "POST /1.1/guest/activate.json",
      "GET /graphql/2ICDjqPd81tulZcYrtpTuQ/TweetResultByRestId",
    ]);
    expect(calls[2]!.headers.get("x-guest-token")).toBe("1850300000000000000");
    expect(JSON.parse(new URL(calls[2]!.url).searchParams.get("variables") ?? "{}")).toMatchObject({
      tweetId: "1847712300998877665",
    });
  });

  it("answers the age interstitial as login-required, from syndication's tombstone or GraphQL's reason", async () => {
    const { extract } = harness();
    expect(await extract(X_FIXTURE_URLS.loginWall)).toMatchObject({ ok: false, kind: "login-required" });
    expect(await extract(X_EXTRA_FIXTURE_URLS.nsfwViaGraphql)).toMatchObject({ ok: false, kind: "login-required" });
  });

  it("answers X's 429 as upstream-rate-limited, retrying when x-rate-limit-reset says", async () => {
    const fakeNow = 1_760_000_000_000;
    const { extract } = harness({ fake: fakeNow, extractor: fakeNow + 5_000 });
    expect(await extract(X_FIXTURE_URLS.rateLimited)).toEqual({
      ok: false,
      kind: "upstream-rate-limited",
      detail: expect.any(String),
      retryAfterSeconds: 595,
    });
  });

  it("answers answers of a shape it does not read as extractor-outdated", async () => {
    expect(await harness().extract(X_FIXTURE_URLS.changedShape)).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });

  it("falls back to the guest-token GraphQL answer when syndication fails, and reads a GIF as a silent video", async () => {
    const { extract, calls } = harness();
    const post = expectPost(await extract(X_EXTRA_FIXTURE_URLS.syndicationFallback));
    expect(post).toMatchObject({
      id: "1843333445566778899",
      title: "Engines: tested. Team: thrilled.",
      author: { name: "NASA's Marshall Center", handle: "NASA_Marshall", url: "https://x.com/NASA_Marshall" },
      thumbnail: "https://pbs.twimg.com/tweet_video_thumb/GZz9AbCWAAAx1Yz.jpg",
    });
    expect(post.media).toEqual([
      {
        item: 0,
        url: "https://video.twimg.com/tweet_video/GZz9AbCWAAAx1Yz.mp4",
        type: "video",
        quality: "270p",
        width: 480,
        height: 270,
        mimeType: "video/mp4",
        hasAudio: false,
      },
    ]);
    expect(calls.map((c) => new URL(c.url).hostname)).toEqual(["cdn.syndication.twimg.com", "api.x.com", "api.x.com"]);
  });

  it("reads a post GraphQL shows under a visibility notice, listing the media of the post it quotes", async () => {
    const post = expectPost(await harness().extract(X_EXTRA_FIXTURE_URLS.quoteUnderNotice));
    expect(post).toMatchObject({
      id: "1840066778899001122",
      title: "This never gets old",
      author: { name: "Space Fan", handle: "spacefan42" },
      durationSec: 64.48,
    });
    // X's order of the variants (the handler ranks them).
    expect(post.media.map((m) => m.quality)).toEqual(["270p", "720p", "360p", "1080p"]);
  });

  it("keeps syndication's 404 when GraphQL answers a result it does not read", async () => {
    expect(await harness().extract(X_EXTRA_FIXTURE_URLS.unreadableGraphql)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
  });

  it("answers a post without media, and an id X has no post for, as content-unavailable", async () => {
    const { extract } = harness();
    expect(await extract(X_EXTRA_FIXTURE_URLS.noMedia)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
      detail: "This X post has no video or image.",
    });
    expect(await extract("https://x.com/NASA/status/1111111111111111111")).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
  });

  it("fetches only X's own hosts, for every fixture", async () => {
    const { extractor, extract, calls } = harness();
    for (const url of [...Object.values(X_FIXTURE_URLS), ...Object.values(X_EXTRA_FIXTURE_URLS)]) await extract(url);
    expect(extractor.apiHosts).toEqual(["cdn.syndication.twimg.com", "api.x.com"]);
    expect(new Set(calls.map((c) => new URL(c.url).hostname))).toEqual(
      new Set(["cdn.syndication.twimg.com", "api.x.com"]),
    );
  });
});
