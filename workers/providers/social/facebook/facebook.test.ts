import type { Extraction, PostRef } from "~workers/hosted/capabilities";
import { describe, expect, it } from "vitest";
import { hostGuardedFetch, type PlatformExtractor } from "../extractor";
import { createFakeSocialFetch, type FakePlatform } from "../fake";
import { fakeMediaBytes } from "../fake-media";
import { fakeFacebook } from "./fake";
import {
  FACEBOOK_FIXTURE_URLS,
  FACEBOOK_LINK_FIXTURE_URLS,
  FACEBOOK_MEDIA,
  LEGACY_VIDEO_PAGE,
  PINNED_VIDEO_ID,
  PINNED_VIDEO_PAGE,
  REEL_ID,
} from "./fixtures";
import { facebookExtractor } from "./index";
import { refOf } from "../../../../tests/social-extractors";

const never = new AbortController().signal;

/** The PostRef the recogniser makes of a Facebook URL (its canonical forms). */
/** The extractor over the fakes, with every request it made (method, host and path) in `asked`. */
function setup(platforms: FakePlatform[] = [fakeFacebook]) {
  const asked: string[] = [];
  const fake = createFakeSocialFetch(platforms);
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    asked.push(`${request.method} ${url.host}${url.pathname}${url.search}`);
    return fake(request);
  };
  return { extractor: facebookExtractor({ baseUrls: { www: "https://www.facebook.com" }, fetch }), asked };
}

/** A fake Facebook whose answers to some URLs are replaced, the rest recorded. */
function patched(replace: (request: Request, url: URL) => Response | null): FakePlatform {
  return {
    hosts: fakeFacebook.hosts,
    handle: (request) => replace(request, new URL(request.url)) ?? fakeFacebook.handle(request),
  };
}

const page = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

function post(extraction: Extraction) {
  if (!extraction.ok) throw new Error(`expected a post, got ${JSON.stringify(extraction)}`);
  return extraction.post;
}

const pinnedPost = {
  platform: "facebook",
  id: PINNED_VIDEO_ID,
  title: "Artemis I Launch to the Moon (Official NASA Broadcast)",
  author: {
    name: "NASA - National Aeronautics and Space Administration",
    handle: "NASA",
    url: "https://www.facebook.com/NASA",
  },
  thumbnail: FACEBOOK_MEDIA.pinnedThumbnail.url,
  durationSec: 612.48,
  media: [
    {
      url: FACEBOOK_MEDIA.pinnedHd.url,
      type: "video",
      quality: "HD",
      width: 1920,
      height: 1080,
      mimeType: "video/mp4",
      hasAudio: true,
    },
    {
      url: FACEBOOK_MEDIA.pinnedSd.url,
      type: "video",
      quality: "SD",
      width: null,
      height: null,
      mimeType: "video/mp4",
      hasAudio: true,
    },
  ],
};

