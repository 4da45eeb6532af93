/**
 * The outbound capabilities hosted APIs reach through their `OperationContext`, declared on the
 * APIs' side: the providers implement them (workers/providers/dns/mail.ts, rdap/lookup.ts,
 * ecb/exchange-rates.ts) and import these declarations, never the other way round, so the
 * hosted layer does not depend on a provider's module (its socket client, its fakes loader, its
 * data files) and a provider can be swapped without touching an API.
 */
import type { FeedFailure } from "~workers/providers/ecb/feed";
import type { RateStore } from "~workers/providers/ecb/store";
import type { OcrLanguage } from "./ocr-languages";
import type { RegistrationRecord } from "./registration-record";

// ---- Mail (Email Exists) ----

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** What DNS says about a domain's mail. `ttl` is how long the answer may be kept, in seconds. */
export type MailRoute =
  | { kind: "mx"; records: MxRecord[]; ttl: number }
  | { kind: "null-mx"; ttl: number }
  | { kind: "implicit"; records: MxRecord[]; ttl: number }
  | { kind: "no-mail"; ttl: number }
  | { kind: "nxdomain"; ttl: number };

export type MailLookup =
  | ({ ok: true; cached: boolean } & MailRoute)
  /** No answer: `servfail` is the domain's servers failing, the others the resolver's. */
  | { ok: false; reason: "servfail" | "timeout" | "unreachable" | "malformed"; resolver: string };

/** Where a domain's mail goes (RFC 5321 §5.1, RFC 7505). */
export interface MailResolver {
  lookup(domain: string, signal?: AbortSignal): Promise<MailLookup>;
}

// ---- Domain registrations (WHOIS Lookup) ----

/**
 * A domain's registration (RDAP or port-43 WHOIS, read into one shape). Its zod schema, from
 * which these types derive, is in registration-record.ts: the API's answer and the provider's KV
 * cache both validate against it.
 */
export type { DsRecord, RegistrantRecord, RegistrarRecord, RegistrationRecord } from "./registration-record";

/** Why a lookup has no record: expected outcomes, answered as problems by the API. */
export type LookupFailure =
  | { ok: false; code: "not-registered"; host: string }
  | { ok: false; code: "unsupported-tld"; tld: string }
  | { ok: false; code: "upstream"; host: string; reason: "timeout" | "refused" | "unusable" }
  /** Our DNS-over-HTTPS resolver failed checking the registry's address, so no registry was asked. */
  | { ok: false; code: "resolver"; resolver: string };

export type LookupOutcome = { ok: true; record: RegistrationRecord } | LookupFailure;

/** A domain's registration, by its A-label name (lower case, no trailing dot). */
export interface DomainRegistry {
  lookup(domain: string, signal: AbortSignal): Promise<LookupOutcome>;
}

// ---- Exchange rates (Currency Converter) ----

/**
 * The store of ECB days (D1, KV, the bundled snapshot), a clock for `stale`, and a one-time fill
 * for a store that holds nothing at all. The store's own shape stays with the ECB provider,
 * which owns its tables (workers/providers/ecb/store.ts); only its type is named here.
 */
export interface ExchangeRates {
  store: RateStore;
  /** Reads the 90-day file into an empty store; the failure when the feed failed. */
  fillEmpty(signal?: AbortSignal): Promise<FeedFailure | null>;
  /** After a fill: the whole history, in the background (`waitUntil`); failures are left to the cron. */
  fillHistory(): Promise<unknown>;
  now(): number;
}

// ---- Social media posts (Social Media Videos Downloader) ----

