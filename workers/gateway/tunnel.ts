/**
 * The media tunnel (decision 052). Some platforms bind a media URL to the address that asked
 * for it (YouTube's googlevideo URLs carry the requester's `ip=`), so a caller cannot download
 * what we extracted. For those the API answers a URL on our host instead,
 *
 *   GET|HEAD /api/v1/youtube-instagram-video-downloader/tunnel/<token>
 *
 * and the Worker streams the upstream's bytes through itself, Range requests included, never
 * holding the whole file. Where the platform throttles one long request (YouTube), the bytes are
 * fetched upstream in consecutive ranges of at most 10 MB and streamed in order (see "Chunked
 * fetches" below).
 *
 * The token is the credential: no API key is asked for (an `<a download>`, a video player or a
 * bot's file fetcher sends none), and fetching it is not a counted call; the extraction that
 * minted it was. It is
 *
 *   <payload>.<mac>   payload  base64url of JSON {u: upstream URL, m: MIME type, f: file name, e: expiry (epoch s),
 *                              k: the id of the API key whose call minted it,
 *                              r?: {p, i, c, l: the post's PostRef (platform, id, kind, canonical URL),
 *                                   t: the rendition's formatId (YouTube's itag)}}
 *                     mac      base64url of HMAC-SHA256(payload), under a key HKDF derives from
 *                              SESSION_SECRET with its own label ("portico media-tunnel v1")
 *
 * so it names its one upstream URL and nothing else: the tunnel fetches only the URL inside a
 * token whose MAC is ours (never one the request names), and any other URL needs another MAC.
 * The label keeps a tunnel token from standing for a signed URL or a session, or the other way
 * round. The payload is readable, not secret: it holds a media URL that works only from our
 * address and the name the API already answered. A token is accepted in the one spelling we
 * write (both parts canonical base64url, compared as text), with no query string added.
 *
 * Lifetime: TUNNEL_LIFETIME_SECONDS, fifteen minutes, judged when a request starts. Long enough
 * for a program to hand the URL on (a bot passing it to Telegram's servers, a page a person
 * clicks) and to start even a very large download, which then runs to its end however long it
 * takes. A request that starts after expiry is refused with 410, a Range request included: a
 * resumed download or a player seeking past that point asks the API again. The token spends our
 * bandwidth without counting a call, so a leaked one must die soon; the upstream's own URL
 * (YouTube's lives about six hours) would allow far longer.
 *
 * Asking again (`r`, only for media whose extractor names the rendition, YouTube's): a
 * googlevideo URL is bound to the address that asked (`ip=`), and the tunnel request may leave
 * Cloudflare from another one. When the upstream refuses the token's URL (403, or 410), the
 * tunnel extracts the post again from its own invocation (not from the cache), takes the same
 * rendition's URL, and tries once more; only then is it 502. `r` is under the MAC like the rest,
 * so a token cannot be pointed at another post or rendition.
 *
 * The minting key: a token stops opening once the key whose call minted it is revoked or
 * deleted (within the KeyStore's few seconds of isolate memory), so an owner who finds their
 * links relayed can end them. It is looked up only for a genuine, unexpired token, so junk
 * tokens cost no read.
 *
 * The bytes are a third party's, served from our origin: the answer is always an attachment,
 * its type only a video/audio/image type fixed when the token was minted (SVG excepted, which
 * can hold script), with nosniff, so nothing the platform sends can run as our page.
 */
import { z } from "zod";
import { PLATFORMS, type PostRef, type SocialMedia } from "~workers/hosted/capabilities";
import type { KeyStore } from "./api-key-auth";
import { derivedHmacKey, timingSafeEqualBytes } from "./signed-url";
import { problemBody, type ProblemType } from "~workers/http/problem";
import { fromBase64Url, toBase64Url } from "~workers/platform/signing";

export const TUNNEL_PATH = "/api/v1/youtube-instagram-video-downloader/tunnel";
export const TUNNEL_LIFETIME_SECONDS = 15 * 60;
/** Clock difference between the location that minted a token and the one that serves it. */
const CLOCK_SKEW_SECONDS = 60;
const HKDF_INFO = "portico media-tunnel v1";
const FILENAME_MAX = 150;

/** What a token names. */
export interface TunnelTicket {
  url: string;
  mimeType: string;
  filename: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** The API key whose call minted the token (api_keys.id). */
  keyId: string;
  /**
   * What the tunnel needs to ask the platform again when the URL is refused: the post and the
   * rendition's `formatId`. Only for media whose extractor names its rendition.
   */
  source?: TunnelSource;
}