describe("Facebook videos", () => {
  it("reads the pinned video's HD and SD files, HD first, and not the related video the page also carries", async () => {
    const { extractor, asked } = setup();
    expect(post(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.multiQuality), never))).toEqual(pinnedPost);
    expect(asked).toEqual([`GET www.facebook.com/NASA/videos/${PINNED_VIDEO_ID}/`]);
  });

  it("reads the same video from its /watch/?v= URL", async () => {
    const { extractor } = setup();
    expect(post(await extractor.extract(refOf(`https://www.facebook.com/watch/?v=${PINNED_VIDEO_ID}`), never))).toEqual(
      pinnedPost,
    );
  });

  it("reads a reel from its creation story, with the older playable_url keys and the short-form video's owner", async () => {
    const { extractor } = setup();
    expect(post(await extractor.extract(refOf(FACEBOOK_LINK_FIXTURE_URLS.reel), never))).toEqual({
      platform: "facebook",
      id: REEL_ID,
      title: "Falcon 9 static fire, 29 seconds",
      author: { name: "Space Coast Launches", handle: null, url: "https://www.facebook.com/100089512345678" },
      thumbnail: FACEBOOK_MEDIA.pinnedThumbnail.url,
      durationSec: 29.6,
      media: [
        {
          url: FACEBOOK_MEDIA.reelHd.url,
          type: "video",
          quality: "HD",
          width: 720,
          height: 1280,
          mimeType: "video/mp4",
          hasAudio: true,
        },
        {
          url: FACEBOOK_MEDIA.reelSd.url,
          type: "video",
          quality: "SD",
          width: null,
          height: null,
          mimeType: "video/mp4",
          hasAudio: true,
        },
      ],
    });
  });

  it("reads the old player's hd_src and sd_src from script text when the page has no Relay data", async () => {
    const { extractor } = setup([
      patched((_, url) => (url.pathname.startsWith("/NASA/videos/") ? page(LEGACY_VIDEO_PAGE) : null)),
    ]);
    const legacy = post(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.public), never));
    expect(legacy.media.map((item) => [item.quality, item.url])).toEqual([
      ["HD", FACEBOOK_MEDIA.pinnedHd.url],
      ["SD", FACEBOOK_MEDIA.pinnedSd.url],
    ]);
    expect(legacy.title).toBe("Artemis I Launch to the Moon (Official NASA Broadcast)");
  });

  it("refuses a DRM video as drm-protected, not as a changed page: by its flag or by its encrypted manifest", async () => {
    const drmPage = (video: Record<string, unknown>) =>
      `<!DOCTYPE html><html><head><meta property="og:title" content="A licensed film | Facebook" /></head><body>` +
      `<script type="application/json" data-sjs>${JSON.stringify({
        require: [["RelayPrefetchedStreamCache", "next", [], ["adp_CometTahoeRootQuery", { data: { video } }]]],
      })}</script></body></html>`;
    const base = {
      __typename: "Video",
      id: PINNED_VIDEO_ID,
      videoId: PINNED_VIDEO_ID,
      playable_duration_in_ms: 5_400_000,
    };
    const encryptedManifest =
      '<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011"><Period><AdaptationSet mimeType="video/mp4">' +
      '<ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc"/>' +
      '<ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"/>' +
      '<Representation id="1" bandwidth="1"><BaseURL>https://video.xx.fbcdn.net/v/enc.mp4</BaseURL></Representation>' +
      "</AdaptationSet></Period></MPD>";
    for (const video of [
      { ...base, is_drm: true },
      { ...base, dash_manifest: encryptedManifest },
      { ...base, dash_manifest: encodeURIComponent(encryptedManifest) },
      {
        ...base,
        videoDeliveryResponseFragment: {
          videoDeliveryResponseResult: { progressive_urls: [], dash_manifests: [{ manifest_xml: encryptedManifest }] },
        },
      },
    ]) {
      const { extractor } = setup([
        patched((_, url) => (url.pathname.startsWith("/NASA/videos/") ? page(drmPage(video)) : null)),
      ]);
      expect(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.public), never)).toMatchObject({
        ok: false,
        kind: "drm-protected",
      });
    }
  });

  it("reads a page whose og:title names a character that cannot exist as U+FFFD, not as a changed page", async () => {
    // &#99999999; and &#x110000; lie past U+10FFFF: String.fromCodePoint throws on them.
    const odd = LEGACY_VIDEO_PAGE.replace(
      '<meta property="og:title" content="Artemis I Launch',
      '<meta property="og:title" content="&#99999999;&#x110000; Artemis I Launch',
    );
    expect(odd).not.toBe(LEGACY_VIDEO_PAGE);
    const { extractor } = setup([patched((_, url) => (url.pathname.startsWith("/NASA/videos/") ? page(odd) : null))]);
    const read = post(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.public), never));
    expect(read.title).toBe("\ufffd\ufffd Artemis I Launch to the Moon (Official NASA Broadcast)");
    expect(read.media.map((item) => item.quality)).toEqual(["HD", "SD"]);
  });

  it("never answers a media URL off Facebook's CDN", async () => {
    const forged = PINNED_VIDEO_PAGE.replace(
      `"browser_native_hd_url":${JSON.stringify(FACEBOOK_MEDIA.pinnedHd.url).replace(/\//g, "\\/")}`,
      `"browser_native_hd_url":"https:\\/\\/evil.example\\/v.mp4"`,
    ).replace(/"videoDeliveryLegacyFields":\{[^}]*\}/, '"videoDeliveryLegacyFields":null');
    expect(forged).toContain("evil.example");
    const { extractor } = setup([
      patched((_, url) => (url.pathname.startsWith("/NASA/videos/") ? page(forged) : null)),
    ]);
    const answer = post(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.public), never));
    expect(answer.media.map((item) => item.url)).toEqual([FACEBOOK_MEDIA.pinnedSd.url]);
  });

  it("says a deleted (or friends-only) video is unavailable", async () => {
    const { extractor } = setup();
    expect(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.deleted), never)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
  });

  it("follows the redirect to the login page and says login is required", async () => {
    const { extractor, asked } = setup();
    expect(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.loginWall), never)).toMatchObject({
      ok: false,
      kind: "login-required",
    });
    expect(asked.at(-1)).toMatch(/^GET www\.facebook\.com\/login\/\?next=/);
  });

  it("passes a 429's Retry-After on", async () => {
    const { extractor } = setup();
    expect(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.rateLimited), never)).toEqual({
      ok: false,
      kind: "upstream-rate-limited",
      detail: expect.any(String),
      retryAfterSeconds: 300,
    });
  });

  it("reads the 'You're Temporarily Blocked' page as throttling", async () => {
    const blocked = `<html><body><h2>You’re Temporarily Blocked</h2><p>It looks like you were misusing this feature by going too fast.</p></body></html>`;
    const { extractor } = setup([
      patched((_, url) => (url.pathname.startsWith("/NASA/videos/") ? page(blocked) : null)),
    ]);
    expect(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.public), never)).toMatchObject({
      ok: false,
      kind: "upstream-rate-limited",
    });
  });

  it("says the extractor is outdated when the Video object has none of the URL keys it reads", async () => {
    const { extractor } = setup();
    expect(await extractor.extract(refOf(FACEBOOK_FIXTURE_URLS.changedShape), never)).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
      what: "Video without browser_native_hd_url/sd_url",
    });
  });

  it("refuses an id Facebook never writes without asking Facebook", async () => {
    const { extractor, asked } = setup();
    const ref: PostRef = {
      platform: "facebook",
      id: "../login",
      kind: "video",
      url: "https://www.facebook.com/watch/?v=1",
    };
    expect(await extractor.extract(ref, never)).toMatchObject({ ok: false, kind: "content-unavailable" });
    expect(asked).toEqual([]);
  });

  it("fetches only Facebook's hosts, and names only its CDN for media", () => {
    const { extractor } = setup();
    expect(extractor.apiHosts).toEqual(["www.facebook.com", "m.facebook.com", "web.facebook.com", "fb.watch"]);
    expect(extractor.mediaHosts).toEqual([".fbcdn.net"]);
  });
});

