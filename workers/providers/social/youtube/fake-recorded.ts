/**
 * The player answers the YouTube fake gives, by video id and asking client. They follow the
 * structure of YouTube's real `/youtubei/v1/player` answers (as yt-dlp and cobalt read them),
 * trimmed to what the extractor reads plus some of the fields around it, so a reader that
 * leaned on an absent field would fail here as it would against YouTube. Media URLs are on
 * googlevideo.com in YouTube's own form; the fake serves their bytes (fake.ts).
 */
import { YOUTUBE_FIXTURE_IDS as IDS } from "./fixtures";

export interface RecordedAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** The asking client's name (`context.client.clientName`) → its answer. */
type Recording = (clientName: string) => RecordedAnswer;

const BBB = IDS.bigBuckBunny;
const EXPIRE = "1795996800";

function responseContext(clientName: string) {
  return {
    visitorData: "CgtYbW9ja1Zpc2l0b3IojPWpzQYyCgoCVVMSBBICCwg%3D",
    serviceTrackingParams: [
      {
        service: "GFEEDBACK",
        params: [
          { key: "is_viewed_live", value: "False" },
          { key: "logged_in", value: "0" },
          { key: "e", value: "23804281,23966208,24004644,51010235" },
        ],
      },
      {
        service: "CSI",
        params: [
          { key: "c", value: clientName },
          { key: "yt_li", value: "0" },
        ],
      },
    ],
    maxAgeSeconds: 0,
  };
}

/** A googlevideo URL as YouTube writes one; `fake.ts` answers it. */
function mediaUrl(
  videoId: string,
  itag: number,
  mime: string,
  contentLength: string | undefined,
  client: string,
  extra = "",
) {
  const params = new URLSearchParams({
    expire: EXPIRE,
    ei: "gPmpZ8KzB4Ck6dsPq4TQyQk",
    ip: "203.0.113.7",
    id: `o-A${videoId.replace(/[^A-Za-z0-9]/g, "")}Fake`,
    itag: String(itag),
    source: "youtube",
    requiressl: "yes",
    xpc: "EgVo2aDSNQ==",
    mime,
    ...(contentLength && { clen: contentLength }),
    dur: "634.566",
    lmt: "1706557286012345",
    c: client,
    txp: "5532434",
    sparams: "expire,ei,ip,id,itag,source,requiressl,xpc,mime,clen,dur,lmt",
    sig: "AJfQdSswRAIgFakeSignature0123456789abcdefABCDEF",
    lsparams: "met,mh,mm,mn,ms,mv,mvi,pl,rms,initcwndbps",
    lsig: "APaTxxMwRQIhAFakeLsig0123456789",
  });
  return `https://rr${(itag % 5) + 1}---sn-4g5lzner.googlevideo.com/videoplayback?${params}${extra}`;
}

interface FormatSpec {
  itag: number;
  mimeType: string;
  bitrate: number;
  averageBitrate?: number;
  width?: number;
  height?: number;
  fps?: number;
  qualityLabel?: string;
  quality: string;
  contentLength?: string;
  audioQuality?: string;
  isDrc?: boolean;
}

/** A format as the player answer writes it, with its direct URL. */
function format(videoId: string, client: string, spec: FormatSpec, extra: Record<string, unknown> = {}) {
  const mime = spec.mimeType.split(";")[0] ?? "";
  const drc = spec.isDrc ? "&xtags=drc%3D1" : "";
  return {
    itag: spec.itag,
    url: mediaUrl(videoId, spec.itag, mime, spec.contentLength, client, drc),
    mimeType: spec.mimeType,
    bitrate: spec.bitrate,
    ...(spec.width && { width: spec.width, height: spec.height }),
    ...(spec.contentLength && { initRange: { start: "0", end: "740" }, indexRange: { start: "741", end: "2276" } }),
    lastModified: "1706557286012345",
    ...(spec.contentLength && { contentLength: spec.contentLength }),
    quality: spec.quality,
    ...(spec.fps && { fps: spec.fps, qualityLabel: spec.qualityLabel, projectionType: "RECTANGULAR" }),
    ...(spec.averageBitrate && { averageBitrate: spec.averageBitrate }),
    ...(spec.height &&
      spec.height >= 720 && {
        colorInfo: {
          primaries: "COLOR_PRIMARIES_BT709",
          transferCharacteristics: "COLOR_TRANSFER_CHARACTERISTICS_BT709",
          matrixCoefficients: "COLOR_MATRIX_COEFFICIENTS_BT709",
        },
      }),
    ...(spec.audioQuality && {
      audioQuality: spec.audioQuality,
      audioSampleRate: "48000",
      audioChannels: 2,
      loudnessDb: -1.6,
    }),
    ...(spec.isDrc && { isDrc: true, xtags: "CgcKA2RyYxIBMQ" }),
    approxDurationMs: "634566",
    highReplication: spec.itag === 18 ? true : undefined,
    ...extra,
  };
}

