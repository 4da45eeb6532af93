/**
 * The Social Media Videos Downloader through the whole Worker (SELF: keys in D1, the Meter,
 * problem+json), over the platforms' recorded fakes (SOCIAL_PROVIDER=fake): each platform's
 * fixtures walked from its own `<PLATFORM>_FIXTURE_URLS`, every failure kind as its typed
 * problem, what counts against the month in the Meter itself, the plan group, and the schema.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ExtractedMedia, Extraction, SocialMedia } from "~workers/hosted/capabilities";
import { readConfig } from "~workers/config";
import { serveBenchRoute } from "~workers/gateway/bench-route";
import { meterStanding } from "~workers/gateway/meter-policy";
import type { FixtureScenario } from "~workers/providers/social/fake";
import { FACEBOOK_FIXTURE_URLS, FACEBOOK_LINK_FIXTURE_URLS } from "~workers/providers/social/facebook/fixtures";
import { INSTAGRAM_FIXTURE_URLS } from "~workers/providers/social/instagram/fixtures";
import { LINKEDIN_EXTRA_FIXTURE_URLS, LINKEDIN_FIXTURE_URLS } from "~workers/providers/social/linkedin/fixtures";
import { PINTEREST_EXTRA_FIXTURE_URLS, PINTEREST_FIXTURE_URLS } from "~workers/providers/social/pinterest/fixtures";
import { X_FIXTURE_URLS } from "~workers/providers/social/x/fixtures";
import { YOUTUBE_FIXTURE_URLS } from "~workers/providers/social/youtube/fixtures";
import { callHosted, createAccountWithKey, eventually, expectProblem } from "../../../tests/factories";
import { createTestContext } from "../../../tests/hosted-context";
import { callOperation, expectJson, findOperation } from "../_data/operation-test-helpers";
import { arrangeMedia } from "./handler";
import { definition, PINNED_POSTS } from "./index";
import { DownloadAnswerSchema, DownloadInputSchema, type DownloadAnswer } from "./schema";

const PATH = "/api/v1/youtube-instagram-video-downloader";
const download = findOperation(definition, "downloadMedia");

/** Each platform's recorded posts, as its module exports them. */
const FIXTURES: [string, Partial<Record<FixtureScenario, string>>][] = [
  ["youtube", YOUTUBE_FIXTURE_URLS],
  ["instagram", INSTAGRAM_FIXTURE_URLS],
  ["facebook", FACEBOOK_FIXTURE_URLS],
  ["x", X_FIXTURE_URLS],
  ["linkedin", LINKEDIN_FIXTURE_URLS],
  ["pinterest", PINTEREST_FIXTURE_URLS],
];

/** Links only the platform can resolve (kind "share"), and the other spellings the fakes record. */
const LINK_FORMS: [string, string][] = [
  ["facebook", FACEBOOK_LINK_FIXTURE_URLS.reel],
  ["facebook", FACEBOOK_LINK_FIXTURE_URLS.shareVideo],
  ["facebook", FACEBOOK_LINK_FIXTURE_URLS.shareReel],
  ["facebook", FACEBOOK_LINK_FIXTURE_URLS.fbWatch],
  ["linkedin", LINKEDIN_EXTRA_FIXTURE_URLS.ugcPost],
  ["pinterest", PINTEREST_EXTRA_FIXTURE_URLS.share],
  ["pinterest", PINTEREST_EXTRA_FIXTURE_URLS.image],
];

/** The problem each failing scenario must answer: [type, status]. */
const FAILURES: Partial<Record<FixtureScenario, [string, number]>> = {
  private: ["content-private", 403],
  deleted: ["content-unavailable", 404],
  regionLocked: ["content-region-locked", 451],
  loginWall: ["login-required", 403],
  rateLimited: ["upstream-rate-limited", 429],
  blocked: ["upstream-blocked", 503],
  changedShape: ["extractor-outdated", 502],
  drm: ["drm-protected", 422],
};
const SUCCESSES: FixtureScenario[] = ["public", "multiQuality", "carousel"];

