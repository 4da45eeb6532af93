import { describe, expect, it } from "vitest";
import type { Extraction, PostRef } from "~workers/hosted/capabilities";
import { createFakeSocialFetch, type FakePlatform } from "../fake";
import { fakeMediaBytes } from "../fake-media";
import { fakeYoutube, fakeYoutubeMediaFile } from "./fake";
import { YOUTUBE_FIXTURE_IDS as IDS, YOUTUBE_FIXTURE_URLS } from "./fixtures";
import { INNERTUBE_CLIENTS, playerRequestBody, youtubeExtractor } from "./index";
import extractorSource from "./index.ts?raw";

const BASE_URLS = { www: "https://www.youtube.com" };
const [VISIONOS, IOS] = INNERTUBE_CLIENTS as [(typeof INNERTUBE_CLIENTS)[number], (typeof INNERTUBE_CLIENTS)[number]];

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** The extractor over the recorded fake, with every request it makes written down. */
function harness(platforms: FakePlatform[] = [fakeYoutube], baseUrls: Record<string, string> = BASE_URLS) {
  const sent: Sent[] = [];
  const fake = createFakeSocialFetch(platforms);
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: await request.clone().text(),
    });
    return fake(request);
  };
  return { extractor: youtubeExtractor({ baseUrls, fetch: recording }), sent };
}

function ref(id: string, kind = "video", url = `https://www.youtube.com/watch?v=${id}`): PostRef {
  return { platform: "youtube", id, kind, url };
}

async function extract(id: string, kind?: string) {
  const { extractor, sent } = harness();
  const result = await extractor.extract(ref(id, kind), new AbortController().signal);
  return { result, sent };
}

function post(result: Extraction) {
  if (!result.ok) throw new Error(`expected a post, got ${result.kind}: ${result.detail}`);
  return result.post;
}

const idOf = (url: string | undefined) => new URL(url ?? "").searchParams.get("v");

