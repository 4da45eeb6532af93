/**
 * The composition of the platforms' extractors (index.ts), with a small extractor of the test's
 * own over the fakes' dispatcher, so each rule is checked whatever the platform modules do:
 * the host guard, typed failures for throws, the KV cache, the media-host check, fake mode's
 * bound media, and openMedia's refusal of foreign hosts.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExtractedMedia, Extraction, PostRef } from "~workers/hosted/capabilities";
import { readCachedPost, socialCacheKey } from "./cache";
import { readText, UpstreamTooLargeError, type ExtractorDeps, type PlatformExtractor } from "./extractor";
import { createFakeSocialFetch, type FakePlatform } from "./fake";
import { fakeMediaBytes, fakeMediaResponse } from "./fake-media";
import { youtubeExtractor } from "./youtube";
import { createSocialMedia, EXTRACTOR_FACTORIES, platformBaseUrls, socialMediaFor, urlHash } from "./index";
import { recognisePostUrl } from "~workers/hosted/youtube-instagram-video-downloader/recognise";
import { PINNED_POSTS } from "~workers/hosted/youtube-instagram-video-downloader/index";

const MEDIA_HOST = "media.test-cdn.example";
const MEDIA_URL = `https://${MEDIA_HOST}/v/clip.mp4`;

/** What the test platform answers at `https://api.test-platform.example/post/<id>`. */
const testFake: FakePlatform = {
  hosts: ["api.test-platform.example", ".test-cdn.example"],
  handle(request) {
    const url = new URL(request.url);
    if (url.hostname === MEDIA_HOST)
      return fakeMediaResponse(request, { seed: url.pathname, size: 200_000, mimeType: "video/mp4" });
    if (url.pathname === "/post/redirect-away") return Response.redirect("https://elsewhere.example/post", 302);
    return Response.json({ id: url.pathname.split("/").pop() });
  },
};

/**
 * An extractor over the test platform: `fetch` as the composition hands it. Its answer for an
 * id is what the test scripts; `calls` counts extractions.
 */
function testExtractor(script: (ref: PostRef, fetcher: typeof fetch) => Promise<Extraction>) {
  const calls: string[] = [];
  const factory = (deps: ExtractorDeps): PlatformExtractor => ({
    platform: "youtube",
    apiHosts: ["api.test-platform.example"],
    mediaHosts: [".test-cdn.example"],
    async extract(ref) {
      calls.push(ref.id);
      return script(ref, deps.fetch);
    },
  });
  return { factory, calls };
}

const post = (media: ExtractedMedia[]): Extraction => ({
  ok: true,
  post: {
    platform: "youtube",
    id: "x",
    title: "A clip",
    author: { name: "Someone", handle: null, url: null },
    thumbnail: null,
    durationSec: 3,
    media,
  },
});

const VIDEO: ExtractedMedia = {
  url: MEDIA_URL,
  type: "video",
  quality: "720p",
  width: 1280,
  height: 720,
  mimeType: "video/mp4",
  hasAudio: true,
};

let refCounter = 0;
/** A fresh post each test (KV is shared within the file). */
function freshRef(id = `post${++refCounter}${crypto.randomUUID().slice(0, 6)}`): PostRef {
  return { platform: "youtube", id, kind: "video", url: `https://www.youtube.com/watch?v=${id}` };
}

function compose(
  extractor: ReturnType<typeof testExtractor>,
  options: { fetch?: typeof fetch; bindAllMedia?: boolean } = {},
) {
  return createSocialMedia({
    plans: [
      {
        platform: "youtube",
        factory: extractor.factory,
        baseUrls: { www: "https://api.test-platform.example" },
      },
    ],
    fetch: options.fetch ?? createFakeSocialFetch([testFake]),
    kv: env.CACHE,
    bindAllMedia: options.bindAllMedia,
  });
}

const signal = () => new AbortController().signal;

afterEach(() => vi.restoreAllMocks());

