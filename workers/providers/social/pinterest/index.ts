/**
 * Pinterest pins, read from the pin page's own data (`{www}/pin/<id>/`): the page embeds the pin
 * as its Redux state (`<script id="__PWS_INITIAL_PROPS__">`, or `__PWS_DATA__` on older builds:
 * `initialReduxState.pins[<id>]`), with `videos.video_list` (V_720P, V_HLSV4, …), a story pin's
 * `story_pin_data` pages of video and image blocks, a carousel's slots and `images.orig`.
 * Pinterest serves some requests the same page with its data in Relay's camelCase form instead;
 * then the pin is asked of the PinResource endpoint yt-dlp reads, which answers the same
 * snake_case pin. A pin.it short link is followed to the pin it names, each hop checked here
 * against Pinterest's page hosts (not its media CDN).
 *
 * Only progressive mp4 renditions are listed: an HLS playlist is no file a client can fetch with
 * one GET. Every pin has an image, so a pin with none means its shape is not what we read.
 */
import { z } from "zod";
import type { ExtractedMedia, Extraction, ExtractionFailure, PostRef } from "~workers/hosted/capabilities";
import {
  type ExtractorDeps,
  failureFromStatus,
  ForeignHostError,
  hostGuardedFetch,
  MAX_JSON_BYTES,
  MAX_PAGE_BYTES,
  outdated,
  type PlatformExtractor,
  readJson,
  readText,
} from "../extractor";
import { BROWSER_PAGE_HEADERS, imageMimeTypeOf } from "../html";

const ImageSchema = z.object({ url: z.string(), width: z.number().optional(), height: z.number().optional() });
const ImagesSchema = z.record(z.string(), ImageSchema.nullable().optional());
const VideoListSchema = z.record(
  z.string(),
  z
    .object({
      url: z.string(),
      width: z.number().optional(),
      height: z.number().optional(),
      duration: z.number().optional(),
    })
    .nullable()
    .optional(),
);
const PersonSchema = z
  .object({ full_name: z.string().optional(), username: z.string().optional() })
  .nullable()
  .optional();

const PinSchema = z.object({
  id: z.string(),
  title: z.string().nullable().optional(),
  grid_title: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  closeup_attribution: PersonSchema,
  native_creator: PersonSchema,
  pinner: PersonSchema,
  images: ImagesSchema.nullable().optional(),
  videos: z.object({ video_list: VideoListSchema }).nullable().optional(),
  story_pin_data: z
    .object({
      pages: z.array(
        z.object({
          blocks: z.array(
            z.object({
              video: z.object({ video_list: VideoListSchema }).nullable().optional(),
              image: z.object({ images: ImagesSchema }).nullable().optional(),
            }),
          ),
        }),
      ),
    })
    .nullable()
    .optional(),
  carousel_data: z
    .object({ carousel_slots: z.array(z.object({ images: ImagesSchema })) })
    .nullable()
    .optional(),
});
type Pin = z.infer<typeof PinSchema>;

const ReduxSchema = z.object({ initialReduxState: z.object({ pins: z.record(z.string(), z.unknown()) }) });

