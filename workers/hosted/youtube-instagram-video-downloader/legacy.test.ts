/**
 * The seed product's `POST /api/download/videos` through the whole Worker (keys in D1, the
 * Meter, the recorded platforms), with the exact bodies its public clients send and the members
 * they read: a Telegram bot, a Node backend, a Django pipeline, and the profile picture call.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { meterStanding } from "~workers/gateway/meter-policy";
import { fakeMediaBytes } from "~workers/providers/social/fake-media";
import { fakeYoutubeMediaFile } from "~workers/providers/social/youtube/fake";
import { YOUTUBE_FIXTURE_URLS } from "~workers/providers/social/youtube/fixtures";
import { callHosted, createAccountWithKey, eventually } from "../../../tests/factories";
import { definition } from "./index";
import { LEGACY_DOWNLOAD_ROUTE, LegacyAnswerSchema, LegacyDownloadSchema, legacyItems } from "./legacy";
import { DownloadAnswerSchema, type DownloadAnswer } from "./schema";
import { TUNNEL_PATH } from "~workers/gateway/tunnel";

const PATH = "/api/download/videos";
const PERIOD_END = Date.now() + 20 * 24 * 60 * 60 * 1000;
/** The pinned public fixtures (common to every platform's fake). */
const PINNED = {
  youtube: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  instagramReel: "https://www.instagram.com/reel/C8xYzAbCdEf/",
  instagramProfile: "https://www.instagram.com/nasa/",
  pinterest: "https://www.pinterest.com/pin/1055599907085543/",
  x: "https://x.com/NASA/status/1850214830462251210",
};

async function premiumAccount() {
  return createAccountWithKey(env.DB, { planId: "premium", planExpiresAt: PERIOD_END });
}

/** A call as the older clients make it: the key in X-Avatar-Key, the body as they write it. */
function legacy(key: string | undefined, body: unknown) {
  return callHosted(SELF, "POST", PATH, { key, keyHeader: "x-avatar-key", body });
}

/** The same post through the new path, to compare with. */
async function current(key: string, url: string): Promise<DownloadAnswer> {
  const response = await callHosted(SELF, "POST", "/api/v1/youtube-instagram-video-downloader", { key, body: { url } });
  expect(response.status).toBe(200);
  return DownloadAnswerSchema.parse(await response.json());
}

