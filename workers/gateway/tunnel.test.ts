import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "~workers/config";
import type { PostRef, SocialMedia } from "~workers/hosted/capabilities";
import { createSocialMedia, socialMediaFor } from "~workers/providers/social";
import { YOUTUBE_MEDIA_CHUNK_BYTES, youtubeExtractor } from "~workers/providers/social/youtube";
import { hostGuardedFetch, hostMatches } from "~workers/providers/social/extractor";
import { createFakeSocialFetch, type FakePlatform } from "~workers/providers/social/fake";
import { fakeMediaBytes, fakeMediaResponse } from "~workers/providers/social/fake-media";
import { meterStanding } from "~workers/gateway/meter-policy";
import type { KeyRecord, KeyStore } from "./api-key-auth";
import { fakeYoutube, fakeYoutubeMediaFile } from "~workers/providers/social/youtube/fake";
import { callHosted, createAccountWithKey, eventually } from "../../tests/factories";
import { createTestContext } from "../../tests/hosted-context";
import {
  contentDisposition,
  forwardedRange,
  FreshUrlMemory,
  hmacTunnelTokens,
  safeMediaType,
  serveTunnel,
  TUNNEL_LIFETIME_SECONDS,
  TUNNEL_PATH,
  type TunnelTicket,
} from "./tunnel";

const SECRET = "a-test-session-secret-of-at-least-32-characters";
const NOW = Date.UTC(2026, 10, 24, 12);
const NOW_S = NOW / 1000;
const ORIGIN = "https://portico.test";
const MEDIA_HOSTS = [".googlevideo.com"];
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The fake CDN's files, by path: deterministic bytes (fake-media.ts) that a test can check one by one. */
const FILES: Record<string, { seed: string; size: number; mimeType: string }> = {
  "/videoplayback/small": { seed: "small", size: 1_000_003, mimeType: "video/mp4" },
  "/videoplayback/small-fresh": { seed: "small", size: 1_000_003, mimeType: "video/mp4" },
  "/videoplayback/small-fresher": { seed: "small", size: 1_000_003, mimeType: "video/mp4" },
  "/videoplayback/large": { seed: "large", size: 50 * 1024 * 1024, mimeType: "video/mp4" },
  "/videoplayback/gone": { seed: "gone", size: 10, mimeType: "video/mp4" },
  "/videoplayback/chunked": { seed: "chunked", size: 25 * 1024 * 1024, mimeType: "video/mp4" },
  "/videoplayback/chunked-fresh": { seed: "chunked", size: 25 * 1024 * 1024, mimeType: "video/mp4" },
};
const SMALL = "https://rr3---sn-q4fl6nsr.googlevideo.com/videoplayback/small";
const SMALL_FILE = FILES["/videoplayback/small"]!;

/**
 * A SocialMedia's openMedia as the providers make one: only the platforms' media hosts, over the
 * fakes' fetch, Range passed on and the body unread. It records every URL it was asked to open
 * and what the upstream produced, so a test sees what reached the platform.
 */
function fakeMedia(
  options: {
    failWith?: number;
    unreachable?: boolean;
    contentRange?: string | null;
    /** Fetch in ranges of this size, as YouTube's media are (mediaChunkBytes). */
    chunkBytes?: number;
    /** The CDN answers this instead of a range request starting at or past `at` (a failure part-way). */
    failFrom?: { at: number; status?: number; short?: boolean };
    /** A fresh extraction answers rendition "18" at this URL (else the post is unavailable). */
    freshUrl?: string | (() => string);
    /** URLs the CDN refuses (403) as it refuses one bound to another address; changeable mid-test. */
    refused?: Set<string>;
    /** Extractions wait for this before answering (to hold one in flight). */
    extractGate?: Promise<void>;
  } = {},
) {
  const opened: string[] = [];
  /** The Range of each request that reached the CDN (null: none). */
  const ranges: (string | null)[] = [];
  /** The method of each request that reached the CDN. */
  const methods: string[] = [];
  const produced = { bytes: 0 };
  const cdn: FakePlatform = {
    hosts: MEDIA_HOSTS,
    handle(request) {
      methods.push(request.method);
      ranges.push(request.headers.get("range"));
      const file = FILES[new URL(request.url).pathname];
      if (options.refused?.has(request.url)) return new Response(null, { status: 403 });
      if (options.failWith) return new Response("no", { status: options.failWith });
      const from = Number(/^bytes=(\d+)-/.exec(request.headers.get("range") ?? "")?.[1] ?? -1);
      // The fresh URL of the same file is never refused.
      const refusable = !new URL(request.url).pathname.endsWith("-fresh");
      if (options.failFrom && file && refusable && from >= options.failFrom.at) {
        if (!options.failFrom.short) return new Response("no", { status: options.failFrom.status ?? 503 });
        // A 206 that promises the range but whose body stops half-way (a connection cut).
        const whole = fakeMediaResponse(request, file);
        const half = Number(whole.headers.get("content-length")) / 2;
        const reader = whole.body!.getReader();
        let sent = 0;
        const cut = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done || sent >= half) {
              await reader.cancel();
              return controller.close();
            }
            sent += value.byteLength;
            controller.enqueue(value);
          },
        });
        return new Response(cut, whole);
      }
      if (options.contentRange !== undefined) {
        // A 206 whose Content-Range is not what the range was: the bytes cannot be placed.
        const headers = new Headers({ "content-type": "video/mp4", "content-length": "10" });
        if (options.contentRange !== null) headers.set("content-range", options.contentRange);
        return new Response("0123456789", { status: 206, headers });
      }
      if (!file) return new Response("not found", { status: 404 });
      const response = fakeMediaResponse(request, file);
      if (!response.body) return response;
      // Counts what the upstream has handed on, so a test can see nothing ran ahead of the reader.
      const reader = response.body.getReader();
      const counted = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) return controller.close();
            produced.bytes += value.byteLength;
            controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        },
        { highWaterMark: 0 },
      );
      return new Response(counted, response);
    },
  };
  const fetcher = hostGuardedFetch(createFakeSocialFetch([cdn]), MEDIA_HOSTS);
  /** The posts the tunnel asked to extract again. */
  const extracted: PostRef[] = [];
  const media: Pick<SocialMedia, "openMedia" | "extract" | "mediaChunkBytes"> = {
    mediaChunkBytes: () => options.chunkBytes ?? null,
    async extract(ref) {
      extracted.push(ref);
      await options.extractGate;
      if (!options.freshUrl) return { ok: false, kind: "content-unavailable", detail: "not recorded here" };
      const medium = {
        url: typeof options.freshUrl === "string" ? options.freshUrl : options.freshUrl(),
        type: "video",
        quality: "360p",
        width: 640,
        height: 360,
        mimeType: "video/mp4",
        hasAudio: true,
        boundToRequester: true,
        formatId: "18",
      } as const;
      const post = { platform: ref.platform, id: ref.id, title: null, thumbnail: null, durationSec: null };
      return { ok: true, post: { ...post, author: { name: null, handle: null, url: null }, media: [medium] } };
    },
    async openMedia(url, init) {
      const parsed = new URL(url);
      if (parsed.protocol !== "https:" || !hostMatches(parsed.hostname, MEDIA_HOSTS)) return null;
      opened.push(url);
      if (options.unreachable) throw new TypeError("fetch failed: connection reset");
      return fetcher(url, {
        method: init.method ?? "GET",
        headers: init.range ? { range: init.range } : {},
        signal: init.signal,
      });
    },
  };
  return { media, opened, produced, methods, extracted, ranges };
}