export function pinterestExtractor(deps: ExtractorDeps): PlatformExtractor {
  const www = deps.baseUrls.www ?? "https://www.pinterest.com";
  // A short link's last hop may land on a regional subdomain (in.pinterest.com), as may the
  // pin page itself when Pinterest sends a country's visitors to theirs. pin.it and the hosts
  // its redirects use are constants, not configuration: the link's host is the caller's, and
  // Pinterest picks where it leads (decision 054).
  const apiHosts = [new URL(www).hostname, "pin.it", "api.pinterest.com", ".pinterest.com"];
  // Every hop of a page's or a short link's redirects is judged here against the page hosts:
  // the fetch we are given (index.ts) also admits the media CDN, where no page lives.
  const fetchPage = hostGuardedFetch(deps.fetch, apiHosts);

  /** The pin as the PinResource endpoint answers it (yt-dlp's route). */
  async function fromResource(id: string, signal: AbortSignal): Promise<Extraction> {
    const data = JSON.stringify({ options: { field_set_key: "unauth_react_main_pin", id }, context: {} });
    const query = new URLSearchParams({ source_url: `/pin/${id}/`, data });
    const response = await fetchPage(`${www}/resource/PinResource/get/?${query}`, {
      signal,
      headers: {
        accept: "application/json",
        "x-pinterest-pws-handler": "www/pin/[id].js",
        "x-requested-with": "XMLHttpRequest",
      },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return failureFromStatus("pinterest", response);
    }
    const answer = z
      .object({ resource_response: z.object({ data: z.unknown() }) })
      .safeParse(await readJson(response, MAX_JSON_BYTES));
    if (!answer.success) return outdated("pinterest", "PinResource resource_response");
    const pin = PinSchema.safeParse(answer.data.resource_response.data);
    return pin.success ? postOf(pin.data) : outdated("pinterest", "PinResource pin");
  }

  /** A pin page's answer: the pin from its own data, or the endpoint's when the page has none we read. */
  async function fromPage(response: Response, id: string, signal: AbortSignal): Promise<Extraction> {
    if (response.status !== 200) {
      await response.body?.cancel();
      return failureFromStatus("pinterest", response);
    }
    const html = await readText(response, MAX_PAGE_BYTES);
    const redux = reduxPin(html, id);
    if (redux === "unreadable") return outdated("pinterest", "page pin data");
    if (redux) return postOf(redux);
    // cobalt's sign of a pin that is gone: the page's data says so.
    if (/"__typename"\s*:\s*"PinNotFound"/.test(html)) return gone();
    return fromResource(id, signal);
  }

  return {
    platform: "pinterest",
    apiHosts,
    mediaHosts: [".pinimg.com"],
    async extract(ref: PostRef, signal: AbortSignal): Promise<Extraction> {
      if (ref.kind === "share") {
        if (!/^[A-Za-z0-9_-]{1,64}$/.test(ref.id)) return gone();
        let response: Response;
        try {
          response = await fetchPage(`https://pin.it/${ref.id}`, { signal, headers: BROWSER_PAGE_HEADERS });
        } catch (error) {
          if (!(error instanceof ForeignHostError)) throw error;
          // Where a short link leads is its maker's choice: off Pinterest's pages, there is no pin.
          return gone("That pin.it link leads away from Pinterest, not to a pin on it.");
        }
        if (response.status !== 200) return fromPage(response, "", signal);
        // The pin's id is in the address we were sent to, or (when that is not at hand) in the
        // page's canonical link: the page itself is the pin's, so it is read without a refetch.
        const html = await readText(response, MAX_PAGE_BYTES);
        const id =
          pinIdOf(response.url) ?? pinIdOf(/<link\b[^>]*rel="canonical"[^>]*href="([^"]*)"/.exec(html)?.[1] ?? "");
        if (!id) return outdated("pinterest", "pin.it link's pin");
        return fromPage(new Response(html, { status: 200 }), id, signal);
      }
      if (!/^\d{1,25}$/.test(ref.id)) return gone();
      const response = await fetchPage(`${www}/pin/${ref.id}/`, { signal, headers: BROWSER_PAGE_HEADERS });
      return fromPage(response, ref.id, signal);
    },
  };
}