export interface TunnelSource {
  ref: PostRef;
  formatId: string;
}

export type TunnelVerdict =
  { ok: true; ticket: TunnelTicket } | { ok: false; reason: "invalid" | "expired"; detail: string };

export interface TunnelTokens {
  /** The token for `ticket` (its type and name made safe first: see safeMediaType, safeFilename). */
  seal(ticket: TunnelTicket): Promise<string>;
  /** The ticket when `token` is one of ours, in the one spelling we write, and not expired at `now` (ms). */
  open(token: string, now: number): Promise<TunnelVerdict>;
}

// Read only once the MAC has shown we wrote it: the URL unbounded (a platform's may be long),
// the type and name within what `seal` writes.
const PayloadSchema = z.strictObject({
  u: z.string(),
  m: z.string().max(100),
  f: z.string().max(FILENAME_MAX * 4),
  e: z.number().int().nonnegative(),
  k: z.string().min(1).max(100),
  r: z
    .strictObject({
      p: z.enum(PLATFORMS),
      i: z.string().min(1).max(200),
      c: z.string().min(1).max(40),
      l: z.string().min(1).max(2000),
      t: z.string().min(1).max(40),
    })
    .optional(),
});

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** base64url of 32 bytes, as toBase64Url writes it. */
const MAC_SEGMENT = /^[A-Za-z0-9_-]{43}$/;

/** A type the answer may carry: video, audio or an image other than SVG, without parameters; else octet-stream. */
export function safeMediaType(mimeType: string): string {
  const type = (mimeType.split(";")[0] ?? "").trim().toLowerCase();
  if (!/^(video|audio|image)\/[a-z0-9][a-z0-9.+-]{0,60}$/.test(type) || type.startsWith("image/svg")) {
    return "application/octet-stream";
  }
  return type;
}

/** A file name without path separators, quotes or control characters, at most FILENAME_MAX characters. */
export function safeFilename(filename: string): string {
  const clean = [...filename.replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, "_").trim()]
    .slice(0, FILENAME_MAX)
    .join("")
    .replace(/^\.+/, "");
  return clean || "download";
}