/** The platforms whose posts the downloader reads; `x` is also called Twitter. */
export const PLATFORMS = ["youtube", "instagram", "facebook", "x", "linkedin", "pinterest"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Each platform's name as its users write it, for the sentences the API answers. */
export const PLATFORM_NAMES: Record<Platform, string> = {
  youtube: "YouTube",
  instagram: "Instagram",
  facebook: "Facebook",
  x: "X",
  linkedin: "LinkedIn",
  pinterest: "Pinterest",
};

/**
 * A post URL recognised as one platform's (workers/hosted/youtube-instagram-video-downloader/
 * recognise.ts): the post's id and the canonical URL built from it, with every tracking
 * parameter and look-alike spelling gone. Extractors read only this, never the caller's text.
 */
export interface PostRef {
  platform: Platform;
  /** The platform's own id: a YouTube video id, an Instagram shortcode, a tweet id, an activity urn's number. */
  id: string;
  /**
   * What the URL points at where a platform has several kinds (`short` and `video` on YouTube,
   * `reel` and `post` on Instagram, `share` for a Facebook /share/v/ or fb.watch link that must
   * be followed to find the video's id).
   */
  kind: string;
  /** The canonical URL on the platform's main host, e.g. `https://www.youtube.com/watch?v=<id>`. */
  url: string;
}

export interface ExtractedMedia {
  /**
   * Which item of the post this is (0-based, in the post's order): a carousel's or a
   * multi-photo post's items are separate items, while a video's renditions share one. Absent
   * means 0, the post's only item.
   */
  item?: number;
  url: string;
  type: "video" | "audio" | "image";
  /** `1080p`, `720p`, `audio 128k`, `original`: the platform's own label where it has one. */
  quality: string | null;
  width: number | null;
  height: number | null;
  mimeType: string;
  /** A video with its sound in the same file (false for YouTube's separate video-only streams). */
  hasAudio: boolean;
  sizeBytes?: number;
  /** Bitrate in bits per second, where the platform gives it: ranks otherwise equal media. */
  bitrate?: number;
  /**
   * The URL works only from the address that asked for it (YouTube's googlevideo URLs): the API
   * answers a signed tunnel URL on our host in its place.
   */
  boundToRequester?: boolean;
  /**
   * The platform's own name for this rendition (YouTube's itag), by which a fresh extraction of
   * the same post finds the same file: given only where a media URL may stop working before the
   * caller has used it (a bound URL refused from another address), so the tunnel can ask the
   * platform again and pick this rendition (decision 052). Additive: absent, nothing is re-asked.
   */
  formatId?: string;
}

export interface ExtractedPost {
  platform: Platform;
  id: string;
  title: string | null;
  author: { name: string | null; handle: string | null; url: string | null };
  thumbnail: string | null;
  /** As `ExtractedMedia.boundToRequester`, for the thumbnail (fake mode's recorded CDNs). */
  thumbnailBoundToRequester?: boolean;
  durationSec: number | null;
  /** Every item of the post (a carousel's or a thread's all), in the platform's order. */
  media: ExtractedMedia[];
}

/**
 * Why a post could not be read: expected outcomes, answered as typed problems by the API
 * (never a 500, never an empty success).
 *   content-private      the post exists but only its audience may see it
 *   content-unavailable  deleted, never existed, or (`regionLocked`) blocked where we asked from
 *   login-required       the platform demands a signed-in user or a bot check
 *   upstream-rate-limited the platform throttled us (`retryAfterSeconds` when it said)
 *   upstream-blocked     the platform refuses our addresses outright
 *   upstream-failed      the platform could not be reached (a connection reset, a timeout): a retry may work
 *   extractor-outdated   the answer no longer has the shape the extractor reads (`what` says which part)
 *   drm-protected        the media is encrypted (Widevine, PlayReady, FairPlay): refused
 */
export type ExtractionFailure =
  | { ok: false; kind: "content-private"; detail: string }
  | { ok: false; kind: "content-unavailable"; detail: string; regionLocked?: boolean }
  | { ok: false; kind: "login-required"; detail: string }
  | { ok: false; kind: "upstream-rate-limited"; detail: string; retryAfterSeconds?: number }
  | { ok: false; kind: "upstream-blocked"; detail: string }
  | { ok: false; kind: "upstream-failed"; detail: string }
  | { ok: false; kind: "extractor-outdated"; detail: string; what: string }
  | { ok: false; kind: "drm-protected"; detail: string };

export type Extraction = { ok: true; post: ExtractedPost } | ExtractionFailure;

/** An Instagram profile's public face (the older `type: "profile_pic"` call). */
export interface SocialProfile {
  username: string;
  fullName: string | null;
  bio: string | null;
  /** The largest profile picture the platform gives. */
  profilePic: string;
  /** As `ExtractedMedia.boundToRequester`, for the picture (fake mode's recorded CDNs). */
  profilePicBoundToRequester?: boolean;
  followers: number | null;
  following: number | null;
}

export type ProfileExtraction = { ok: true; profile: SocialProfile } | ExtractionFailure;

/**
 * The platforms' posts, read by one extractor per platform (workers/providers/social), real or
 * the recorded fakes by configuration (SOCIAL_PROVIDER).
 */
export interface SocialMedia {
  /**
   * The post's media. `fresh` skips the few minutes' cache: the tunnel asks again for a URL the
   * platform refused, which a cached answer would only repeat.
   */
  extract(ref: PostRef, signal: AbortSignal, options?: { fresh?: boolean }): Promise<Extraction>;
  /** An Instagram profile by user name. */
  profile(username: string, signal: AbortSignal): Promise<ProfileExtraction>;
  /**
   * Fetches a media URL an extraction answered, for the tunnel: only a host of the platform's
   * own media CDNs is fetched (anything else is refused with `null`), `range` and `method` (GET
   * unless HEAD) are passed on, and the upstream's response is returned unread, so its body streams.
   */
  openMedia(
    url: string,
    init: { range: string | null; signal: AbortSignal; method?: "GET" | "HEAD" },
  ): Promise<Response | null>;
  /**
   * The largest range the tunnel should ask this media URL's CDN for at a time, where the
   * platform throttles one long request (YouTube's googlevideo, to about playback speed); null
   * for one pass-through fetch (every other platform, and any URL no platform serves).
   */
  mediaChunkBytes(url: string): number | null;
}

// ---- Documents (HTML to PDF, Image to Text, Resume Parser) ----
//
// These engines run in the engine Worker (workers/engines), reached over a service binding's
// RPC: its methods take these requests and answer these outcomes. Expected failures are values,
// never throws, because RPC carries a thrown error's message but not its class or fields.

/** Why an engine refused or could not answer; the API answers each as the named problem. */
export interface DocumentFailure {
  ok: false;
  problem:
    | "invalid-input" /* 422: the input is read but unusable (a selector that never appears, an unknown language) */
    | "unsupported-media-type" /* 415: the bytes are not a format this API reads */
    | "unreadable-document" /* 422: malformed, truncated, encrypted, or bomb-like (`reason`) */
    | "upstream-failed" /* 502: a URL the caller named could not be fetched */
    | "engine-unavailable" /* 503: the engine asked for does not exist here */
    | "engine-failed"; /* 502: the engine crashed or ran out of time on a valid input */
  detail: string;
  /** Extension members of the problem (`reason`, `engine`, …). */
  extensions?: Record<string, string | number | boolean>;
}

/** A `DocumentFailure`, its extensions only when there are any. */
export const documentFailure = (
  problem: DocumentFailure["problem"],
  detail: string,
  extensions?: DocumentFailure["extensions"],
): DocumentFailure => ({ ok: false, problem, detail, ...(extensions && { extensions }) });

/**
 * How an engine fetches a URL (the page a PDF prints, its images and style sheets): the main
 * Worker hands the engine this function over RPC, and it runs there, through the caller's SSRF
 * guard (`ctx.fetchUrl`), so every byte an engine fetches is judged as a caller's URL is and the
 * call counts as having reached out (decision 013). The engine Worker holds no network rules
 * of its own. A refusal or failure is a value with a sentence for the caller.
 */
export type ResourceFetcher = (url: string, options: { maxBytes: number; accept?: string }) => Promise<FetchedResource>;

export type FetchedResource =
  { ok: true; bytes: Uint8Array; contentType: string; finalUrl: string } | { ok: false; detail: string };

/** The PDF engines, as named in the `X-Engine` response header. */
export const PDF_ENGINES = ["cloudflare-browser-rendering", "chromium", "pdfmake"] as const;
export type PdfEngineName = (typeof PDF_ENGINES)[number];

/** The paper sizes `format` names (Puppeteer's, Gotenberg's and Browser Rendering's alike). */
export const PAPER_FORMATS = ["A3", "A4", "A5", "Letter", "Legal", "Tabloid"] as const;
export type PaperFormat = (typeof PAPER_FORMATS)[number];

/**
 * One HTML-to-PDF job, already validated by the API (workers/hosted/html-to-pdf/schema.ts):
 * lengths are CSS lengths with a unit (`"1cm"`, `"0.5in"`, `"20px"`), the paper is a format or
 * both of width and height.
 */
export interface HtmlToPdfRequest {
  /** `html` is printed as the page's document (relative URLs against `baseUrl`); `url` is fetched. */
  source: { html: string; baseUrl?: string } | { url: string };
  /** `auto` picks the best engine this environment has; a named one answers engine-unavailable if absent. */
  engine: "auto" | "browser" | "embedded";
  paper: { format: PaperFormat } | { width: string; height: string };
  landscape: boolean;
  /** The page's CSS `@page { size }` chooses the paper instead of `paper` (browser engines). */
  preferCssPageSize?: boolean;
  margin: { top: string; right: string; bottom: string; left: string };
  printBackground: boolean;
  /** 0.1–2. */
  scale: number;
  /** `"1-3, 5"`, as Chromium reads it; absent for every page. */
  pageRanges?: string;
  /**
   * Printed in each page's top and bottom margin. Elements with the classes `pageNumber`,
   * `totalPages`, `date`, `title` and `url` are filled in, as Chromium does.
   */
  headerHtml?: string;
  footerHtml?: string;
  /**
   * What to wait for before printing: a CSS selector to appear (for at most `timeoutMs`,
   * ≤ 10 000, 10 000 unless given; not appearing is invalid-input), or a delay (≤ 10 000 ms).
   */
  waitFor?: { selector: string; timeoutMs?: number } | { ms: number };
  emulateMedia: "print" | "screen";
  /** The engine gives up (engine-failed) after this many milliseconds. */
  timeoutMs: number;
}

export type HtmlToPdfOutcome =
  { ok: true; pdf: Uint8Array; engine: PdfEngineName; pageCount: number } | DocumentFailure;

/** The OCR languages, by Tesseract's code; each one's trained data ships in an npm package. */
export { OCR_LANGUAGES, type OcrLanguage } from "./ocr-languages";

export interface OcrRequest {
  /** The image file's bytes as uploaded or fetched (≤ 10 MB); the engine sniffs and decodes them. */
  image: Uint8Array;
  language: OcrLanguage;
  /** Find the page's rotation (0, 90, 180, 270) and read it upright. */
  detectOrientation: boolean;
  /** Answer each line's words with their boxes. */
  wordBoxes: boolean;
  timeoutMs: number;
}

export interface OcrBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OcrWord {
  text: string;
  /** 0–100, as OCR.space and Tesseract's own tools give it. */
  confidence: number;
  box: OcrBox;
}

export interface OcrLine {
  text: string;
  confidence: number;
  box: OcrBox;
  /** Present when `wordBoxes` was asked. */
  words?: OcrWord[];
}

export interface OcrResult {
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
  language: OcrLanguage;
  /** Degrees the image was turned clockwise to read it (0 unless `detectOrientation`). */
  orientation: 0 | 90 | 180 | 270;
  width: number;
  height: number;
  lines: OcrLine[];
  /** `tesseract-<version>`. */
  engine: string;
}

export type OcrOutcome = { ok: true; result: OcrResult } | DocumentFailure;

export interface ResumeRequest {
  /** A PDF or DOCX file's bytes (≤ 10 MB), its type already sniffed by the API. */
  document: Uint8Array;
  format: "pdf" | "docx";
  timeoutMs: number;
}

/** A résumé in the JSON Resume schema's shape (https://jsonresume.org/schema), dates as ISO partial dates. */
export interface ParsedResume {
  basics: {
    name: string | null;
    label: string | null;
    email: string | null;
    phone: string | null;
    url: string | null;
    location: {
      address: string | null;
      postalCode: string | null;
      city: string | null;
      region: string | null;
      countryCode: string | null;
    } | null;
    profiles: { network: string; url: string; username: string | null }[];
    summary: string | null;
  };
  work: {
    name: string | null;
    position: string | null;
    location: string | null;
    /** `2020`, `2020-03` or `2020-03-14`. */
    startDate: string | null;
    /** Null while current. */
    endDate: string | null;
    summary: string | null;
    highlights: string[];
  }[];
  education: {
    institution: string | null;
    area: string | null;
    studyType: string | null;
    startDate: string | null;
    endDate: string | null;
    score: string | null;
  }[];
  skills: { name: string; keywords: string[] }[];
  languages: { language: string; fluency: string | null }[];
  certificates: { name: string; date: string | null; issuer: string | null }[];
  /** The document's whole text, in reading order (column by column). */
  text: string;
  /** `pages` is null for a DOCX: its pages exist only once Word lays it out. */
  meta: { format: "pdf" | "docx"; pages: number | null; columns: number };
}

export type ResumeOutcome = { ok: true; resume: ParsedResume } | DocumentFailure;

/** The engine Worker's RPC interface (workers/engines/index.ts implements it). */
export interface DocumentEngines {
  htmlToPdf(request: HtmlToPdfRequest, fetchResource: ResourceFetcher): Promise<HtmlToPdfOutcome>;
  imageToText(request: OcrRequest): Promise<OcrOutcome>;
  parseResume(request: ResumeRequest): Promise<ResumeOutcome>;
  /** Which PDF engines this environment has, best first (the docs page and `engine: auto`). */
  pdfEngines(): Promise<PdfEngineName[]>;
}

// ---- Media (Text to Audio, Audio to Text, Remove Background) ----
//
// Each runs in production on Cloudflare's own models (Workers AI on the AI binding, Cloudflare
// Images on IMAGES) and, where an engine exists that runs offline inside a Worker, on that
// engine in the engine Worker. The gateway's services pick one per environment
// (workers/gateway/services.ts); with neither, the capability is absent and the API answers
// 503 engine-unavailable naming the binding it needs. Failures are `DocumentFailure` values,
// as the document engines' are. Every engine names itself in `engine` (the `X-Engine` header).

/** Text to Audio's output formats (OpenAI's `response_format` names). */
export const SPEECH_FORMATS = ["mp3", "wav", "opus", "flac", "pcm"] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export interface Voice {
  /** What `voice` takes. */
  id: string;
  name: string;
  /** BCP 47 (`en-US`, `fr`, …). */
  language: string;
  gender: "female" | "male" | null;
  /** The formats this voice answers, where fewer than its engine's (MeloTTS's voices: mp3 only). */
  formats?: SpeechFormat[];
}

export interface SpeechRequest {
  /** Trimmed, 1–4096 characters. */
  text: string;
  /** A voice id of this engine's `voices()`; absent: the engine's default for `language`. */
  voice?: string;
  /** BCP 47; picks the voice when `voice` is absent. */
  language?: string;
  /** One of this engine's `formats`. */
  format: SpeechFormat;
  /** 0.25–4; 1 is the voice's own pace. */
  speed: number;
  /** eSpeak's scale, 0–99; 50 is the voice's own pitch (an engine that cannot change it refuses another). */
  pitch: number;
  /**
   * Workers AI's runs and reads stop at this limit; meSpeak cannot check it (workerd's clock
   * stands still while eSpeak runs), and its 9-minute limit bounds its work instead.
   */
  timeoutMs: number;
}

export type SpeechOutcome =
  | { ok: true; audio: Uint8Array; format: SpeechFormat; contentType: string; voice: string; engine: string }
  | DocumentFailure;

export interface SpeechSynthesizer {
  /** The `X-Engine` value. */
  engine: string;
  /** The formats this engine can answer; another is `invalid-input` at `response_format`. */
  formats: readonly SpeechFormat[];
  voices(): Promise<Voice[]>;
  synthesize(request: SpeechRequest): Promise<SpeechOutcome>;
}

/** Audio to Text's input containers, sniffed from the bytes. */
export const AUDIO_CONTAINERS = ["wav", "mp3", "m4a", "webm", "ogg", "flac"] as const;
export type AudioContainer = (typeof AUDIO_CONTAINERS)[number];

export interface TranscriptionRequest {
  /** ≤ 25 MB, already sniffed as `container`. */
  audio: Uint8Array;
  container: AudioContainer;
  /** Seconds, as the sniffed header says (null where it does not), so the engine need not sniff again. */
  duration: number | null;
  /** ISO 639-1; absent: detected. */
  language?: string;
  /** Text that came before, or spellings to prefer (OpenAI's `prompt`). */
  prompt?: string;
  timeoutMs: number;
}

export interface TranscriptWord {
  word: string;
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
}

export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  text: string;
  words: TranscriptWord[];
  /** Whisper's own measures, where the engine gives them. */
  avgLogprob: number | null;
  compressionRatio: number | null;
  noSpeechProb: number | null;
  temperature: number | null;
}

