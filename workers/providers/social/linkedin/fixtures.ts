/**
 * The LinkedIn posts the fake records (linkedin/recorded.ts), as a user would paste them. The
 * first is the pinned public post the docs and the live demo use.
 */
import type { FixtureScenario } from "../fake-platform";

export const LINKEDIN_FIXTURE_URLS: Partial<Record<FixtureScenario, string>> = {
  public: "https://www.linkedin.com/posts/nasa_artemis-activity-7262145368218238976-AbCd",
  multiQuality: "https://www.linkedin.com/posts/nasa_artemis-activity-7262145368218238976-AbCd",
  carousel: "https://www.linkedin.com/posts/nasa_webb-telescope-activity-7260033445566778899-Pq3R",
  loginWall: "https://www.linkedin.com/feed/update/urn:li:activity:7258800112233445566/",
  deleted: "https://www.linkedin.com/posts/nasa_moon-activity-7257700112233445566-Zz9Y",
  changedShape: "https://www.linkedin.com/feed/update/urn:li:activity:7256600112233445566/",
  blocked: "https://www.linkedin.com/feed/update/urn:li:activity:7255500112233445566/",
  rateLimited: "https://www.linkedin.com/feed/update/urn:li:activity:7254400112233445566/",
};

/** Paths only LinkedIn has: a text-only post, and a post named by its ugcPost urn. */
export const LINKEDIN_EXTRA_FIXTURE_URLS = {
  noMedia: "https://www.linkedin.com/feed/update/urn:li:activity:7253300112233445566/",
  ugcPost: "https://www.linkedin.com/posts/nasa-jpl_mars-ugcPost-7252200112233445566-Hh7K",
} as const;