const PERIOD_END = Date.now() + 20 * 24 * 60 * 60 * 1000;

async function premiumAccount() {
  return createAccountWithKey(env.DB, { planId: "premium", planExpiresAt: PERIOD_END });
}

/** How many calls the account's Meter has counted this period, once the after-response refunds ran. */
async function usedCalls(account: { userId: string }, expected: number): Promise<number> {
  const account_ = { userId: account.userId, planId: "premium" as const, planExpiresAt: PERIOD_END, bonusCalls: 0 };
  return eventually(
    async () => (await meterStanding(env, account_, Date.now())).used,
    (used) => used === expected,
  );
}

/**
 * A video's size as the docs state the rule: its short side when both are known, else its
 * label's number, else -1 (unknown, answered last).
 */
function shortSide(media: { width: number | null; height: number | null; quality: string | null }): number {
  if (media.width !== null && media.height !== null) return Math.min(media.width, media.height);
  const label = /^(\d+)p/.exec(media.quality ?? "") ?? /-(\d+)p$/.exec(media.quality ?? "");
  return label ? Number(label[1]) : -1;
}

const post = (key: string, body: unknown) => callHosted(SELF, "POST", PATH, { key, body });

describe("Social Media Videos Downloader: each platform's recorded posts through the gateway", () => {
  for (const [platform, urls] of FIXTURES) {
    for (const scenario of SUCCESSES) {
      const url = urls[scenario];
      if (!url) continue;
      it(`${platform} ${scenario}: answers the post's media, best first, each link one the caller can fetch`, async () => {
        const account = await premiumAccount();
        const response = await post(account.key, { url });
        expect(response.status, await response.clone().text()).toBe(200);
        const answer = DownloadAnswerSchema.parse(await response.json());
        expect(answer.platform).toBe(platform);
        expect(answer.media.length).toBeGreaterThan(0);
        if (scenario === "carousel") expect(answer.media.length).toBeGreaterThan(1);
        // Fake mode: the recorded CDNs live inside the Worker, so every link is a tunnel URL on our host.
        for (const media of answer.media) {
          expect(media.url.startsWith(`https://portico.test${PATH}/tunnel/`), media.url).toBe(true);
        }
        // Videos best first by size (the short side where both sides are known).
        const sizes = answer.media.filter((media) => media.type === "video").map(shortSide);
        expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
        // The first link streams the media's bytes (through the tunnel, engineer B's).
        const first = await SELF.fetch(answer.media[0]?.url ?? "", { headers: { range: "bytes=0-99" } });
        expect([200, 206]).toContain(first.status);
        expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(0);
        expect(response.headers.get("x-ratelimit-remaining")).not.toBeNull();
        expect(await usedCalls(account, 1)).toBe(1);
      });
    }
    for (const [scenario, [type, status]] of Object.entries(FAILURES) as [FixtureScenario, [string, number]][]) {
      const url = urls[scenario];
      if (!url) continue;
      it(`${platform} ${scenario}: ${status} ${type}, not counted against the month`, async () => {
        const account = await premiumAccount();
        const response = await post(account.key, { url });
        const body = await expectProblem(response, status, type);
        expect(body).toMatchObject({ platform, message: body.detail });
        if (type === "upstream-rate-limited") {
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
          expect(body.retryAfterSeconds).toBe(Number(response.headers.get("retry-after")));
        }
        if (type === "upstream-blocked") expect(body.retryable).toBe(false);
        // A failed extraction is given back: the Meter counts nothing.
        expect(await usedCalls(account, 0)).toBe(0);
      });
    }
  }
});

