/**
 * Instagram's local fake: answers the requests the extractor makes (the embed page, the GraphQL
 * post query, the route definitions, web_profile_info, the login page) from the recorded
 * answers in fixtures.ts, and the CDN's media URLs with deterministic bytes. It checks what the
 * real endpoints check, so a request the real Instagram would refuse is refused here too: the
 * JSON endpoints want the web app's id, the GraphQL query its doc id, the CDN its URL's
 * signature (`oh`).
 */
import type { FakePlatform } from "../fake-platform";
import { fakeMediaResponse } from "../fake-media";
import {
  CAROUSEL_MEDIA,
  embedContext,
  embedPage,
  INSTAGRAM_MEDIA,
  LOGIN_PAGE,
  NASA_PROFILE_USER,
  NOT_FOUND_PAGE,
  REEL_EMBED_MEDIA,
  REEL_MEDIA,
  reshapedEmbedPage,
  routeDefinitions,
} from "./fixtures";
import { INSTAGRAM_POST_QUERY_DOC_ID, INSTAGRAM_WEB_APP_ID } from "./index";

const RATE_LIMIT_TEXT = "Please wait a few minutes before you try again.";

/** What each recorded shortcode is. */
type Post =
  | { kind: "public"; embed: unknown; graphql: unknown }
  | { kind: "private" | "deleted" | "loginWall" | "rateLimited" | "changedShape" };

const POSTS: Record<string, Post> = {
  C8xYzAbCdEf: { kind: "public", embed: REEL_EMBED_MEDIA, graphql: REEL_MEDIA },
  C7qRsTuVwXy: { kind: "public", embed: CAROUSEL_MEDIA, graphql: CAROUSEL_MEDIA },
  C6pRvTaCcNt: { kind: "private" },
  C5dElEtEdPo: { kind: "deleted" },
  C4lOgInWaLl: { kind: "loginWall" },
  C3sLoWdOwNn: { kind: "rateLimited" },
  C2nEwShApEx: { kind: "changedShape" },
};

type Profile = "public" | "loginWall" | "rateLimited" | "changedShape";
const PROFILES: Record<string, Profile> = {
  nasa: "public",
  "walled.account": "loginWall",
  "busy.account": "rateLimited",
  "reshaped.account": "changedShape",
};

/**
 * The recorded files by path. A picture's sizes share one path (`stp` names the size, `oh`
 * signs each URL: the profile's 150 px and HD pictures), so a path may hold several.
 */
const MEDIA_BY_PATH = Map.groupBy(Object.values(INSTAGRAM_MEDIA), (media) => new URL(media.url).pathname);

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
const loginRedirect = (next: string) =>
  new Response(null, {
    status: 302,
    headers: { location: `https://www.instagram.com/accounts/login/?next=${encodeURIComponent(next)}` },
  });
const throttled = () =>
  json({ message: RATE_LIMIT_TEXT, require_login: true, spam: true, status: "fail" }, 429, { "retry-after": "120" });

export const fakeInstagram: FakePlatform = {
  hosts: ["www.instagram.com", "i.instagram.com", ".cdninstagram.com"],
  async handle(request) {
    const url = new URL(request.url);
    if (url.hostname.endsWith(".cdninstagram.com")) return media(request, url);
    if (url.hostname !== "www.instagram.com") return html(NOT_FOUND_PAGE, 404);
    const path = url.pathname;

    const embed = /^\/(?:p|reel|tv)\/([A-Za-z0-9_-]+)\/embed(?:\/captioned)?\/?$/.exec(path);
    if (embed && request.method === "GET") return embedAnswer(embed[1] ?? "");
    if (path === "/graphql/query" && request.method === "POST") return graphqlAnswer(request);
    if (path === "/ajax/bulk-route-definitions/" && request.method === "POST") return routeAnswer(request);
    if (path === "/api/v1/users/web_profile_info/" && request.method === "GET") return profileAnswer(request, url);
    if (path === "/accounts/login/") return html(LOGIN_PAGE);
    return html(NOT_FOUND_PAGE, 404);
  },
};

