import { describe, expect, it } from "vitest";
import type { Extraction, PostRef, ProfileExtraction } from "~workers/hosted/capabilities";
import { createFakeSocialFetch, type FakePlatform } from "../fake";
import { fakeMediaBytes } from "../fake-media";
import { fakeInstagram } from "./fake";
import {
  CAROUSEL_MEDIA,
  embedContext,
  embedPage,
  INSTAGRAM_FIXTURE_URLS,
  INSTAGRAM_MEDIA,
  INSTAGRAM_PROFILE_FIXTURE_URLS,
} from "./fixtures";
import { instagramExtractor } from "./index";
import { refOf } from "../../../../tests/social-extractors";

const never = new AbortController().signal;

/** The PostRef the recogniser makes of an Instagram post URL. */
function usernameOf(url: string): string {
  return new URL(url).pathname.split("/")[1] ?? "";
}

/** The extractor over the fakes, with every request it made (method and URL) in `asked`. */
function setup(platforms: FakePlatform[] = [fakeInstagram]) {
  const asked: string[] = [];
  const fake = createFakeSocialFetch(platforms);
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    asked.push(`${request.method} ${new URL(request.url).host}${new URL(request.url).pathname}`);
    return fake(request);
  };
  return { extractor: instagramExtractor({ baseUrls: { www: "https://www.instagram.com" }, fetch }), asked };
}

function post(extraction: Extraction) {
  if (!extraction.ok) throw new Error(`expected a post, got ${JSON.stringify(extraction)}`);
  return extraction.post;
}

function profileOf(extraction: ProfileExtraction) {
  if (!extraction.ok) throw new Error(`expected a profile, got ${JSON.stringify(extraction)}`);
  return extraction.profile;
}

/** A fake Instagram whose answers to some paths are replaced, the rest recorded. */
function patched(replace: (request: Request, url: URL) => Response | null): FakePlatform {
  return {
    hosts: fakeInstagram.hosts,
    handle: (request) => replace(request, new URL(request.url)) ?? fakeInstagram.handle(request),
  };
}

