/**
 * The one description of every hosted API. The side menu, the home carousel, the docs
 * pages, the pricing modal's groups (and, from the gateway issue on, OpenAPI and the
 * gateway's plan policy) are all derived from this list, so adding an API is one entry here.
 *
 * Order matters: it is the menu order, and the first entries fill the top navigation bar.
 */
import type { PlanGroup } from "~workers/platform/plans";

export interface HostedApi {
  /** Canonical path segment: `/api/v1/<slug>`, `/docs/api/<slug>`, `/<slug>/live-demo`. */
  slug: string;
  /** Older spellings that keep working (the specification's docs names). */
  aliases: readonly string[];
  /** Name in the menu; cards add ' API'. */
  name: string;
  group: PlanGroup;
  description: string;
  /** Icon name the UI draws for this API (a Lucide icon name, kebab-case). */
  icon: string;
}

export const HOSTED_APIS = [
  {
    slug: "avatar",
    aliases: [],
    name: "Avatars",
    group: "free",
    description: "Generate deterministic SVG or PNG avatars from any seed, in several styles, sizes and colours.",
    icon: "circle-user-round",
  },
  {
    slug: "urlshortener",
    aliases: ["urlshortner"],
    name: "URL Shortener",
    group: "free",
    description: "Shorten long links with custom aliases and expiry, then track clicks by day, referrer and country.",
    icon: "link",
  },
  {
    slug: "colorconvert",
    aliases: [],
    name: "Color Converter",
    group: "free",
    description: "Convert between hex, RGB, HSL, HSV, CMYK and CSS names, with WCAG contrast figures.",
    icon: "palette",
  },
  {
    slug: "location",
    aliases: [],
    name: "Location",
    group: "free",
    description:
      "Look up countries, states and cities, or the caller's own location, with codes, capitals and time zones.",
    icon: "map-pin",
  },
  {
    slug: "qrcode",
    aliases: [],
    name: "QR Code Generator",
    group: "premium",
    description: "Create styled QR codes as PNG or SVG with colours, dot styles, error correction and a centred logo.",
    icon: "qr-code",
  },
  {
    slug: "numtoword",
    aliases: [],
    name: "Number to Word",
    group: "free",
    description: "Spell out numbers as words: cardinal, ordinal or currency amounts, negatives and decimals included.",
    icon: "whole-word",
  },
  {
    slug: "removebg",
    aliases: [],
    name: "Remove Background",
    group: "premium",
    description: "Cut the subject out of a photo and return it on a transparent or solid background.",
    icon: "eraser",
  },
  {
    slug: "phone-codes",
    aliases: [],
    name: "Country Phone Codes",
    group: "free",
    description: "Every country's international calling code with its name, ISO code and flag.",
    icon: "phone",
  },
  {
    slug: "email-exist",
    aliases: [],
    name: "Email Exists",
    group: "premium",
    description:
      "Check whether an email address can receive mail: syntax, MX records, disposable and role addresses, typos.",
    icon: "mail-check",
  },
  {
    slug: "polyline",
    aliases: ["polyine"],
    name: "Polyline Encode/Decode",
    group: "free",
    description:
      "Encode coordinates into Google's encoded polyline format and decode them back, at any precision from 1 to 10 decimals.",
    icon: "route",
  },
  {
    slug: "resume-parser",
    aliases: [],
    name: "Resume Parser",
    group: "freemium",
    description: "Turn a PDF or DOCX résumé into structured JSON: contact details, skills, experience and education.",
    icon: "file-user",
  },
  {
    slug: "youtube-instagram-video-downloader",
    aliases: [],
    name: "Social Media Videos Downloader",
    group: "premium",
    description: "Get downloadable media links for Instagram, Facebook, YouTube, LinkedIn and X posts in one envelope.",
    icon: "clapperboard",
  },
  {
    slug: "image-processing",
    aliases: [],
    name: "Image Filters",
    group: "free",
    description: "Resize, crop, rotate, blur, sharpen and colour-grade images with a list of operations in one call.",
    icon: "sliders-horizontal",
  },
  {
    slug: "image-color-picker",
    aliases: [],
    name: "Image Color Picker",
    group: "free",
    description: "Extract an image's palette ordered by share, with its dominant and background colours.",
    icon: "pipette",
  },
  {
    slug: "merge-images",
    aliases: [],
    name: "Merge Images",
    group: "free",
    description: "Combine two to eight images side by side, stacked, in a grid or as an overlay.",
    icon: "images",
  },
  {
    slug: "text-to-speech",
    aliases: [],
    name: "Text to Audio",
    group: "premium",
    description: "Speak text aloud as WAV or MP3 with a choice of voice, speed and pitch.",
    icon: "audio-lines",
  },
  {
    slug: "image-to-text",
    aliases: [],
    name: "Image to Text",
    group: "freemium",
    description: "Read the text in an image with OCR, with confidence and word boxes line by line.",
    icon: "scan-text",
  },
  {
    slug: "html-to-pdf",
    aliases: [],
    name: "HTML to PDF",
    group: "freemium",
    description: "Render HTML or a web page to PDF with page size, orientation, margins, header and footer.",
    icon: "file-text",
  },
  {
    slug: "audio-to-text",
    aliases: [],
    name: "Audio to Text",
    group: "premium",
    description: "Transcribe speech in WAV, MP3, M4A, WebM, Ogg or FLAC into text, SRT or VTT with timestamps.",
    icon: "mic",
  },
  {
    slug: "currency-converter",
    aliases: [],
    name: "Currency Converter",
    group: "freemium",
    description: "Convert amounts between currencies at today's or a historical ECB reference rate.",
    icon: "banknote",
  },
  {
    slug: "image-to-base64",
    aliases: [],
    name: "Image to Base64",
    group: "free",
    description: "Turn an uploaded or linked image into a data URL with its type, dimensions and size.",
    icon: "file-code",
  },
  {
    slug: "whois-domain",
    aliases: [],
    name: "WHOIS Lookup",
    group: "free",
    description: "Look up a domain's registrar, status, dates, name servers and DNSSEC through RDAP.",
    icon: "globe",
  },
] as const satisfies readonly HostedApi[];

export type HostedApiSlug = (typeof HOSTED_APIS)[number]["slug"];

/** The docs page of an API; also its menu endpoint. */
export function docsPath(api: Pick<HostedApi, "slug">): string {
  return `/docs/api/${api.slug}`;
}

/** Finds an API by its canonical slug or by one of its older spellings. */
export function findHostedApi(slugOrAlias: string): HostedApi | undefined {
  return HOSTED_APIS.find((api: HostedApi) => api.slug === slugOrAlias || api.aliases.includes(slugOrAlias));
}

/** The APIs of one plan group, in menu order. */
export function hostedApisInGroup(group: PlanGroup): HostedApi[] {
  return HOSTED_APIS.filter((api: HostedApi) => api.group === group);
}