function embedAnswer(shortcode: string): Response {
  const post = POSTS[shortcode];
  switch (post?.kind) {
    case "public":
      return html(embedPage(shortcode, embedContext(shortcode, post.embed)));
    case "private":
      // A private post's embed shows only "This post is unavailable" and the profile link.
      return html(embedPage(shortcode, embedContext(shortcode, null)));
    case "loginWall":
      return loginRedirect(`/p/${shortcode}/embed/captioned/`);
    case "rateLimited":
      return html(`<!DOCTYPE html><html><body><p>${RATE_LIMIT_TEXT}</p></body></html>`, 429, { "retry-after": "120" });
    case "changedShape":
      return html(reshapedEmbedPage(shortcode));
    case "deleted":
    case undefined:
      return html(NOT_FOUND_PAGE, 404);
  }
}

async function graphqlAnswer(request: Request): Promise<Response> {
  if (request.headers.get("x-ig-app-id") !== INSTAGRAM_WEB_APP_ID)
    return json({ message: "useragent mismatch", status: "fail" }, 400);
  const form = await request.formData();
  if (form.get("doc_id") !== INSTAGRAM_POST_QUERY_DOC_ID || !form.get("lsd")) {
    return json(
      {
        errors: [{ message: "A server error missing_persisted_query occured.", severity: "CRITICAL", code: 1675002 }],
        status: "fail",
      },
      400,
    );
  }
  let shortcode = "";
  try {
    shortcode = String((JSON.parse(String(form.get("variables") ?? "{}")) as { shortcode?: unknown }).shortcode ?? "");
  } catch {
    return json({ errors: [{ message: "variables is not valid JSON", code: 1675030 }], status: "fail" }, 400);
  }
  const post = POSTS[shortcode];
  const extensions = { is_final: true };
  switch (post?.kind) {
    case "public":
      return json({ data: { xdt_shortcode_media: post.graphql }, extensions, status: "ok" });
    case "loginWall":
      return json({ message: "login_required", require_login: true, status: "fail" }, 401);
    case "rateLimited":
      return throttled();
    case "changedShape":
      return json({
        data: { xdt_api__v1__media__shortcode__web_info: { items: [{ code: shortcode, media_type: 2 }] } },
        extensions,
        status: "ok",
      });
    case "private":
    case "deleted":
    case undefined:
      return json({ data: { xdt_shortcode_media: null }, extensions, status: "ok" });
  }
}

async function routeAnswer(request: Request): Promise<Response> {
  const form = await request.formData();
  const shortcode = /^\/p\/([A-Za-z0-9_-]+)\/$/.exec(String(form.get("route_urls[0]") ?? ""))?.[1] ?? "";
  const trace = POSTS[shortcode]?.kind === "private" ? "polaris.privatePostPage" : "polaris.postPage";
  return new Response(routeDefinitions(shortcode, trace), {
    headers: { "content-type": "text/javascript; charset=utf-8" },
  });
}

function profileAnswer(request: Request, url: URL): Response {
  if (request.headers.get("x-ig-app-id") !== INSTAGRAM_WEB_APP_ID)
    return json({ message: "useragent mismatch", status: "fail" }, 400);
  const username = (url.searchParams.get("username") ?? "").toLowerCase();
  switch (PROFILES[username]) {
    case "public":
      return json({ data: { user: NASA_PROFILE_USER }, status: "ok" });
    case "loginWall":
      return loginRedirect(`/${username}/`);
    case "rateLimited":
      // What Instagram really answers a logged-out address it throttles: 401, not 429.
      return json({ message: RATE_LIMIT_TEXT, require_login: true, spam: true, status: "fail" }, 401);
    case "changedShape":
      return json({
        data: { user: { id: "1234567", username, xdt_profile_picture: { uri: INSTAGRAM_MEDIA.profilePic.url } } },
        status: "ok",
      });
    default:
      return json({ data: { user: null }, status: "ok" }, 404);
  }
}

function media(request: Request, url: URL): Response {
  const onPath = MEDIA_BY_PATH.get(url.pathname);
  if (!onPath) return new Response("Not Found", { status: 404 });
  // The CDN signs each URL: one whose `oh` was changed or dropped is refused.
  const recorded = onPath.find((media) => new URL(media.url).searchParams.get("oh") === url.searchParams.get("oh"));
  if (!recorded) {
    return new Response("Bad URL hash", { status: 403, headers: { "content-type": "text/plain" } });
  }
  return fakeMediaResponse(request, { seed: recorded.seed, size: recorded.size, mimeType: recorded.mimeType });
}
