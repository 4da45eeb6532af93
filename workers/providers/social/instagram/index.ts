/**
 * Instagram: a post or reel read logged out, as cobalt and yt-dlp read it, in a cascade that
 * stops at the first answer carrying every item of the post:
 *   1. the embed page (`/p/<shortcode>/embed/captioned/`), whose ServerJS payload carries a
 *      `contextJSON` string holding `gql_data.shortcode_media`. It is one request and rarely
 *      throttled, but for a reel it often carries only the poster (`is_video` without
 *      `video_url`), so it is not enough alone;
 *   2. the web app's GraphQL post query (`/graphql/query`, PolarisPostActionLoadPostQueryQuery),
 *      answering `data.xdt_shortcode_media` in the same shape, with the LSD and CSRF tokens the
 *      embed page gave (a random LSD when it gave none, as cobalt does).
 * When neither has the post, Instagram's route definition for the post says whether it is a
 * private account's (`polaris.privatePostPage`): its GraphQL answer for a private post and a
 * deleted one is the same `null`.
 *
 * The mobile API (`/api/v1/media/<pk>/info/`, `items[0]`) is not asked: logged out it answers
 * `login_required` for every post, and this extractor holds no session: a signed-in account
 * would see what its owner may see rather than what is public, and would be the one Instagram
 * locks when it throttles.
 */
import { z } from "zod";
import type {
  ExtractedMedia,
  ExtractedPost,
  Extraction,
  ExtractionFailure,
  PostRef,
  ProfileExtraction,
} from "~workers/hosted/capabilities";
import {
  type ExtractorDeps,
  failureFromStatus,
  ForeignHostError,
  hostGuardedFetch,
  isHttpsOn,
  MAX_JSON_BYTES,
  MAX_PAGE_BYTES,
  outdated,
  type PlatformExtractor,
  readText,
} from "../extractor";
import { BROWSER_PAGE_HEADERS, BROWSER_USER_AGENT, imageMimeTypeOf } from "../html";

/** The web app's id: Instagram refuses its JSON endpoints to a request without it. */
export const INSTAGRAM_WEB_APP_ID = "936619743392459";
/** PolarisPostActionLoadPostQueryQuery: the web app's logged-out post query. */
export const INSTAGRAM_POST_QUERY_DOC_ID = "8845758582119845";
const POST_QUERY_NAME = "PolarisPostActionLoadPostQueryQuery";

const PUBLIC_ORIGIN = "https://www.instagram.com";
const MEDIA_HOSTS = [".cdninstagram.com", ".fbcdn.net"] as const;
const SHORTCODE = /^[A-Za-z0-9_-]{5,64}$/;
const USERNAME = /^[A-Za-z0-9._]{1,30}$/;

// ---- The answers' shapes (only the fields read; everything else is ignored) ----

const DimensionsSchema = z.object({ width: z.number(), height: z.number() });

const MediaNodeSchema = z.object({
  is_video: z.boolean().nullish(),
  video_url: z.string().nullish(),
  display_url: z.string().nullish(),
  dimensions: DimensionsSchema.nullish(),
  video_duration: z.number().nullish(),
  has_audio: z.boolean().nullish(),
});

const ShortcodeMediaSchema = MediaNodeSchema.extend({
  thumbnail_src: z.string().nullish(),
  owner: z.object({ username: z.string().nullish(), full_name: z.string().nullish() }).nullish(),
  edge_media_to_caption: z.object({ edges: z.array(z.object({ node: z.object({ text: z.string() }) })) }).nullish(),
  edge_sidecar_to_children: z.object({ edges: z.array(z.object({ node: MediaNodeSchema })) }).nullish(),
});
type ShortcodeMedia = z.infer<typeof ShortcodeMediaSchema>;
type MediaNode = z.infer<typeof MediaNodeSchema>;

const ProfileUserSchema = z.object({
  username: z.string(),
  full_name: z.string().nullish(),
  biography: z.string().nullish(),
  profile_pic_url: z.string().nullish(),
  profile_pic_url_hd: z.string().nullish(),
  edge_followed_by: z.object({ count: z.number() }).nullish(),
  edge_follow: z.object({ count: z.number() }).nullish(),
});

/** The failure JSON Instagram's endpoints answer (`{"message": …, "status": "fail"}`). */
const FailBodySchema = z.object({
  message: z.string().nullish(),
  require_login: z.boolean().nullish(),
  status: z.string().nullish(),
});

/**
 * What one step of the cascade learnt: the post, a failure that ends the cascade (being
 * throttled: asking on would only deepen it), or why it had nothing.
 *   login   Instagram sent us to its login page or said login_required
 *   gone    it said there is no such post for a logged-out visitor (404, null media)
 *   unread  it answered, without what we read (`what` names it for the log)
 */