describe("Social Media Videos Downloader: thumbnails in fake mode", () => {
  it.each(Object.entries(PINNED_POSTS))(
    "%s: a thumbnail on a recorded CDN is a tunnel URL that answers an image, from the cache too",
    async (name, url) => {
      const account = await premiumAccount();
      for (const ask of ["first", "cached"]) {
        const response = await post(account.key, { url });
        expect(response.status, ask).toBe(200);
        const { thumbnail } = DownloadAnswerSchema.parse(await response.json());
        if (name === "youtube") {
          // i.ytimg.com is a public image host, not a recorded one: a browser loads it as it is.
          expect(thumbnail).toBe("https://i.ytimg.com/vi/aqz-KE-bpKQ/maxresdefault.jpg");
          continue;
        }
        expect(thumbnail?.startsWith(`https://portico.test${PATH}/tunnel/`), `${ask}: ${thumbnail}`).toBe(true);
        const image = await SELF.fetch(thumbnail ?? "");
        expect(image.status, ask).toBe(200);
        expect(image.headers.get("content-type")).toMatch(/^image\//);
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
    },
  );
});

describe("Social Media Videos Downloader: short links and other spellings, followed on the platform's own hosts", () => {
  it.each(LINK_FORMS)("%s %s answers the post's media", async (platform, url) => {
    const account = await premiumAccount();
    const response = await post(account.key, { url });
    expect(response.status, await response.clone().text()).toBe(200);
    const answer = DownloadAnswerSchema.parse(await response.json());
    expect(answer.platform).toBe(platform);
    expect(answer.media.length).toBeGreaterThan(0);
  });

  it("refuses a share link the platform sends off its own hosts, without counting it", async () => {
    const account = await premiumAccount();
    const response = await post(account.key, { url: FACEBOOK_LINK_FIXTURE_URLS.offSite });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await usedCalls(account, 0)).toBe(0);
  });
});

describe("Social Media Videos Downloader: what counts and who may call", () => {
  it("counts a URL refused before anything is fetched as nothing, and answers why", async () => {
    const account = await premiumAccount();
    for (const url of [
      "https://youtube.com.evil.example/watch?v=aqz-KE-bpKQ",
      "https://youtube.com@evil.example/watch?v=aqz-KE-bpKQ",
      "https://vimeo.com/76979871",
      "file:///etc/passwd",
      "https://www.instagram.com/nasa/",
    ]) {
      const body = await expectProblem(await post(account.key, { url }), 422, "unsupported-url");
      expect(body.errors).toEqual({ url: body.detail });
    }
    await expectProblem(await post(account.key, { url: PINNED_POSTS.youtube, quality: "4k" }), 422, "invalid-input");
    expect(await usedCalls(account, 0)).toBe(0);
  });

  it("counts a successful extraction once, a cached one again (the caller got media)", async () => {
    const account = await premiumAccount();
    expect((await post(account.key, { url: PINNED_POSTS.youtube })).status).toBe(200);
    expect((await post(account.key, { url: "https://youtu.be/aqz-KE-bpKQ?si=shared" })).status).toBe(200);
    expect(await usedCalls(account, 2)).toBe(2);
  });

  it("is a premium API: a Free account gets plan-required, counted as nothing", async () => {
    const free = await createAccountWithKey(env.DB, { planId: "free" });
    await expectProblem(await post(free.key, { url: PINNED_POSTS.youtube }), 403, "plan-required");
    const standard = await createAccountWithKey(env.DB, { planId: "standard" });
    expect((await post(standard.key, { url: PINNED_POSTS.youtube })).status).toBe(200);
  });

  it("refuses a call without a key, and a body over 4 KiB", async () => {
    await expectProblem(
      await callHosted(SELF, "POST", PATH, { body: { url: PINNED_POSTS.youtube } }),
      401,
      "missing-api-key",
    );
    const account = await premiumAccount();
    await expectProblem(
      await post(account.key, { url: PINNED_POSTS.youtube, pad: "x".repeat(5000) }),
      413,
      "body-too-large",
    );
  });
});

describe("Social Media Videos Downloader: quality and audioOnly", () => {
  it("answers the documented example exactly, but for the tunnel tokens, which differ per call", async () => {
    const body = expectJson(await callOperation(download, download.example)) as DownloadAnswer;
    const example = download.output.kind === "json" ? (download.output.example as DownloadAnswer) : null;
    const tunnelled = (answer: DownloadAnswer | null) =>
      answer && {
        ...answer,
        media: answer.media.map((media) => ({
          ...media,
          url: new URL(media.url).pathname.startsWith(`${PATH}/tunnel/`),
        })),
      };
    expect(tunnelled(body)).toEqual(tunnelled(example));
    expect(DownloadAnswerSchema.safeParse(body).success).toBe(true);
  });

  it("leaves out videos taller than the asked quality, and answers audio alone for audioOnly", async () => {
    const ctx = createTestContext();
    const at720 = expectJson(
      await callOperation(download, { url: PINNED_POSTS.youtube, quality: "720p" }, ctx),
    ) as DownloadAnswer;
    expect(at720.media.filter((media) => media.type === "video").every((media) => (media.height ?? 0) <= 720)).toBe(
      true,
    );
    expect(at720.media.some((media) => media.type === "audio")).toBe(true);
    const audio = expectJson(
      await callOperation(download, { url: PINNED_POSTS.youtube, audioOnly: true }, ctx),
    ) as DownloadAnswer;
    expect(audio.media.length).toBeGreaterThan(0);
    expect(audio.media.every((media) => media.type === "audio")).toBe(true);
    const alsoAudio = expectJson(
      await callOperation(download, { url: PINNED_POSTS.youtube, quality: "audio" }, ctx),
    ) as DownloadAnswer;
    expect(alsoAudio.media.map((media) => media.quality)).toEqual(audio.media.map((media) => media.quality));
  });

  const media = (over: Partial<ExtractedMedia>): ExtractedMedia => ({
    url: `https://cdn.example/${Math.random()}`,
    type: "video",
    quality: null,
    width: null,
    height: null,
    mimeType: "video/mp4",
    hasAudio: true,
    ...over,
  });

  it("orders best first: height, then sound at equal heights, then bitrate; audio by bitrate; images in the post's order", () => {
    const silent1080 = media({ height: 1080, hasAudio: false, quality: "1080p" });
    const muxed360 = media({ height: 360, hasAudio: true, quality: "360p muxed" });
    const silent360 = media({ height: 360, hasAudio: false, quality: "360p", bitrate: 900_000 });
    const silent720lo = media({ height: 720, hasAudio: false, quality: "720p lo", bitrate: 1_000_000 });
    const silent720hi = media({ height: 720, hasAudio: false, quality: "720p hi", bitrate: 2_000_000 });
    const audio64 = media({ type: "audio", mimeType: "audio/mp4", quality: "64k", bitrate: 64_000 });
    const audio128 = media({ type: "audio", mimeType: "audio/mp4", quality: "128k", bitrate: 128_000 });
    const imageB = media({ type: "image", mimeType: "image/jpeg", height: 2000, quality: "b" });
    const imageA = media({ type: "image", mimeType: "image/jpeg", height: 100, quality: "a" });
    const all = [imageB, silent360, audio64, muxed360, silent720lo, imageA, silent1080, audio128, silent720hi];
    const labels = (list: ExtractedMedia[]) => list.map((item) => item.quality);
    expect(labels(arrangeMedia(all, { quality: "best", audioOnly: false }))).toEqual([
      "1080p",
      "720p hi",
      "720p lo",
      "360p muxed",
      "360p",
      "128k",
      "64k",
      "b",
      "a",
    ]);
    expect(labels(arrangeMedia(all, { quality: "480", audioOnly: false }))).toEqual([
      "360p muxed",
      "360p",
      "128k",
      "64k",
      "b",
      "a",
    ]);
    // Every video taller than asked: the smallest one stays.
    expect(labels(arrangeMedia([silent1080, silent720hi, audio128], { quality: "360", audioOnly: false }))).toEqual([
      "720p hi",
      "128k",
    ]);
    expect(labels(arrangeMedia(all, { quality: "best", audioOnly: true }))).toEqual(["128k", "64k"]);
    // No audio stream (Instagram, X): the videos that carry sound.
    expect(labels(arrangeMedia([silent1080, muxed360, imageA], { quality: "best", audioOnly: true }))).toEqual([
      "360p muxed",
    ]);
  });

  it("sizes a video by its short side, so a vertical 720×1280 is 720p as X and YouTube label it", () => {
    const vertical1080 = media({ width: 1080, height: 1920, quality: "1080p" });
    const vertical720 = media({ width: 720, height: 1280, quality: "720p" });
    const landscape720 = media({ width: 1280, height: 720, hasAudio: false, quality: "720p silent" });
    const labels = (list: ExtractedMedia[]) => list.map((item) => item.quality);
    const all = [landscape720, vertical720, vertical1080];
    expect(labels(arrangeMedia(all, { quality: "best", audioOnly: false }))).toEqual(["1080p", "720p", "720p silent"]);
    expect(labels(arrangeMedia(all, { quality: "720", audioOnly: false }))).toEqual(["720p", "720p silent"]);
    expect(labels(arrangeMedia([vertical1080, vertical720], { quality: "1080", audioOnly: false }))).toEqual([
      "1080p",
      "720p",
    ]);
  });

  it("reads a video's size from its label when the platform gives no dimensions, and counts SD as unknown", () => {
    // Facebook: HD carries the video's own size, SD only its label.
    const hd = media({ width: 1280, height: 720, quality: "HD" });
    const sd = media({ width: null, height: null, quality: "SD" });
    const labels = (list: ExtractedMedia[]) => list.map((item) => item.quality);
    expect(labels(arrangeMedia([sd, hd], { quality: "best", audioOnly: false }))).toEqual(["HD", "SD"]);
    // A known size fits: the unknown SD is not guessed to fit too.
    expect(labels(arrangeMedia([sd, hd], { quality: "720", audioOnly: false }))).toEqual(["HD"]);
    // No known size fits: the unknown SD is what may, so it stays (and HD, known too tall, goes).
    expect(labels(arrangeMedia([hd, sd], { quality: "480", audioOnly: false }))).toEqual(["SD"]);
  });

  it("orders mixed known and unknown sizes: dimensions, else the label's number, unknown last in the platform's order", () => {
    const bitrateOnly = media({ quality: "832k" });
    const nothing = media({ quality: null });
    const label640 = media({ quality: "mp4-640p" });
    const known480 = media({ width: 854, height: 480, quality: "480p" });
    const label720 = media({ quality: "720p60" });
    const all = [bitrateOnly, nothing, label640, known480, label720];
    const labels = (list: ExtractedMedia[]) => list.map((item) => item.quality);
    expect(labels(arrangeMedia(all, { quality: "best", audioOnly: false }))).toEqual([
      "720p60",
      "mp4-640p",
      "480p",
      "832k",
      null,
    ]);
    expect(labels(arrangeMedia(all, { quality: "720", audioOnly: false }))).toEqual(["720p60", "mp4-640p", "480p"]);
    expect(labels(arrangeMedia(all, { quality: "480", audioOnly: false }))).toEqual(["480p"]);
    // Nothing known fits 360: the unknown ones stay, in the platform's order.
    expect(labels(arrangeMedia(all, { quality: "360", audioOnly: false }))).toEqual(["832k", null]);
    // Only known sizes, all too big: the smallest stays, as before.
    expect(labels(arrangeMedia([label720, known480], { quality: "360", audioOnly: false }))).toEqual(["480p"]);
  });

  it("reads quality as the callers write it, and refuses anything else with the allowed values", () => {
    const parse = (quality: unknown) => DownloadInputSchema.safeParse({ url: PINNED_POSTS.youtube, quality });
    expect(parse("1080p").data?.quality).toBe("1080");
    expect(parse(720).data?.quality).toBe("720");
    expect(parse(" Audio ").data?.quality).toBe("audio");
    expect(parse(undefined).data).toEqual({ url: PINNED_POSTS.youtube, quality: "best", audioOnly: false });
    for (const bad of ["4k", "1440", 1081, null, ["720"]]) {
      expect(parse(bad).error?.issues[0]?.message, String(bad)).toBe(
        "quality is one of best, 1080, 720, 480, 360, audio.",
      );
    }
    expect(DownloadInputSchema.safeParse({ url: "x".repeat(2049) }).success).toBe(false);
    expect(DownloadInputSchema.safeParse({ url: PINNED_POSTS.youtube, audioOnly: "yes" }).success).toBe(false);
  });
});

describe("Social Media Videos Downloader docs", () => {
  it("is plain sentences (the docs page renders only code spans and links), says callers need the right to download, and compares", () => {
    const text = download.description ?? "";
    expect(text).not.toMatch(/\*\*|\n/);
    expect(text).toContain("You must have the right to download what you ask for");
    expect(text).toContain("cobalt");
    expect(text).toContain("RapidAPI");
    for (const url of Object.values(PINNED_POSTS)) expect(text).toContain(url);
  });
});

describe("Social Media Videos Downloader on the bench's bare route", () => {
  it("serves the POST operation from a JSON body, without the gateway, as npm run bench calls it", async () => {
    const config = { ...readConfig(env), BENCH_ROUTES: "on" as const };
    const ctx = createExecutionContext();
    const bare = (body: string, method = "POST") =>
      serveBenchRoute(
        new Request("https://portico.test/__bench/bare/youtube-instagram-video-downloader", {
          method,
          headers: { "content-type": "application/json" },
          ...(method === "POST" && { body }),
        }),
        env,
        ctx,
        config,
      );
    const response = await bare(JSON.stringify({ url: PINNED_POSTS.youtube }));
    expect(response?.status).toBe(200);
    expect(DownloadAnswerSchema.parse(await response?.json())).toMatchObject({
      platform: "youtube",
      id: "aqz-KE-bpKQ",
    });
    expect((await bare("not json"))?.status).toBe(422);
    // It has no GET: nothing is served for one.
    expect((await bare("", "GET"))?.status).toBe(404);
    await waitOnExecutionContext(ctx);
  });
});

describe("Social Media Videos Downloader handler over a platform answering what the test scripts", () => {
  const image = (url: string): ExtractedMedia => ({
    url,
    type: "image",
    quality: "original",
    width: 1080,
    height: 1350,
    mimeType: "image/jpeg",
    hasAudio: false,
  });
  /** A SocialMedia capability that answers `extraction` for every post (not a fake of our module: the capability's contract). */
  const answering = (extraction: Extraction): SocialMedia => ({
    extract: async () => extraction,
    profile: async () => ({ ok: false, kind: "content-unavailable", detail: "none" }),
    openMedia: async () => null,
    mediaChunkBytes: () => null,
  });
  const carousel: Extraction = {
    ok: true,
    post: {
      platform: "instagram",
      id: "C7qRsTuVwXy",
      title: null,
      author: { name: null, handle: null, url: null },
      thumbnail: null,
      durationSec: null,
      media: [
        image("https://scontent.cdninstagram.com/a.jpg"),
        { ...image("https://scontent.cdninstagram.com/b.jpg"), boundToRequester: true },
      ],
    },
  };

  it("answers a platform's own URL as it is, and a bound one as a tunnel URL on our host", async () => {
    const ctx = { ...createTestContext(), social: answering(carousel) };
    const answer = expectJson(
      await callOperation(download, { url: PINNED_POSTS.instagramCarousel }, ctx),
    ) as DownloadAnswer;
    expect(answer.media[0]?.url).toBe("https://scontent.cdninstagram.com/a.jpg");
    expect(answer.media[1]?.url.startsWith(`https://portico.test${PATH}/tunnel/`)).toBe(true);
  });

  it("keeps every item of a carousel at a capped quality: a 1080×1920 and a 720×1280 video at 720 are both answered", async () => {
    const video = (item: number, width: number, height: number, quality: string): ExtractedMedia => ({
      item,
      url: `https://scontent.cdninstagram.com/${quality}.mp4`,
      type: "video",
      quality,
      width,
      height,
      mimeType: "video/mp4",
      hasAudio: true,
    });
    const twoVideos: Extraction = {
      ok: true,
      post: {
        ...(carousel.ok ? carousel.post : ({} as never)),
        media: [video(0, 1080, 1920, "first-1080"), video(1, 720, 1280, "second-720")],
      },
    };
    const ctx = { ...createTestContext(), social: answering(twoVideos) };
    const answer = expectJson(
      await callOperation(download, { url: PINNED_POSTS.instagramCarousel, quality: "720" }, ctx),
    ) as DownloadAnswer;
    expect(answer.media.map((media) => [media.item, media.quality])).toEqual([
      [0, "first-1080"],
      [1, "second-720"],
    ]);
  });

  it("orders each item's renditions best first and keeps the items in the post's order, answering item on each media", async () => {
    const rendition = (item: number, height: number, hasAudio = true): ExtractedMedia => ({
      item,
      url: `https://scontent.cdninstagram.com/${item}-${height}.mp4`,
      type: "video",
      quality: `${item}-${height}`,
      width: Math.round((height * 16) / 9),
      height,
      mimeType: "video/mp4",
      hasAudio,
    });
    const picture = { ...image("https://scontent.cdninstagram.com/2.jpg"), item: 2, quality: "2-image" };
    // The platform's order: item 1's renditions smallest first, item 2 (a picture) between them.
    const thread: Extraction = {
      ok: true,
      post: {
        ...(carousel.ok ? carousel.post : ({} as never)),
        media: [
          rendition(0, 720),
          rendition(0, 1080),
          rendition(1, 360),
          picture,
          rendition(1, 480, false),
          rendition(1, 1080, false),
        ],
      },
    };
    const ctx = { ...createTestContext(), social: answering(thread) };
    const at = async (input: Record<string, unknown>) =>
      (
        expectJson(
          await callOperation(download, { url: PINNED_POSTS.instagramCarousel, ...input }, ctx),
        ) as DownloadAnswer
      ).media.map((media) => [media.item, media.quality]);
    expect(await at({})).toEqual([
      [0, "0-1080"],
      [0, "0-720"],
      [1, "1-1080"],
      [1, "1-480"],
      [1, "1-360"],
      [2, "2-image"],
    ]);
    expect(await at({ quality: "480" })).toEqual([
      [0, "0-720"],
      [1, "1-480"],
      [1, "1-360"],
      [2, "2-image"],
    ]);
    // Sound only: each item's videos with sound; the picture has none.
    expect(await at({ audioOnly: true })).toEqual([
      [0, "0-1080"],
      [0, "0-720"],
      [1, "1-360"],
    ]);
    // A media without `item` is the post's only item, answered as 0.
    const single = { ...createTestContext(), social: answering(carousel) };
    const plain = expectJson(await callOperation(download, { url: PINNED_POSTS.instagramCarousel }, single)) as DownloadAnswer;
    expect(plain.media.map((media) => media.item)).toEqual([0, 0]);
  });

  it("answers content-unavailable, not an empty success, when audioOnly finds no sound", async () => {
    const ctx = { ...createTestContext(), social: answering(carousel) };
    const result = await callOperation(download, { url: PINNED_POSTS.instagramCarousel, audioOnly: true }, ctx);
    expect(result).toMatchObject({
      kind: "problem",
      type: "content-unavailable",
      extensions: { platform: "instagram" },
    });
  });

  it("answers a throttle without a said delay with Retry-After 60, and a block with retryable false", async () => {
    const throttled = {
      ...createTestContext(),
      social: answering({ ok: false, kind: "upstream-rate-limited", detail: "slow" }),
    };
    expect(await callOperation(download, { url: PINNED_POSTS.x }, throttled)).toMatchObject({
      kind: "problem",
      type: "upstream-rate-limited",
      headers: { "retry-after": "60" },
      extensions: { retryAfterSeconds: 60, platform: "x" },
    });
    const blocked = {
      ...createTestContext(),
      social: answering({ ok: false, kind: "upstream-blocked", detail: "no" }),
    };
    expect(await callOperation(download, { url: PINNED_POSTS.x }, blocked)).toMatchObject({
      type: "upstream-blocked",
      extensions: { retryable: false },
    });
  });

  it("answers a platform it could not reach as upstream-failed, retryable", async () => {
    const unreachable = {
      ...createTestContext(),
      social: answering({ ok: false, kind: "upstream-failed", detail: "X could not be reached." }),
    };
    expect(await callOperation(download, { url: PINNED_POSTS.x }, unreachable)).toMatchObject({
      kind: "problem",
      type: "upstream-failed",
      extensions: { platform: "x", retryable: true },
    });
    expect(download.errors?.map((error) => error.type)).toContain("upstream-failed");
  });

  it("asks the platform nothing for a URL it refuses", async () => {
    let asked = 0;
    const counting: SocialMedia = {
      ...answering(carousel),
      extract: async () => {
        asked += 1;
        return carousel;
      },
    };
    const result = await callOperation(
      download,
      { url: "https://instagram.com.evil.example/p/C7qRsTuVwXy/" },
      {
        ...createTestContext(),
        social: counting,
      },
    );
    expect(result).toMatchObject({ kind: "problem", type: "unsupported-url" });
    expect(asked).toBe(0);
  });
});

describe("Social Media Videos Downloader pages", () => {
  it("has a docs page with the comparison's links, the caller's duty, its problems, and a live demo", async () => {
    const html = await (await SELF.fetch("https://portico.test/docs/api/youtube-instagram-video-downloader")).text();
    expect(html).toContain('href="https://github.com/imputnet/cobalt"');
    expect(html).toContain("You must have the right to download what you ask for");
    expect(html).toContain("content-region-locked");
    expect(html).not.toContain("not served in this environment");
    const demo = await SELF.fetch("https://portico.test/youtube-instagram-video-downloader/live-demo");
    expect(demo.status).toBe(200);
    expect(await demo.text()).toContain(PINNED_POSTS.youtube);
  });

  it("gives each new problem type a page with its status", async () => {
    for (const [type, status] of [
      ["unsupported-url", 422],
      ["content-region-locked", 451],
      ["upstream-blocked", 503],
    ] as const) {
      const page = await SELF.fetch(`https://portico.test/problems/${type}`);
      expect(page.status, type).toBe(200);
      // The page's own Status entry, not any "422" anywhere in the HTML.
      const shown = /<dt[^>]*>Status<\/dt>\s*<dd[^>]*>([^<]*)<\/dd>/.exec(await page.text())?.[1];
      expect(shown, type).toBe(String(status));
    }
  });
});

describe("Social Media Videos Downloader: properties over the recorded posts", () => {
  it("for any pinned post, quality and audioOnly: media that keep the quality's promise, or a typed problem; never a throw", async () => {
    const ctx = createTestContext();
    const qualities = ["best", "1080", "720", "480", "360", "audio", "720p", 1080, undefined];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.values(PINNED_POSTS)),
        fc.constantFrom(...qualities),
        fc.option(fc.boolean(), { nil: undefined }),
        async (url, quality, audioOnly) => {
          const input = DownloadInputSchema.parse({ url, quality, audioOnly });
          const result = await download.handler(input, ctx);
          if (result.kind === "problem") {
            expect(["content-unavailable"]).toContain(result.type);
            return;
          }
          const answer = DownloadAnswerSchema.parse(expectJson(result));
          expect(answer.media.length).toBeGreaterThan(0);
          const wantsAudio = input.audioOnly || input.quality === "audio";
          if (wantsAudio) expect(answer.media.every((media) => media.hasAudio)).toBe(true);
          const videos = answer.media.filter((media) => media.type === "video");
          if (!wantsAudio && input.quality !== "best" && videos.length > 1) {
            expect(videos.every((media) => shortSide(media) <= Number(input.quality))).toBe(true);
          }
          // Best first within each item; the items in the post's order.
          const items = answer.media.map((media) => media.item);
          expect(items).toEqual([...items].sort((a, b) => a - b));
          for (const item of new Set(items)) {
            const sizes = videos.filter((media) => media.item === item).map(shortSide);
            expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
