/**
 * `POST /api/v1/youtube-instagram-video-downloader/profile` through the whole Worker, over the
 * recorded Instagram (its profile fixtures): the profile, each failure as its typed problem and
 * given back to the month, and links that are not profiles refused before anything is fetched.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { meterStanding } from "~workers/gateway/meter-policy";
import { INSTAGRAM_PROFILE_FIXTURE_URLS } from "~workers/providers/social/instagram/fixtures";
import { callHosted, createAccountWithKey, eventually, expectProblem } from "../../../tests/factories";
import { definition } from "./index";
import { getProfile, PINNED_PROFILE, ProfileAnswerSchema } from "./profile";

const PATH = "/api/v1/youtube-instagram-video-downloader/profile";
const PERIOD_END = Date.now() + 20 * 24 * 60 * 60 * 1000;

async function premiumAccount() {
  return createAccountWithKey(env.DB, { planId: "premium", planExpiresAt: PERIOD_END });
}

const ask = (key: string, body: unknown) => callHosted(SELF, "POST", PATH, { key, body });

async function usedCalls(userId: string, expected: number): Promise<number> {
  const account = { userId, planId: "premium" as const, planExpiresAt: PERIOD_END, bonusCalls: 0 };
  return eventually(
    async () => (await meterStanding(env, account, Date.now())).used,
    (used) => used === expected,
  );
}

describe("getProfile", () => {
  it("answers the pinned profile as the Instagram fake records it, counted once", async () => {
    const { key, userId } = await premiumAccount();
    const response = await ask(key, { url: PINNED_PROFILE });
    expect(response.status).toBe(200);
    const profile = ProfileAnswerSchema.parse(await response.json());
    expect(profile).toEqual({
      username: "nasa",
      fullName: "NASA",
      bio: "Exploring the universe and our home planet. 🌎",
      // Fake mode: the recorded CDN lives inside the Worker, so the picture comes through the tunnel.
      profilePic: expect.stringMatching(
        /^https:\/\/portico\.test\/api\/v1\/youtube-instagram-video-downloader\/tunnel\//,
      ),
      followers: 97_412_345,
      following: 82,
    });
    const picture = await SELF.fetch(profile.profilePic);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/jpeg");
    expect((await picture.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(await usedCalls(userId, 1)).toBe(1);
  });

  it("takes the forms a profile is written in: no scheme, no www, a bare or @ name", async () => {
    const { key } = await premiumAccount();
    for (const url of ["instagram.com/nasa", "https://instagram.com/NASA/?hl=en", "@nasa", "nasa"]) {
      const response = await ask(key, { url });
      expect(response.status, url).toBe(200);
      expect((await response.json<{ username: string }>()).username).toBe("nasa");
    }
  });

  it.each([
    ["deleted", 404, "content-unavailable"],
    ["loginWall", 403, "login-required"],
    ["rateLimited", 429, "upstream-rate-limited"],
    ["changedShape", 502, "extractor-outdated"],
  ] as const)("answers the %s profile as %i %s, not counted", async (scenario, status, type) => {
    const { key, userId } = await premiumAccount();
    const response = await ask(key, { url: INSTAGRAM_PROFILE_FIXTURE_URLS[scenario] });
    const body = await expectProblem(response, status, type);
    expect(body.platform).toBe("instagram");
    if (type === "upstream-rate-limited") expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await usedCalls(userId, 0)).toBe(0);
  });

  it("refuses a link that is not an Instagram profile with 422 unsupported-url, counting nothing", async () => {
    const { key, userId } = await premiumAccount();
    for (const url of [
      "https://www.instagram.com/p/C7qRsTuVwXy/",
      "https://www.instagram.com/explore/",
      "https://instagram.com.evil.example/nasa/",
      "https://www.youtube.com/@nasa",
    ]) {
      const body = await expectProblem(await ask(key, { url }), 422, "unsupported-url");
      expect(body.errors).toEqual({ url: body.detail });
    }
    await expectProblem(await ask(key, {}), 422, "invalid-input");
    expect(await usedCalls(userId, 0)).toBe(0);
  });

  it("is one of the downloader's operations, and its documented example fits its schemas", () => {
    expect(definition.operations).toContain(getProfile);
    expect(getProfile.input.safeParse(getProfile.example).success).toBe(true);
    if (getProfile.output.kind === "json") {
      expect(getProfile.output.schema.safeParse(getProfile.output.example).error?.issues ?? []).toEqual([]);
    }
  });
});
