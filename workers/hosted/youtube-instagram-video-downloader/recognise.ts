/**
 * The caller's text → the post it names (a `PostRef`), or why it is refused. This is the one
 * place caller text is read: extractors get only the PostRef, whose canonical URL is built
 * here from the platform's id on the platform's main host, so no caller text ever picks a host
 * or reaches an upstream request.
 *
 * Hosts are matched exactly against a fixed list, after the WHATWG URL parser has lower-cased
 * them and turned Unicode into punycode: `youtube.com.evil.example`, `evil-youtube.com` and a
 * Cyrillic `уoutube.com` (an `xn--` name) are simply not on it. A URL carrying a user name
 * (`https://youtube.com@evil.example/`, whose host is evil.example) or a port is refused
 * outright, since no platform link has one and both are classic disguises. Every query
 * parameter except the one that carries an id (`v` on YouTube and Facebook) is ignored, so
 * tracking parameters (`utm_*`, `si`, `igsh`, `feature`, `s`, `t`, …) never matter.
 *
 * Patterns here run on single path segments or query values of a URL at most MAX_URL_LENGTH
 * long, and none has two quantifiers over the same characters (tests/integration/regex-safety).
 */
import type { Platform, PostRef } from "~workers/hosted/capabilities";

export const MAX_URL_LENGTH = 2048;

export type Recognition = { ok: true; ref: PostRef } | { ok: false; reason: string };

const SUPPORTED = "YouTube, Instagram, Facebook, X (Twitter), LinkedIn and Pinterest";

const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const YOUTU_BE_HOSTS = new Set(["youtu.be", "www.youtu.be"]);
const INSTAGRAM_HOSTS = new Set([
  "instagram.com",
  "www.instagram.com",
  "m.instagram.com",
  "instagr.am",
  "www.instagr.am",
]);
const FACEBOOK_HOSTS = new Set([
  "facebook.com",
  "www.facebook.com",
  "m.facebook.com",
  "web.facebook.com",
  "mbasic.facebook.com",
  "touch.facebook.com",
]);
const FB_WATCH_HOSTS = new Set(["fb.watch", "www.fb.watch"]);
const X_HOSTS = new Set([
  "x.com",
  "www.x.com",
  "mobile.x.com",
  "twitter.com",
  "www.twitter.com",
  "mobile.twitter.com",
  "m.twitter.com",
]);
const LINKEDIN_HOSTS = new Set(["linkedin.com", "www.linkedin.com", "m.linkedin.com"]);
/**
 * Pinterest's country sites (pinterest.co.uk, pinterest.fr, …): the domains Pinterest serves
 * pins on. A two-letter subdomain (`in.pinterest.com`, `br.pinterest.com`) is its other way of
 * naming a country, and `www.` works on every one of them.
 */
const PINTEREST_SUFFIXES = new Set([
  "com",
  "co.uk",
  "fr",
  "de",
  "ca",
  "com.au",
  "es",
  "it",
  "jp",
  "ch",
  "at",
  "se",
  "nz",
  "ie",
  "pt",
  "dk",
  "nl",
  "be",
  "ru",
  "cl",
  "ph",
  "co.kr",
  "com.mx",
  "com.br",
  "com.ar",
  "com.co",
  "com.pe",
  "com.ec",
  "co.in",
  "co.nz",
  "co.za",
]);
const PIN_IT_HOSTS = new Set(["pin.it", "www.pin.it"]);