type Step =
  | { kind: "post"; post: ExtractedPost }
  | { kind: "stop"; failure: ExtractionFailure }
  | { kind: "login" | "gone" | "unread"; what: string };

interface Tokens {
  lsd: string;
  csrf: string | null;
}

export function instagramExtractor(deps: ExtractorDeps): PlatformExtractor {
  const www = baseUrl(deps, "www");
  const apiHosts = [new URL(www).hostname];
  // The fetch we are given (index.ts) admits Instagram's pages and its CDNs; this guard, nested
  // in it, judges every hop of a redirect against the page hosts alone (hostGuardedFetch hands a
  // nested guard each 3xx), so no answer is read from a CDN as a page.
  const fetchGuarded = hostGuardedFetch(deps.fetch, apiHosts);

  const onMediaHost = (url: string | null | undefined): url is string => isHttpsOn(url, MEDIA_HOSTS);

  async function readEmbed(ref: PostRef, signal: AbortSignal): Promise<{ step: Step; tokens: Tokens }> {
    const tokens: Tokens = { lsd: randomToken(), csrf: null };
    const response = await fetchGuarded(`${www}/p/${ref.id}/embed/captioned/`, {
      headers: BROWSER_PAGE_HEADERS,
      signal,
    });
    const html = await readText(response, MAX_PAGE_BYTES);
    const early = readFailureAnswer(response, html, "embed page");
    if (early) return { step: early, tokens };
    tokens.lsd = /\["LSD",\[\],\{"token":"([^"]+)"/.exec(html)?.[1] ?? tokens.lsd;
    tokens.csrf = /"csrf_token":"([^"]+)"/.exec(html)?.[1] ?? null;
    const context = readEmbedContext(html);
    if (!context) return { step: { kind: "unread", what: "embed contextJSON" }, tokens };
    const gql = (context as { gql_data?: { shortcode_media?: unknown; xdt_shortcode_media?: unknown } | null })
      .gql_data;
    const media = gql?.shortcode_media ?? gql?.xdt_shortcode_media;
    if (media == null) return { step: { kind: "unread", what: "embed gql_data.shortcode_media" }, tokens };
    return { step: postStep(ref, media, "embed shortcode_media"), tokens };
  }

  async function readGraphql(ref: PostRef, tokens: Tokens, signal: AbortSignal): Promise<Step> {
    const body = new URLSearchParams({
      av: "0",
      __d: "www",
      __user: "0",
      __a: "1",
      __comet_req: "7",
      lsd: tokens.lsd,
      fb_api_caller_class: "RelayModern",
      fb_api_req_friendly_name: POST_QUERY_NAME,
      variables: JSON.stringify({
        shortcode: ref.id,
        fetch_tagged_user_count: null,
        hoisted_comment_id: null,
        hoisted_reply_id: null,
      }),
      server_timestamps: "true",
      doc_id: INSTAGRAM_POST_QUERY_DOC_ID,
    });
    const response = await fetchGuarded(`${www}/graphql/query`, {
      method: "POST",
      headers: {
        ...jsonHeaders(tokens),
        "content-type": "application/x-www-form-urlencoded",
        "x-fb-friendly-name": POST_QUERY_NAME,
        referer: `${www}/p/${ref.id}/`,
      },
      body,
      signal,
    });
    const text = await readText(response, MAX_JSON_BYTES);
    const early = readFailureAnswer(response, text, "GraphQL");
    if (early) return early;
    const json = parseJson(text);
    const data = (json as { data?: unknown } | null)?.data;
    if (!data || typeof data !== "object" || !("xdt_shortcode_media" in data)) {
      return { kind: "unread", what: "GraphQL data.xdt_shortcode_media" };
    }
    const media = (data as { xdt_shortcode_media: unknown }).xdt_shortcode_media;
    // Instagram answers a private post and a deleted one alike: the media is null.
    if (media === null) return { kind: "gone", what: "GraphQL xdt_shortcode_media null" };
    return postStep(ref, media, "GraphQL xdt_shortcode_media");
  }

  /** Whether Instagram routes the post to its private-post page (cobalt's way of telling). */
  async function isPrivatePost(ref: PostRef, tokens: Tokens, signal: AbortSignal): Promise<boolean> {
    const response = await fetchGuarded(`${www}/ajax/bulk-route-definitions/`, {
      method: "POST",
      headers: { ...jsonHeaders(tokens), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        "route_urls[0]": `/p/${ref.id}/`,
        routing_namespace: "igx_www",
        __d: "www",
        __a: "1",
        __user: "0",
        lsd: tokens.lsd,
      }),
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      return false;
    }
    return (await readText(response, MAX_JSON_BYTES)).includes('"tracePolicy":"polaris.privatePostPage"');
  }

  function jsonHeaders(tokens: Tokens): Record<string, string> {
    return {
      accept: "*/*",
      "accept-language": "en-US,en;q=0.9",
      "user-agent": BROWSER_USER_AGENT,
      "x-ig-app-id": INSTAGRAM_WEB_APP_ID,
      "x-fb-lsd": tokens.lsd,
      "x-asbd-id": "129477",
      "x-requested-with": "XMLHttpRequest",
      ...(tokens.csrf && { "x-csrftoken": tokens.csrf }),
    };
  }

  function postStep(ref: PostRef, raw: unknown, where: string): Step {
    const parsed = ShortcodeMediaSchema.safeParse(raw);
    if (!parsed.success) return { kind: "unread", what: `${where}: ${parsed.error.issues[0]?.path.join(".")}` };
    const media = parsed.data;
    const nodes: MediaNode[] = media.edge_sidecar_to_children?.edges.map((edge) => edge.node) ?? [media];
    const items: ExtractedMedia[] = [];
    for (const [index, node] of nodes.entries()) {
      const item = mediaOf(node);
      // One item we cannot give (a video known only by its poster) means this answer is not
      // the whole post: the next step is asked rather than answering part of a carousel.
      if (!item) return { kind: "unread", what: `${where}: ${node.is_video ? "video_url" : "display_url"}` };
      // Each carousel node is one item with one file (Instagram gives a video one video_url).
      items.push({ ...item, item: index });
    }
    if (items.length === 0) return { kind: "unread", what: `${where}: edge_sidecar_to_children.edges` };
    return { kind: "post", post: postOf(ref, media, items) };
  }

  function mediaOf(node: MediaNode): ExtractedMedia | null {
    const width = node.dimensions ? Math.round(node.dimensions.width) : null;
    const height = node.dimensions ? Math.round(node.dimensions.height) : null;
    if (node.is_video) {
      if (!onMediaHost(node.video_url)) return null;
      return {
        url: node.video_url,
        type: "video",
        // Instagram names no quality: the short side, as a player would label it.
        quality: width !== null && height !== null ? `${Math.min(width, height)}p` : null,
        width,
        height,
        mimeType: "video/mp4",
        hasAudio: node.has_audio !== false,
      };
    }
    if (!onMediaHost(node.display_url)) return null;
    return {
      url: node.display_url,
      type: "image",
      quality: "original",
      width,
      height,
      mimeType: imageMimeTypeOf(node.display_url),
      hasAudio: false,
    };
  }

  function postOf(ref: PostRef, media: ShortcodeMedia, items: ExtractedMedia[]): ExtractedPost {
    const username = media.owner?.username ?? null;
    const caption = media.edge_media_to_caption?.edges[0]?.node.text.trim() || null;
    const thumbnail = [media.display_url, media.thumbnail_src].find(onMediaHost) ?? null;
    const single = items.length === 1 ? items[0] : undefined;
    return {
      platform: "instagram",
      id: ref.id,
      title: caption,
      author: {
        name: media.owner?.full_name || null,
        handle: username,
        url: username ? `${PUBLIC_ORIGIN}/${username}/` : null,
      },
      thumbnail,
      durationSec: single?.type === "video" && media.video_duration != null ? media.video_duration : null,
      media: items,
    };
  }

  return {
    platform: "instagram",
    apiHosts,
    mediaHosts: MEDIA_HOSTS,

    async extract(ref: PostRef, signal: AbortSignal): Promise<Extraction> {
      if (!SHORTCODE.test(ref.id)) {
        return { ok: false, kind: "content-unavailable", detail: "Instagram has no post with that code." };
      }
      try {
        const { step: embed, tokens } = await readEmbed(ref, signal);
        if (embed.kind === "post") return { ok: true, post: embed.post };
        if (embed.kind === "stop") return embed.failure;
        const graphql = await readGraphql(ref, tokens, signal);
        if (graphql.kind === "post") return { ok: true, post: graphql.post };
        if (graphql.kind === "stop") return graphql.failure;
        const steps: Extract<Step, { what: string }>[] = [embed, graphql];
        if (steps.some((step) => step.kind === "gone")) {
          if (await isPrivatePost(ref, tokens, signal)) {
            return {
              ok: false,
              kind: "content-private",
              detail: "This Instagram post is a private account's: only its approved followers may see it.",
            };
          }
          return {
            ok: false,
            kind: "content-unavailable",
            detail: "Instagram has no such post: it was deleted or never existed.",
          };
        }
        if (steps.some((step) => step.kind === "login")) return loginRequired();
        return outdated("instagram", steps.map((step) => step.what).join("; "));
      } catch (error) {
        if (error instanceof ForeignHostError) return outdated("instagram", `redirect to ${error.host}`);
        throw error;
      }
    },

    async profile(username: string, signal: AbortSignal): Promise<ProfileExtraction> {
      if (!USERNAME.test(username)) {
        return { ok: false, kind: "content-unavailable", detail: "Instagram has no account with that user name." };
      }
      try {
        const response = await fetchGuarded(
          `${www}/api/v1/users/web_profile_info/?username=${encodeURIComponent(username)}`,
          {
            headers: { ...jsonHeaders({ lsd: randomToken(), csrf: null }), referer: `${www}/${username}/` },
            signal,
          },
        );
        const text = await readText(response, MAX_JSON_BYTES);
        const early = readFailureAnswer(response, text, "web_profile_info");
        if (early?.kind === "stop") return early.failure;
        if (early?.kind === "login") return loginRequired();
        if (early?.kind === "gone")
          return { ok: false, kind: "content-unavailable", detail: "Instagram has no account with that user name." };
        if (early) return outdated("instagram", early.what);
        const data = (parseJson(text) as { data?: { user?: unknown } } | null)?.data;
        if (data && data.user === null) {
          return { ok: false, kind: "content-unavailable", detail: "Instagram has no account with that user name." };
        }
        const user = ProfileUserSchema.safeParse(data?.user);
        if (!user.success)
          return outdated("instagram", `web_profile_info data.user: ${user.error.issues[0]?.path.join(".")}`);
        const profilePic = [user.data.profile_pic_url_hd, user.data.profile_pic_url].find(onMediaHost);
        if (!profilePic) return outdated("instagram", "web_profile_info profile_pic_url_hd");
        return {
          ok: true,
          profile: {
            username: user.data.username,
            fullName: user.data.full_name || null,
            bio: user.data.biography || null,
            profilePic,
            followers: user.data.edge_followed_by?.count ?? null,
            following: user.data.edge_follow?.count ?? null,
          },
        };
      } catch (error) {
        if (error instanceof ForeignHostError) return outdated("instagram", `redirect to ${error.host}`);
        throw error;
      }
    },
  };
}

