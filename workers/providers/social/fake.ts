/**
 * The platforms' local fakes, answered in process (SOCIAL_PROVIDER=fake, development and
 * tests): each platform's `fake.ts` answers the requests its extractor makes from recorded
 * fixtures that follow the platform's real answers, and its media hosts from `fake-media.ts`.
 * The extractors run unchanged against them: only the `fetch` under them is this one.
 * Reached only through `loadFakes()` (workers/providers/fakes.ts), so production holds none of it.
 */
import { hostMatches } from "./extractor";
import { fakeFacebook } from "./facebook/fake";
import { fakeInstagram } from "./instagram/fake";
import { fakeLinkedin } from "./linkedin/fake";
import { fakePinterest } from "./pinterest/fake";
import { fakeX } from "./x/fake";
import { fakeYoutube } from "./youtube/fake";
import type { FakePlatform } from "./fake-platform";

export type { FakePlatform, FixtureScenario } from "./fake-platform";

/** Each platform's fake; a platform adds its own line. */
const FAKE_PLATFORMS: FakePlatform[] = [fakeInstagram, fakeFacebook, fakeX, fakeLinkedin, fakePinterest, fakeYoutube];

/** A `fetch` answering every platform host from its fake; any other host is unreachable, as offline. */
export function createFakeSocialFetch(platforms: readonly FakePlatform[] = FAKE_PLATFORMS): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    request.signal?.throwIfAborted();
    const host = new URL(request.url).hostname;
    const platform = platforms.find((candidate) => hostMatches(host, candidate.hosts));
    if (!platform) throw new TypeError(`fetch failed: ${host} is not reachable from the recorded platforms`);
    return platform.handle(request);
  };
}