describe("social composition: the extractor's fetch", () => {
  it("reaches the platform's own hosts", async () => {
    const extractor = testExtractor(async (ref, fetcher) => {
      const answer = (await (await fetcher(`https://api.test-platform.example/post/${ref.id}`)).json()) as {
        id: string;
      };
      expect(answer.id).toBe(ref.id);
      return post([VIDEO]);
    });
    const result = await compose(extractor).extract(freshRef(), signal());
    expect(result).toMatchObject({ ok: true, post: { media: [{ url: MEDIA_URL }] } });
  });

  it("refuses any other host, and a redirect off the platform's hosts, as extractor-outdated, logged with a hash of the URL", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const reached: string[] = [];
    const spying: typeof fetch = async (input, init) => {
      reached.push(new Request(input, init).url);
      return createFakeSocialFetch([testFake])(input, init);
    };
    for (const target of ["https://evil.example/steal", "https://api.test-platform.example/post/redirect-away"]) {
      const extractor = testExtractor(async (_ref, fetcher) => {
        await fetcher(target);
        return post([VIDEO]);
      });
      const ref = freshRef();
      const result = await compose(extractor, { fetch: spying }).extract(ref, signal());
      expect(result).toMatchObject({ ok: false, kind: "extractor-outdated" });
      const logged = warn.mock.calls.map((args) => args.join(" ")).join("\n");
      expect(logged).toContain("platform=youtube");
      expect(logged).toContain(`url#=${await urlHash(ref.url)}`);
      expect(logged).not.toContain(ref.id);
    }
    expect(reached.some((url) => url.includes("evil.example") || url.includes("elsewhere.example"))).toBe(false);
  });

  it("answers a network failure as upstream-failed (a retry may reach it) and a throw of the reader as extractor-outdated, never a throw", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const down: typeof fetch = async () => {
      throw new TypeError("fetch failed: connection reset");
    };
    const unreachable = testExtractor(async (ref, fetcher) => {
      await fetcher(`https://api.test-platform.example/post/${ref.id}`);
      return post([VIDEO]);
    });
    expect(await compose(unreachable, { fetch: down }).extract(freshRef(), signal())).toMatchObject({
      ok: false,
      kind: "upstream-failed",
    });
    const confused = testExtractor(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'streamingData')");
    });
    expect(await compose(confused).extract(freshRef(), signal())).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });

  it("throws on when the handler's own time limit aborted the call, for the gateway to answer", async () => {
    const controller = new AbortController();
    const extractor = testExtractor(async (ref, fetcher) => {
      controller.abort(new Error("handler exceeded 25000 ms"));
      await fetcher(`https://api.test-platform.example/post/${ref.id}`, { signal: controller.signal });
      return post([VIDEO]);
    });
    await expect(compose(extractor).extract(freshRef(), controller.signal)).rejects.toThrow();
  });
});

describe("social composition: what a success may hold", () => {
  it("answers a success with no media as extractor-outdated, never an empty success", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const extractor = testExtractor(async () => post([]));
    expect(await compose(extractor).extract(freshRef(), signal())).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });

  it("leaves out media off the platform's media hosts or not over https", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const extractor = testExtractor(async () =>
      post([
        { ...VIDEO, url: "https://evil.example/x.mp4" },
        { ...VIDEO, url: `http://${MEDIA_HOST}/plain.mp4` },
        VIDEO,
      ]),
    );
    const result = await compose(extractor).extract(freshRef(), signal());
    expect(result.ok && result.post.media.map((item) => item.url)).toEqual([MEDIA_URL]);
    const onlyForeign = testExtractor(async () => post([{ ...VIDEO, url: "https://evil.example/x.mp4" }]));
    expect(await compose(onlyForeign).extract(freshRef(), signal())).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });

  it("marks every media bound to the requester in fake mode, so the API answers tunnel URLs", async () => {
    const extractor = testExtractor(async () => post([VIDEO]));
    const bound = await compose(extractor, { bindAllMedia: true }).extract(freshRef(), signal());
    expect(bound.ok && bound.post.media[0]?.boundToRequester).toBe(true);
    const live = await compose(testExtractor(async () => post([VIDEO]))).extract(freshRef(), signal());
    expect(live.ok && live.post.media[0]?.boundToRequester).toBeUndefined();
  });
});