/**
 * Big Buck Bunny's formats, as YouTube answers for a 4K 60 fps upload: one muxed 360p file
 * (itag 18, whose size YouTube leaves out) and separate video-only and audio-only streams.
 * Sizes are kept to a few MB so the tunnel tests stream whole files quickly.
 */
export const BBB_MUXED: FormatSpec[] = [
  {
    itag: 18,
    mimeType: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"',
    bitrate: 503_224,
    width: 640,
    height: 360,
    fps: 30,
    qualityLabel: "360p",
    quality: "medium",
    audioQuality: "AUDIO_QUALITY_LOW",
  },
];
export const BBB_ADAPTIVE: FormatSpec[] = [
  {
    itag: 313,
    mimeType: 'video/webm; codecs="vp9"',
    bitrate: 26_315_000,
    averageBitrate: 17_984_112,
    width: 3840,
    height: 2160,
    fps: 60,
    qualityLabel: "2160p60",
    quality: "hd2160",
    contentLength: "3604480",
  },
  {
    itag: 299,
    mimeType: 'video/mp4; codecs="avc1.64002a"',
    bitrate: 6_176_000,
    averageBitrate: 4_514_283,
    width: 1920,
    height: 1080,
    fps: 60,
    qualityLabel: "1080p60",
    quality: "hd1080",
    contentLength: "2457600",
  },
  {
    itag: 303,
    mimeType: 'video/webm; codecs="vp9"',
    bitrate: 4_431_000,
    averageBitrate: 3_201_775,
    width: 1920,
    height: 1080,
    fps: 60,
    qualityLabel: "1080p60",
    quality: "hd1080",
    contentLength: "2097152",
  },
  {
    itag: 298,
    mimeType: 'video/mp4; codecs="avc1.4d4020"',
    bitrate: 3_502_000,
    averageBitrate: 2_458_990,
    width: 1280,
    height: 720,
    fps: 60,
    qualityLabel: "720p60",
    quality: "hd720",
    contentLength: "1433600",
  },
  {
    itag: 302,
    mimeType: 'video/webm; codecs="vp9"',
    bitrate: 2_740_000,
    averageBitrate: 1_980_554,
    width: 1280,
    height: 720,
    fps: 60,
    qualityLabel: "720p60",
    quality: "hd720",
    contentLength: "1228800",
  },
  {
    itag: 135,
    mimeType: 'video/mp4; codecs="avc1.4d401f"',
    bitrate: 1_156_000,
    averageBitrate: 776_310,
    width: 854,
    height: 480,
    fps: 30,
    qualityLabel: "480p",
    quality: "large",
    contentLength: "716800",
  },
  {
    itag: 134,
    mimeType: 'video/mp4; codecs="avc1.4d401e"',
    bitrate: 650_000,
    averageBitrate: 438_115,
    width: 640,
    height: 360,
    fps: 30,
    qualityLabel: "360p",
    quality: "medium",
    contentLength: "460800",
  },
  {
    itag: 160,
    mimeType: 'video/mp4; codecs="avc1.4d400c"',
    bitrate: 146_000,
    averageBitrate: 99_641,
    width: 256,
    height: 144,
    fps: 30,
    qualityLabel: "144p",
    quality: "tiny",
    contentLength: "122880",
  },
  {
    itag: 140,
    mimeType: 'audio/mp4; codecs="mp4a.40.2"',
    bitrate: 130_684,
    averageBitrate: 129_502,
    quality: "tiny",
    audioQuality: "AUDIO_QUALITY_MEDIUM",
    contentLength: "327680",
  },
  {
    itag: 140,
    mimeType: 'audio/mp4; codecs="mp4a.40.2"',
    bitrate: 130_601,
    averageBitrate: 129_470,
    quality: "tiny",
    audioQuality: "AUDIO_QUALITY_MEDIUM",
    contentLength: "327600",
    isDrc: true,
  },
  {
    itag: 251,
    mimeType: 'audio/webm; codecs="opus"',
    bitrate: 150_870,
    averageBitrate: 134_775,
    quality: "tiny",
    audioQuality: "AUDIO_QUALITY_MEDIUM",
    contentLength: "296960",
  },
  {
    itag: 249,
    mimeType: 'audio/webm; codecs="opus"',
    bitrate: 62_400,
    averageBitrate: 53_112,
    quality: "tiny",
    audioQuality: "AUDIO_QUALITY_LOW",
    contentLength: "112640",
  },
];