export interface Transcript {
  text: string;
  /** ISO 639-1, as given or detected. */
  language: string;
  /** Seconds. */
  duration: number;
  segments: TranscriptSegment[];
}

export type TranscriptionOutcome = { ok: true; transcript: Transcript; engine: string } | DocumentFailure;

export interface SpeechRecognizer {
  engine: string;
  transcribe(request: TranscriptionRequest): Promise<TranscriptionOutcome>;
}

/** Remove Background's output formats (remove.bg's names; `jpg` needs a background colour). */
export const CUTOUT_FORMATS = ["png", "webp", "jpg"] as const;
export type CutoutFormat = (typeof CUTOUT_FORMATS)[number];

export interface CutoutRequest {
  /** The image file's bytes as uploaded or fetched (≤ 10 MB); the engine sniffs and decodes them. */
  image: Uint8Array;
  format: CutoutFormat;
  /** Fills the removed background; absent: transparent. 0–255 each. */
  background?: { r: number; g: number; b: number; a: number };
  /**
   * `preview`: at most 0.25 megapixels; `medium`: 1.5; `full`: the image's own size up to the
   * engine's largest (`CUTOUT_MAX_PIXELS`). Larger images are scaled down, as remove.bg does.
   */
  size: CutoutSize;
  /** Crop to the subject's bounding box. */
  crop: boolean;
  /** `alpha`: the mask alone, as a greyscale image. */
  channels: "rgba" | "alpha";
  timeoutMs: number;
}