/** A YouTube video id: exactly 11 characters of the URL-safe base64 alphabet. */
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
/** An Instagram shortcode (longer for private accounts' posts). */
const INSTAGRAM_CODE = /^[A-Za-z0-9_-]{5,64}$/;
/** A numeric id: tweets, Facebook videos, LinkedIn activities, pins. */
const NUMERIC_ID = /^\d{1,25}$/;
/** A share token (fb.watch, /share/v/, pin.it): letters, digits, `_` and `-`. */
const SHARE_TOKEN = /^[A-Za-z0-9_-]{3,64}$/;
/** A page's or user's name as it appears in a path (Facebook pages, X handles). */
const PATH_NAME = /^[A-Za-z0-9_.-]{1,80}$/;
/** `nasa_artemis-activity-7262145368218238976-AbCd`: the urn type and number inside a /posts/ slug. */
const LINKEDIN_POST_SLUG = /-(activity|ugcPost|share)-(\d{6,25})(?:-|$)/;
/** `urn:li:activity:7262145368218238976` (also `ugcPost` and `share`). */
const LINKEDIN_URN = /^urn:li:(activity|ugcPost|share):(\d{6,25})$/;
/** `some-title--1055599907085543`: a pin's newer path, its id after the last `--`. */
const PIN_WITH_SLUG = /--(\d{1,25})$/;

/**
 * Reads `text` as one post's URL on one of the platforms. A URL typed without its scheme
 * (`youtu.be/…`, `www.instagram.com/p/…`) is read as https.
 */
export function recognisePostUrl(text: string): Recognition {
  const url = parseUrl(text);
  if (!url.ok) return url;
  // A fully qualified name's final dot (`www.youtube.com.`) names the same host.
  const host = url.url.hostname.replace(/\.$/, "");
  const segments = pathSegments(url.url);
  if (YOUTUBE_HOSTS.has(host) || YOUTU_BE_HOSTS.has(host)) return youtube(url.url, segments, YOUTU_BE_HOSTS.has(host));
  if (INSTAGRAM_HOSTS.has(host)) return instagram(segments);
  if (FACEBOOK_HOSTS.has(host) || FB_WATCH_HOSTS.has(host))
    return facebook(url.url, segments, FB_WATCH_HOSTS.has(host));
  if (X_HOSTS.has(host)) return x(segments);
  if (LINKEDIN_HOSTS.has(host)) return linkedin(segments);
  if (isPinterestHost(host) || PIN_IT_HOSTS.has(host)) return pinterest(segments, PIN_IT_HOSTS.has(host));
  return refuse(`${host} is not one of the platforms this API reads (${SUPPORTED}).`);
}

/**
 * An Instagram profile URL (`https://www.instagram.com/nasa/`) or a bare user name (`nasa`,
 * `@nasa`) → the user name, for the older path's `profile_pic` call.
 */
export function recogniseInstagramProfile(
  text: string,
): { ok: true; username: string } | { ok: false; reason: string } {
  const bare = text.trim().replace(/^@/, "");
  if (/^[A-Za-z0-9_.]{1,30}$/.test(bare)) return { ok: true, username: bare.toLowerCase() };
  const url = parseUrl(text);
  if (!url.ok) return url;
  if (!INSTAGRAM_HOSTS.has(url.url.hostname.replace(/\.$/, "")))
    return refuse("Give an Instagram profile URL, such as https://www.instagram.com/nasa/.");
  const segments = pathSegments(url.url);
  const [name] = segments;
  if (segments.length !== 1 || !name || !/^[A-Za-z0-9_.]{1,30}$/.test(name) || RESERVED_INSTAGRAM_PATHS.has(name)) {
    return refuse("That Instagram URL is not a profile: give https://www.instagram.com/<user name>/.");
  }
  return { ok: true, username: name.toLowerCase() };
}

const RESERVED_INSTAGRAM_PATHS = new Set(["p", "reel", "reels", "tv", "stories", "explore", "accounts", "direct"]);