/**
 * What an answer says before its content is read: throttling (429, or the "Please wait a few
 * minutes" Instagram sends with other statuses, even 401 with require_login), the login page
 * or login_required, a 404, another unexpected status. `null`: a 2xx answer to read.
 */
function readFailureAnswer(response: Response, text: string, where: string): Exclude<Step, { kind: "post" }> | null {
  const fail = FailBodySchema.safeParse(parseJson(text));
  const message = fail.success ? (fail.data.message ?? "") : "";
  if (
    response.status === 429 ||
    /wait a few minutes/i.test(message) ||
    (!fail.success && /Please wait a few minutes/.test(text))
  ) {
    return { kind: "stop", failure: rateLimited(response) };
  }
  if (
    isLoginPage(text) ||
    message === "login_required" ||
    message === "checkpoint_required" ||
    (fail.success && fail.data.require_login)
  ) {
    return { kind: "login", what: `${where} login` };
  }
  if (response.status === 404 || response.status === 410)
    return { kind: "gone", what: `${where} HTTP ${response.status}` };
  if (response.status === 401 || response.status === 403)
    return { kind: "login", what: `${where} HTTP ${response.status}` };
  if (!response.ok) return { kind: "unread", what: `${where} HTTP ${response.status}` };
  return null;
}

function rateLimited(response: Response): ExtractionFailure {
  return failureFromStatus(
    "instagram",
    new Response(null, { status: 429, headers: { "retry-after": response.headers.get("retry-after") ?? "" } }),
  );
}

