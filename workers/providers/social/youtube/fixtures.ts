/**
 * The YouTube videos the local fake records (fake-recorded.ts), as a user would paste them.
 * Only Big Buck Bunny is real (Blender Foundation, CC BY): the docs and the live demo use it.
 * The others are made-up ids whose recorded answers copy what YouTube answers in each case.
 */
import type { FixtureScenario } from "../fake-platform";

export const YOUTUBE_FIXTURE_IDS = {
  bigBuckBunny: "aqz-KE-bpKQ",
  private: "privateVid1",
  deleted: "deletedVid1",
  regionLocked: "regionLock1",
  loginWall: "botCheckVid",
  rateLimited: "rateLimitd1",
  blocked: "otherVideo1",
  changedShape: "changedShp1",
  drm: "drmMovie001",
  ageRestricted: "ageGatedV01",
  liveOffline: "premiere001",
  liveNow: "liveNowVid1",
  /** visionOS answers only enciphered URLs, iOS direct ones: the client fallback. */
  clientFallback: "cipherOnly1",
  redirected: "redirectd01",
  membersOnly: "membersOnl1",
  /** "This content isn't available, try again later": YouTube's per-session limit. */
  sessionLimited: "sessionLimt",
} as const;

const watch = (id: string) => `https://www.youtube.com/watch?v=${id}`;

export const YOUTUBE_FIXTURE_URLS: Partial<Record<FixtureScenario, string>> = {
  public: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  multiQuality: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  private: watch(YOUTUBE_FIXTURE_IDS.private),
  deleted: watch(YOUTUBE_FIXTURE_IDS.deleted),
  regionLocked: watch(YOUTUBE_FIXTURE_IDS.regionLocked),
  loginWall: watch(YOUTUBE_FIXTURE_IDS.loginWall),
  rateLimited: watch(YOUTUBE_FIXTURE_IDS.rateLimited),
  blocked: watch(YOUTUBE_FIXTURE_IDS.blocked),
  changedShape: watch(YOUTUBE_FIXTURE_IDS.changedShape),
  drm: watch(YOUTUBE_FIXTURE_IDS.drm),
};