function parseUrl(text: string): { ok: true; url: URL } | { ok: false; reason: string } {
  const trimmed = text.trim();
  if (trimmed === "") return refuse("Give the URL of a post, such as https://www.youtube.com/watch?v=aqz-KE-bpKQ.");
  if (trimmed.length > MAX_URL_LENGTH) return refuse(`A post URL is at most ${MAX_URL_LENGTH} characters.`);
  // A scheme is letters, digits, `+`, `-` or `.` before the first `:`; `youtu.be/x` has none.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed)?.[1]?.toLowerCase();
  // `youtube.com:443/…` parses as the scheme "youtube.com"; a host and port is no scheme.
  const hasScheme = scheme !== undefined && !/^[^/]*:\d/.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `https://${trimmed}`);
  } catch {
    return refuse("That is not a URL. Give the post's link as the platform shows it.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return refuse(`Only http and https links are read, not ${url.protocol.slice(0, -1)}.`);
  }
  if (url.username !== "" || url.password !== "") {
    return refuse("A link with a user name before its host (user@host) is refused: no platform writes one.");
  }
  // Any port is refused, the scheme's own (`:443`, `:80`) and an empty one included, which the
  // parser drops from `url.port`: read from the authority as written.
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*([^/\\?#]*)/.exec(hasScheme ? trimmed : `https://${trimmed}`)?.[1];
  if (url.port !== "" || /:\d*$/.test(authority ?? "")) {
    return refuse("A link with a port is refused: no platform writes one.");
  }
  return { ok: true, url };
}

function pathSegments(url: URL): string[] {
  return url.pathname.split("/").filter((segment) => segment !== "");
}

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

function ref(platform: Platform, id: string, kind: string, url: string): Recognition {
  return { ok: true, ref: { platform, id, kind, url } };
}

function youtube(url: URL, segments: string[], shortHost: boolean): Recognition {
  const [first, second] = segments;
  let id: string | null | undefined;
  let kind = "video";
  if (shortHost) id = first;
  else if (first === "watch") id = url.searchParams.get("v");
  else if (first === "shorts") {
    id = second;
    kind = "short";
  } else if (first === "live" || first === "embed" || first === "v" || first === "e") id = second;
  if (!id) {
    return refuse(
      "That YouTube link names no video (a channel, a playlist or a search?): give a video's link, such as https://www.youtube.com/watch?v=aqz-KE-bpKQ.",
    );
  }
  if (!YOUTUBE_ID.test(id)) return refuse("A YouTube video id is 11 letters, digits, - or _.");
  return ref("youtube", id, kind, `https://www.youtube.com/watch?v=${id}`);
}

function instagram(segments: string[]): Recognition {
  // /p/<code>/, /reel/<code>/, /reels/<code>/, /tv/<code>/, and the same under a user name
  // (/<user>/p/<code>/, /<user>/reel/<code>/), which Instagram's share sheet now writes.
  const at = segments.findIndex((segment) => ["p", "reel", "reels", "tv"].includes(segment));
  const type = at >= 0 && at <= 1 ? segments[at] : undefined;
  const code = at >= 0 ? segments[at + 1] : undefined;
  if (!type || !code) {
    return refuse(
      "That Instagram link is not a post or a reel: give a link such as https://www.instagram.com/reel/C8xYzAbCdEf/ (stories and profiles are not read).",
    );
  }
  if (!INSTAGRAM_CODE.test(code)) return refuse("That Instagram link's post code is not one Instagram writes.");
  const kind = type === "reel" || type === "reels" ? "reel" : "post";
  return ref("instagram", code, kind, `https://www.instagram.com/${kind === "reel" ? "reel" : "p"}/${code}/`);
}

function facebook(url: URL, segments: string[], fbWatch: boolean): Recognition {
  const [first, second, third] = segments;
  const notVideo = () =>
    refuse(
      "That Facebook link names no video: give a video's or a reel's link, such as https://www.facebook.com/NASA/videos/1003263494553473/.",
    );
  if (fbWatch) {
    // fb.watch/<token>: only Facebook knows which video it names, so the extractor follows it.
    if (!first || !SHARE_TOKEN.test(first)) return notVideo();
    return ref("facebook", first, "share", `https://fb.watch/${first}/`);
  }
  if (first === "share" && (second === "v" || second === "r") && third) {
    if (!SHARE_TOKEN.test(third)) return notVideo();
    return ref("facebook", third, "share", `https://www.facebook.com/share/${second}/${third}/`);
  }
  if (first === "reel" && second) {
    if (!NUMERIC_ID.test(second)) return notVideo();
    return ref("facebook", second, "reel", `https://www.facebook.com/reel/${second}/`);
  }
  if (first === "watch" || first === "video.php") {
    const v = url.searchParams.get("v");
    if (!v || !NUMERIC_ID.test(v)) return notVideo();
    return ref("facebook", v, "video", `https://www.facebook.com/watch/?v=${v}`);
  }
  // /<page>/videos/<id>/ and /<page>/videos/<title>/<id>/: the id is the last numeric segment.
  // The page's name stays in the canonical URL: it is how Facebook itself names a page's video
  // (its og:url), and it never picks a host.
  if (first && second === "videos" && PATH_NAME.test(first)) {
    const id = [...segments.slice(2)].reverse().find((segment) => NUMERIC_ID.test(segment));
    if (!id) return notVideo();
    return ref("facebook", id, "video", `https://www.facebook.com/${first}/videos/${id}/`);
  }
  return notVideo();
}

function x(segments: string[]): Recognition {
  // /<handle>/status/<id>, /i/status/<id>, /i/web/status/<id>, /<handle>/statuses/<id>, with
  // anything after the id (/video/1, /photo/2) ignored. The handle is not part of the id: any
  // handle shows the same post, so the canonical URL leaves it out.
  const at = segments.findIndex((segment) => segment === "status" || segment === "statuses");
  const id = at >= 1 && at <= 2 ? segments[at + 1] : undefined;
  const owner = segments[0];
  if (!id || !owner || !PATH_NAME.test(owner)) {
    return refuse("That X link is not a post: give a link such as https://x.com/NASA/status/1850214830462251210.");
  }
  if (!NUMERIC_ID.test(id)) return refuse("An X post's id is a number.");
  return ref("x", id, "post", `https://x.com/i/status/${id}`);
}

function linkedin(segments: string[]): Recognition {
  const [first, second, third] = segments;
  let match: RegExpExecArray | null = null;
  if (first === "posts" && second) match = LINKEDIN_POST_SLUG.exec(second);
  else if (first === "feed" && second === "update" && third) match = LINKEDIN_URN.exec(decodeSegment(third));
  else if (first === "embed" && second === "feed" && third === "update" && segments[3]) {
    match = LINKEDIN_URN.exec(decodeSegment(segments[3]));
  }
  const type = match?.[1];
  const id = match?.[2];
  if (!type || !id) {
    return refuse(
      "That LinkedIn link is not a post: give a link such as https://www.linkedin.com/posts/nasa_artemis-activity-7262145368218238976-AbCd.",
    );
  }
  return ref("linkedin", id, type, `https://www.linkedin.com/feed/update/urn:li:${type}:${id}/`);
}

function isPinterestHost(host: string): boolean {
  const at = host.indexOf("pinterest.");
  if (at < 0) return false;
  const prefix = host.slice(0, at);
  // "", "www.", or a country's two letters ("in.", "br.", "uk.").
  if (prefix !== "" && prefix !== "www." && !/^[a-z]{2}\.$/.test(prefix)) return false;
  return PINTEREST_SUFFIXES.has(host.slice(at + "pinterest.".length));
}

function pinterest(segments: string[], pinIt: boolean): Recognition {
  const [first, second] = segments;
  if (pinIt) {
    if (!first || !SHARE_TOKEN.test(first)) return refuse("That pin.it link has no pin code in it.");
    return ref("pinterest", first, "share", `https://pin.it/${first}`);
  }
  const id =
    first === "pin" && second ? (NUMERIC_ID.test(second) ? second : PIN_WITH_SLUG.exec(second)?.[1]) : undefined;
  if (!id) {
    return refuse(
      "That Pinterest link is not a pin: give a link such as https://www.pinterest.com/pin/1055599907085543/.",
    );
  }
  return ref("pinterest", id, "pin", `https://www.pinterest.com/pin/${id}/`);
}

/** A path segment as written or percent-decoded (`urn%3Ali%3Aactivity%3A…`); undecodable text stays as it is. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
