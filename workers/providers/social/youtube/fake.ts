/**
 * YouTube's local fake: the innertube player endpoint on www.youtube.com answers the recorded
 * answers (fake-recorded.ts) by video id and asking client, and googlevideo.com serves the
 * bytes of every media URL those answers hold, at their recorded sizes, with Range.
 */
import type { FakePlatform } from "../fake-platform";
import { fakeMediaResponse } from "../fake-media";
import { RECORDED_YOUTUBE, UNKNOWN_VIDEO, type RecordedAnswer } from "./fake-recorded";

/** Clients the media URLs are recorded for: one answer per client, as YouTube signs per client. */
const RECORDED_CLIENTS = ["VISIONOS", "IOS"];
/** itag 18's answers leave its size out, as YouTube's do; the fake still serves a file. */
const UNSIZED_BYTES = 921_600;

interface MediaFile {
  seed: string;
  size: number;
  mimeType: string;
}

/** A googlevideo URL's identity: the fields YouTube's signature covers that tell files apart. */
function mediaKey(url: URL): string {
  const params = url.searchParams;
  return ["id", "itag", "xtags", "c"].map((name) => params.get(name) ?? "").join("|");
}

let mediaFiles: Map<string, MediaFile> | undefined;

/** Every media URL in the recorded answers → the file the fake serves for it. */
function recordedMedia(): Map<string, MediaFile> {
  if (mediaFiles) return mediaFiles;
  mediaFiles = new Map();
  for (const record of Object.values(RECORDED_YOUTUBE)) {
    for (const client of RECORDED_CLIENTS) {
      const body = record(client).body as { streamingData?: { formats?: unknown[]; adaptiveFormats?: unknown[] } };
      const formats = [...(body?.streamingData?.formats ?? []), ...(body?.streamingData?.adaptiveFormats ?? [])];
      for (const format of formats as { url?: string; mimeType: string; contentLength?: string }[]) {
        if (!format.url) continue;
        const url = new URL(format.url);
        const key = mediaKey(url);
        mediaFiles.set(key, {
          seed: `youtube:${key}`,
          size: Number(format.contentLength ?? UNSIZED_BYTES),
          mimeType: format.mimeType.split(";")[0] ?? "application/octet-stream",
        });
      }
    }
  }
  return mediaFiles;
}

/** The file the fake serves at a googlevideo URL (for tests to check the bytes), or null. */
export function fakeYoutubeMediaFile(url: string): MediaFile | null {
  return recordedMedia().get(mediaKey(new URL(url))) ?? null;
}

function answer(recorded: RecordedAnswer): Response {
  const body = typeof recorded.body === "string" ? recorded.body : JSON.stringify(recorded.body);
  return new Response(body, { status: recorded.status, headers: recorded.headers });
}

const INVALID_ARGUMENT = () =>
  Response.json(
    {
      error: {
        code: 400,
        message: "Request contains an invalid argument.",
        errors: [{ message: "Request contains an invalid argument.", domain: "global", reason: "badRequest" }],
        status: "INVALID_ARGUMENT",
      },
    },
    { status: 400 },
  );

export const fakeYoutube: FakePlatform = {
  hosts: ["www.youtube.com", ".googlevideo.com"],
  async handle(request) {
    const url = new URL(request.url);
    if (url.hostname === "www.youtube.com") {
      if (url.pathname !== "/youtubei/v1/player") return new Response("Not Found", { status: 404 });
      if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
      const body = (await request.json().catch(() => null)) as {
        videoId?: unknown;
        context?: { client?: { clientName?: unknown; clientVersion?: unknown } };
      } | null;
      const clientName = body?.context?.client?.clientName;
      // YouTube refuses a request that does not say which app is asking.
      if (typeof clientName !== "string" || typeof body?.context?.client?.clientVersion !== "string")
        return INVALID_ARGUMENT();
      if (typeof body.videoId !== "string") return INVALID_ARGUMENT();
      const record = RECORDED_YOUTUBE[body.videoId];
      return answer(record ? record(clientName) : UNKNOWN_VIDEO(clientName));
    }
    if (url.pathname !== "/videoplayback") return new Response("Not Found", { status: 404 });
    const file = recordedMedia().get(mediaKey(url));
    // googlevideo answers 403 to a URL whose signature it does not recognise.
    if (!file) return new Response(null, { status: 403 });
    return fakeMediaResponse(request, file);
  },
};