describe("youtubeExtractor: Big Buck Bunny, the pinned public multi-quality video", () => {
  it("reads the title, author, largest thumbnail and duration", async () => {
    const { result } = await extract(IDS.bigBuckBunny);
    const video = post(result);
    expect(video).toMatchObject({
      platform: "youtube",
      id: "aqz-KE-bpKQ",
      title: "Big Buck Bunny 60fps 4K - Official Blender Foundation Short Film",
      author: { name: "Blender", handle: "@BlenderOfficial", url: "https://www.youtube.com/@BlenderOfficial" },
      thumbnail: "https://i.ytimg.com/vi/aqz-KE-bpKQ/maxresdefault.jpg",
      durationSec: 635,
    });
    expect(idOf(YOUTUBE_FIXTURE_URLS.public)).toBe(video.id);
    expect(idOf(YOUTUBE_FIXTURE_URLS.multiQuality)).toBe(video.id);
  });

  it("lists the muxed 360p file and the separate video-only and audio streams, in the answer's order", async () => {
    const { media } = post((await extract(IDS.bigBuckBunny)).result);
    expect(
      media.map(
        (medium) => `${medium.type} ${medium.quality} ${medium.mimeType} ${medium.hasAudio ? "+sound" : "silent"}`,
      ),
    ).toEqual([
      // `formats` (muxed) first, then `adaptiveFormats`, each in YouTube's order: the handler ranks them.
      "video 360p video/mp4 +sound",
      "video 2160p60 video/webm silent",
      "video 1080p60 video/mp4 silent",
      "video 1080p60 video/webm silent",
      "video 720p60 video/mp4 silent",
      "video 720p60 video/webm silent",
      "video 480p video/mp4 silent",
      "video 360p video/mp4 silent",
      "video 144p video/mp4 silent",
      // The loudness-compressed (DRC) copy of itag 140 is left out.
      "audio audio 130k audio/mp4 +sound",
      "audio audio 135k audio/webm +sound",
      "audio audio 53k audio/webm +sound",
    ]);
    const fullHd = media[2];
    expect(fullHd).toMatchObject({
      width: 1920,
      height: 1080,
      sizeBytes: 2_457_600,
      bitrate: 4_514_283,
      boundToRequester: true,
    });
    const muxed = media.find((medium) => medium.hasAudio && medium.type === "video");
    expect(muxed).toMatchObject({ width: 640, height: 360, bitrate: 503_224 });
    // YouTube leaves itag 18's size out; no size is better than a guessed one.
    expect(muxed).not.toHaveProperty("sizeBytes");
    const aac = media.find((medium) => medium.mimeType === "audio/mp4");
    expect(aac).toMatchObject({ width: null, height: null, sizeBytes: 327_680 });
    for (const medium of media) {
      expect(medium.boundToRequester).toBe(true);
      expect(new URL(medium.url).hostname).toMatch(/^rr\d---sn-[a-z0-9]+\.googlevideo\.com$/);
      // The itag names the rendition, so the tunnel can ask for the same one again (decision 052).
      expect(medium.formatId).toBe(new URL(medium.url).searchParams.get("itag"));
    }
    expect(muxed?.formatId).toBe("18");
  });

  it("asks once, as the visionOS app: the player endpoint, its context and its headers", async () => {
    const { sent } = await extract(IDS.bigBuckBunny);
    expect(sent).toHaveLength(1);
    const [request] = sent as [Sent];
    expect(request.method).toBe("POST");
    expect(request.url).toBe("https://www.youtube.com/youtubei/v1/player?prettyPrint=false");
    expect(JSON.parse(request.body)).toEqual({
      context: {
        client: {
          clientName: "VISIONOS",
          clientVersion: "1.02",
          deviceMake: "Apple",
          deviceModel: "RealityDevice17,1",
          userAgent:
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_7_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15",
          osName: "visionOS",
          osVersion: "26.5.23O471",
          hl: "en",
          timeZone: "UTC",
          utcOffsetMinutes: 0,
        },
      },
      videoId: "aqz-KE-bpKQ",
      playbackContext: { contentPlaybackContext: { html5Preference: "HTML5_PREF_WANTS" } },
      contentCheckOk: true,
      racyCheckOk: true,
    });
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(request.headers.get("x-youtube-client-name")).toBe("101");
    expect(request.headers.get("x-youtube-client-version")).toBe("1.02");
    expect(request.headers.get("user-agent")).toBe(VISIONOS.context.userAgent);
    expect(request.headers.get("origin")).toBe("https://www.youtube.com");
  });

  it("serves every medium's bytes from the fake googlevideo at its size, with Range", async () => {
    const { media } = post((await extract(IDS.bigBuckBunny)).result);
    const fake = createFakeSocialFetch([fakeYoutube]);
    for (const medium of media) {
      const file = fakeYoutubeMediaFile(medium.url);
      expect(file, medium.url).not.toBeNull();
      if (medium.sizeBytes !== undefined) expect(file?.size).toBe(medium.sizeBytes);
      expect(file?.mimeType).toBe(medium.mimeType);
    }
    const audio = media.find((medium) => medium.mimeType === "audio/webm" && medium.quality === "audio 53k");
    const whole = await fake(audio?.url ?? "");
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(bytes.length).toBe(112_640);
    const file = fakeYoutubeMediaFile(audio?.url ?? "");
    expect(bytes).toEqual(fakeMediaBytes(file?.seed ?? "", 0, 112_640));
    const part = await fake(audio?.url ?? "", { headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/112640");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(fakeMediaBytes(file?.seed ?? "", 100, 200));
    // A URL YouTube never signed is refused, as googlevideo does.
    const forged = new URL(audio?.url ?? "");
    forged.searchParams.set("itag", "22");
    expect((await fake(forged.toString())).status).toBe(403);
  });

  it("reads a Short and a YouTube Music link as the same video", async () => {
    const { result: watch } = await extract(IDS.bigBuckBunny);
    const { extractor } = harness();
    const signal = new AbortController().signal;
    const short = await extractor.extract(
      ref(IDS.bigBuckBunny, "short", `https://www.youtube.com/shorts/${IDS.bigBuckBunny}`),
      signal,
    );
    const music = await extractor.extract(
      ref(IDS.bigBuckBunny, "video", `https://music.youtube.com/watch?v=${IDS.bigBuckBunny}`),
      signal,
    );
    expect(post(short)).toEqual(post(watch));
    expect(post(music)).toEqual(post(watch));
  });
});

describe("youtubeExtractor: failures are typed, and the next client is asked only when it may help", () => {
  it.each([
    ["private", IDS.private, { kind: "content-private" }],
    ["deleted", IDS.deleted, { kind: "content-unavailable" }],
    ["never existed", "neverExist1", { kind: "content-unavailable" }],
    ["region-locked", IDS.regionLocked, { kind: "content-unavailable", regionLocked: true }],
    ["bot check", IDS.loginWall, { kind: "login-required", detail: expect.stringContaining("not a bot") }],
    [
      "age-restricted",
      IDS.ageRestricted,
      { kind: "login-required", detail: expect.stringContaining("age-restricted") },
    ],
    ["rate-limited", IDS.rateLimited, { kind: "upstream-rate-limited", retryAfterSeconds: 120 }],
    ["DRM", IDS.drm, { kind: "drm-protected" }],
    ["members only", IDS.membersOnly, { kind: "login-required", detail: expect.stringContaining("members") }],
    ["session limit", IDS.sessionLimited, { kind: "upstream-rate-limited" }],
    [
      "premiere not started",
      IDS.liveOffline,
      { kind: "content-unavailable", detail: expect.stringContaining("not started") },
    ],
    ["live now", IDS.liveNow, { kind: "content-unavailable", detail: expect.stringContaining("live right now") }],
  ])("%s: answered from the first client's answer alone", async (_name, id, expected) => {
    const { result, sent } = await extract(id);
    expect(result).toMatchObject({ ok: false, ...expected });
    if (expected.kind !== "content-unavailable" || !("regionLocked" in expected))
      expect(result).not.toHaveProperty("regionLocked");
    expect(sent).toHaveLength(1);
  });

  it("covers every scenario its fixture URLs name", async () => {
    const expected: Record<string, string> = {
      private: "content-private",
      deleted: "content-unavailable",
      regionLocked: "content-unavailable",
      loginWall: "login-required",
      rateLimited: "upstream-rate-limited",
      blocked: "upstream-blocked",
      changedShape: "extractor-outdated",
      drm: "drm-protected",
    };
    for (const [scenario, kind] of Object.entries(expected)) {
      const id = idOf(YOUTUBE_FIXTURE_URLS[scenario as keyof typeof YOUTUBE_FIXTURE_URLS]);
      const { result } = await extract(id ?? "");
      expect(result.ok ? "ok" : result.kind, scenario).toBe(kind);
    }
  });

  it("changed shape (formats without URLs, SABR only): extractor-outdated after every client", async () => {
    const { result, sent } = await extract(IDS.changedShape);
    expect(result).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
      what: "streamingData without direct format URLs",
    });
    expect(sent.map((request) => JSON.parse(request.body).context.client.clientName)).toEqual(["VISIONOS", "IOS"]);
  });

  it("another video's answer (YouTube's stand-in for a distrusted address): upstream-blocked", async () => {
    const { result, sent } = await extract(IDS.blocked);
    expect(result).toMatchObject({ ok: false, kind: "upstream-blocked" });
    expect(sent).toHaveLength(2);
  });

  it("enciphered-only formats from visionOS: iOS is asked next, and its direct URLs are used", async () => {
    const { result, sent } = await extract(IDS.clientFallback);
    const video = post(result);
    expect(video.media.map((medium) => medium.quality)).toEqual(["360p", "720p60", "audio 130k"]);
    for (const medium of video.media) expect(new URL(medium.url).searchParams.get("c")).toBe("IOS");
    expect(sent).toHaveLength(2);
    expect(JSON.parse(sent[0]?.body ?? "")).toEqual(playerRequestBody(VISIONOS, IDS.clientFallback));
    expect(JSON.parse(sent[1]?.body ?? "")).toEqual(playerRequestBody(IOS, IDS.clientFallback));
    expect(JSON.parse(sent[1]?.body ?? "").context.client).toMatchObject({
      clientName: "IOS",
      clientVersion: "21.26.4",
      deviceModel: "iPhone16,2",
      userAgent: "com.google.ios.youtube/21.26.4 (iPhone16,2; U; CPU iOS 18_3_2 like Mac OS X;)",
    });
    expect(sent[1]?.headers.get("x-youtube-client-name")).toBe("5");
    expect(sent[1]?.headers.get("user-agent")).toBe(IOS.context.userAgent);
  });

  /** visionOS answered `visionos`, every other client by the recorded fake. */
  function visionOsAnswers(visionos: () => Response): FakePlatform {
    return {
      hosts: ["www.youtube.com"],
      async handle(request) {
        const body = (await request.clone().json()) as { context: { client: { clientName: string } } };
        return body.context.client.clientName === "VISIONOS" ? visionos() : fakeYoutube.handle(request);
      },
    };
  }

  it.each([
    [
      "its client version refused (HTTP 400)",
      () => Response.json({ error: { code: 400, status: "INVALID_ARGUMENT" } }, { status: 400 }),
    ],
    [
      "unplayable on that app (made for kids)",
      () =>
        Response.json({
          playabilityStatus: { status: "UNPLAYABLE", reason: "This video is not available on this app." },
        }),
    ],
  ])("visionOS %s: iOS is asked and answers", async (_name, visionos) => {
    const { extractor, sent } = harness([visionOsAnswers(visionos)]);
    const video = post(await extractor.extract(ref(IDS.bigBuckBunny), new AbortController().signal));
    expect(video.media[0]?.url).toContain("c=IOS");
    expect(sent.map((request) => request.headers.get("x-youtube-client-name"))).toEqual(["101", "5"]);
  });

  it("keeps what the video said over a later client's unreadable answer", async () => {
    const unplayable = () =>
      Response.json({ playabilityStatus: { status: "UNPLAYABLE", reason: "This video requires payment to watch." } });
    const { extractor } = harness([visionOsAnswers(unplayable)]);
    const result = await extractor.extract(ref(IDS.changedShape), new AbortController().signal);
    expect(result).toMatchObject({
      ok: false,
      kind: "content-unavailable",
      detail: expect.stringContaining("requires payment"),
    });
  });

  it("when every client answers only enciphered URLs, says so: extractor-outdated", async () => {
    const cipherEverywhere: FakePlatform = {
      hosts: ["www.youtube.com"],
      async handle(request) {
        const body = (await request.clone().json()) as { context: { client: { clientName: string } } };
        body.context.client.clientName = "VISIONOS";
        return fakeYoutube.handle(
          new Request(request.url, { method: "POST", headers: request.headers, body: JSON.stringify(body) }),
        );
      },
    };
    const { extractor, sent } = harness([cipherEverywhere]);
    const result = await extractor.extract(ref(IDS.clientFallback), new AbortController().signal);
    expect(result).toMatchObject({
      ok: false,
      kind: "extractor-outdated",
      what: "streamingData formats only with signatureCipher",
    });
    expect(sent).toHaveLength(2);
  });

  it.each([
    [
      "an HTML page",
      new Response("<!doctype html><title>YouTube</title>", { headers: { "content-type": "text/html" } }),
      "player response is not JSON",
    ],
    ["no playability status", Response.json({ responseContext: {} }), "playabilityStatus"],
    [
      "a status it has never seen",
      Response.json({ playabilityStatus: { status: "CONTENT_CHECK_REQUIRED" } }),
      "playabilityStatus.status CONTENT_CHECK_REQUIRED",
    ],
    [
      "OK without streaming data",
      Response.json({ playabilityStatus: { status: "OK" }, videoDetails: { videoId: IDS.bigBuckBunny } }),
      "streamingData",
    ],
    [
      "videoDetails of the wrong type",
      Response.json({ playabilityStatus: { status: "OK" }, videoDetails: [] }),
      "player response videoDetails",
    ],
    ["a server error", new Response("backend error", { status: 503 }), "HTTP 503"],
  ])("%s: extractor-outdated naming what it lacks", async (_name, response, what) => {
    const { extractor } = harness([{ hosts: ["www.youtube.com"], handle: () => response.clone() }]);
    const result = await extractor.extract(ref(IDS.bigBuckBunny), new AbortController().signal);
    expect(result).toMatchObject({ ok: false, kind: "extractor-outdated", what });
  });

  it("a description field in a new shape costs only that field, not the video", async () => {
    const reshaped: FakePlatform = {
      hosts: ["www.youtube.com"],
      async handle(request) {
        const answer = (await (await fakeYoutube.handle(request)).json()) as {
          videoDetails: Record<string, unknown>;
          microformat: Record<string, unknown>;
        };
        answer.videoDetails.thumbnail = { thumbnails: [{ sources: ["https://i.ytimg.com/vi/x/hq.jpg"] }] };
        answer.videoDetails.lengthSeconds = 635;
        answer.videoDetails.title = { simpleText: "Big Buck Bunny" };
        answer.microformat = { playerMicroformatRenderer: { ownerProfileUrl: { url: "/@BlenderOfficial" } } };
        return Response.json(answer);
      },
    };
    const { extractor } = harness([reshaped]);
    const video = post(await extractor.extract(ref(IDS.bigBuckBunny), new AbortController().signal));
    expect(video).toMatchObject({
      title: null,
      thumbnail: null,
      durationSec: null,
      author: { name: "Blender", handle: null },
    });
    expect(video.media).toHaveLength(12);
  });

  it("refuses an id that is not a YouTube id without asking", async () => {
    const { extractor, sent } = harness();
    const result = await extractor.extract(ref("../../evil"), new AbortController().signal);
    expect(result).toMatchObject({ ok: false, kind: "content-unavailable" });
    expect(sent).toHaveLength(0);
  });

  it("stops when the caller gives up", async () => {
    const { extractor } = harness();
    const controller = new AbortController();
    controller.abort();
    await expect(extractor.extract(ref(IDS.bigBuckBunny), controller.signal)).rejects.toThrow();
  });
});