export const CUTOUT_SIZES = ["preview", "medium", "full"] as const;
export type CutoutSize = (typeof CUTOUT_SIZES)[number];

/** Each size's pixel bound; `full` is bounded by what the engines hold in memory (decision 062). */
export const CUTOUT_MAX_PIXELS: Record<CutoutSize, number> = { preview: 250_000, medium: 1_500_000, full: 3_000_000 };

/** The subject's box in the answer's pixels (remove.bg's `X-Foreground-*`). */
export interface CutoutBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type CutoutOutcome =
  | {
      ok: true;
      image: Uint8Array;
      contentType: string;
      width: number;
      height: number;
      /** Where the subject is in the answer (all of it after `crop`). */
      foreground: CutoutBox;
      engine: string;
    }
  | DocumentFailure;

export interface ForegroundSegmenter {
  engine: string;
  cutOut(request: CutoutRequest): Promise<CutoutOutcome>;
}

/**
 * The engine Worker's cut-out methods (workers/engines/cutout): the classic engine whole, and
 * the finishing of an image another engine segmented (Cloudflare Images' RGBA PNG, its alpha
 * the mask): size, crop, channels, background and format, the same code for both engines.
 */
export interface CutoutEngines {
  cutOut(request: CutoutRequest): Promise<CutoutOutcome>;
  finishCutout(request: Omit<CutoutRequest, "image"> & { segmented: Uint8Array; engine: string }): Promise<CutoutOutcome>;
}

/** What the media APIs reach through their OperationContext; each absent where no engine is. */
export interface MediaEngines {
  speech?: SpeechSynthesizer;
  transcription?: SpeechRecognizer;
  foreground?: ForegroundSegmenter;
}
