/**
 * What a platform's local fake is and which situations the recorded fixtures cover: declared
 * apart from fake.ts, which lists every platform's fake, so a platform's fake and fixtures can
 * name these types without importing the list that imports them.
 */

export interface FakePlatform {
  /** The hosts it answers, in `hostMatches` form. */
  hosts: readonly string[];
  handle(request: Request): Promise<Response> | Response;
}

/**
 * The situations the recorded fixtures cover. Each platform's `fixtures.ts` exports the post
 * URLs of the ones it records (`<PLATFORM>_FIXTURE_URLS`), which its tests and the API's
 * gateway tests walk.
 */
export type FixtureScenario =
  | "public"
  | "carousel"
  | "multiQuality"
  | "private"
  | "deleted"
  | "regionLocked"
  | "loginWall"
  | "rateLimited"
  | "blocked"
  | "changedShape"
  | "drm";