describe("Facebook share links", () => {
  it("follows /share/v/ to the video and answers it under the video's own id", async () => {
    const { extractor, asked } = setup();
    expect(post(await extractor.extract(refOf(FACEBOOK_LINK_FIXTURE_URLS.shareVideo), never))).toEqual(pinnedPost);
    expect(asked).toEqual([
      "GET www.facebook.com/share/v/1AbCdEfGhJ/",
      `GET www.facebook.com/NASA/videos/${PINNED_VIDEO_ID}/?mibextid=w8EBqM`,
    ]);
  });

  it("follows /share/r/ to the reel", async () => {
    const { extractor } = setup();
    const reel = post(await extractor.extract(refOf(FACEBOOK_LINK_FIXTURE_URLS.shareReel), never));
    expect(reel.id).toBe(REEL_ID);
    expect(reel.media[0]?.url).toBe(FACEBOOK_MEDIA.reelHd.url);
  });

  it("follows fb.watch onto www.facebook.com", async () => {
    const { extractor, asked } = setup();
    expect(post(await extractor.extract(refOf(FACEBOOK_LINK_FIXTURE_URLS.fbWatch), never))).toEqual(pinnedPost);
    expect(asked).toEqual(["GET fb.watch/t1AbCdEfGh/", `GET www.facebook.com/watch/?v=${PINNED_VIDEO_ID}&ref=sharing`]);
  });

  it("refuses a share link that redirects off Facebook, without fetching the other host", async () => {
    const { extractor, asked } = setup([
      fakeFacebook,
      { hosts: ["evil.example"], handle: () => page("should never be asked") },
    ]);
    expect(await extractor.extract(refOf(FACEBOOK_LINK_FIXTURE_URLS.offSite), never)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
    expect(asked).toEqual(["GET www.facebook.com/share/v/1OffSiTe00/"]);
  });

  it("follows a share link only onto Facebook's pages, even under the composition's wider guard: a hop to its CDN is not read as a page", async () => {
    // As index.ts composes it: the extractor's fetch is guarded over its API and media hosts.
    const asked: string[] = [];
    const fake = createFakeSocialFetch([
      patched((_, url) =>
        url.pathname === "/share/v/1ToCdn0000/"
          ? new Response(null, { status: 302, headers: { location: FACEBOOK_MEDIA.pinnedHd.url } })
          : null,
      ),
    ]);
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      asked.push(new URL(request.url).host);
      return fake(request);
    };
    const holder: { extractor?: PlatformExtractor } = {};
    const extractor = facebookExtractor({
      baseUrls: { www: "https://www.facebook.com" },
      fetch: (input, init) =>
        hostGuardedFetch(recording, [...(holder.extractor?.apiHosts ?? []), ...(holder.extractor?.mediaHosts ?? [])])(
          input,
          init,
        ),
    });
    holder.extractor = extractor;
    expect(await extractor.extract(refOf("https://www.facebook.com/share/v/1ToCdn0000/"), never)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
    expect(asked).toEqual(["www.facebook.com"]);
  });

  it("says a share link Facebook does not know is unavailable", async () => {
    const { extractor } = setup();
    expect(await extractor.extract(refOf("https://www.facebook.com/share/v/1UnKnOwN00/"), never)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
  });
});

describe("Facebook's fake CDN", () => {
  it("serves each recorded media URL's bytes, with Range, and refuses a URL whose signature was changed", async () => {
    const fetch = createFakeSocialFetch([fakeFacebook]);
    const { url, seed, size } = FACEBOOK_MEDIA.pinnedHd;
    const part = await fetch(url, { headers: { range: `bytes=${size - 100}-` } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(fakeMediaBytes(seed, size - 100, size));
    const tampered = await fetch(url.replace(/oh=[^&]+/, "oh=00_forged"));
    expect(tampered.status).toBe(403);
    await tampered.body?.cancel();
  });
});
