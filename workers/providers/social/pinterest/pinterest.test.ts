import { describe, expect, it } from "vitest";
import { hostGuardedFetch, hostMatches, type PlatformExtractor } from "../extractor";
import { createFakeSocialFetch } from "../fake";
import { fakeMediaBytes } from "../fake-media";
import { fakePinterest } from "./fake";
import { PINTEREST_EXTRA_FIXTURE_URLS, PINTEREST_FIXTURE_URLS } from "./fixtures";
import { pinterestExtractor } from "./index";
import { expectPost, extractorHarness, refOf } from "../../../../tests/social-extractors";

/** The Pinterest extractor over a fake (the recorded Pinterest unless given), behind the host guard, with every URL fetched. */
const harness = (fake: typeof fetch = createFakeSocialFetch([fakePinterest])) =>
  extractorHarness(pinterestExtractor, { www: "https://www.pinterest.com" }, fake);

describe("pinterestExtractor over the recorded Pinterest", () => {
  it("reads a video pin's mp4 renditions from the page's Redux state, in Pinterest's order, without its HLS playlists", async () => {
    const { extract, calls } = harness();
    const post = expectPost(await extract(PINTEREST_FIXTURE_URLS.public));
    expect(calls).toEqual(["https://www.pinterest.com/pin/1055599907085543/"]);
    expect(post).toMatchObject({
      platform: "pinterest",
      id: "1055599907085543",
      title: "Artemis II: the core stage rolls out",
      author: { name: "NASA", handle: "nasa", url: "https://www.pinterest.com/nasa/" },
      thumbnail: "https://i.pinimg.com/originals/a1/b2/c3/a1b2c3d4e5f60718293a4b5c6d7e8f90.jpg",
      durationSec: 15.28,
    });
    expect(post.media.map((m) => [m.url, m.quality, m.width, m.height, m.mimeType, m.hasAudio])).toEqual([
      [
        "https://v1.pinimg.com/videos/mc/720p/0f/1e/2d/0f1e2d3c4b5a69788796a5b4c3d2e1f0.mp4",
        "720p",
        720,
        1280,
        "video/mp4",
        true,
      ],
      [
        "https://v1.pinimg.com/videos/mc/expMp4/0f/1e/2d/0f1e2d3c4b5a69788796a5b4c3d2e1f0_t4.mp4",
        "540p",
        540,
        960,
        "video/mp4",
        true,
      ],
    ]);
  });

  it("reads an image pin's original, and a carousel's every slot, in order", async () => {
    const { extract } = harness();
    const image = expectPost(await extract(PINTEREST_EXTRA_FIXTURE_URLS.image));
    expect(image.media).toEqual([
      {
        item: 0,
        url: "https://i.pinimg.com/originals/f6/07/18/f60718293a4b5c6d7e8f90a1b2c3d4e5.jpg",
        type: "image",
        quality: "original",
        width: 2400,
        height: 1600,
        mimeType: "image/jpeg",
        hasAudio: false,
      },
    ]);
    expect(image.author).toEqual({
      name: "Kennedy Space Center",
      handle: "nasakennedy",
      url: "https://www.pinterest.com/nasakennedy/",
    });
    const carousel = expectPost(await extract(PINTEREST_FIXTURE_URLS.carousel));
    expect(carousel.title).toBe("Webb's nebula in three filters");
    expect(
      carousel.media.map((m) => [new URL(m.url).pathname.split("/").pop(), m.width, m.height, m.mimeType]),
    ).toEqual([
      ["c3d4e5f60718293a4b5c6d7e8f90a1b2.jpg", 1200, 1200, "image/jpeg"],
      ["d4e5f60718293a4b5c6d7e8f90a1b2c3.jpg", 1200, 1500, "image/jpeg"],
      ["e5f60718293a4b5c6d7e8f90a1b2c3d4.png", 1600, 900, "image/png"],
    ]);
    expect(carousel.media.map((m) => m.item)).toEqual([0, 1, 2]);
  });

  it("reads a story pin's pages: the video block's mp4 and the image block's original", async () => {
    const post = expectPost(await harness().extract(PINTEREST_EXTRA_FIXTURE_URLS.storyPin));
    expect(post.media.map((m) => [m.item, m.type, m.quality, new URL(m.url).hostname])).toEqual([
      [0, "video", "720p", "v1.pinimg.com"],
      [1, "image", "original", "i.pinimg.com"],
    ]);
    expect(post.durationSec).toBe(14.9);
    expect(post.author.handle).toBe("nasa");
  });

  it("asks the PinResource endpoint when the page carries the pin only in its Relay form", async () => {
    const { extract, calls } = harness();
    const post = expectPost(await extract(PINTEREST_EXTRA_FIXTURE_URLS.relayPage));
    expect(post).toMatchObject({
      id: "1055599907085622",
      title: "Liftoff, seen from the pad camera",
      durationSec: 31.04,
    });
    expect(post.media.map((m) => m.quality)).toEqual(["720p", "540p"]);
    expect(calls).toHaveLength(2);
    const resource = new URL(calls[1]!);
    expect(resource.pathname).toBe("/resource/PinResource/get/");
    expect(JSON.parse(resource.searchParams.get("data") ?? "{}")).toMatchObject({
      options: { id: "1055599907085622", field_set_key: "unauth_react_main_pin" },
    });
  });

  it("reads the older builds' __PWS_DATA__ state too", async () => {
    const state = {
      props: {
        initialReduxState: {
          pins: {
            "42": {
              id: "42",
              title: "Old build",
              images: { orig: { url: "https://i.pinimg.com/originals/aa/bb/cc/x.png", width: 10, height: 20 } },
            },
          },
        },
      },
    };
    const page = `<html><head><script id="__PWS_DATA__" type="application/json">${JSON.stringify(state)}</script></head></html>`;
    const extractor = pinterestExtractor({
      baseUrls: { www: "https://www.pinterest.com" },
      fetch: async () => new Response(page),
    });
    const post = expectPost(
      await extractor.extract(refOf("https://www.pinterest.com/pin/42/"), AbortSignal.timeout(5000)),
    );
    expect(post.media).toEqual([
      {
        item: 0,
        url: "https://i.pinimg.com/originals/aa/bb/cc/x.png",
        type: "image",
        quality: "original",
        width: 10,
        height: 20,
        mimeType: "image/png",
        hasAudio: false,
      },
    ]);
  });

  it("follows a pin.it link through Pinterest's own hosts to the pin it names", async () => {
    const { extract, calls } = harness();
    const post = expectPost(await extract(PINTEREST_EXTRA_FIXTURE_URLS.share));
    expect(post.id).toBe("1055599907085577");
    expect(post.media[0]?.width).toBe(2400);
    expect(calls.map((url) => new URL(url).hostname)).toEqual(["pin.it", "api.pinterest.com", "www.pinterest.com"]);
  });

  it("refuses a short link that redirects off Pinterest's hosts, before fetching there", async () => {
    const offsite: typeof fetch = async (input) =>
      new URL(new Request(input).url).hostname === "pin.it"
        ? new Response(null, { status: 302, headers: { location: "https://evil.example/pin/1/" } })
        : new Response("should not be reached");
    const { extract, calls } = harness(offsite);
    // Where a short link leads is the link's doing, not a change in Pinterest's pages.
    expect(await extract("https://pin.it/AbCd123")).toMatchObject({ ok: false, kind: "content-unavailable" });
    expect(calls).toEqual(["https://pin.it/AbCd123"]);
  });

  it("follows a short link only onto Pinterest's pages, even under the composition's wider guard: a hop to its CDN is not read as a page", async () => {
    const toCdn: typeof fetch = async (input) => {
      const url = new URL(new Request(input).url);
      if (url.hostname === "pin.it")
        return new Response(null, {
          status: 302,
          headers: { location: "https://i.pinimg.com/originals/aa/bb/cc/x.png" },
        });
      return new Response(
        '<script id="__PWS_INITIAL_PROPS__">{}</script><link rel="canonical" href="https://www.pinterest.com/pin/1055599907085577/">',
      );
    };
    const calls: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      calls.push(new URL(request.url).hostname);
      return toCdn(request);
    };
    // As index.ts composes it: the extractor's fetch is guarded over its API and media hosts.
    const holder: { extractor?: PlatformExtractor } = {};
    const extractor = pinterestExtractor({
      baseUrls: { www: "https://www.pinterest.com" },
      fetch: (input, init) =>
        hostGuardedFetch(recording, [...(holder.extractor?.apiHosts ?? []), ...(holder.extractor?.mediaHosts ?? [])])(
          input,
          init,
        ),
    });
    holder.extractor = extractor;
    expect(await extractor.extract(refOf("https://pin.it/AbCd123"), AbortSignal.timeout(5000))).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
    expect(calls).toEqual(["pin.it"]);
  });

  it("answers a deleted pin (PinNotFound in the page, or a 404) as content-unavailable", async () => {
    const { extract } = harness();
    expect(await extract(PINTEREST_FIXTURE_URLS.deleted)).toMatchObject({ ok: false, kind: "content-unavailable" });
    expect(await extract("https://www.pinterest.com/pin/999999999999/")).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
    expect(await extract("https://pin.it/NoSuchCode")).toMatchObject({ ok: false, kind: "content-unavailable" });
  });

  it("answers Pinterest's 429 as upstream-rate-limited with its Retry-After", async () => {
    expect(await harness().extract(PINTEREST_FIXTURE_URLS.rateLimited)).toMatchObject({
      ok: false,
      kind: "upstream-rate-limited",
      retryAfterSeconds: 30,
    });
  });

  it("answers a pin whose media is nowhere it reads as extractor-outdated", async () => {
    expect(await harness().extract(PINTEREST_FIXTURE_URLS.changedShape)).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });

  it("serves each answered media URL from the fake CDN, with Range", async () => {
    const { extractor, extract } = harness();
    const media = createFakeSocialFetch([fakePinterest]);
    for (const url of [
      PINTEREST_FIXTURE_URLS.public,
      PINTEREST_FIXTURE_URLS.carousel,
      PINTEREST_EXTRA_FIXTURE_URLS.storyPin,
    ]) {
      for (const item of expectPost(await extract(url)).media) {
        expect(hostMatches(new URL(item.url).hostname, extractor.mediaHosts)).toBe(true);
        const response = await media(item.url, { headers: { range: "bytes=-8" } });
        expect(response.status).toBe(206);
        const size = Number(response.headers.get("content-range")?.split("/")[1]);
        expect(new Uint8Array(await response.arrayBuffer())).toEqual(
          fakeMediaBytes(new URL(item.url).pathname, size - 8, size),
        );
      }
    }
  });

  it("fetches only Pinterest's own hosts, for every fixture", async () => {
    const { extract, calls } = harness();
    for (const url of [...Object.values(PINTEREST_FIXTURE_URLS), ...Object.values(PINTEREST_EXTRA_FIXTURE_URLS)])
      await extract(url);
    expect(new Set(calls.map((url) => new URL(url).hostname))).toEqual(
      new Set(["www.pinterest.com", "api.pinterest.com", "pin.it"]),
    );
  });
});