/** RFC 6266: an ASCII fallback and the UTF-8 name (RFC 8187), for every browser and download tool. */
export function contentDisposition(filename: string): string {
  const name = safeFilename(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_");
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const invalid = (detail: string): TunnelVerdict => ({ ok: false, reason: "invalid", detail });
const NOT_OURS =
  "This tunnel URL is not one the Social Media Videos Downloader issued, or it was changed: use the media URL exactly as the API answered it, or call the API again.";

export function hmacTunnelTokens(secret: string): TunnelTokens {
  const mac = async (payload: string) =>
    toBase64Url(
      new Uint8Array(
        await crypto.subtle.sign("HMAC", await derivedHmacKey(secret, HKDF_INFO), new TextEncoder().encode(payload)),
      ),
    );
  return {
    async seal(ticket) {
      const payload = toBase64Url(
        new TextEncoder().encode(
          JSON.stringify({
            u: ticket.url,
            m: safeMediaType(ticket.mimeType),
            f: safeFilename(ticket.filename),
            e: ticket.expiresAt,
            k: ticket.keyId,
            // Written only when there is a source: a token without one keeps its old spelling.
            ...(ticket.source && {
              r: {
                p: ticket.source.ref.platform,
                i: ticket.source.ref.id,
                c: ticket.source.ref.kind,
                l: ticket.source.ref.url,
                t: ticket.source.formatId,
              },
            }),
          }),
        ),
      );
      return `${payload}.${await mac(payload)}`;
    },

    async open(token, now) {
      const [payload = "", signature = "", ...rest] = token.split(".");
      if (rest.length > 0 || !SEGMENT.test(payload) || !MAC_SEGMENT.test(signature)) return invalid(NOT_OURS);
      // The MAC is checked before anything the payload says is believed, its expiry included, and
      // compared as the text we write (see signed-url.ts: decoding would take four spellings).
      const encoder = new TextEncoder();
      if (!timingSafeEqualBytes(encoder.encode(signature), encoder.encode(await mac(payload))))
        return invalid(NOT_OURS);
      // Ours, so well formed; read defensively all the same.
      const bytes = fromBase64Url(payload);
      let parsed: z.infer<typeof PayloadSchema>;
      try {
        parsed = PayloadSchema.parse(JSON.parse(new TextDecoder().decode(bytes ?? new Uint8Array())));
      } catch {
        return invalid(NOT_OURS);
      }
      const nowSeconds = Math.floor(now / 1000);
      if (nowSeconds > parsed.e) {
        return {
          ok: false,
          reason: "expired",
          detail: `This tunnel URL expired at ${new Date(parsed.e * 1000).toISOString()}: a download must start within ${TUNNEL_LIFETIME_SECONDS / 60} minutes of the call that answered it. Call the API again for a fresh one.`,
        };
      }
      // Only a signer with another lifetime (or a clock far off) makes these; ours does not.
      if (parsed.e - nowSeconds > TUNNEL_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) return invalid(NOT_OURS);
      return {
        ok: true,
        ticket: {
          url: parsed.u,
          mimeType: parsed.m,
          filename: parsed.f,
          expiresAt: parsed.e,
          keyId: parsed.k,
          ...(parsed.r && {
            source: {
              ref: { platform: parsed.r.p, id: parsed.r.i, kind: parsed.r.c, url: parsed.r.l },
              formatId: parsed.r.t,
            },
          }),
        },
      };
    },
  };
}

/** The tunnel URL for a ticket, on `origin`. */
export async function tunnelUrlFor(
  tokens: TunnelTokens,
  origin: string,
  upstreamUrl: string,
  media: { mimeType: string; filename: string; source?: TunnelSource },
  now: number,
  keyId: string,
): Promise<string> {
  const token = await tokens.seal({
    url: upstreamUrl,
    mimeType: media.mimeType,
    filename: media.filename,
    expiresAt: Math.floor(now / 1000) + TUNNEL_LIFETIME_SECONDS,
    keyId,
    ...(media.source && { source: media.source }),
  });
  return `${origin}${TUNNEL_PATH}/${token}`;
}

/**
 * One range, as the upstream is asked for it: `bytes=a-b`, `bytes=a-` or `bytes=-n`. Anything
 * else (several ranges, other units, a last byte before the first) is ignored and the whole file
 * answered, as RFC 9110 §14.2 lets a server do; the upstream never sees the caller's text.
 */
export function forwardedRange(header: string | null): string | null {
  if (!header) return null;
  const match = /^bytes=(?:(\d{1,15})-(\d{0,15})|-(\d{1,15}))$/.exec(header.trim());
  if (!match) return null;
  const [, first, last, suffix] = match;
  if (suffix !== undefined) return Number(suffix) > 0 ? `bytes=-${Number(suffix)}` : null;
  if (last && Number(last) < Number(first)) return null;
  return `bytes=${Number(first)}-${last ? Number(last) : ""}`;
}

export interface TunnelDeps {
  tokens: TunnelTokens;
  /**
   * The platforms' media fetcher (SocialMedia.openMedia: only their media CDNs, the body unread),
   * their extraction, to ask again for a refused URL (this invocation's own, not the cache), and
   * the chunk size a platform's media are fetched in (null: one pass-through fetch).
   */
  media: Pick<SocialMedia, "openMedia" | "extract" | "mediaChunkBytes">;
  /** The minting key's record: a revoked or deleted key's tokens no longer open. */
  keys: Pick<KeyStore, "resolveId">;
  requestId: string;
  /** Epoch milliseconds. */
  now: number;
  /** The fresh URLs asked again for refused ones (default: this isolate's); tests pass their own. */
  freshUrls?: FreshUrlMemory;
}

/** How long a fresh URL (or the finding that none works) is remembered. */
const FRESH_URL_MEMORY_MS = 5 * 60_000;
const FRESH_URL_MEMORY_ENTRIES = 1_000;

/**
 * The fresh URL of a rendition asked again for a refused one, kept in isolate memory for a few
 * minutes (decision 052). Without it every request on a refused token (each seek, each of a
 * downloader's connections, each HEAD) would be one more uncounted player call, which could get
 * our egress addresses flagged for every customer. Isolate memory rather than `caches.default`:
 * the single flight needs isolate memory anyway, an address binding is no wider than the
 * location an isolate runs in, and it needs no serialising or waitUntil.
 * An entry is a settled answer (`url` null: asking again did not give a URL that works, so do
 * not ask again until it expires) or an extraction in flight, which concurrent requests share.
 */
export class FreshUrlMemory {
  readonly #entries = new Map<
    string,
    { url: string | null; until: number } | { pending: Promise<string | null> }
  >();

  /** The remembered URL, null when asking again is known not to help, undefined when nothing is known. */
  remembered(key: string, now: number): string | null | undefined {
    const entry = this.#entries.get(key);
    if (!entry || "pending" in entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.url;
  }

  /**
   * A URL to try instead of `refused`: the one in flight or remembered, else from one new
   * `extract` (shared by every request asking meanwhile). Null: none to try.
   */
  ask(key: string, refused: string, now: number, extract: () => Promise<string | null>): Promise<string | null> {
    const entry = this.#entries.get(key);
    if (entry && "pending" in entry) return entry.pending;
    const known = this.remembered(key, now);
    if (known === null || (known !== undefined && known !== refused)) return Promise.resolve(known);
    const pending = extract().then(
      (url) => {
        this.#settle(key, url, now);
        return url;
      },
      (error: unknown) => {
        this.#entries.delete(key);
        throw error;
      },
    );
    this.#entries.set(key, { pending });
    return pending;
  }

  /** The URL just had from asking again was refused too (an address-wide block): stop asking for a while. */
  refusedToo(key: string, url: string, now: number): void {
    if (this.remembered(key, now) === url) this.#settle(key, null, now);
  }

  #settle(key: string, url: string | null, now: number): void {
    this.#entries.delete(key);
    // The oldest entry goes first: a Map iterates in insertion order.
    if (this.#entries.size >= FRESH_URL_MEMORY_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { url, until: now + FRESH_URL_MEMORY_MS });
  }
}

const isolateFreshUrls = new FreshUrlMemory();

function problemResponse(type: ProblemType, detail: string, requestId: string, headers: Record<string, string> = {}) {
  const body = problemBody(type, detail, requestId);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...headers },
  });
}