describe("social composition: a thumbnail and a profile picture only on the platform's hosts", () => {
  const withThumbnail = (thumbnail: string): Extraction => {
    const extraction = post([VIDEO]);
    return extraction.ok ? { ok: true, post: { ...extraction.post, thumbnail } } : extraction;
  };
  /** The test extractor, declaring `imageHosts` when given. */
  function extractorWith(thumbnail: string, imageHosts?: readonly string[]) {
    const inner = testExtractor(async () => withThumbnail(thumbnail));
    return {
      ...inner,
      factory: (deps: ExtractorDeps) => ({ ...inner.factory(deps), ...(imageHosts && { imageHosts }) }),
    };
  }
  const thumbnailOf = async (extractor: ReturnType<typeof extractorWith>) => {
    const result = await compose(extractor).extract(freshRef(), signal());
    expect(result.ok).toBe(true);
    return result.ok ? result.post.thumbnail : undefined;
  };

  it("keeps a thumbnail on the media hosts or declared image hosts, else answers none", async () => {
    expect(await thumbnailOf(extractorWith(`https://${MEDIA_HOST}/t.jpg`))).toBe(`https://${MEDIA_HOST}/t.jpg`);
    expect(await thumbnailOf(extractorWith("https://i.test-images.example/t.jpg", [".test-images.example"]))).toBe(
      "https://i.test-images.example/t.jpg",
    );
    // No image hosts declared: its API hosts stand for them (a page's og:image on the platform itself).
    expect(await thumbnailOf(extractorWith("https://api.test-platform.example/t.jpg"))).toBe(
      "https://api.test-platform.example/t.jpg",
    );
    for (const foreign of [
      "https://evil.example/t.jpg",
      "http://media.test-cdn.example/t.jpg",
      "javascript:alert(1)",
      "https://i.test-images.example/t.jpg",
    ]) {
      expect(await thumbnailOf(extractorWith(foreign)), foreign).toBeNull();
    }
    // Declared image hosts replace the API hosts for pictures.
    expect(
      await thumbnailOf(extractorWith("https://api.test-platform.example/t.jpg", [".test-images.example"])),
    ).toBeNull();
  });

  it("keeps YouTube's thumbnails on i.ytimg.com, the image host its extractor declares", async () => {
    const youtube = youtubeExtractor({ baseUrls: { www: "https://www.youtube.com" }, fetch });
    expect(youtube.imageHosts).toEqual([".ytimg.com"]);
  });

  it("refuses a profile whose picture is on no host of the platform's as extractor-outdated", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const social = (profilePic: string) =>
      createSocialMedia({
        plans: [
          {
            platform: "instagram",
            baseUrls: { www: "https://api.test-platform.example" },
            factory: () => ({
              platform: "instagram",
              apiHosts: ["api.test-platform.example"],
              mediaHosts: [".test-cdn.example"],
              extract: async () => post([VIDEO]),
              profile: async (username) => ({
                ok: true,
                profile: { username, fullName: null, bio: null, profilePic, followers: null, following: null },
              }),
            }),
          },
        ],
        fetch: createFakeSocialFetch([testFake]),
        kv: env.CACHE,
      });
    expect(await social(`https://${MEDIA_HOST}/p.jpg`).profile("someone", signal())).toMatchObject({ ok: true });
    expect(await social("https://evil.example/p.jpg").profile("someone", signal())).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });
});

describe("social composition: a post's thumbnail and a profile's picture in fake mode", () => {
  const withThumbnail = (thumbnail: string): Extraction => {
    const extraction = post([VIDEO]);
    return extraction.ok ? { ok: true, post: { ...extraction.post, thumbnail } } : extraction;
  };
  const RECORDED_THUMBNAIL = `https://${MEDIA_HOST}/t/poster.jpg`;

  it("marks a thumbnail on the recorded CDNs for the tunnel, cached with its mark; one elsewhere, and every one when live, stays as it is", async () => {
    const ref = freshRef();
    const fake = compose(
      testExtractor(async () => withThumbnail(RECORDED_THUMBNAIL)),
      { bindAllMedia: true },
    );
    const first = await fake.extract(ref, signal());
    expect(first).toMatchObject({ ok: true, post: { thumbnail: RECORDED_THUMBNAIL, thumbnailBoundToRequester: true } });
    // The second ask is the cache's, and keeps the mark.
    expect(await fake.extract(ref, signal())).toEqual(first);
    // A public image host the fakes do not record (YouTube's i.ytimg.com): a browser loads it as it is.
    const elsewhere = await compose(
      testExtractor(async () => withThumbnail("https://i.ytimg.com/vi/x/maxresdefault.jpg")),
      { bindAllMedia: true },
    ).extract(freshRef(), signal());
    expect(elsewhere.ok && elsewhere.post.thumbnailBoundToRequester).toBeUndefined();
    const live = await compose(testExtractor(async () => withThumbnail(RECORDED_THUMBNAIL))).extract(
      freshRef(),
      signal(),
    );
    expect(live.ok && live.post.thumbnailBoundToRequester).toBeUndefined();
  });

  it("marks a profile's picture on the recorded CDNs for the tunnel in fake mode only", async () => {
    const social = (bindAllMedia: boolean) =>
      createSocialMedia({
        plans: [
          {
            platform: "instagram",
            baseUrls: { www: "https://api.test-platform.example" },
            factory: () => ({
              platform: "instagram",
              apiHosts: ["api.test-platform.example"],
              mediaHosts: [".test-cdn.example"],
              extract: async () => post([VIDEO]),
              profile: async (username) => ({
                ok: true,
                profile: {
                  username,
                  fullName: null,
                  bio: null,
                  profilePic: RECORDED_THUMBNAIL,
                  followers: null,
                  following: null,
                },
              }),
            }),
          },
        ],
        fetch: createFakeSocialFetch([testFake]),
        kv: env.CACHE,
        bindAllMedia,
      });
    expect(await social(true).profile("someone", signal())).toMatchObject({
      ok: true,
      profile: { profilePic: RECORDED_THUMBNAIL, profilePicBoundToRequester: true },
    });
    const live = await social(false).profile("someone", signal());
    expect(live.ok && live.profile.profilePicBoundToRequester).toBeUndefined();
  });
});