const tokens = hmacTunnelTokens(SECRET);

function ticket(overrides: Partial<TunnelTicket> = {}): TunnelTicket {
  return {
    url: SMALL,
    mimeType: "video/mp4",
    filename: "Big Buck Bunny 360p.mp4",
    expiresAt: NOW_S + 600,
    keyId: "key_minting",
    ...overrides,
  };
}

/** The minting keys' records as the KeyStore answers them: every key live unless the test says. */
function keyStore(records: Record<string, KeyRecord | null> = {}) {
  const asked: string[] = [];
  const keys: Pick<KeyStore, "resolveId"> = {
    async resolveId(keyId) {
      asked.push(keyId);
      if (keyId in records) return records[keyId] ?? null;
      return {
        keyId,
        userId: "usr_minting",
        revoked: false,
        planId: "premium",
        planExpiresAt: null,
        planVersion: 0,
        bonusCalls: 0,
      };
    },
  };
  return { keys, asked };
}

async function get(
  token: string,
  options: {
    range?: string;
    method?: string;
    media?: ReturnType<typeof fakeMedia>;
    now?: number;
    query?: string;
    keys?: ReturnType<typeof keyStore>;
    /** Shared between calls to play one isolate's requests; else each call starts with none remembered. */
    freshUrls?: FreshUrlMemory;
  } = {},
) {
  const request = new Request(`${ORIGIN}${TUNNEL_PATH}/${token}${options.query ?? ""}`, {
    method: options.method ?? "GET",
    headers: options.range ? { range: options.range } : {},
  });
  const media = options.media ?? fakeMedia();
  const response = await serveTunnel(request, {
    tokens,
    media: media.media,
    keys: (options.keys ?? keyStore()).keys,
    requestId: "req_tunnel",
    now: options.now ?? NOW,
    freshUrls: options.freshUrls ?? new FreshUrlMemory(),
  });
  return { response, opened: media.opened, produced: media.produced };
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

async function expectProblem(response: Response, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<{ type: string; detail: string; requestId: string }>();
  expect(body.type).toBe(`https://portico.dev/problems/${type}`);
  expect(body.requestId).toBe("req_tunnel");
  return body;
}

/** An independent HMAC-SHA256 under the key HKDF derives with `info`, from WebCrypto's primitives. */
async function referenceMac(secret: string, info: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("portico"), info: encoder.encode(info) },
    base,
    256,
  );
  const key = await crypto.subtle.importKey("raw", bits, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
  return btoa(String.fromCharCode(...mac))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

function base64url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

describe("tunnel tokens", () => {
  it("name the upstream URL, its type, the file name and the expiry, under an HMAC of their own label", async () => {
    const token = await tokens.seal(ticket());
    const [payload = "", mac] = token.split(".");
    expect(JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")))).toEqual({
      u: SMALL,
      m: "video/mp4",
      f: "Big Buck Bunny 360p.mp4",
      e: NOW_S + 600,
      k: "key_minting",
    });
    expect(mac).toBe(await referenceMac(SECRET, "portico media-tunnel v1", payload));
    expect(await tokens.open(token, NOW)).toEqual({ ok: true, ticket: ticket() });
  });

  it("carry a long upstream URL whole (googlevideo's run to kilobytes)", async () => {
    const long = `${SMALL}?sig=${"A".repeat(6000)}`;
    expect(await tokens.open(await tokens.seal(ticket({ url: long })), NOW)).toEqual({
      ok: true,
      ticket: ticket({ url: long }),
    });
  });

  it("expire: accepted up to their expiry second, refused after it", async () => {
    const token = await tokens.seal(ticket({ expiresAt: NOW_S + 60 }));
    expect((await tokens.open(token, (NOW_S + 60) * 1000 + 999)).ok).toBe(true);
    const verdict = await tokens.open(token, (NOW_S + 61) * 1000);
    expect(verdict).toMatchObject({ ok: false, reason: "expired" });
    expect(!verdict.ok && verdict.detail).toMatch(/expired at 2026-11-24T12:01:00\.000Z/);
  });

  it("are refused when any one character is changed, wherever it is", async () => {
    const token = await tokens.seal(ticket());
    for (let index = 0; index < token.length; index += 1) {
      const original = token[index] ?? "";
      const replacement =
        original === "." ? "A" : (BASE64URL[(BASE64URL.indexOf(original) + 1) % BASE64URL.length] ?? "A");
      const changed = token.slice(0, index) + replacement + token.slice(index + 1);
      expect((await tokens.open(changed, NOW)).ok, `position ${index}`).toBe(false);
    }
  });

  it("are accepted in one spelling only: no spare bits, padding, whitespace, extra parts or case change", async () => {
    const token = await tokens.seal(ticket());
    const [payload = "", mac = ""] = token.split(".");
    // The MAC's 43rd character carries two spare bits: its three other spellings decode the same.
    const last = BASE64URL.indexOf(mac.at(-1) ?? "A");
    const macSpellings = [1, 2, 3].map((bits) => mac.slice(0, -1) + BASE64URL[(last & ~3) | ((last + bits) & 3)]);
    // So may the payload's last character, depending on its length.
    const payloadLast = BASE64URL.indexOf(payload.at(-1) ?? "A");
    const payloadSpellings = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(
      (bits) => payload.slice(0, -1) + BASE64URL[(payloadLast & ~15) | ((payloadLast + bits) & 15)],
    );
    const spellings = [
      ...macSpellings.map((spelling) => `${payload}.${spelling}`),
      ...payloadSpellings.map((spelling) => `${spelling}.${mac}`),
      `${payload}.${mac}=`,
      `${payload}==.${mac}`,
      `${payload}.${mac}.`,
      `.${payload}.${mac}`,
      `${payload}.${mac} `,
      ` ${payload}.${mac}`,
      `${payload}.${mac.toUpperCase()}`,
      `${payload}.${mac.replaceAll("-", "+").replaceAll("_", "/")}`,
      `${payload.replaceAll("-", "+").replaceAll("_", "/")}.${mac}`,
      `${payload}`,
      `${payload}.`,
      `.${mac}`,
      "",
    ];
    for (const spelling of spellings) {
      if (spelling === token) continue;
      expect((await tokens.open(spelling, NOW)).ok, spelling).toBe(false);
    }
  });

  it("are useless for any other URL: another payload under this MAC, or this payload under another label's MAC", async () => {
    const mine = await tokens.seal(ticket());
    const other = await tokens.seal(ticket({ url: "https://rr3---sn-q4fl6nsr.googlevideo.com/videoplayback/large" }));
    const [payload = "", mac = ""] = mine.split(".");
    const [otherPayload = "", otherMac = ""] = other.split(".");
    expect((await tokens.open(`${otherPayload}.${mac}`, NOW)).ok).toBe(false);
    expect((await tokens.open(`${payload}.${otherMac}`, NOW)).ok).toBe(false);
    // A payload a caller wrote for a URL of their choosing, signed as a signed URL would be.
    const forged = base64url(JSON.stringify({ u: "https://evil.example/", m: "video/mp4", f: "x.mp4", e: NOW_S + 60 }));
    expect(
      (await tokens.open(`${forged}.${await referenceMac(SECRET, "portico signed-url v1", forged)}`, NOW)).ok,
    ).toBe(false);
    // …or under another secret.
    expect((await tokens.open(await hmacTunnelTokens(`${SECRET}-other`).seal(ticket()), NOW)).ok).toBe(false);
  });

  it("are refused when they claim a longer life than any we mint", async () => {
    const token = await tokens.seal(ticket({ expiresAt: NOW_S + TUNNEL_LIFETIME_SECONDS + 3600 }));
    expect(await tokens.open(token, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("carry only a media type without parameters (never SVG or HTML) and a file name without paths or quotes", async () => {
    const token = await tokens.seal(
      ticket({ mimeType: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"', filename: '../"etc"/pass\\wd\r\n.mp4' }),
    );
    const verdict = await tokens.open(token, NOW);
    expect(verdict.ok && verdict.ticket.mimeType).toBe("video/mp4");
    expect(verdict.ok && verdict.ticket.filename).toBe("_etc_pass_wd_.mp4");
    expect(safeMediaType("image/svg+xml")).toBe("application/octet-stream");
    expect(safeMediaType("text/html")).toBe("application/octet-stream");
    expect(safeMediaType("Audio/WebM; codecs=opus")).toBe("audio/webm");
  });
});

describe("tunnel tokens naming their source (asking the platform again)", () => {
  const source = {
    ref: { platform: "youtube", id: "aqz-KE-bpKQ", kind: "video", url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ" },
    formatId: "18",
  } as const;

  it("carry the post and the rendition under the MAC, and open to the same ticket", async () => {
    const token = await tokens.seal(ticket({ source }));
    const [payload = "", mac] = token.split(".");
    expect(JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))).r).toEqual({
      p: "youtube",
      i: "aqz-KE-bpKQ",
      c: "video",
      l: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
      t: "18",
    });
    expect(mac).toBe(await referenceMac(SECRET, "portico media-tunnel v1", payload));
    expect(await tokens.open(token, NOW)).toEqual({ ok: true, ticket: ticket({ source }) });
  });

  it("are refused when any one character is changed, the source's included", async () => {
    const token = await tokens.seal(ticket({ source }));
    for (let index = 0; index < token.length; index += 1) {
      const original = token[index] ?? "";
      const replacement =
        original === "." ? "A" : (BASE64URL[(BASE64URL.indexOf(original) + 1) % BASE64URL.length] ?? "A");
      const changed = token.slice(0, index) + replacement + token.slice(index + 1);
      expect((await tokens.open(changed, NOW)).ok, `position ${index}`).toBe(false);
    }
  });

  it("cannot be pointed at another rendition or post under the same MAC, nor gain a source it was not minted with", async () => {
    const token = await tokens.seal(ticket({ source }));
    const [payload = "", mac = ""] = token.split(".");
    const fields = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as Record<string, unknown>;
    const rewritten = [
      { ...fields, r: { ...(fields.r as object), t: "137" } },
      { ...fields, r: { ...(fields.r as object), i: "privateVid1" } },
      { ...fields, r: { ...(fields.r as object), p: "instagram" } },
    ];
    for (const changed of rewritten) {
      expect((await tokens.open(`${base64url(JSON.stringify(changed))}.${mac}`, NOW)).ok).toBe(false);
    }
    const plain = await tokens.seal(ticket());
    const [plainPayload = "", plainMac = ""] = plain.split(".");
    const withSource = { ...JSON.parse(atob(plainPayload.replaceAll("-", "+").replaceAll("_", "/"))), r: fields.r };
    expect((await tokens.open(`${base64url(JSON.stringify(withSource))}.${plainMac}`, NOW)).ok).toBe(false);
    // A source under the MAC but in a shape we never write is not believed either.
    const odd = base64url(JSON.stringify({ ...fields, r: { ...(fields.r as object), extra: 1 } }));
    expect((await tokens.open(`${odd}.${await referenceMac(SECRET, "portico media-tunnel v1", odd)}`, NOW)).ok).toBe(
      false,
    );
  });
});

describe("the tunnel: asking again for a URL refused from its address", () => {
  const REF = {
    platform: "youtube",
    id: "aqz-KE-bpKQ",
    kind: "video",
    url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  } as const;
  const OTHER_ADDRESS = "198.51.100.23";

  /**
   * The YouTube extractor over its recorded fake, composed as the Worker composes it, with
   * googlevideo refusing (403) the URLs `refuse` picks, as it refuses one bound to another address.
   */
  function boundYoutube(refuse: (url: URL) => boolean) {
    const seen = { player: 0, media: [] as string[] };
    const platform: FakePlatform = {
      hosts: fakeYoutube.hosts,
      async handle(request) {
        const url = new URL(request.url);
        if (!url.hostname.endsWith(".googlevideo.com")) {
          seen.player += 1;
          return fakeYoutube.handle(request);
        }
        seen.media.push(url.href);
        if (refuse(url)) return new Response(null, { status: 403 });
        return fakeYoutube.handle(request);
      },
    };
    const social = createSocialMedia({
      plans: [{ platform: "youtube", factory: youtubeExtractor, baseUrls: { www: "https://www.youtube.com" } }],
      fetch: createFakeSocialFetch([platform]),
      kv: env.CACHE,
    });
    return { social, seen };
  }

  /** itag 18's URL as an extraction answers it, and the same URL bound to another address. */
  async function recordedAndStale(social: SocialMedia) {
    const extraction = await social.extract(REF, new AbortController().signal);
    if (!extraction.ok) throw new Error(`the fake did not answer: ${extraction.kind}`);
    const muxed = extraction.post.media.find((item) => item.formatId === "18");
    if (!muxed) throw new Error("no itag 18 in the recorded answer");
    const stale = new URL(muxed.url);
    stale.searchParams.set("ip", OTHER_ADDRESS);
    return { recorded: muxed.url, stale: stale.href };
  }

  async function serve(social: SocialMedia, token: string, range?: string) {
    const request = new Request(`${ORIGIN}${TUNNEL_PATH}/${token}`, { headers: range ? { range } : {} });
    return serveTunnel(request, {
      tokens,
      media: social,
      keys: keyStore().keys,
      requestId: "req_tunnel",
      now: NOW,
      freshUrls: new FreshUrlMemory(),
    });
  }

  it("extracts the post again (not from the cache) and serves the same rendition's fresh URL, Range kept", async () => {
    const { social, seen } = boundYoutube((url) => url.searchParams.get("ip") === OTHER_ADDRESS);
    const { recorded, stale } = await recordedAndStale(social);
    seen.player = 0;
    const file = fakeYoutubeMediaFile(recorded)!;
    const token = await tokens.seal(ticket({ url: stale, source: { ref: REF, formatId: "18" } }));
    const response = await serve(social, token, "bytes=1000-4999");
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes 1000-4999/${file.size}`);
    expect(await bytesOf(response)).toEqual(fakeMediaBytes(file.seed, 1000, 5000));
    expect(seen.media).toEqual([stale, recorded]);
    // One player call from the tunnel's own invocation: visionOS answered.
    expect(seen.player).toBe(1);
  });

  it("answers 502 when the fresh URL is refused too, having asked once and no more", async () => {
    const { social, seen } = boundYoutube(() => true);
    const { recorded, stale } = await recordedAndStale(social);
    seen.player = 0;
    const token = await tokens.seal(ticket({ url: stale, source: { ref: REF, formatId: "18" } }));
    const response = await serve(social, token);
    expect((await expectProblem(response, 502, "upstream-failed")).detail).toMatch(/HTTP 403.*fresh/);
    expect(seen.media).toEqual([stale, recorded]);
    expect(seen.player).toBe(1);
  });

  it("answers 502 without asking again for a token with no source, or when the rendition is gone", async () => {
    const { social, seen } = boundYoutube((url) => url.searchParams.get("ip") === OTHER_ADDRESS);
    const { stale } = await recordedAndStale(social);
    seen.player = 0;
    await expectProblem(await serve(social, await tokens.seal(ticket({ url: stale }))), 502, "upstream-failed");
    expect(seen.player).toBe(0);
    const gone = await tokens.seal(ticket({ url: stale, source: { ref: REF, formatId: "9999" } }));
    await expectProblem(await serve(social, gone), 502, "upstream-failed");
    expect(seen.player).toBe(1);
    expect(seen.media).toEqual([stale, stale]);
  });

  it("remembers the fresh URL: repeated requests on a refused token extract once, a refused remembered URL once more", async () => {
    const fresh = [`${SMALL}-fresh`, `${SMALL}-fresher`];
    const refused = new Set([SMALL]);
    const media = fakeMedia({ refused, freshUrl: () => fresh[refused.has(fresh[0]!) ? 1 : 0]! });
    const freshUrls = new FreshUrlMemory();
    const token = await tokens.seal(ticket({ source: { ref: REF, formatId: "18" } }));
    // A player seeking, a downloader's connections, a HEAD: each its own tunnel request.
    for (const [i, method] of ["GET", "GET", "HEAD", "GET", "GET"].entries()) {
      const range = `bytes=${i * 1000}-${i * 1000 + 99}`;
      const { response } = await get(token, { media, freshUrls, range, method });
      expect(response.status, range).toBe(206);
      if (method === "GET") expect(await bytesOf(response)).toEqual(fakeMediaBytes("small", i * 1000, i * 1000 + 100));
    }
    expect(media.extracted).toEqual([REF]);
    // The remembered URL is tried first: the refused one is asked once, by the first request only.
    expect(media.opened).toEqual([SMALL, ...Array(5).fill(fresh[0])]);

    // The remembered URL is refused in its turn: one new extraction, and its URL is remembered.
    refused.add(fresh[0]!);
    for (let i = 0; i < 3; i++) expect((await get(token, { media, freshUrls, range: "bytes=0-99" })).response.status).toBe(206);
    expect(media.extracted).toEqual([REF, REF]);
    expect(media.opened.slice(6)).toEqual([fresh[0], fresh[1], fresh[1], fresh[1]]);
  });

  it("lets concurrent requests share one extraction, and extracts no more while a fresh URL was refused too", async () => {
    let release = () => {};
    const extractGate = new Promise<void>((resolve) => (release = resolve));
    const media = fakeMedia({ refused: new Set([SMALL]), freshUrl: `${SMALL}-fresh`, extractGate });
    const freshUrls = new FreshUrlMemory();
    const token = await tokens.seal(ticket({ source: { ref: REF, formatId: "18" } }));
    const pending = Array.from({ length: 4 }, (_, i) =>
      get(token, { media, freshUrls, range: `bytes=${i}-${i + 9}` }),
    );
    // Every request has been refused and is waiting on the one extraction in flight.
    await eventually(async () => media.ranges.length, (n) => n === 4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(media.extracted).toEqual([REF]);
    release();
    for (const { response } of await Promise.all(pending)) expect(response.status).toBe(206);
    expect(media.extracted).toEqual([REF]);

    // An address-wide block: the fresh URL is refused as well. The first request finds out and
    // answers 502; the next ones do not ask the platform again for a few minutes.
    const blocked = fakeMedia({ refused: new Set([SMALL, `${SMALL}-fresh`]), freshUrl: `${SMALL}-fresh` });
    const blockedUrls = new FreshUrlMemory();
    for (let i = 0; i < 3; i++) {
      await expectProblem((await get(token, { media: blocked, freshUrls: blockedUrls })).response, 502, "upstream-failed");
    }
    expect(blocked.extracted).toEqual([REF]);
    // A few minutes on, it may ask again.
    const later = NOW + 10 * 60_000;
    const laterToken = await tokens.seal(ticket({ expiresAt: later / 1000 + 600, source: { ref: REF, formatId: "18" } }));
    await get(laterToken, { media: blocked, freshUrls: blockedUrls, now: later });
    expect(blocked.extracted).toEqual([REF, REF]);
  });

  it("does not ask again for a failure other than 403 or 410", async () => {
    const media = fakeMedia({ failWith: 404 });
    const token = await tokens.seal(ticket({ source: { ref: REF, formatId: "18" } }));
    await expectProblem((await get(token, { media })).response, 502, "upstream-failed");
    expect(media.extracted).toEqual([]);
    const refused = fakeMedia({ failWith: 410 });
    await expectProblem((await get(token, { media: refused })).response, 502, "upstream-failed");
    expect(refused.extracted).toEqual([REF]);
  });
});

describe("OperationContext.tunnelUrl", () => {
  it("answers a URL on the request's origin whose token the gateway's tunnel opens, for fifteen minutes", async () => {
    const ctx = createTestContext({ origin: "https://api.portico.test" });
    const before = Math.floor(Date.now() / 1000);
    const url = new URL(await ctx.tunnelUrl(SMALL, { mimeType: "video/mp4", filename: "clip.mp4" }));
    expect(url.origin).toBe("https://api.portico.test");
    expect(url.pathname.startsWith(`${TUNNEL_PATH}/`)).toBe(true);
    expect(url.search).toBe("");
    const token = url.pathname.slice(TUNNEL_PATH.length + 1);
    const verdict = await hmacTunnelTokens(readConfig(env).SESSION_SECRET).open(token, Date.now());
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) return;
    expect(verdict.ticket).toMatchObject({
      url: SMALL,
      mimeType: "video/mp4",
      filename: "clip.mp4",
      keyId: "key_test",
    });
    expect(verdict.ticket.expiresAt - before).toBeGreaterThanOrEqual(TUNNEL_LIFETIME_SECONDS);
    expect(verdict.ticket.expiresAt - before).toBeLessThanOrEqual(TUNNEL_LIFETIME_SECONDS + 1);
  });
});

describe("the tunnel: refusals", () => {
  it("refuses an expired token with 410 without fetching anything", async () => {
    const token = await tokens.seal(ticket({ expiresAt: NOW_S - 1 }));
    const { response, opened } = await get(token);
    expect((await expectProblem(response, 410, "expired-tunnel-url")).detail).toMatch(/call the API again/i);
    expect(opened).toEqual([]);
  });

  it("refuses an expired token's Range request too (a resumed download asks the API again)", async () => {
    const token = await tokens.seal(ticket({ expiresAt: NOW_S - 1 }));
    const { response, opened } = await get(token, { range: "bytes=500-" });
    await expectProblem(response, 410, "expired-tunnel-url");
    expect(opened).toEqual([]);
  });

  it("refuses a tampered token with 404 without fetching anything", async () => {
    const token = await tokens.seal(ticket());
    const tampered = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    const { response, opened } = await get(tampered);
    await expectProblem(response, 404, "invalid-tunnel-url");
    expect(opened).toEqual([]);
  });

  it("refuses the URL with anything added to it", async () => {
    const token = await tokens.seal(ticket());
    for (const query of ["?url=https://evil.example/", "?download=1", "?a"]) {
      const { response, opened } = await get(token, { query });
      await expectProblem(response, 404, "invalid-tunnel-url");
      expect(opened).toEqual([]);
    }
  });

  it("reads the token as it came: a percent-encoded spelling of it is refused", async () => {
    const token = await tokens.seal(ticket());
    const encoded = `%${token.charCodeAt(0).toString(16).toUpperCase()}${token.slice(1)}`;
    const { response, opened } = await get(encoded);
    await expectProblem(response, 404, "invalid-tunnel-url");
    expect(opened).toEqual([]);
    const trailing = await get(`${token}/`);
    await expectProblem(trailing.response, 404, "invalid-tunnel-url");
  });

  it("refuses a token whose minting key was revoked or deleted since, fetching nothing; asks about the key only for a genuine token", async () => {
    const token = await tokens.seal(ticket());
    const revoked = keyStore({
      key_minting: {
        keyId: "key_minting",
        userId: "usr_minting",
        revoked: true,
        planId: "premium",
        planExpiresAt: null,
        planVersion: 0,
        bonusCalls: 0,
      },
    });
    const refused = await get(token, { keys: revoked });
    expect((await expectProblem(refused.response, 403, "revoked-api-key")).detail).toMatch(/revoked/);
    expect(refused.opened).toEqual([]);
    expect(revoked.asked).toEqual(["key_minting"]);
    const deleted = await get(token, { keys: keyStore({ key_minting: null }) });
    await expectProblem(deleted.response, 403, "revoked-api-key");
    expect(deleted.opened).toEqual([]);
    const junk = keyStore();
    const tampered = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    await expectProblem((await get(tampered, { keys: junk })).response, 404, "invalid-tunnel-url");
    expect(junk.asked).toEqual([]);
  });

  it("fetches only the token's own URL", async () => {
    const { response, opened } = await get(await tokens.seal(ticket()));
    expect(response.status).toBe(200);
    await response.body?.cancel();
    expect(opened).toEqual([SMALL]);
  });

  it("refuses a genuine token naming a host that is not a platform's media server, fetching nothing", async () => {
    const token = await tokens.seal(ticket({ url: "https://169.254.169.254/latest/meta-data/" }));
    const { response, opened } = await get(token);
    await expectProblem(response, 404, "invalid-tunnel-url");
    expect(opened).toEqual([]);
  });

  it("answers 502 when the platform refuses the media or cannot be reached", async () => {
    const token = await tokens.seal(ticket());
    const refused = await get(token, { media: fakeMedia({ failWith: 403 }) });
    expect((await expectProblem(refused.response, 502, "upstream-failed")).detail).toMatch(/HTTP 403.*fresh/);
    const failing = await get(token, { media: fakeMedia({ failWith: 500 }) });
    expect((await expectProblem(failing.response, 502, "upstream-failed")).detail).toMatch(/HTTP 500/);
    const unreachable = await get(token, { media: fakeMedia({ unreachable: true }) });
    await expectProblem(unreachable.response, 502, "upstream-failed");
  });
});

describe("the tunnel: bytes and ranges", () => {
  const size = SMALL_FILE.size;

  it("streams the whole file as an attachment with its type, length and name", async () => {
    const { response } = await get(await tokens.seal(ticket()));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("video/mp4");
    expect(response.headers.get("content-length")).toBe(String(size));
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="Big Buck Bunny 360p.mp4"; filename*=UTF-8''Big%20Buck%20Bunny%20360p.mp4`,
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(await bytesOf(response)).toEqual(fakeMediaBytes(SMALL_FILE.seed, 0, size));
  });

  it.each([
    ["the first bytes", "bytes=0-99", 0, 100],
    ["a middle range", "bytes=500000-500999", 500_000, 501_000],
    ["a suffix", "bytes=-1000", size - 1000, size],
    ["an open end", "bytes=999000-", 999_000, size],
    ["a last byte past the end", "bytes=1000000-2000000", 1_000_000, size],
  ])("answers %s (%s) with 206 and exactly those bytes", async (_name, range, start, end) => {
    const { response } = await get(await tokens.seal(ticket()), { range });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end - 1}/${size}`);
    expect(response.headers.get("content-length")).toBe(String(end - start));
    expect(response.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(await bytesOf(response)).toEqual(fakeMediaBytes(SMALL_FILE.seed, start, end));
  });

  it("answers a range starting past the end with 416 and the file's size", async () => {
    const { response } = await get(await tokens.seal(ticket()), { range: `bytes=${size}-` });
    await expectProblem(response, 416, "range-not-satisfiable");
    expect(response.headers.get("content-range")).toBe(`bytes */${size}`);
  });

  it("answers the whole file to a Range it does not serve (several ranges, other units, reversed)", async () => {
    for (const range of ["bytes=0-1,5-9", "items=0-9", "bytes=9-0", "bytes=abc", "bytes=0-1 x"]) {
      const { response } = await get(await tokens.seal(ticket()), { range });
      expect(response.status, range).toBe(200);
      expect(response.headers.get("content-length")).toBe(String(size));
      await response.body?.cancel();
    }
    expect(forwardedRange(" bytes=007-010 ")).toBe("bytes=7-10");
    expect(forwardedRange("bytes=-0")).toBeNull();
  });

  it("answers a 206 whose Content-Range is malformed or missing with 502, not a partial answer it cannot place", async () => {
    const token = await tokens.seal(ticket());
    for (const contentRange of ["bytes 10-19", "bytes 0-9/abc", "items 0-9/10", "bytes 19-10/100", null]) {
      const { response } = await get(token, { range: "bytes=10-19", media: fakeMedia({ contentRange }) });
      await expectProblem(response, 502, "upstream-failed");
    }
  });

  it("asks the platform with HEAD for a HEAD, never a GET it then cancels", async () => {
    const token = await tokens.seal(ticket());
    const media = fakeMedia();
    const head = await get(token, { method: "HEAD", media });
    expect(head.response.status).toBe(200);
    const ranged = await get(token, { method: "HEAD", range: "bytes=10-19", media });
    expect(ranged.response.status).toBe(206);
    expect(media.methods).toEqual(["HEAD", "HEAD"]);
    const got = await get(token, { media });
    await got.response.body?.cancel();
    expect(media.methods).toEqual(["HEAD", "HEAD", "GET"]);
  });

  it("answers HEAD with the headers and no body, a Range included", async () => {
    const token = await tokens.seal(ticket());
    const whole = await get(token, { method: "HEAD" });
    expect(whole.response.status).toBe(200);
    expect(whole.response.headers.get("content-length")).toBe(String(size));
    expect(whole.response.body).toBeNull();
    const part = await get(token, { method: "HEAD", range: "bytes=10-19" });
    expect(part.response.status).toBe(206);
    expect(part.response.headers.get("content-range")).toBe(`bytes 10-19/${size}`);
    expect(part.response.body).toBeNull();
  });

  it("streams a 50 MB file chunk by chunk, never holding more than a chunk ahead of the reader", async () => {
    const large = FILES["/videoplayback/large"]!;
    const media = fakeMedia();
    const token = await tokens.seal(ticket({ url: "https://rr3---sn-q4fl6nsr.googlevideo.com/videoplayback/large" }));
    const { response, produced } = await get(token, { media });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(large.size));
    // Nothing is read before the caller reads: the answer is the upstream's stream.
    expect(produced.bytes).toBeLessThanOrEqual(64 * 1024);
    const reader = response.body!.getReader();
    let received = 0;
    let chunks = 0;
    let mostAhead = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A sample of chunks checked byte for byte against the file (all would take seconds).
      if (chunks % 97 === 0) expect(value).toEqual(fakeMediaBytes(large.seed, received, received + value.byteLength));
      received += value.byteLength;
      chunks += 1;
      mostAhead = Math.max(mostAhead, produced.bytes - received);
    }
    expect(received).toBe(large.size);
    expect(chunks).toBeGreaterThan(100);
    expect(mostAhead).toBeLessThanOrEqual(256 * 1024);
  }, 60_000);

  it("writes Content-Disposition for any name: quotes, slashes and non-ASCII letters", () => {
    expect(contentDisposition('Ünïcode "clip" / 動画.mp4')).toBe(
      `attachment; filename="_n_code _clip_ _ __.mp4"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20_clip_%20_%20%E5%8B%95%E7%94%BB.mp4`,
    );
    expect(contentDisposition("")).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    expect(contentDisposition("it's (1).mp4")).toBe(
      `attachment; filename="it's (1).mp4"; filename*=UTF-8''it%27s%20%281%29.mp4`,
    );
  });
});

describe("the tunnel: chunked fetches (YouTube)", () => {
  const CHUNKED = "https://rr3---sn-q4fl6nsr.googlevideo.com/videoplayback/chunked";
  const FILE = FILES["/videoplayback/chunked"]!;
  const MiB = 1024 * 1024;

  /** Every byte of `bytes` checked against the fake file from `start`: the number that differ. */
  function mismatches(bytes: Uint8Array, start: number): number {
    const expected = fakeMediaBytes(FILE.seed, start, start + bytes.byteLength);
    let differ = 0;
    for (let index = 0; index < bytes.byteLength; index += 1) if (bytes[index] !== expected[index]) differ += 1;
    return differ;
  }

  it("serves a 25 MB file whole from three ranged fetches of at most 10 MB, byte-exact, one chunk in flight", async () => {
    expect(YOUTUBE_MEDIA_CHUNK_BYTES).toBe(10 * MiB);
    const media = fakeMedia({ chunkBytes: YOUTUBE_MEDIA_CHUNK_BYTES });
    const { response, produced } = await get(await tokens.seal(ticket({ url: CHUNKED })), { media });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(FILE.size));
    expect(response.headers.get("content-range")).toBeNull();
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    const reader = response.body!.getReader();
    let received = 0;
    let differ = 0;
    let mostAhead = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // The next range is asked only once the one before has been read to its end, less the one
      // piece the runtime's pipe into the FixedLengthStream reads ahead (within the bound below).
      if (received + value.byteLength + 256 * 1024 <= 10 * MiB) expect(media.ranges).toHaveLength(1);
      differ += mismatches(value, received);
      received += value.byteLength;
      mostAhead = Math.max(mostAhead, produced.bytes - received);
    }
    expect(received).toBe(FILE.size);
    expect(differ).toBe(0);
    expect(mostAhead).toBeLessThanOrEqual(256 * 1024);
    expect(media.ranges).toEqual([
      `bytes=0-${10 * MiB - 1}`,
      `bytes=${10 * MiB}-${20 * MiB - 1}`,
      `bytes=${20 * MiB}-${25 * MiB - 1}`,
    ]);
  }, 60_000);

  it("answers a Range across a chunk boundary with exactly its bytes, fetched as two ranges", async () => {
    const media = fakeMedia({ chunkBytes: YOUTUBE_MEDIA_CHUNK_BYTES });
    const { response } = await get(await tokens.seal(ticket({ url: CHUNKED })), {
      media,
      range: "bytes=5000000-16000000",
    });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes 5000000-16000000/${FILE.size}`);
    expect(response.headers.get("content-length")).toBe("11000001");
    const bytes = await bytesOf(response);
    expect(bytes.byteLength).toBe(11_000_001);
    expect(mismatches(bytes, 5_000_000)).toBe(0);
    expect(media.ranges).toEqual([`bytes=5000000-${5000000 + 10 * MiB - 1}`, `bytes=${5000000 + 10 * MiB}-16000000`]);
  }, 60_000);

  it.each([
    [
      "a suffix longer than a chunk (its size learnt first)",
      "bytes=-12000000",
      FILE.size - 12_000_000,
      FILE.size - 1,
      [
        "bytes=0-0",
        `bytes=${FILE.size - 12_000_000}-${FILE.size - 12_000_000 + 10 * MiB - 1}`,
        `bytes=${FILE.size - 12_000_000 + 10 * MiB}-${FILE.size - 1}`,
      ],
    ],
    ["a short suffix", "bytes=-1000", FILE.size - 1000, FILE.size - 1, ["bytes=-1000"]],
    [
      "an open end within the last chunk",
      "bytes=20000000-",
      20_000_000,
      FILE.size - 1,
      [`bytes=20000000-${20000000 + 10 * MiB - 1}`],
    ],
    [
      "a last byte past the end",
      "bytes=26000000-99999999",
      26_000_000,
      FILE.size - 1,
      [`bytes=26000000-${26000000 + 10 * MiB - 1}`],
    ],
  ])(
    "answers %s (%s) with 206 and exactly those bytes",
    async (_name, range, start, end, asked) => {
      const media = fakeMedia({ chunkBytes: YOUTUBE_MEDIA_CHUNK_BYTES });
      const { response } = await get(await tokens.seal(ticket({ url: CHUNKED })), { media, range });
      expect(response.status).toBe(206);
      expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end}/${FILE.size}`);
      expect(response.headers.get("content-length")).toBe(String(end - start + 1));
      const bytes = await bytesOf(response);
      expect(bytes.byteLength).toBe(end - start + 1);
      expect(mismatches(bytes, start)).toBe(0);
      expect(media.ranges).toEqual(asked);
    },
    60_000,
  );

  it("answers a HEAD from one ranged HEAD, with the whole file's length; a range past the end is 416", async () => {
    const media = fakeMedia({ chunkBytes: YOUTUBE_MEDIA_CHUNK_BYTES });
    const token = await tokens.seal(ticket({ url: CHUNKED }));
    const head = await get(token, { method: "HEAD", media });
    expect(head.response.status).toBe(200);
    expect(head.response.headers.get("content-length")).toBe(String(FILE.size));
    expect(head.response.body).toBeNull();
    const part = await get(token, { method: "HEAD", range: "bytes=100-199", media });
    expect(part.response.status).toBe(206);
    expect(part.response.headers.get("content-range")).toBe(`bytes 100-199/${FILE.size}`);
    expect(media.methods).toEqual(["HEAD", "HEAD"]);
    expect(media.ranges).toEqual([`bytes=0-${10 * MiB - 1}`, "bytes=100-199"]);
    const beyond = await get(token, { range: `bytes=${FILE.size}-`, media });
    await expectProblem(beyond.response, 416, "range-not-satisfiable");
    expect(beyond.response.headers.get("content-range")).toBe(`bytes */${FILE.size}`);
  });

  it("errors the caller's stream when a later chunk fails or comes back short, never a silently short file", async () => {
    const token = await tokens.seal(ticket({ url: CHUNKED }));
    for (const failFrom of [
      { at: 10 * MiB, status: 503 },
      { at: 10 * MiB, short: true },
      { at: 20 * MiB, status: 403 },
    ]) {
      const media = fakeMedia({ chunkBytes: YOUTUBE_MEDIA_CHUNK_BYTES, failFrom });
      const { response } = await get(token, { media });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-length")).toBe(String(FILE.size));
      // Read as a downloader reads it: an error, never an end that looks like the whole file.
      const outcome = await response.arrayBuffer().then(
        (body) => `ended after ${body.byteLength} bytes`,
        () => "errored",
      );
      expect(outcome, JSON.stringify(failFrom)).toBe("errored");
    }
  }, 60_000);

  it("asks the platform again when a later chunk is refused (403), and goes on from the same byte at the fresh URL", async () => {
    const fresh = `${CHUNKED}-fresh`;
    const media = fakeMedia({
      chunkBytes: YOUTUBE_MEDIA_CHUNK_BYTES,
      failFrom: { at: 10 * MiB, status: 403 },
      freshUrl: fresh,
    });
    const ref = {
      platform: "youtube",
      id: "aqz-KE-bpKQ",
      kind: "video",
      url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
    } as const;
    const token = await tokens.seal(ticket({ url: CHUNKED, source: { ref, formatId: "18" } }));
    const { response } = await get(token, { media });
    const bytes = await bytesOf(response);
    expect(bytes.byteLength).toBe(FILE.size);
    expect(mismatches(bytes, 0)).toBe(0);
    expect(media.extracted).toEqual([ref]);
    expect(media.opened).toEqual([CHUNKED, CHUNKED, fresh, fresh]);
    expect(media.ranges).toEqual([
      `bytes=0-${10 * MiB - 1}`,
      `bytes=${10 * MiB}-${20 * MiB - 1}`,
      `bytes=${10 * MiB}-${20 * MiB - 1}`,
      `bytes=${20 * MiB}-${25 * MiB - 1}`,
    ]);
  }, 60_000);

  it("is asked for YouTube's media only: every other platform's stays one pass-through fetch", () => {
    const social = socialMediaFor(readConfig(env), env.CACHE);
    expect(social.mediaChunkBytes("https://rr3---sn-q4fl6nsr.googlevideo.com/videoplayback?id=x")).toBe(10 * MiB);
    expect(social.mediaChunkBytes("https://scontent.cdninstagram.com/v/t50/clip.mp4")).toBeNull();
    expect(social.mediaChunkBytes("https://video.twimg.com/ext_tw_video/1/pu/vid/720x1280/a.mp4")).toBeNull();
    expect(social.mediaChunkBytes("http://rr3---sn-q4fl6nsr.googlevideo.com/videoplayback")).toBeNull();
    expect(social.mediaChunkBytes("https://evil.example/videoplayback")).toBeNull();
  });

  it("keeps a file whose platform is not chunked on one fetch, the whole file in one answer", async () => {
    const media = fakeMedia();
    const { response } = await get(await tokens.seal(ticket({ url: CHUNKED })), { media });
    expect(response.status).toBe(200);
    await response.body?.cancel();
    expect(media.ranges).toEqual([null]);
  });
});

describe("the tunnel through the Worker", () => {
  const PERIOD_END = Date.now() + 20 * 24 * 60 * 60 * 1000;

  /** The googlevideo URL a tunnel URL names (its payload is readable), and the file the YouTube fake serves there. */
  function upstreamOf(tunnelUrl: string) {
    const token = new URL(tunnelUrl).pathname.slice(TUNNEL_PATH.length + 1);
    const payload = token.split(".")[0] ?? "";
    const { u } = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as { u: string };
    const file = fakeYoutubeMediaFile(u);
    if (!file) throw new Error(`the YouTube fake serves nothing at ${u}`);
    return file;
  }

  it("streams the media a YouTube answer names, Range and HEAD included, with no key, counting no call", async () => {
    const account = await createAccountWithKey(env.DB, { planId: "premium", planExpiresAt: PERIOD_END });
    const answered = await callHosted(SELF, "POST", "/api/v1/youtube-instagram-video-downloader", {
      key: account.key,
      body: { url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ" },
    });
    expect(answered.status).toBe(200);
    const { media } = await answered.json<{
      media: { url: string; mimeType: string; hasAudio: boolean; type: string }[];
    }>();
    const muxed = media.find((item) => item.type === "video" && item.hasAudio);
    expect(muxed?.url.startsWith(`https://portico.test${TUNNEL_PATH}/`)).toBe(true);
    const file = upstreamOf(muxed!.url);
    // The token names the post and the rendition (itag) the tunnel asks for again if the URL is refused.
    const payload = new URL(muxed!.url).pathname.slice(TUNNEL_PATH.length + 1).split(".")[0] ?? "";
    const { u, r } = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as {
      u: string;
      r: { p: string; i: string; t: string };
    };
    expect(r).toMatchObject({ p: "youtube", i: "aqz-KE-bpKQ", t: new URL(u).searchParams.get("itag") });

    const part = await SELF.fetch(muxed!.url, { headers: { range: "bytes=1000-4999" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-4999/${file.size}`);
    expect(part.headers.get("content-type")).toBe("video/mp4");
    expect(part.headers.get("content-disposition")).toMatch(
      /^attachment; filename="youtube-aqz-KE-bpKQ-\d+-360p\.mp4"/,
    );
    // The Worker's own headers for data answers stay on: nothing in the bytes may run as our page.
    expect(part.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(await bytesOf(part)).toEqual(fakeMediaBytes(file.seed, 1000, 5000));

    const suffix = await SELF.fetch(muxed!.url, { headers: { range: "bytes=-512" } });
    expect(suffix.status).toBe(206);
    expect(await bytesOf(suffix)).toEqual(fakeMediaBytes(file.seed, file.size - 512, file.size));

    const head = await SELF.fetch(muxed!.url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(file.size));
    expect(head.headers.get("accept-ranges")).toBe("bytes");

    const whole = await SELF.fetch(muxed!.url);
    expect(whole.status).toBe(200);
    // Fetched in ranges (YouTube's media are), the answer still says its length before its bytes.
    expect(whole.headers.get("content-length")).toBe(String(file.size));
    const bytes = await bytesOf(whole);
    expect(bytes.byteLength).toBe(file.size);
    expect(bytes.subarray(0, 65_536)).toEqual(fakeMediaBytes(file.seed, 0, 65_536));
    expect(bytes.subarray(file.size - 65_536)).toEqual(fakeMediaBytes(file.seed, file.size - 65_536, file.size));

    const unsatisfiable = await SELF.fetch(muxed!.url, { headers: { range: `bytes=${file.size}-` } });
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers.get("content-range")).toBe(`bytes */${file.size}`);
    expect(unsatisfiable.headers.get("content-type")).toBe("application/problem+json");

    // Only the extraction counted.
    const metered = { userId: account.userId, planId: "premium" as const, planExpiresAt: PERIOD_END, bonusCalls: 0 };
    const used = await eventually(
      async () => (await meterStanding(env, metered, Date.now())).used,
      (count) => count === 1,
    );
    expect(used).toBe(1);
  });

  it("stops opening a key's tunnel URLs once the key is revoked", async () => {
    const account = await createAccountWithKey(env.DB, { planId: "premium", planExpiresAt: PERIOD_END });
    const answered = await callHosted(SELF, "POST", "/api/v1/youtube-instagram-video-downloader", {
      key: account.key,
      body: { url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ" },
    });
    expect(answered.status).toBe(200);
    const { media } = await answered.json<{ media: { url: string }[] }>();
    const url = media[0]!.url;
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), account.keyId).run();
    const refused = await SELF.fetch(url, { method: "HEAD" });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
  });

  it("refuses tampered, foreign and expired tokens as problem+json, before fetching anything", async () => {
    const secret = readConfig(env).SESSION_SECRET;
    const real = hmacTunnelTokens(secret);
    const url = "https://rr3---sn-q4fl6nsr.googlevideo.com/videoplayback?id=x";
    const expired = await real.seal(ticket({ url, expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    const gone = await SELF.fetch(`https://portico.test${TUNNEL_PATH}/${expired}`);
    expect(gone.status).toBe(410);
    expect((await gone.json<{ type: string }>()).type).toBe("https://portico.dev/problems/expired-tunnel-url");

    const foreign = await hmacTunnelTokens(`${secret}-elsewhere`).seal(
      ticket({ url, expiresAt: Math.floor(Date.now() / 1000) + 60 }),
    );
    const refused = await SELF.fetch(`https://portico.test${TUNNEL_PATH}/${foreign}`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect((await refused.json<{ type: string; message: string }>()).type).toBe(
      "https://portico.dev/problems/invalid-tunnel-url",
    );

    const garbage = await SELF.fetch(`https://portico.test${TUNNEL_PATH}/not-a-token`, { method: "HEAD" });
    expect(garbage.status).toBe(404);

    // Another method on the tunnel is not a tunnel call.
    const posted = await SELF.fetch(`https://portico.test${TUNNEL_PATH}/${foreign}`, { method: "POST" });
    expect(posted.status).toBe(405);
  });
});