const BBB_TITLE = "Big Buck Bunny 60fps 4K - Official Blender Foundation Short Film";

function bbbDetails(videoId: string = BBB) {
  return {
    videoId,
    title: BBB_TITLE,
    lengthSeconds: "635",
    keywords: ["Big Buck Bunny", "Blender", "Open Movie", "Animation", "Short Film"],
    channelId: "UCSMOQeBJ2RAnuFungnQOxLg",
    isOwnerViewing: false,
    shortDescription:
      "Big Buck Bunny tells the story of a giant rabbit with a heart bigger than himself. Licensed under the Creative Commons Attribution license.",
    isCrawlable: true,
    thumbnail: {
      thumbnails: [
        { url: `https://i.ytimg.com/vi/${videoId}/default.jpg`, width: 120, height: 90 },
        { url: `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg`, width: 320, height: 180 },
        { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`, width: 480, height: 360 },
        { url: `https://i.ytimg.com/vi/${videoId}/sddefault.jpg`, width: 640, height: 480 },
        { url: `https://i.ytimg.com/vi/${videoId}/maxresdefault.jpg`, width: 1920, height: 1080 },
      ],
    },
    allowRatings: true,
    viewCount: "17940183",
    author: "Blender",
    isPrivate: false,
    isUnpluggedCorpus: false,
    isLiveContent: false,
  };
}

function okAnswer(
  client: string,
  videoDetails: unknown,
  streamingData: unknown,
  extra: Record<string, unknown> = {},
): RecordedAnswer {
  return {
    status: 200,
    headers: { "content-type": "application/json; charset=UTF-8" },
    body: {
      responseContext: responseContext(client),
      playabilityStatus: { status: "OK", playableInEmbed: true, contextParams: "Q0FFU0FnZ0I=" },
      streamingData,
      playbackTracking: {
        videostatsPlaybackUrl: { baseUrl: "https://s.youtube.com/api/stats/playback?cl=712345678&docid=" + BBB },
        videostatsWatchtimeUrl: { baseUrl: "https://s.youtube.com/api/stats/watchtime?cl=712345678&docid=" + BBB },
      },
      videoDetails,
      playerConfig: {
        audioConfig: { loudnessDb: -1.6, perceptualLoudnessDb: -15.6, enablePerFormatLoudness: true },
        streamSelectionConfig: { maxBitrate: "26315000" },
        mediaCommonConfig: {
          dynamicReadaheadConfig: {
            maxReadAheadMediaTimeMs: 120000,
            minReadAheadMediaTimeMs: 15000,
            readAheadGrowthRateMs: 1000,
          },
        },
      },
      storyboards: {
        playerStoryboardSpecRenderer: {
          spec: `https://i.ytimg.com/sb/${BBB}/storyboard3_L$L/$N.jpg?sqp=-oaymwENSDfyq4qpAwVwAcABBqLzl_8DBgjJ5aimBg==|48#27#100#10#10#0#default#rs$AOn4CLA`,
        },
      },
      trackingParams: "CAAQu2kiEwi8sNHB6eqOAxWdSkwIHUdkLjg=",
      attestation: {
        playerAttestationRenderer: { challenge: "a=6&a2=10&b=FakeChallenge&c=1795975200&d=1&t=7200&c1a=1" },
      },
      ...extra,
    },
  };
}

function bbbStreaming(videoId: string, client: string) {
  return {
    expiresInSeconds: "21540",
    formats: BBB_MUXED.map((spec) => format(videoId, client, spec)),
    adaptiveFormats: BBB_ADAPTIVE.map((spec) => format(videoId, client, spec)),
    serverAbrStreamingUrl: `https://rr1---sn-4g5lzner.googlevideo.com/videoplayback?expire=${EXPIRE}&ei=gPmpZ8KzB4Ck6dsPq4TQyQk&source=youtube&c=${client}&sabr=1`,
  };
}

/** An answer that is not OK: its playability status as YouTube writes it, nothing to play. */
function refusal(
  client: string,
  playabilityStatus: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): RecordedAnswer {
  return {
    status: 200,
    headers: { "content-type": "application/json; charset=UTF-8" },
    body: {
      responseContext: responseContext(client),
      playabilityStatus,
      trackingParams: "CAAQu2kiEwjY0Kmi8eqOAxXFTEwIHX2tEYE=",
      ...extra,
    },
  };
}

const errorScreen = (reason: string, subreason?: string) => ({
  playerErrorMessageRenderer: {
    reason: { simpleText: reason },
    thumbnail: { thumbnails: [{ url: "//s.ytimg.com/yts/img/meh7-vflGevej7.png", width: 140, height: 100 }] },
    icon: { iconType: "ERROR_OUTLINE" },
    ...(subreason && { subreason: { runs: [{ text: subreason }] } }),
  },
});

const VIDEO_UNAVAILABLE = (client: string) =>
  refusal(client, {
    status: "ERROR",
    reason: "This video is unavailable",
    errorScreen: errorScreen("Video unavailable", "This video isn't available anymore"),
    contextParams: "Q0FFU0FnZ0E=",
  });

export const RECORDED_YOUTUBE: Record<string, Recording> = {
  [BBB]: (client) =>
    okAnswer(client, bbbDetails(), bbbStreaming(BBB, client), {
      microformat: {
        playerMicroformatRenderer: {
          thumbnail: {
            thumbnails: [{ url: `https://i.ytimg.com/vi/${BBB}/maxresdefault.jpg`, width: 1280, height: 720 }],
          },
          embed: { iframeUrl: `https://www.youtube.com/embed/${BBB}`, width: 1280, height: 720 },
          title: { simpleText: BBB_TITLE },
          lengthSeconds: "635",
          ownerProfileUrl: "http://www.youtube.com/@BlenderOfficial",
          externalChannelId: "UCSMOQeBJ2RAnuFungnQOxLg",
          isFamilySafe: true,
          availableCountries: ["AD", "AE", "US", "ZW"],
          category: "Film & Animation",
          publishDate: "2014-11-10T06:41:55-08:00",
          ownerChannelName: "Blender",
          uploadDate: "2014-11-10T06:41:55-08:00",
        },
      },
    }),

  [IDS.private]: (client) =>
    refusal(client, {
      status: "LOGIN_REQUIRED",
      reason: "This video is private",
      messages: ["This is a private video. Please sign in to verify that you may see it."],
      errorScreen: errorScreen("Private video", "Sign in if you've been granted access to this video"),
      contextParams: "Q0FFU0FnZ0M=",
    }),

  [IDS.deleted]: (client) =>
    refusal(client, {
      status: "ERROR",
      reason: "Video unavailable",
      errorScreen: errorScreen("Video unavailable", "This video has been removed by the uploader"),
      contextParams: "Q0FFU0FnZ0E=",
    }),

  [IDS.regionLocked]: (client) =>
    refusal(client, {
      status: "UNPLAYABLE",
      reason: "Video unavailable",
      errorScreen: errorScreen("Video unavailable", "The uploader has not made this video available in your country"),
      playableInEmbed: true,
      miniplayer: { miniplayerRenderer: { playbackMode: "PLAYBACK_MODE_ALLOW" } },
      contextParams: "Q0FFU0FnZ0E=",
    }),

  [IDS.loginWall]: (client) =>
    refusal(client, {
      status: "LOGIN_REQUIRED",
      reason: "Sign in to confirm you’re not a bot",
      errorScreen: {
        playerErrorMessageRenderer: {
          subreason: {
            runs: [
              { text: "This helps protect our community. " },
              {
                text: "Learn more",
                navigationEndpoint: { urlEndpoint: { url: "https://support.google.com/youtube/answer/3037019" } },
              },
            ],
          },
          reason: { simpleText: "Sign in to confirm you’re not a bot" },
          proceedButton: { buttonRenderer: { style: "STYLE_PRIMARY", text: { simpleText: "Sign in" } } },
          icon: { iconType: "ERROR_OUTLINE" },
        },
      },
      skip: { playabilityErrorSkipConfig: { skipOnPlayabilityError: false } },
      contextParams: "Q0FFU0FnZ0I=",
    }),

  [IDS.rateLimited]: () => ({
    status: 429,
    headers: { "content-type": "application/json; charset=UTF-8", "retry-after": "120" },
    body: {
      error: {
        code: 429,
        message: "Resource has been exhausted (e.g. check quota).",
        errors: [
          { message: "Resource has been exhausted (e.g. check quota).", domain: "global", reason: "rateLimitExceeded" },
        ],
        status: "RESOURCE_EXHAUSTED",
      },
    },
  }),

  // The stand-in YouTube gives an address it distrusts: another video's answer, not the one asked.
  [IDS.blocked]: (client) =>
    okAnswer(
      client,
      { ...bbbDetails("Xl5aQOMjz0s"), title: "Video Not Available", author: "YouTube" },
      bbbStreaming("Xl5aQOMjz0s", client),
    ),

  // SABR only: the answer still has its formats but none has a URL, only the streaming endpoint.
  [IDS.changedShape]: (client) =>
    okAnswer(client, bbbDetails(IDS.changedShape), {
      expiresInSeconds: "21540",
      adaptiveFormats: BBB_ADAPTIVE.slice(1, 3).map((spec) => {
        const { url: _url, ...rest } = format(IDS.changedShape, client, spec);
        return rest;
      }),
      serverAbrStreamingUrl: `https://rr1---sn-4g5lzner.googlevideo.com/videoplayback?expire=${EXPIRE}&source=youtube&c=${client}&sabr=1`,
    }),

  [IDS.drm]: (client) =>
    okAnswer(
      client,
      { ...bbbDetails(IDS.drm), title: "Sintel (Feature Presentation)", author: "Blender Studio Films" },
      {
        expiresInSeconds: "21540",
        adaptiveFormats: [
          format(IDS.drm, client, BBB_ADAPTIVE[6] as FormatSpec, {
            drmFamilies: ["WIDEVINE", "PLAYREADY"],
            type: "FORMAT_STREAM_TYPE_OTF",
          }),
          format(IDS.drm, client, BBB_ADAPTIVE[8] as FormatSpec, { drmFamilies: ["WIDEVINE", "PLAYREADY"] }),
        ],
        licenseInfos: [
          {
            drmFamily: "WIDEVINE",
            url: "https://www.youtube.com/api/drm/widevine?video_id=drmMovie001&source=YOUTUBE",
            drmTrackType: "DRM_TRACK_TYPE_ALL",
          },
          {
            drmFamily: "PLAYREADY",
            url: "https://www.youtube.com/api/drm/playready?video_id=drmMovie001&source=YOUTUBE",
            drmTrackType: "DRM_TRACK_TYPE_ALL",
          },
        ],
        drmParams: "Q0FFU0FnZ0RSTQ==",
      },
    ),

  [IDS.ageRestricted]: (client) =>
    refusal(client, {
      status: "LOGIN_REQUIRED",
      reason: "Sign in to confirm your age",
      errorScreen: errorScreen("Sign in to confirm your age", "This video may be inappropriate for some users."),
      desktopLegacyAgeGateReason: 1,
      contextParams: "Q0FFU0FnZ0M=",
    }),

  [IDS.liveOffline]: (client) =>
    refusal(
      client,
      {
        status: "LIVE_STREAM_OFFLINE",
        reason: "Premieres in 3 days",
        playableInEmbed: true,
        liveStreamability: { liveStreamabilityRenderer: { videoId: IDS.liveOffline, pollDelayMs: "15000" } },
      },
      { videoDetails: { ...bbbDetails(IDS.liveOffline), lengthSeconds: "0", isLiveContent: true, isUpcoming: true } },
    ),

  [IDS.liveNow]: (client) =>
    okAnswer(
      client,
      { ...bbbDetails(IDS.liveNow), lengthSeconds: "0", isLive: true, isLiveContent: true },
      {
        expiresInSeconds: "21540",
        adaptiveFormats: BBB_ADAPTIVE.slice(6, 9).map((spec) =>
          format(IDS.liveNow, client, spec, { type: "FORMAT_STREAM_TYPE_OTF" }),
        ),
        hlsManifestUrl: `https://manifest.googlevideo.com/api/manifest/hls_variant/expire/${EXPIRE}/id/${IDS.liveNow}.1/source/yt_live_broadcast/file/index.m3u8`,
      },
    ),

  // visionOS is answered as a web player would be (enciphered URLs only); iOS gets direct ones.
  [IDS.clientFallback]: (client) => {
    const specs = [BBB_MUXED[0], BBB_ADAPTIVE[3], BBB_ADAPTIVE[8]] as FormatSpec[];
    if (client !== "VISIONOS") {
      return okAnswer(client, bbbDetails(IDS.clientFallback), {
        expiresInSeconds: "21540",
        formats: specs.slice(0, 1).map((spec) => format(IDS.clientFallback, client, spec)),
        adaptiveFormats: specs.slice(1).map((spec) => format(IDS.clientFallback, client, spec)),
      });
    }
    const ciphered = (spec: FormatSpec) => {
      const { url, ...rest } = format(IDS.clientFallback, client, spec);
      return { ...rest, signatureCipher: `s=${"Q".repeat(40)}%3D&sp=sig&url=${encodeURIComponent(url)}` };
    };
    return okAnswer(client, bbbDetails(IDS.clientFallback), {
      expiresInSeconds: "21540",
      formats: specs.slice(0, 1).map(ciphered),
      adaptiveFormats: specs.slice(1).map(ciphered),
    });
  },

  [IDS.membersOnly]: (client) =>
    refusal(client, {
      status: "UNPLAYABLE",
      reason: "Join this channel to get access to members-only content like this video, and other exclusive perks.",
      errorScreen: {
        playerLegacyDesktopYpcOfferRenderer: {
          itemTitle: "Blender Studio members",
          offerDescription:
            "Join this channel to get access to members-only content like this video, and other exclusive perks.",
          offerId: "sponsors_only_video",
        },
      },
      contextParams: "Q0FFU0FnZ0E=",
    }),

  [IDS.sessionLimited]: (client) =>
    refusal(client, {
      status: "UNPLAYABLE",
      reason: "This content isn’t available, try again later.",
      errorScreen: errorScreen("This content isn’t available, try again later."),
      contextParams: "Q0FFU0FnZ0E=",
    }),

  // YouTube sending the request elsewhere (its EU consent page does this to a browser).
  [IDS.redirected]: () => ({
    status: 302,
    headers: { location: "https://consent.example.net/m?continue=https%3A%2F%2Fwww.youtube.com%2F" },
    body: "",
  }),
};

/** What YouTube answers for an id it has no video for. */
export const UNKNOWN_VIDEO = VIDEO_UNAVAILABLE;
