/**
 * X's fake: the syndication endpoint, the guest-token activation and TweetResultByRestId, and
 * the video/image CDNs, answered from x/recorded.ts. It is stricter than X where strictness
 * keeps the extractor honest: the syndication token must be the widget's (X has been seen
 * accepting others), and GraphQL wants the public bearer and the guest token it issued.
 */
import type { FakePlatform } from "../fake-platform";
import { fakeMediaResponse } from "../fake-media";
import { syndicationToken, X_TWEET_QUERY, X_WEB_BEARER } from "./index";
import { type RecordedAnswer, X_MEDIA, X_RECORDED } from "./recorded";

const GUEST_TOKEN = "1850300000000000000";

export function createFakeX(options: { now?: () => number } = {}): FakePlatform {
  const now = options.now ?? Date.now;

  function answer(recorded: RecordedAnswer | undefined): Response {
    if (!recorded) return new Response(null, { status: 404 });
    const headers = new Headers(recorded.headers);
    if (recorded.resetInSeconds !== undefined) {
      headers.set("x-rate-limit-limit", "150");
      headers.set("x-rate-limit-remaining", "0");
      headers.set("x-rate-limit-reset", String(Math.floor(now() / 1000) + recorded.resetInSeconds));
    }
    if (recorded.body === undefined) return new Response(null, { status: recorded.status, headers });
    if (typeof recorded.body === "string") return new Response(recorded.body, { status: recorded.status, headers });
    headers.set("content-type", "application/json;charset=utf-8");
    return new Response(JSON.stringify(recorded.body), { status: recorded.status, headers });
  }

  return {
    hosts: ["cdn.syndication.twimg.com", "api.x.com", "api.twitter.com", "video.twimg.com", "pbs.twimg.com"],
    handle(request) {
      const url = new URL(request.url);
      if (url.hostname === "video.twimg.com" || url.hostname === "pbs.twimg.com") {
        const media = X_MEDIA[`${url.origin}${url.pathname}`];
        if (!media) return new Response(null, { status: 404 });
        return fakeMediaResponse(request, { seed: url.pathname, ...media });
      }
      if (url.hostname === "cdn.syndication.twimg.com") {
        const id = url.searchParams.get("id") ?? "";
        if (url.pathname !== "/tweet-result" || url.searchParams.get("token") !== syndicationToken(id)) {
          return new Response(null, { status: 404 });
        }
        return answer(X_RECORDED[id]?.syndication ?? { status: 404 });
      }
      if (request.headers.get("authorization") !== `Bearer ${X_WEB_BEARER}`) {
        return answer({
          status: 403,
          body: { errors: [{ code: 220, message: "Your credentials do not allow access to this resource." }] },
        });
      }
      if (url.pathname === "/1.1/guest/activate.json" && request.method === "POST") {
        return answer({ status: 200, body: { guest_token: GUEST_TOKEN } });
      }
      if (url.pathname === `/graphql/${X_TWEET_QUERY}` && request.method === "GET") {
        if (request.headers.get("x-guest-token") !== GUEST_TOKEN) {
          return answer({ status: 403, body: { errors: [{ code: 239, message: "Bad guest token." }] } });
        }
        const variables = JSON.parse(url.searchParams.get("variables") ?? "{}") as { tweetId?: string };
        return answer(
          X_RECORDED[variables.tweetId ?? ""]?.graphql ?? { status: 200, body: { data: { tweetResult: {} } } },
        );
      }
      return answer({ status: 404, body: { errors: [{ code: 34, message: "Sorry, that page does not exist." }] } });
    },
  };
}

export const fakeX: FakePlatform = createFakeX();