/**
 * Serves `GET`/`HEAD` of `<TUNNEL_PATH>/<token>`: the upstream's bytes, streamed, or a problem.
 * The token is read from the path as it came, not as a router decodes it, so `%41` is not `A`.
 */
export async function serveTunnel(request: Request, deps: TunnelDeps): Promise<Response> {
  const { requestId } = deps;
  const url = new URL(request.url);
  const prefix = `${TUNNEL_PATH}/`;
  if (url.search !== "" || !url.pathname.startsWith(prefix))
    return problemResponse("invalid-tunnel-url", NOT_OURS, requestId);
  const token = url.pathname.slice(prefix.length);
  const verdict = await deps.tokens.open(token, deps.now);
  if (!verdict.ok) {
    return problemResponse(
      verdict.reason === "expired" ? "expired-tunnel-url" : "invalid-tunnel-url",
      verdict.detail,
      requestId,
    );
  }
  const { ticket } = verdict;
  const minter = await deps.keys.resolveId(ticket.keyId, deps.now);
  if (!minter || minter.revoked) {
    return problemResponse(
      "revoked-api-key",
      "The API key whose call made this tunnel URL was revoked, so its links no longer open. Call the API again with a current key.",
      requestId,
    );
  }
  const range = forwardedRange(request.headers.get("range"));
  // A HEAD is asked as a HEAD: a GET cancelled after its headers would still start the transfer.
  const method = request.method === "HEAD" ? "HEAD" : "GET";
  const open = upstreamOpener(ticket, deps, request.signal);
  const chunkBytes = deps.media.mediaChunkBytes(ticket.url);
  let upstream: Response | null;
  let chunked: ChunkPlan | null = null;
  try {
    if (chunkBytes) {
      chunked = firstChunk(range, chunkBytes);
      upstream = await open(chunked.ask, method);
    } else {
      upstream = await open(range, method);
    }
  } catch (error) {
    console.error(`[${requestId}] tunnel: fetching the media from ${hostOf(ticket.url)} failed:`, error);
    return problemResponse(
      "upstream-failed",
      "The platform's media server could not be reached. Retry in a moment, or call the API again for a fresh link.",
      requestId,
    );
  }
  if (!upstream) {
    // Only our handlers mint tokens, so this is a handler naming a host the tunnel never fetches.
    console.error(`[${requestId}] tunnel: refused a token naming ${hostOf(ticket.url)}, not a platform's media host`);
    return problemResponse(
      "invalid-tunnel-url",
      "This tunnel URL names a host that is not one of the platforms' media servers, which the tunnel never fetches.",
      requestId,
    );
  }
  const refused = await refusal(upstream, ticket, range, requestId);
  if (refused) return refused;

  const headers = new Headers({
    "content-type": safeMediaType(ticket.mimeType),
    "content-disposition": contentDisposition(ticket.filename),
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  });
  // A platform that answered the whole file to a ranged ask (200) is passed through as it came.
  if (chunked && chunkBytes && upstream.status === 206) {
    return serveChunks(upstream, { request, deps, ticket, open, headers, range, chunkBytes, plan: chunked });
  }
  const length = upstream.headers.get("content-length");
  if (length && /^\d{1,15}$/.test(length)) headers.set("content-length", length);
  if (upstream.status === 206) {
    // A part that does not say where it sits in the file cannot be answered as one: the caller
    // would write its bytes at the wrong place.
    const contentRange = validContentRange(upstream.headers.get("content-range"));
    if (!contentRange) return unplaceable(upstream, ticket, requestId);
    headers.set("content-range", contentRange);
  }
  if (upstream.headers.get("accept-ranges")?.toLowerCase() === "bytes") headers.set("accept-ranges", "bytes");
  if (request.method === "HEAD") {
    // A HEAD's answer has no body; one a server sent all the same is not read.
    await upstream.body?.cancel().catch(() => undefined);
    return new Response(null, { status: upstream.status, headers });
  }
  // The upstream's body itself: the runtime pipes it to the caller as it comes, a chunk at a time.
  return new Response(upstream.body, { status: upstream.status, headers });
}