function loginRequired(): ExtractionFailure {
  return {
    ok: false,
    kind: "login-required",
    detail:
      "Instagram asks for a signed-in user before it shows this, which it does to addresses it has seen too often.",
  };
}

/** Instagram's login page, where a logged-out visitor it will not serve is redirected. */
function isLoginPage(html: string): boolean {
  return (
    /<link rel="canonical" href="[^"]*\/accounts\/login\//.test(html) ||
    html.includes('"routePath":"\\/accounts\\/login\\/')
  );
}

/**
 * The embed page's context: ServerJS's `["EmbedSimpleBase","init",[],[{"contextJSON":"<json>"…`,
 * a JSON string literal holding JSON. The literal is read by JSON itself, so its escapes
 * (`\"`, `\u0026`, `\/`) are never a regular expression's guess.
 */
function readEmbedContext(html: string): unknown {
  const literal = /"contextJSON":("(?:[^"\\]|\\.)*")/.exec(html)?.[1];
  if (!literal) return null;
  const inner = parseJson(literal);
  return typeof inner === "string" ? parseJson(inner) : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A fresh LSD-shaped token, sent when the embed page gave none (cobalt does the same). */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function baseUrl(deps: ExtractorDeps, name: string): string {
  const url = deps.baseUrls[name];
  if (!url) throw new Error(`the Instagram extractor needs baseUrls.${name}`);
  return url.replace(/\/+$/, "");
}