/** A failure as the older clients read it: problem+json whose `success` is 0 and `message` the detail. */
async function legacyFailure(response: Response, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<
    { success: number; message: string; detail: string; type: string } & Record<string, unknown>
  >();
  expect(body.type).toBe(`https://portico.dev/problems/${type}`);
  expect(body.success).toBe(0);
  expect(body.message).toBe(body.detail);
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

async function usedCalls(userId: string, expected: number): Promise<number> {
  const account = { userId, planId: "premium" as const, planExpiresAt: PERIOD_END, bonusCalls: 0 };
  return eventually(
    async () => (await meterStanding(env, account, Date.now())).used,
    (used) => used === expected,
  );
}

describe("POST /api/download/videos: the bodies the public clients send", () => {
  it("a Node backend: YouTube with with_metadata reads message.data[0], a file with its sound, and it streams", async () => {
    const { key, userId } = await premiumAccount();
    const response = await legacy(key, { video_url: PINNED.youtube, type: "youtube", with_metadata: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.json<{
      success: number;
      data: { url: string; thumbnail: string; type: string }[];
      message: { data: { url: string; thumbnail: string }[] };
    }>();
    expect(LegacyAnswerSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body.success).toBe(1);
    const first = body.message.data[0]!;
    expect(Object.keys(first).toSorted()).toEqual(["thumbnail", "url"]);
    expect(first.thumbnail).toBe("https://i.ytimg.com/vi/aqz-KE-bpKQ/maxresdefault.jpg");
    expect(body.message.data).toEqual(body.data.map(({ url, thumbnail }) => ({ url, thumbnail })));
    // data[0] is the muxed file (video with sound), not YouTube's silent best stream.
    const answer = await current(key, PINNED.youtube);
    const muxed = answer.media.filter((media) => media.type === "video" && media.hasAudio);
    expect(answer.media[0]?.hasAudio).toBe(false);
    expect(body.data.map((item) => item.type)).toEqual(muxed.map(() => "video"));
    expect(body.data.length).toBe(muxed.length);
    // What the backend does next: download message.data[0].url.
    expect(first.url.startsWith(`https://portico.test${TUNNEL_PATH}/`)).toBe(true);
    const payload = new URL(first.url).pathname.slice(TUNNEL_PATH.length + 1).split(".")[0] ?? "";
    const upstream = (JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as { u: string }).u;
    const file = fakeYoutubeMediaFile(upstream)!;
    expect(file.mimeType).toBe("video/mp4");
    const download = await SELF.fetch(first.url, { headers: { range: "bytes=0-65535" } });
    expect(download.status).toBe(206);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(fakeMediaBytes(file.seed, 0, 65_536));
    // Two extractions counted; the download none.
    expect(await usedCalls(userId, 2)).toBe(2);
  });

  it("a Telegram bot: an Instagram reel with only video_url and type, reading data[0].url", async () => {
    const { key } = await premiumAccount();
    const response = await legacy(key, { video_url: PINNED.instagramReel, type: "instagram" });
    expect(response.status, await response.clone().text()).toBe(200);
    const body = await response.json<{
      success: number;
      data: { url: string; thumbnail: string | null; type: string }[];
    }>();
    expect(body.success).toBe(1);
    expect(body).not.toHaveProperty("message");
    expect(body.data[0]?.type).toBe("video");
    expect(body.data).toEqual(
      // Tunnel URLs carry their expiry second, so two calls' may differ: compared by where they lead.
      legacyItems(await current(key, PINNED.instagramReel)).map((item) => ({
        ...item,
        url: expect.any(String),
        thumbnail: item.thumbnail && expect.stringContaining(`${TUNNEL_PATH}/`),
      })),
    );
    const video = await SELF.fetch(body.data[0]!.url);
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toMatch(/^video\//);
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("data lists one file per item of the post, its best playable one, in the post's order", () => {
    const media = (item: number, quality: string, over: Partial<DownloadAnswer["media"][number]> = {}) => ({
      item,
      url: `https://cdn.example/${item}-${quality}`,
      type: "video" as const,
      quality,
      width: null,
      height: null,
      mimeType: "video/mp4",
      hasAudio: true,
      ...over,
    });
    const answer: DownloadAnswer = {
      platform: "x",
      id: "1",
      title: null,
      author: { name: null, handle: null, url: null },
      thumbnail: "https://cdn.example/thumb.jpg",
      durationSec: null,
      media: [
        media(0, "1080-silent", { hasAudio: false }),
        media(0, "720"),
        media(0, "360"),
        media(1, "picture", { type: "image", mimeType: "image/jpeg", hasAudio: false }),
        media(2, "480"),
        media(2, "240"),
        media(3, "audio-only", { type: "audio", mimeType: "audio/mp4" }),
      ],
    };
    expect(legacyItems(answer)).toEqual([
      { url: "https://cdn.example/0-720", thumbnail: "https://cdn.example/thumb.jpg", type: "video" },
      { url: "https://cdn.example/1-picture", thumbnail: "https://cdn.example/1-picture", type: "image" },
      { url: "https://cdn.example/2-480", thumbnail: "https://cdn.example/thumb.jpg", type: "video" },
      // An item with nothing that plays as it is (an audio stream): its best file all the same.
      { url: "https://cdn.example/3-audio-only", thumbnail: "https://cdn.example/thumb.jpg", type: "audio" },
    ]);
  });

  it("a Django pipeline: a Pinterest pin with its user_id, every item with url, thumbnail and type", async () => {
    const { key } = await premiumAccount();
    const response = await legacy(key, {
      video_url: PINNED.pinterest,
      type: "pinterest",
      user_id: "a3c1e2f0-7d4b-4f7e-9b8a-1c2d3e4f5a6b",
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const body = await response.json<{
      success: number;
      data: { url: string; thumbnail: string | null; type: string }[];
    }>();
    expect(body.success).toBe(1);
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data) {
      expect(Object.keys(item).toSorted()).toEqual(["thumbnail", "type", "url"]);
      expect(["video", "image"]).toContain(item.type);
    }
    const answer = await current(key, PINNED.pinterest);
    expect(body.data.map((item) => item.type)).toEqual(legacyItems(answer).map((item) => item.type));
    // A numeric user_id too, as some of those clients store it.
    expect((await legacy(key, { video_url: PINNED.pinterest, type: "pinterest", user_id: 4821 })).status).toBe(200);
  });

  it("profile_pic: an Instagram profile's picture, names and counts, exactly the members the clients read", async () => {
    const { key } = await premiumAccount();
    const response = await legacy(key, { video_url: PINNED.instagramProfile, type: "profile_pic" });
    expect(response.status, await response.clone().text()).toBe(200);
    const body = await response.json<Record<string, unknown>>();
    expect(Object.keys(body).toSorted()).toEqual([
      "bio",
      "followers",
      "following",
      "full_name",
      "profilePic",
      "success",
    ]);
    expect(body).toMatchObject({
      success: 1,
      full_name: "NASA",
      bio: "Exploring the universe and our home planet. 🌎",
      followers: 97_412_345,
      following: 82,
    });
    // Fake mode: the recorded CDN lives inside the Worker, so the picture comes through the tunnel.
    expect(String(body.profilePic)).toMatch(
      /^https:\/\/portico\.test\/api\/v1\/youtube-instagram-video-downloader\/tunnel\//,
    );
  });
});

describe("POST /api/download/videos: what else the older clients meet", () => {
  it("lets the link decide the platform: a bot that sends type instagram for a YouTube link gets its files", async () => {
    const { key } = await premiumAccount();
    const response = await legacy(key, { video_url: PINNED.youtube, type: "instagram" });
    expect(response.status).toBe(200);
    const body = await response.json<{ data: unknown[] }>();
    expect(body.data.length).toBeGreaterThan(0);
    // `message` is the YouTube with_metadata member only.
    expect(body).not.toHaveProperty("message");
    const asked = await legacy(key, { video_url: PINNED.x, type: "twitter", with_metadata: true });
    expect(asked.status).toBe(200);
    expect(await asked.json()).not.toHaveProperty("message");
    const notAsked = await legacy(key, { video_url: PINNED.youtube, type: "youtube", with_metadata: "false" });
    expect(await notAsked.json()).not.toHaveProperty("message");
  });

  it("answers the platform's failures as problems with success 0, given back to the month", async () => {
    const { key, userId } = await premiumAccount();
    const deleted = await legacy(key, { video_url: YOUTUBE_FIXTURE_URLS.deleted, type: "youtube" });
    await legacyFailure(deleted, 404, "content-unavailable");
    const walled = await legacy(key, { video_url: YOUTUBE_FIXTURE_URLS.loginWall, type: "youtube" });
    await legacyFailure(walled, 403, "login-required");
    const limited = await legacy(key, { video_url: YOUTUBE_FIXTURE_URLS.rateLimited, type: "youtube" });
    await legacyFailure(limited, 429, "upstream-rate-limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await usedCalls(userId, 0)).toBe(0);
  });

  it("answers bad input with 422, success 0 and the older field at fault", async () => {
    const { key } = await premiumAccount();
    const noUrl = await legacyFailure(await legacy(key, { type: "youtube" }), 422, "invalid-input");
    expect(noUrl.errors).toHaveProperty("video_url");
    const badType = await legacyFailure(
      await legacy(key, { video_url: PINNED.youtube, type: "tiktok" }),
      422,
      "invalid-input",
    );
    expect((badType.errors as Record<string, string>).type).toMatch(/instagram, youtube/);
    // Over-long: refused under the field the older client sent, not the new path's `url`.
    const tooLong = await legacyFailure(
      await legacy(key, { video_url: `${PINNED.youtube}&t=${"1".repeat(2100)}`, type: "youtube" }),
      422,
      "invalid-input",
    );
    expect(tooLong.errors).toEqual({ video_url: expect.stringMatching(/at most 2048 characters/) });
    expect(tooLong.message).not.toMatch(/^url:/);
    const notAPost = await legacyFailure(
      await legacy(key, { video_url: "https://vimeo.com/76979871", type: "youtube" }),
      422,
      "unsupported-url",
    );
    expect(notAPost.message).toMatch(/vimeo\.com/);
    const notAProfile = await legacy(key, { video_url: PINNED.youtube, type: "profile_pic" });
    await legacyFailure(notAProfile, 422, "unsupported-url");
  });

  it("answers the key and plan refusals with success 0 too", async () => {
    await legacyFailure(
      await legacy(undefined, { video_url: PINNED.youtube, type: "youtube" }),
      401,
      "missing-api-key",
    );
    await legacyFailure(
      await legacy("pk_live_notakey", { video_url: PINNED.youtube, type: "youtube" }),
      401,
      "invalid-api-key",
    );
    const free = await createAccountWithKey(env.DB, { planId: "free" });
    await legacyFailure(await legacy(free.key, { video_url: PINNED.youtube, type: "youtube" }), 403, "plan-required");
  });
});

describe("POST /api/download/videos: its definition", () => {
  it("is the downloader's older path, picking getProfile for profile_pic", () => {
    expect(definition.legacyRoutes).toContain(LEGACY_DOWNLOAD_ROUTE);
    expect(LEGACY_DOWNLOAD_ROUTE.select?.({ type: "profile_pic" })).toBe("getProfile");
    expect(LEGACY_DOWNLOAD_ROUTE.select?.({ type: "instagram" })).toBeUndefined();
    expect(definition.operations.map((operation) => operation.id)).toContain("getProfile");
  });

  it("documents an example body its schema takes and an example answer its answer schema takes", () => {
    expect(LegacyDownloadSchema.safeParse(LEGACY_DOWNLOAD_ROUTE.input?.example).success).toBe(true);
    expect(LegacyAnswerSchema.safeParse(LEGACY_DOWNLOAD_ROUTE.answer?.example).error?.issues ?? []).toEqual([]);
  });

  it("lists in data what plays as it is, best first, and everything when nothing does", () => {
    const media = (type: "video" | "audio" | "image", hasAudio: boolean, url: string, item = 0) => ({
      item,
      url,
      type,
      quality: null,
      width: null,
      height: null,
      mimeType: "video/mp4",
      hasAudio,
    });
    const answer = (items: ReturnType<typeof media>[]): DownloadAnswer => ({
      platform: "youtube",
      id: "x",
      title: null,
      author: { name: null, handle: null, url: null },
      thumbnail: "https://i.ytimg.com/t.jpg",
      durationSec: null,
      media: items,
    });
    expect(
      legacyItems(
        answer([
          media("video", false, "a"),
          media("video", true, "b"),
          media("audio", true, "c"),
          media("image", false, "d", 1),
        ]),
      ),
    ).toEqual([
      { url: "b", thumbnail: "https://i.ytimg.com/t.jpg", type: "video" },
      { url: "d", thumbnail: "d", type: "image" },
    ]);
    expect(legacyItems(answer([media("audio", true, "c")]))).toEqual([
      { url: "c", thumbnail: "https://i.ytimg.com/t.jpg", type: "audio" },
    ]);
  });
});