describe("youtubeExtractor: hosts", () => {
  it("fetches only its configured API host, and names googlevideo as its media CDN", async () => {
    expect(harness().extractor.apiHosts).toEqual(["www.youtube.com"]);
    expect(harness().extractor.mediaHosts).toEqual([".googlevideo.com"]);
    const proxied = harness(
      [
        {
          hosts: ["yt.proxy.test"],
          handle: (request) =>
            fakeYoutube.handle(new Request(request.url.replace("yt.proxy.test", "www.youtube.com"), request)),
        },
      ],
      { www: "https://yt.proxy.test/" },
    );
    expect(proxied.extractor.apiHosts).toEqual(["yt.proxy.test"]);
    expect(post(await proxied.extractor.extract(ref(IDS.bigBuckBunny), new AbortController().signal)).title).toContain(
      "Big Buck Bunny",
    );
    expect(proxied.sent.map((request) => request.url)).toEqual([
      "https://yt.proxy.test/youtubei/v1/player?prettyPrint=false",
    ]);
  });

  it("does not follow an answer that sends it to another host", async () => {
    const { result, sent } = await extract(IDS.redirected);
    expect(result).toMatchObject({ ok: false, kind: "extractor-outdated", what: "HTTP 302" });
    expect(sent.map((request) => new URL(request.url).hostname)).toEqual(["www.youtube.com"]);
  });

  it("drops a format or thumbnail whose URL is not on YouTube's own hosts", async () => {
    const tampered: FakePlatform = {
      hosts: ["www.youtube.com"],
      async handle(request) {
        const answer = (await (await fakeYoutube.handle(request)).json()) as {
          streamingData: { adaptiveFormats: { url: string }[] };
          videoDetails: { thumbnail: { thumbnails: { url: string; width: number; height: number }[] } };
        };
        const first = answer.streamingData.adaptiveFormats[0];
        if (first) first.url = first.url.replace(/rr\d---sn-[a-z0-9]+\.googlevideo\.com/, "evil.example");
        const second = answer.streamingData.adaptiveFormats[1];
        if (second) second.url = second.url.replace("https://", "http://");
        answer.videoDetails.thumbnail.thumbnails.push({
          url: "https://evil.example/huge.jpg",
          width: 9999,
          height: 9999,
        });
        return Response.json(answer);
      },
    };
    const { extractor } = harness([tampered]);
    const video = post(await extractor.extract(ref(IDS.bigBuckBunny), new AbortController().signal));
    expect(video.media.map((medium) => medium.quality)).not.toContain("2160p60");
    expect(video.media.filter((medium) => medium.quality === "1080p60").map((medium) => medium.mimeType)).toEqual([
      "video/webm",
    ]);
    expect(video.media).toHaveLength(10);
    for (const medium of video.media) expect(new URL(medium.url).hostname.endsWith(".googlevideo.com")).toBe(true);
    expect(video.thumbnail).toBe("https://i.ytimg.com/vi/aqz-KE-bpKQ/maxresdefault.jpg");
  });

  it("runs no evaluated code and loads no YouTube library", () => {
    expect(extractorSource).not.toMatch(/\beval\s*\(|new\s+Function\b/);
    expect(extractorSource).not.toMatch(/\bimport\s*\(|from\s+["']youtubei/);
    expect(extractorSource).toMatch(/from "zod"/);
  });
});
