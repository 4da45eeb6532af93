/**
 * Facebook's local fake: answers the pages the extractor fetches (a video's under each of the
 * URLs Facebook gives it, a reel's, the share links' redirects, the login page) from the
 * recorded pages in fixtures.ts, and the CDN's media URLs with deterministic bytes. Like
 * Facebook it serves its pages only to a browser (a request without a browser's user agent gets
 * the "not available on this browser" page) and its media only under their signature (`oh`).
 */
import type { FakePlatform } from "../fake-platform";
import { fakeMediaResponse } from "../fake-media";
import {
  FACEBOOK_MEDIA,
  LOGIN_PAGE,
  PINNED_VIDEO_ID,
  PINNED_VIDEO_PAGE,
  REEL_ID,
  REEL_PAGE,
  RESHAPED_VIDEO_PAGE,
  UNAVAILABLE_PAGE,
  UNSUPPORTED_BROWSER_PAGE,
} from "./fixtures";

/** What each recorded video id is. */
const VIDEOS: Record<string, () => Response> = {
  [PINNED_VIDEO_ID]: () => html(PINNED_VIDEO_PAGE),
  [REEL_ID]: () => html(REEL_PAGE),
  "1111111111111111": () => html(UNAVAILABLE_PAGE),
  "2222222222222222": () =>
    redirect(
      `https://www.facebook.com/login/?next=${encodeURIComponent("https://www.facebook.com/watch/?v=2222222222222222")}`,
    ),
  "3333333333333333": () =>
    new Response("<!DOCTYPE html><html><body>Too Many Requests</body></html>", {
      status: 429,
      headers: { "content-type": "text/html; charset=utf-8", "retry-after": "300" },
    }),
  "4444444444444444": () => html(RESHAPED_VIDEO_PAGE),
};

/** Where each recorded share link leads, as Facebook's 302 says. */
const SHARES: Record<string, string> = {
  "/share/v/1AbCdEfGhJ/": `https://www.facebook.com/NASA/videos/${PINNED_VIDEO_ID}/?mibextid=w8EBqM`,
  "/share/r/1XyZaBcDeF/": `https://www.facebook.com/reel/${REEL_ID}/?mibextid=rS40aB7S9Ucbxw6v`,
  "/share/v/1OffSiTe00/": "https://evil.example/watch?v=1003263494553473",
};
const FB_WATCH: Record<string, string> = {
  "/t1AbCdEfGh/": `https://www.facebook.com/watch/?v=${PINNED_VIDEO_ID}&ref=sharing`,
};

const MEDIA_BY_PATH = new Map(Object.values(FACEBOOK_MEDIA).map((media) => [new URL(media.url).pathname, media]));

const html = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
const redirect = (location: string) => new Response(null, { status: 302, headers: { location } });

export const fakeFacebook: FakePlatform = {
  hosts: ["www.facebook.com", "m.facebook.com", "web.facebook.com", "fb.watch", ".fbcdn.net"],
  handle(request) {
    const url = new URL(request.url);
    if (url.hostname.endsWith(".fbcdn.net")) return media(request, url);
    if (url.hostname === "fb.watch") {
      const to = FB_WATCH[url.pathname];
      return to ? redirect(to) : redirect("https://www.facebook.com/watch/");
    }
    // m. and web. are the same site under other names: Facebook sends a browser on to www.
    if (url.hostname !== "www.facebook.com") return redirect(`https://www.facebook.com${url.pathname}${url.search}`);
    if (!/Mozilla\/5\.0/.test(request.headers.get("user-agent") ?? "")) return html(UNSUPPORTED_BROWSER_PAGE);
    if (url.pathname === "/login/" || url.pathname === "/login.php") return html(LOGIN_PAGE);
    const share = SHARES[url.pathname];
    if (share) return redirect(share);
    if (url.pathname.startsWith("/share/")) return html(UNAVAILABLE_PAGE);
    const id = videoIdOf(url);
    const answer = id ? VIDEOS[id] : undefined;
    return answer ? answer() : html(UNAVAILABLE_PAGE, 404);
  },
};

/** The video id of each URL form Facebook serves a video under. */
function videoIdOf(url: URL): string | null {
  const segments = url.pathname.split("/").filter(Boolean);
  if (segments[0] === "watch" || segments[0] === "video.php") return url.searchParams.get("v");
  if (segments[0] === "reel") return segments[1] ?? null;
  if (segments[1] === "videos") return segments.at(-1) ?? null;
  return null;
}

function media(request: Request, url: URL): Response {
  const recorded = MEDIA_BY_PATH.get(url.pathname);
  if (!recorded) return new Response("Not Found", { status: 404 });
  // The CDN signs each URL: one whose `oh` was changed or dropped is refused.
  if (url.searchParams.get("oh") !== new URL(recorded.url).searchParams.get("oh")) {
    return new Response("URL signature mismatch", { status: 403, headers: { "content-type": "text/plain" } });
  }
  return fakeMediaResponse(request, { seed: recorded.seed, size: recorded.size, mimeType: recorded.mimeType });
}