describe("social composition: the cache", () => {
  it("keeps a success by canonical URL for a few minutes: the second ask does not reach the platform", async () => {
    const extractor = testExtractor(async () => post([VIDEO]));
    const social = compose(extractor);
    const ref = freshRef();
    const first = await social.extract(ref, signal());
    const second = await social.extract({ ...ref, kind: "short" }, signal());
    expect(extractor.calls).toEqual([ref.id]);
    expect(second).toEqual(first);
    expect(await readCachedPost(env.CACHE, ref.url)).toEqual(first.ok && first.post);
  });

  it("keeps each media's item, so a carousel read from the cache still tells its items apart", async () => {
    const extractor = testExtractor(async () =>
      post([
        { ...VIDEO, item: 0 },
        { ...VIDEO, item: 1 },
      ]),
    );
    const social = compose(extractor);
    const ref = freshRef();
    await social.extract(ref, signal());
    const cached = await social.extract(ref, signal());
    expect(extractor.calls).toEqual([ref.id]);
    expect(cached.ok && cached.post.media.map((media) => media.item)).toEqual([0, 1]);
  });

  it("keeps each media's formatId, so a post read from the cache still mints tunnel URLs that can ask again", async () => {
    const extractor = testExtractor(async () => post([{ ...VIDEO, formatId: "18" }]));
    const social = compose(extractor, { bindAllMedia: true });
    const ref = freshRef();
    await social.extract(ref, signal());
    const cached = await social.extract(ref, signal());
    expect(extractor.calls).toEqual([ref.id]);
    expect(cached.ok && cached.post.media.map((media) => media.formatId)).toEqual(["18"]);
  });

  it("is not read when asked for a fresh answer (the tunnel's second ask), which is still kept", async () => {
    let answer = 0;
    const extractor = testExtractor(async () => post([{ ...VIDEO, url: `${MEDIA_URL}?n=${++answer}` }]));
    const social = compose(extractor);
    const ref = freshRef();
    await social.extract(ref, signal());
    const fresh = await social.extract(ref, signal(), { fresh: true });
    expect(extractor.calls).toEqual([ref.id, ref.id]);
    expect(fresh.ok && fresh.post.media[0]?.url).toBe(`${MEDIA_URL}?n=2`);
    const cached = await social.extract(ref, signal());
    expect(cached.ok && cached.post.media[0]?.url).toBe(`${MEDIA_URL}?n=2`);
  });

  it("keeps no live post with media bound to the address that asked: another location's tunnel could not use them", async () => {
    const extractor = testExtractor(async () => post([{ ...VIDEO, boundToRequester: true }]));
    const live = compose(extractor);
    const ref = freshRef();
    await live.extract(ref, signal());
    await live.extract(ref, signal());
    expect(extractor.calls).toEqual([ref.id, ref.id]);
    expect(await env.CACHE.get(socialCacheKey(ref.url))).toBeNull();
    // Fake mode marks every media bound, but its CDNs are inside every Worker: kept.
    const recorded = testExtractor(async () => post([VIDEO]));
    const fake = compose(recorded, { bindAllMedia: true });
    const fakeRef = freshRef();
    await fake.extract(fakeRef, signal());
    await fake.extract(fakeRef, signal());
    expect(recorded.calls).toEqual([fakeRef.id]);
  });

  it("keeps no failure: a rate limit may lift on the next try", async () => {
    const extractor = testExtractor(async () => ({ ok: false, kind: "upstream-rate-limited", detail: "slow down" }));
    const social = compose(extractor);
    const ref = freshRef();
    await social.extract(ref, signal());
    await social.extract(ref, signal());
    expect(extractor.calls).toEqual([ref.id, ref.id]);
    expect(await env.CACHE.get(socialCacheKey(ref.url))).toBeNull();
  });

  it("reads an entry of another shape as a miss, not a crash", async () => {
    const extractor = testExtractor(async () => post([VIDEO]));
    const ref = freshRef();
    await env.CACHE.put(socialCacheKey(ref.url), JSON.stringify({ platform: "youtube", media: "nope" }));
    expect(await compose(extractor).extract(ref, signal())).toMatchObject({ ok: true });
    expect(extractor.calls).toEqual([ref.id]);
  });
});