describe("Instagram posts", () => {
  it("reads the pinned reel from the GraphQL query when its embed page carries only the poster", async () => {
    const { extractor, asked } = setup();
    const reel = post(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.public), never));
    expect(reel).toEqual({
      platform: "instagram",
      id: "C8xYzAbCdEf",
      title: expect.stringMatching(/^Go behind the scenes of the Artemis II crew/),
      author: { name: "NASA", handle: "nasa", url: "https://www.instagram.com/nasa/" },
      thumbnail: INSTAGRAM_MEDIA.reelPoster.url,
      durationSec: 58.433,
      media: [
        {
          item: 0,
          url: INSTAGRAM_MEDIA.reelVideo.url,
          type: "video",
          quality: "720p",
          width: 720,
          height: 1280,
          mimeType: "video/mp4",
          hasAudio: true,
        },
      ],
    });
    expect(asked).toEqual([
      "GET www.instagram.com/p/C8xYzAbCdEf/embed/captioned/",
      "POST www.instagram.com/graphql/query",
    ]);
  });

  it("lists every item of the carousel, images and video, in Instagram's order, from the embed page alone", async () => {
    const { extractor, asked } = setup();
    const carousel = post(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.carousel), never));
    expect(
      carousel.media.map(({ type, url, mimeType, width, height, hasAudio }) => ({
        type,
        url,
        mimeType,
        width,
        height,
        hasAudio,
      })),
    ).toEqual([
      {
        type: "image",
        url: INSTAGRAM_MEDIA.carouselImage1.url,
        mimeType: "image/jpeg",
        width: 1080,
        height: 1080,
        hasAudio: false,
      },
      {
        type: "video",
        url: INSTAGRAM_MEDIA.carouselVideo2.url,
        mimeType: "video/mp4",
        width: 1080,
        height: 1080,
        hasAudio: false,
      },
      {
        type: "image",
        url: INSTAGRAM_MEDIA.carouselImage3.url,
        mimeType: "image/webp",
        width: 1080,
        height: 1350,
        hasAudio: false,
      },
    ]);
    // Each of the carousel's items is its own item, numbered in the carousel's order.
    expect(carousel.media.map((medium) => medium.item)).toEqual([0, 1, 2]);
    expect(carousel.durationSec).toBeNull();
    expect(carousel.title).toBe("Three views of the Moon from Orion, swipe ➡️");
    expect(asked).toEqual(["GET www.instagram.com/p/C7qRsTuVwXy/embed/captioned/"]);
  });

  it("goes on to the GraphQL query when the embed page fails, sending the embed page's tokens if it had any", async () => {
    const graphqlHeaders: Headers[] = [];
    const { extractor, asked } = setup([
      patched((request, url) => {
        if (url.pathname.endsWith("/embed/captioned/"))
          return new Response("<html>Something went wrong</html>", { status: 500 });
        if (url.pathname === "/graphql/query") graphqlHeaders.push(new Headers(request.headers));
        return null;
      }),
    ]);
    const carousel = post(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.carousel), never));
    expect(carousel.media).toHaveLength(CAROUSEL_MEDIA.edge_sidecar_to_children.edges.length);
    expect(asked).toEqual([
      "GET www.instagram.com/p/C7qRsTuVwXy/embed/captioned/",
      "POST www.instagram.com/graphql/query",
    ]);
    // No embed page, so no CSRF token and a made-up LSD, as the logged-out web app starts.
    expect(graphqlHeaders[0]?.get("x-csrftoken")).toBeNull();
    expect(graphqlHeaders[0]?.get("x-fb-lsd")).toMatch(/^[A-Za-z0-9_-]{11}$/);
  });

  it("passes the embed page's LSD and CSRF tokens on to the GraphQL query", async () => {
    const graphqlHeaders: Headers[] = [];
    const { extractor } = setup([
      patched((request, url) => {
        if (url.pathname === "/graphql/query") graphqlHeaders.push(new Headers(request.headers));
        return null;
      }),
    ]);
    post(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.public), never));
    expect(graphqlHeaders[0]?.get("x-fb-lsd")).toBe("AVpQ3mK8xLw");
    expect(graphqlHeaders[0]?.get("x-csrftoken")).toBe("kS9vJ2qXwE7rT4nB1mY6zC8dF3gH5aLp");
    expect(graphqlHeaders[0]?.get("x-ig-app-id")).toBe("936619743392459");
  });

  it("says a private account's post is private: its GraphQL answer is null and its route is the private-post page", async () => {
    const { extractor, asked } = setup();
    expect(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.private), never)).toMatchObject({
      ok: false,
      kind: "content-private",
    });
    expect(asked.at(-1)).toBe("POST www.instagram.com/ajax/bulk-route-definitions/");
  });

  it("says a deleted post is unavailable", async () => {
    const { extractor } = setup();
    expect(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.deleted), never)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
  });

  it("says login is required when Instagram sends us to its login page and its query says login_required", async () => {
    const { extractor } = setup();
    expect(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.loginWall), never)).toMatchObject({
      ok: false,
      kind: "login-required",
    });
  });

  it("stops at the first throttled answer and passes its Retry-After on", async () => {
    const { extractor, asked } = setup();
    expect(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.rateLimited), never)).toEqual({
      ok: false,
      kind: "upstream-rate-limited",
      detail: expect.any(String),
      retryAfterSeconds: 120,
    });
    expect(asked).toHaveLength(1);
  });

  it("reads 'Please wait a few minutes' as throttling whatever its status", async () => {
    const { extractor } = setup([
      patched((_, url) => {
        if (url.pathname.endsWith("/embed/captioned/")) return new Response("<html><body></body></html>");
        if (url.pathname === "/graphql/query") {
          return Response.json(
            { message: "Please wait a few minutes before you try again.", require_login: true, status: "fail" },
            { status: 401 },
          );
        }
        return null;
      }),
    ]);
    const outcome = await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.public), never);
    expect(outcome).toMatchObject({ ok: false, kind: "upstream-rate-limited" });
    expect(outcome).not.toHaveProperty("retryAfterSeconds");
  });

  it("says the extractor is outdated when neither the embed page nor the query has the shape it reads, naming both", async () => {
    const { extractor } = setup();
    const outcome = await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.changedShape), never);
    expect(outcome).toMatchObject({ ok: false, kind: "extractor-outdated" });
    expect(outcome.ok === false && outcome.kind === "extractor-outdated" && outcome.what).toBe(
      "embed contextJSON; GraphQL data.xdt_shortcode_media",
    );
  });

  it("never answers part of a carousel: one video known only by its poster sends it to the next step", async () => {
    const withoutVideo = structuredClone(CAROUSEL_MEDIA) as {
      edge_sidecar_to_children: { edges: { node: { video_url?: string } }[] };
    };
    delete withoutVideo.edge_sidecar_to_children.edges[1]?.node.video_url;
    const { extractor } = setup([
      patched((_, url) => {
        if (url.pathname.endsWith("/embed/captioned/"))
          return new Response(embedPage("C7qRsTuVwXy", embedContext("C7qRsTuVwXy", withoutVideo)));
        if (url.pathname === "/graphql/query") return Response.json({ data: {}, status: "ok" });
        return null;
      }),
    ]);
    expect(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.carousel), never)).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
      what: "embed shortcode_media: video_url; GraphQL data.xdt_shortcode_media",
    });
  });

  it("never fetches a host that is not Instagram's: a redirect away is refused", async () => {
    const { extractor, asked } = setup([
      patched((_, url) =>
        url.pathname.endsWith("/embed/captioned/")
          ? new Response(null, { status: 302, headers: { location: "https://evil.example/p/C8xYzAbCdEf/" } })
          : null,
      ),
      { hosts: ["evil.example"], handle: () => new Response("should never be asked") },
    ]);
    expect(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.public), never)).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
      what: "redirect to evil.example",
    });
    expect(asked.some((line) => line.includes("evil.example"))).toBe(false);
  });

  it("never answers a media URL off Instagram's CDNs", async () => {
    const { extractor } = setup([
      patched((_, url) => {
        if (url.pathname.endsWith("/embed/captioned/")) return new Response("<html></html>");
        if (url.pathname === "/graphql/query") {
          return Response.json({
            data: {
              xdt_shortcode_media: {
                is_video: true,
                video_url: "https://evil.example/v.mp4",
                display_url: INSTAGRAM_MEDIA.reelPoster.url,
              },
            },
            status: "ok",
          });
        }
        return null;
      }),
    ]);
    expect(await extractor.extract(refOf(INSTAGRAM_FIXTURE_URLS.public), never)).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });

  it("refuses a shortcode Instagram never writes without asking Instagram", async () => {
    const { extractor, asked } = setup();
    const ref: PostRef = {
      platform: "instagram",
      id: "../../accounts",
      kind: "post",
      url: "https://www.instagram.com/p/x/",
    };
    expect(await extractor.extract(ref, never)).toMatchObject({ ok: false, kind: "content-unavailable" });
    expect(asked).toEqual([]);
  });

  it("lists only Instagram's hosts", () => {
    const { extractor } = setup();
    expect(extractor.apiHosts).toEqual(["www.instagram.com"]);
    expect(extractor.mediaHosts).toEqual([".cdninstagram.com", ".fbcdn.net"]);
  });
});