function pinIdOf(url: string): string | null {
  if (!url) return null;
  try {
    return /^\/pin\/(\d{1,25})(?:\/|$)/.exec(new URL(url).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The pin from the page's Redux state; null when the page has none, "unreadable" when it is not a pin we read. */
function reduxPin(html: string, id: string): Pin | null | "unreadable" {
  for (const [name, path] of [
    ["__PWS_INITIAL_PROPS__", []],
    ["__PWS_DATA__", ["props"]],
  ] as const) {
    const raw = new RegExp(`<script\\b[^>]*id="${name}"[^>]*>([\\s\\S]*?)</script>`).exec(html)?.[1];
    if (!raw) continue;
    let state: unknown;
    try {
      state = JSON.parse(raw);
    } catch {
      continue;
    }
    for (const key of path) state = (state as Record<string, unknown> | null)?.[key];
    const redux = ReduxSchema.safeParse(state);
    const entry = redux.success ? redux.data.initialReduxState.pins[id] : undefined;
    if (entry === undefined) continue;
    const pin = PinSchema.safeParse(entry);
    return pin.success ? pin.data : "unreadable";
  }
  return null;
}

function postOf(pin: Pin): Extraction {
  const media: ExtractedMedia[] = [];
  let durationSec: number | null = null;
  // A story pin's blocks and a carousel's slots are the pin's items, numbered in its order; a
  // video's renditions share its item, listed in Pinterest's order (the handler ranks them).
  let items = 0;
  const addVideo = (list: z.infer<typeof VideoListSchema>) => {
    const renditions = Object.values(list).filter((item) => item && new URL(item.url).pathname.endsWith(".mp4"));
    const seen = new Set<string>();
    const found: ExtractedMedia[] = [];
    for (const item of renditions) {
      if (!item || seen.has(item.url)) continue;
      seen.add(item.url);
      durationSec ??= item.duration ? item.duration / 1000 : null;
      const width = item.width ?? null;
      const height = item.height ?? null;
      found.push({
        item: items,
        url: item.url,
        type: "video",
        quality: width && height ? `${Math.min(width, height)}p` : null,
        width,
        height,
        mimeType: "video/mp4",
        hasAudio: true,
      });
    }
    if (found.length === 0) return false;
    media.push(...found);
    items++;
    return true;
  };
  const addImage = (images: z.infer<typeof ImagesSchema> | null | undefined) => {
    const image = largest(images);
    if (!image) return;
    media.push({
      item: items++,
      url: image.url,
      type: "image",
      quality: "original",
      width: image.width ?? null,
      height: image.height ?? null,
      mimeType: imageMimeTypeOf(image.url),
      hasAudio: false,
    });
  };

  const pages = pin.story_pin_data?.pages ?? [];
  const slots = pin.carousel_data?.carousel_slots ?? [];
  if (pin.videos?.video_list && addVideo(pin.videos.video_list)) {
    // A video pin's image is its cover, answered as the thumbnail.
  } else if (pages.length > 0) {
    for (const block of pages.flatMap((page) => page.blocks)) {
      if (block.video?.video_list) addVideo(block.video.video_list);
      else if (block.image) addImage(block.image.images);
    }
  } else if (slots.length > 0) {
    for (const slot of slots) addImage(slot.images);
  }
  if (media.length === 0) addImage(pin.images);
  if (media.length === 0) return outdated("pinterest", "pin without images or videos");

  const person = pin.closeup_attribution ?? pin.native_creator ?? pin.pinner;
  const title = [pin.title, pin.grid_title, pin.description].map((text) => text?.trim()).find(Boolean) ?? null;
  return {
    ok: true,
    post: {
      platform: "pinterest",
      id: pin.id,
      title,
      author: {
        name: person?.full_name || null,
        handle: person?.username || null,
        url: person?.username ? `https://www.pinterest.com/${person.username}/` : null,
      },
      thumbnail: largest(pin.images)?.url ?? media.find((item) => item.type === "image")?.url ?? null,
      durationSec,
      media,
    },
  };
}

/** `orig` where Pinterest gives it, else the widest size it lists. */
function largest(images: z.infer<typeof ImagesSchema> | null | undefined) {
  if (!images) return null;
  const orig = images.orig ?? images.originals;
  if (orig) return orig;
  const sizes = Object.values(images).filter((image) => image != null);
  return sizes.sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0] ?? null;
}

function gone(detail = "Pinterest has no such pin: it was deleted or never existed."): ExtractionFailure {
  return { ok: false, kind: "content-unavailable", detail };
}