/**
 * Opens the token's URL for a range (or the rendition's fresh URL this isolate remembers); on a
 * 403 or 410, once per tunnel request, the same rendition's fresh URL.
 */
type Opener = (range: string | null, method: "GET" | "HEAD") => Promise<Response | null>;

function upstreamOpener(ticket: TunnelTicket, deps: TunnelDeps, signal: AbortSignal): Opener {
  const { source } = ticket;
  const memory = deps.freshUrls ?? isolateFreshUrls;
  const key = source ? JSON.stringify([source.ref.platform, source.ref.id, source.formatId]) : null;
  let url = (key && memory.remembered(key, deps.now)) || ticket.url;
  let askedAgain = false;
  const refusedStatus = (upstream: Response | null) => upstream?.status === 403 || upstream?.status === 410;
  return async (range, method) => {
    const init = { range, signal, method };
    let upstream = await deps.media.openMedia(url, init);
    if (upstream && refusedStatus(upstream) && source && key && !askedAgain) {
      // Bound to another address (or expired upstream): ask the platform again from here, once.
      askedAgain = true;
      const fresh = await memory.ask(key, url, deps.now, () => freshUrl(source, deps, signal));
      if (fresh && fresh !== url) {
        await upstream.body?.cancel().catch(() => undefined);
        console.warn(
          `[${deps.requestId}] tunnel: ${hostOf(url)} refused (HTTP ${upstream.status}); asking again with a fresh ${source.ref.platform} URL`,
        );
        url = fresh;
        upstream = await deps.media.openMedia(url, init);
        if (refusedStatus(upstream)) memory.refusedToo(key, url, deps.now);
      }
    }
    return upstream;
  };
}

/** The problem for an upstream answer that is not bytes to serve (416, another status), or null. */
async function refusal(
  upstream: Response,
  ticket: TunnelTicket,
  range: string | null,
  requestId: string,
): Promise<Response | null> {
  if (upstream.status === 416) {
    await upstream.body?.cancel().catch(() => undefined);
    const contentRange = upstream.headers.get("content-range");
    return problemResponse(
      "range-not-satisfiable",
      `The range asked for (${range}) starts beyond the end of the file.`,
      requestId,
      contentRange && /^bytes \*\/\d+$/.test(contentRange) ? { "content-range": contentRange } : {},
    );
  }
  if (upstream.status !== 200 && upstream.status !== 206) {
    await upstream.body?.cancel().catch(() => undefined);
    console.error(`[${requestId}] tunnel: ${hostOf(ticket.url)} answered HTTP ${upstream.status}`);
    const gone = [403, 404, 410].includes(upstream.status);
    return problemResponse(
      "upstream-failed",
      gone
        ? `The platform no longer serves this media at that link (HTTP ${upstream.status}). Call the API again for a fresh one.`
        : `The platform's media server failed (HTTP ${upstream.status}). Retry in a moment.`,
      requestId,
    );
  }
  return null;
}