describe("Instagram's fake CDN", () => {
  it("serves each recorded media URL's bytes, with Range, and refuses a URL whose signature was changed", async () => {
    const fetch = createFakeSocialFetch([fakeInstagram]);
    const { url, seed, size } = INSTAGRAM_MEDIA.carouselVideo2;
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(fakeMediaBytes(seed, 0, size));
    const part = await fetch(url, { headers: { range: "bytes=1000-1999" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-1999/${size}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(fakeMediaBytes(seed, 1000, 2000));
    const tampered = await fetch(url.replace(/oh=[^&]+/, "oh=00_forged"));
    expect(tampered.status).toBe(403);
    await tampered.body?.cancel();
  });
});

describe("Instagram profiles", () => {
  it("reads nasa's public face from web_profile_info", async () => {
    const { extractor, asked } = setup();
    const profile = profileOf(await extractor.profile!(usernameOf(INSTAGRAM_PROFILE_FIXTURE_URLS.public), never));
    expect(profile).toEqual({
      username: "nasa",
      fullName: "NASA",
      bio: "Exploring the universe and our home planet. 🌎",
      profilePic: INSTAGRAM_MEDIA.profilePicHd.url,
      followers: 97_412_345,
      following: 82,
    });
    expect(asked).toEqual(["GET www.instagram.com/api/v1/users/web_profile_info/"]);
  });

  it.each([
    ["deleted", "content-unavailable"],
    ["loginWall", "login-required"],
    ["rateLimited", "upstream-rate-limited"],
    ["changedShape", "extractor-outdated"],
  ] as const)("answers the %s profile as %s", async (scenario, kind) => {
    const { extractor } = setup();
    expect(await extractor.profile!(usernameOf(INSTAGRAM_PROFILE_FIXTURE_URLS[scenario]), never)).toMatchObject({
      ok: false,
      kind,
    });
  });

  it("refuses a user name Instagram never writes without asking Instagram", async () => {
    const { extractor, asked } = setup();
    expect(await extractor.profile!("nasa/../../graphql", never)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
    });
    expect(asked).toEqual([]);
  });
});
