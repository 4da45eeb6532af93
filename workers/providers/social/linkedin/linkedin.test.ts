import { describe, expect, it } from "vitest";
import { hostMatches } from "../extractor";
import { createFakeSocialFetch } from "../fake";
import { fakeMediaBytes } from "../fake-media";
import { fakeLinkedin } from "./fake";
import { LINKEDIN_EXTRA_FIXTURE_URLS, LINKEDIN_FIXTURE_URLS } from "./fixtures";
import { linkedinExtractor } from "./index";
import { expectPost, extractorHarness, refOf } from "../../../../tests/social-extractors";

/** The LinkedIn extractor over the recorded LinkedIn, behind the host guard, with every URL it asked for. */
const harness = () =>
  extractorHarness(linkedinExtractor, { www: "https://www.linkedin.com" }, createFakeSocialFetch([fakeLinkedin]));

describe("linkedinExtractor over the recorded LinkedIn", () => {
  it("reads a public video post's renditions from the embed's data-sources, in LinkedIn's order", async () => {
    const { extract, calls } = harness();
    const post = expectPost(await extract(LINKEDIN_FIXTURE_URLS.public));
    expect(calls).toEqual(["https://www.linkedin.com/embed/feed/update/urn:li:activity:7262145368218238976"]);
    expect(post).toMatchObject({
      platform: "linkedin",
      id: "7262145368218238976",
      title:
        "The Space Launch System core stage for Artemis II is on the move. #Artemis Watch it roll out & meet the team behind it.",
      author: {
        name: "NASA - National Aeronautics and Space Administration",
        handle: "nasa",
        url: "https://www.linkedin.com/company/nasa",
      },
      durationSec: null,
    });
    expect(post.thumbnail).toMatch(
      /^https:\/\/media\.licdn\.com\/dms\/image\/v2\/D4E05AQGx7Lm2Qw9RzA\/videocover-high\/.*&v=beta&t=/,
    );
    expect(post.media.map((m) => [m.quality, m.bitrate, m.mimeType, m.hasAudio, m.type])).toEqual([
      ["640p", 280905, "video/mp4", true, "video"],
      ["360p", 132544, "video/mp4", true, "video"],
      ["720p", 734056, "video/mp4", true, "video"],
    ]);
    // The attribute's entities are decoded: the signed URL's query is the CDN's, `&` and all.
    expect(post.media[2]?.url).toBe(
      "https://dms.licdn.com/playlist/vid/v2/D4E05AQGx7Lm2Qw9RzA/mp4-720p-30fp-crf28/mp4-720p-30fp-crf28/0/1731402211708?e=2147483647&v=beta&t=cS5oB1zNm4",
    );
  });

  it("lists every image of an image post, once each, in the post's order", async () => {
    const post = expectPost(await harness().extract(LINKEDIN_FIXTURE_URLS.carousel));
    expect(post.media.map((m) => [m.type, m.mimeType, new URL(m.url).pathname.split("/")[4]])).toEqual([
      ["image", "image/jpeg", "D4E22AQF1aB2cD3eF4g"],
      ["image", "image/jpeg", "D4E22AQH5iJ6kL7mN8o"],
      ["image", "image/jpeg", "D4E22AQP9qR0sT1uV2w"],
    ]);
    expect(post.media.map((m) => m.item)).toEqual([0, 1, 2]);
    expect(post.thumbnail).toBe(post.media[0]?.url);
  });

  it("serves each answered media URL from the fake CDN, with Range", async () => {
    const { extractor, extract } = harness();
    const media = createFakeSocialFetch([fakeLinkedin]);
    for (const url of [LINKEDIN_FIXTURE_URLS.public, LINKEDIN_FIXTURE_URLS.carousel]) {
      for (const item of expectPost(await extract(url)).media) {
        expect(hostMatches(new URL(item.url).hostname, extractor.mediaHosts)).toBe(true);
        const response = await media(item.url, { headers: { range: "bytes=0-15" } });
        expect(response.status).toBe(206);
        expect(new Uint8Array(await response.arrayBuffer())).toEqual(
          fakeMediaBytes(new URL(item.url).pathname, 0, 16, item.mimeType),
        );
      }
    }
  });

  it("reads a post named by its ugcPost urn, leaving its HLS playlist out, and a member's profile as the author", async () => {
    const { extract, calls } = harness();
    const post = expectPost(await extract(LINKEDIN_EXTRA_FIXTURE_URLS.ugcPost));
    expect(calls).toEqual(["https://www.linkedin.com/embed/feed/update/urn:li:ugcPost:7252200112233445566"]);
    expect(post.title).toBe("Our rover team's latest drive on Mars, in 720p.");
    expect(post.author).toEqual({
      name: "Jane Doe",
      handle: "jane-doe-4b1a2c3",
      url: "https://www.linkedin.com/in/jane-doe-4b1a2c3",
    });
    expect(post.media.map((m) => m.quality)).toEqual(["720p"]);
  });

  it("answers the sign-in wall it is redirected to as login-required", async () => {
    const { extract, calls } = harness();
    expect(await extract(LINKEDIN_FIXTURE_URLS.loginWall)).toMatchObject({ ok: false, kind: "login-required" });
    expect(calls.map((url) => new URL(url).pathname)).toEqual([
      "/embed/feed/update/urn:li:activity:7258800112233445566",
      "/authwall",
    ]);
  });

  it("answers a page it reached at a sign-in address as login-required, whatever the page says", async () => {
    // A real fetch's answer carries the address it came from; the fake's cannot, so it is set here.
    const landed = new Response("<html><body>Welcome back</body></html>");
    Object.defineProperty(landed, "url", { value: "https://www.linkedin.com/checkpoint/lg/login?session_redirect=x" });
    const extractor = linkedinExtractor({ baseUrls: { www: "https://www.linkedin.com" }, fetch: async () => landed });
    expect(
      await extractor.extract(
        refOf("https://www.linkedin.com/feed/update/urn:li:activity:7000000000000000007/"),
        AbortSignal.timeout(5000),
      ),
    ).toMatchObject({
      ok: false,
      kind: "login-required",
    });
  });

  it("answers a deleted post as content-unavailable and a text-only post as having no media", async () => {
    const { extract } = harness();
    expect(await extract(LINKEDIN_FIXTURE_URLS.deleted)).toMatchObject({ ok: false, kind: "content-unavailable" });
    expect(await extract(LINKEDIN_EXTRA_FIXTURE_URLS.noMedia)).toMatchObject({
      ok: false,
      kind: "content-unavailable",
      detail: "This LinkedIn post has no video or image.",
    });
  });

  it("answers LinkedIn's 999 as upstream-blocked and its 429 as upstream-rate-limited", async () => {
    const { extract } = harness();
    expect(await extract(LINKEDIN_FIXTURE_URLS.blocked)).toMatchObject({ ok: false, kind: "upstream-blocked" });
    expect(await extract(LINKEDIN_FIXTURE_URLS.rateLimited)).toMatchObject({
      ok: false,
      kind: "upstream-rate-limited",
      retryAfterSeconds: 120,
    });
  });

  it("answers a page without the embed card as extractor-outdated", async () => {
    expect(await harness().extract(LINKEDIN_FIXTURE_URLS.changedShape)).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
    });
  });

  it("answers a video whose data-sources it cannot read as extractor-outdated, not as a post without media", async () => {
    const page = (sources: string) =>
      new Response(
        `<article data-activity-urn="urn:li:activity:7"><video class="video-js" data-sources="${sources}" data-poster-url="https://media.licdn.com/p"></video></article>`,
      );
    for (const sources of [
      "{not json",
      "[]",
      "[{&quot;src&quot;:&quot;https://dms.licdn.com/x.m3u8&quot;,&quot;type&quot;:&quot;application/x-mpegURL&quot;}]",
    ]) {
      const extractor = linkedinExtractor({
        baseUrls: { www: "https://www.linkedin.com" },
        fetch: async () => page(sources),
      });
      expect(
        await extractor.extract(
          refOf("https://www.linkedin.com/feed/update/urn:li:activity:7000000000000000007/"),
          AbortSignal.timeout(5000),
        ),
      ).toMatchObject({
        ok: false,
        kind: "extractor-outdated",
      });
    }
  });

  it("fetches only LinkedIn's own host, for every fixture", async () => {
    const { extractor, extract, calls } = harness();
    for (const url of [...Object.values(LINKEDIN_FIXTURE_URLS), ...Object.values(LINKEDIN_EXTRA_FIXTURE_URLS)])
      await extract(url);
    expect(extractor.apiHosts).toEqual(["www.linkedin.com"]);
    expect(new Set(calls.map((url) => new URL(url).hostname))).toEqual(new Set(["www.linkedin.com"]));
  });
});