async function unplaceable(upstream: Response, ticket: TunnelTicket, requestId: string): Promise<Response> {
  await upstream.body?.cancel().catch(() => undefined);
  console.error(`[${requestId}] tunnel: ${hostOf(ticket.url)} answered 206 without a valid Content-Range`);
  return problemResponse(
    "upstream-failed",
    "The platform's media server answered part of the file without saying which part. Retry in a moment.",
    requestId,
  );
}

// ---- Chunked fetches (decision 052) ----
//
// googlevideo throttles one long request to about the video's playback speed; a run of ranged
// requests of at most ~10 MB each is served at full speed (yt-dlp's `http_chunk_size`, cobalt's
// chunked YouTube tunnel). For media whose platform asks for it (`mediaChunkBytes`), the tunnel
// answers the caller's request (the whole file or one range) by fetching it upstream in
// consecutive ranges and streaming each in turn: the next range is asked only once the previous
// one has been read to its end, so no more than the chunk being read is in flight, and nothing
// is buffered. The file's size comes from the first chunk's Content-Range, so the caller gets a
// true Content-Length (and Content-Range) before any byte. An upstream that fails or answers
// short part-way errors the caller's stream: a download that stops with an error can be resumed,
// a silently short file cannot be told from a whole one.

/** The caller's range as the chunks are planned from it. */
type Wanted = { first: number; last: number | null } | { suffix: number } | null;

interface ChunkPlan {
  wanted: Wanted;
  /** The first upstream ask: the first chunk of what is wanted, or one byte to learn the size. */
  ask: string;
  /** The first ask only learns the file's size (a suffix longer than a chunk): its byte is not served. */
  probe: boolean;
}

function wantedOf(range: string | null): Wanted {
  const match = range ? /^bytes=(?:(\d+)-(\d*)|-(\d+))$/.exec(range) : null;
  if (!match) return null;
  const [, first, last, suffix] = match;
  if (suffix !== undefined) return { suffix: Number(suffix) };
  return { first: Number(first), last: last ? Number(last) : null };
}

function firstChunk(range: string | null, chunkBytes: number): ChunkPlan {
  const wanted = wantedOf(range);
  if (wanted === null) return { wanted, ask: `bytes=0-${chunkBytes - 1}`, probe: false };
  if ("suffix" in wanted) {
    return wanted.suffix <= chunkBytes
      ? { wanted, ask: `bytes=-${wanted.suffix}`, probe: false }
      : { wanted, ask: "bytes=0-0", probe: true };
  }
  const last = Math.min(wanted.last ?? Number.MAX_SAFE_INTEGER, wanted.first + chunkBytes - 1);
  return { wanted, ask: `bytes=${wanted.first}-${last}`, probe: false };
}

/** `bytes first-last/size` with a known size, as numbers, or null. */
function placedRange(header: string | null): { first: number; last: number; size: number } | null {
  const valid = validContentRange(header);
  const match = valid ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(valid) : null;
  if (!match) return null;
  return { first: Number(match[1]), last: Number(match[2]), size: Number(match[3]) };
}

class ChunkError extends Error {}