describe("social composition: openMedia (the tunnel's fetch)", () => {
  const social = () => compose(testExtractor(async () => post([VIDEO])));

  it("fetches a media host's URL, passing Range on, unread", async () => {
    const response = await social().openMedia(MEDIA_URL, { range: "bytes=10-19", signal: signal() });
    expect(response?.status).toBe(206);
    expect(response?.headers.get("content-range")).toBe("bytes 10-19/200000");
    expect(new Uint8Array((await response?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(
      fakeMediaBytes("/v/clip.mp4", 10, 20),
    );
  });

  it("passes HEAD on as HEAD: headers only, no body fetched", async () => {
    const response = await social().openMedia(MEDIA_URL, { range: null, signal: signal(), method: "HEAD" });
    expect(response?.status).toBe(200);
    expect(response?.headers.get("content-length")).toBe("200000");
    expect(response?.body).toBeNull();
  });

  it("refuses (null) any host that is not one of the extractors' media hosts, its API hosts included, and plain http", async () => {
    for (const url of [
      "https://evil.example/x.mp4",
      "https://api.test-platform.example/post/1",
      `http://${MEDIA_HOST}/v/clip.mp4`,
      `https://${MEDIA_HOST}.evil.example/v/clip.mp4`,
      "not a url",
    ]) {
      expect(await social().openMedia(url, { range: null, signal: signal() }), url).toBeNull();
    }
  });
});

describe("socialMediaFor", () => {
  it("gives each platform module the base URLs it reads, without a trailing slash", () => {
    const config = {
      SOCIAL_PROVIDER: "fake" as const,
      YOUTUBE_BASE_URL: "https://www.youtube.com/",
      INSTAGRAM_BASE_URL: "https://www.instagram.com",
      FACEBOOK_BASE_URL: "https://www.facebook.com",
      X_SYNDICATION_URL: "https://cdn.syndication.twimg.com",
      X_API_URL: "https://api.x.com",
      LINKEDIN_BASE_URL: "https://www.linkedin.com",
      PINTEREST_BASE_URL: "https://www.pinterest.com",
    };
    expect(platformBaseUrls(config)).toEqual({
      youtube: { www: "https://www.youtube.com" },
      instagram: { www: "https://www.instagram.com" },
      facebook: { www: "https://www.facebook.com" },
      x: { syndication: "https://cdn.syndication.twimg.com", api: "https://api.x.com" },
      linkedin: { www: "https://www.linkedin.com" },
      pinterest: { www: "https://www.pinterest.com" },
    });
    // A platform whose module is not in the build is our defect, not the caller's: a throw (502).
    const none = socialMediaFor(config, env.CACHE, {});
    return expect(none.extract(freshRef(), signal())).rejects.toThrow(/no extractor for youtube/);
  });
});

describe("social composition: profiles", () => {
  it("answers a profile reader's throw as extractor-outdated, logged without the user name", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const social = createSocialMedia({
      plans: [
        {
          platform: "instagram",
          baseUrls: { www: "https://api.test-platform.example" },
          factory: () => ({
            platform: "instagram",
            apiHosts: ["api.test-platform.example"],
            mediaHosts: [".test-cdn.example"],
            extract: async () => post([VIDEO]),
            profile: async () => {
              throw new TypeError("Cannot read properties of undefined (reading 'user')");
            },
          }),
        },
      ],
      fetch: createFakeSocialFetch([testFake]),
      kv: env.CACHE,
    });
    expect(await social.profile("some.person", signal())).toMatchObject({ ok: false, kind: "extractor-outdated" });
    const logged = warn.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(logged).toContain("platform=instagram kind=profile");
    expect(logged).not.toContain("some.person");
  });
});

describe("social composition: an upstream body too large to read", () => {
  /** 12 MB of spaces, well past every bound, counting what the reader pulls of it. */
  function oversized() {
    const total = 12 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let pulled = 0;
    const fetcher: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= total) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk.slice());
        },
      });
      const type = request.url.includes("/youtubei/") || request.url.includes("syndication") ? "json" : "html";
      return new Response(body, { status: 200, headers: { "content-type": `text/${type}` } });
    };
    return { fetcher, pulled: () => pulled };
  }

  const config = {
    SOCIAL_PROVIDER: "live" as const,
    YOUTUBE_BASE_URL: "https://www.youtube.com",
    INSTAGRAM_BASE_URL: "https://www.instagram.com",
    FACEBOOK_BASE_URL: "https://www.facebook.com",
    X_SYNDICATION_URL: "https://cdn.syndication.twimg.com",
    X_API_URL: "https://api.x.com",
    LINKEDIN_BASE_URL: "https://www.linkedin.com",
    PINTEREST_BASE_URL: "https://www.pinterest.com",
  };
  const baseUrls = platformBaseUrls(config);

  for (const url of Object.values(PINNED_POSTS)) {
    it(`reads at most a bounded prefix and answers extractor-outdated: ${url}`, async () => {
      vi.spyOn(console, "warn").mockImplementation(() => undefined);
      const recognised = recognisePostUrl(url);
      if (!recognised.ok) throw new Error(recognised.reason);
      const { platform } = recognised.ref;
      const factory = EXTRACTOR_FACTORIES[platform];
      if (!factory) throw new Error(`no ${platform} extractor`);
      const upstream = oversized();
      const social = createSocialMedia({
        plans: [{ platform, factory, baseUrls: baseUrls[platform] }],
        fetch: upstream.fetcher,
        kv: env.CACHE,
      });
      const result = await social.extract(
        { ...recognised.ref, url: `${recognised.ref.url}#${crypto.randomUUID()}` },
        signal(),
      );
      expect(result).toMatchObject({
        ok: false,
        kind: "extractor-outdated",
        what: expect.stringMatching(/over \d+ bytes/),
      });
      // One read stops a chunk past its bound (5 MB for a page), never the whole 12 MB.
      expect(upstream.pulled()).toBeLessThanOrEqual(5 * 1024 * 1024 + 128 * 1024);
    });
  }

  it("readText reads a body under its bound whole, multi-byte characters split across chunks included", async () => {
    const bytes = new TextEncoder().encode("Artemis 🚀 — ünïcode");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    expect(await readText(new Response(body), bytes.byteLength)).toBe("Artemis 🚀 — ünïcode");
    await expect(readText(new Response(bytes), bytes.byteLength - 1)).rejects.toBeInstanceOf(UpstreamTooLargeError);
  });

  it("readText refuses a declared Content-Length over its bound before reading a byte", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const response = new Response(body, { headers: { "content-length": String(10 * 1024 ** 3) } });
    await expect(readText(response, 1024 * 1024)).rejects.toThrow(/over 1048576 bytes/);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("bounds the Instagram profile's JSON too", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const upstream = oversized();
    const factory = EXTRACTOR_FACTORIES.instagram;
    if (!factory) throw new Error("no instagram extractor");
    const social = createSocialMedia({
      plans: [{ platform: "instagram", factory, baseUrls: baseUrls.instagram }],
      fetch: upstream.fetcher,
      kv: env.CACHE,
    });
    expect(await social.profile("nasa", signal())).toMatchObject({ ok: false, kind: "extractor-outdated" });
    expect(upstream.pulled()).toBeLessThanOrEqual(2 * 1024 * 1024 + 128 * 1024);
  });
});