function serveChunks(
  upstream: Response,
  context: {
    request: Request;
    deps: TunnelDeps;
    ticket: TunnelTicket;
    open: Opener;
    headers: Headers;
    range: string | null;
    chunkBytes: number;
    plan: ChunkPlan;
  },
): Promise<Response> | Response {
  const { request, deps, ticket, open, headers, chunkBytes, plan } = context;
  const { requestId } = deps;
  const placed = placedRange(upstream.headers.get("content-range"));
  // Without the file's size the caller's length cannot be told, nor the chunks planned.
  if (!placed) return unplaceable(upstream, ticket, requestId);
  const { size } = placed;
  const wanted = plan.wanted;
  const start = wanted === null ? 0 : "suffix" in wanted ? Math.max(0, size - wanted.suffix) : wanted.first;
  const end = wanted !== null && "first" in wanted && wanted.last !== null ? Math.min(wanted.last, size - 1) : size - 1;
  // The first chunk must begin where the answer does and stay within it.
  if (!plan.probe && (placed.first !== start || placed.last > end)) return unplaceable(upstream, ticket, requestId);

  headers.set("content-length", String(end - start + 1));
  headers.set("accept-ranges", "bytes");
  const status = wanted === null ? 200 : 206;
  if (status === 206) headers.set("content-range", `bytes ${start}-${end}/${size}`);
  if (request.method === "HEAD" || plan.probe) void upstream.body?.cancel().catch(() => undefined);
  if (request.method === "HEAD") return new Response(null, { status, headers });

  /** The chunk being read: its body and the bytes it still owes. */
  let current: { reader: ReadableStreamDefaultReader<Uint8Array>; owed: number } | null =
    plan.probe || !upstream.body ? null : { reader: upstream.body.getReader(), owed: placed.last - placed.first + 1 };
  /** The next byte of the file to hand on. */
  let next = start;

  async function openChunk(): Promise<{ reader: ReadableStreamDefaultReader<Uint8Array>; owed: number }> {
    const last = Math.min(next + chunkBytes - 1, end);
    const answer = await open(`bytes=${next}-${last}`, "GET");
    const part = answer?.status === 206 ? placedRange(answer.headers.get("content-range")) : null;
    if (!answer || !answer.body || !part || part.first !== next || part.last > last || part.size !== size) {
      await answer?.body?.cancel().catch(() => undefined);
      throw new ChunkError(
        `bytes ${next}-${last}: HTTP ${answer?.status ?? "none"}, Content-Range ${answer?.headers.get("content-range") ?? "none"}`,
      );
    }
    return { reader: answer.body.getReader(), owed: part.last - part.first + 1 };
  }

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            if (!current) {
              if (next > end) return controller.close();
              current = await openChunk();
            }
            const { done, value } = await current.reader.read();
            if (done) {
              if (current.owed !== 0) throw new ChunkError(`a chunk ended ${current.owed} bytes short`);
              current = null;
              continue;
            }
            if (value.byteLength > current.owed) throw new ChunkError("a chunk ran past its range");
            current.owed -= value.byteLength;
            next += value.byteLength;
            controller.enqueue(value);
            return;
          }
        } catch (error) {
          await current?.reader.cancel().catch(() => undefined);
          current = null;
          if (!request.signal.aborted) {
            console.error(`[${requestId}] tunnel: ${hostOf(ticket.url)} failed mid-stream at byte ${next}:`, error);
          }
          // The caller's download ends in an error, never in a silently short file.
          throw error instanceof ChunkError ? error : new ChunkError(String(error));
        }
      },
      async cancel(reason) {
        await current?.reader.cancel(reason).catch(() => undefined);
        current = null;
      },
    },
    { highWaterMark: 0 },
  );
  // workerd sends a JS stream of unknown length with chunked transfer encoding and drops the
  // Content-Length set above (review 14b), so a download manager would see no size. A
  // FixedLengthStream makes the runtime send the length, and errors the answer if the chunks come
  // to fewer bytes. Errors reach the caller through the readable; the pipe's own are not news.
  const { readable, writable } = new FixedLengthStream(end - start + 1);
  body.pipeTo(writable).catch(() => undefined);
  return new Response(readable, { status, headers });
}

/**
 * The same rendition's URL from a fresh extraction of the post (no cache: a cached answer holds
 * the URL just refused), or null when the post or the rendition can no longer be read.
 */
async function freshUrl(source: TunnelSource, deps: TunnelDeps, signal: AbortSignal): Promise<string | null> {
  const extraction = await deps.media.extract(source.ref, signal, { fresh: true });
  if (!extraction.ok) {
    console.warn(`[${deps.requestId}] tunnel: asking ${source.ref.platform} again failed: ${extraction.kind}`);
    return null;
  }
  const same = extraction.post.media.find((item) => item.formatId === source.formatId);
  if (!same)
    console.warn(
      `[${deps.requestId}] tunnel: the fresh ${source.ref.platform} answer has no rendition ${source.formatId}`,
    );
  return same?.url ?? null;
}

/** `bytes first-last/size` (size `*` when unknown) with first ≤ last < size, else null. */
function validContentRange(header: string | null): string | null {
  const match = /^bytes (\d{1,15})-(\d{1,15})\/(\d{1,15}|\*)$/.exec(header?.trim() ?? "");
  if (!match) return null;
  const [, first, last, size] = match;
  if (Number(first) > Number(last) || (size !== "*" && Number(last) >= Number(size))) return null;
  return `bytes ${Number(first)}-${Number(last)}/${size === "*" ? "*" : Number(size)}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "(not a URL)";
  }
}
