/**
 * The images a page names, fetched for pdfmake: through the caller's guarded fetcher (pdfmake
 * itself may fetch nothing), bounded in count, bytes and pixels, and sniffed from their bytes.
 * pdfkit embeds a JPEG as it is but inflates a PNG's pixels in memory, so a PNG's header is
 * read before pdfmake sees it: a small file declaring a huge canvas would otherwise fill the
 * isolate's 128 MB. GIF (its first frame), WebP and BMP, which pdfkit does not read, become PNGs
 * through photon. An image that is refused, fails or is none of these is left out of the
 * document; the rest prints.
 */
import type { ResourceFetcher } from "~workers/hosted/capabilities";
import { detectFormat, readImageHeader } from "~workers/hosted/_image/sniff";

export const IMAGE_LIMITS = {
  /** Distinct images fetched per document; later ones are left out. */
  count: 30,
  /** Bytes of one image. */
  bytes: 5 * 1024 * 1024,
  /** Bytes of every image together. */
  totalBytes: 15 * 1024 * 1024,
  /** Pixels of one PNG (inflated as 4–8 bytes each): 2500 × 1600. */
  pngPixels: 4_000_000,
  /** Pixels of every PNG together. */
  totalPngPixels: 8_000_000,
  /** A side of any image, in pixels. */
  side: 10_000,
  /**
   * Pixels of one GIF, WebP or BMP, which pdfkit cannot embed and photon turns into a PNG first:
   * photon's WebAssembly memory grows by ~12 bytes a pixel decoded and never shrinks.
   */
  convertedPixels: 1_000_000,
} as const;

export interface ResolvedImage {
  /** The reference the image is embedded under: the first of those naming the same URL. */
  key: string;
  /** A data URL pdfmake reads without fetching. */
  dataUrl: string;
  width: number;
  height: number;
}

export interface ImageResolution {
  images: Map<string, ResolvedImage>;
  /** One sentence per image left out, for the log and the tests. */
  skipped: string[];
}

/**
 * Resolves each `src` (keyed as given) against `baseUrl`: `data:` URLs are decoded here,
 * anything else is fetched through `fetchResource`, one at a time so the byte budget holds.
 */
export async function resolveImages(
  sources: Map<string, string>,
  baseUrl: string | undefined,
  fetchResource: ResourceFetcher,
  deadline: number,
): Promise<ImageResolution> {
  const images = new Map<string, ResolvedImage>();
  const skipped: string[] = [];
  let totalBytes = 0;
  let pngPixels = 0;
  let fetched = 0;
  // The same image named twice (relative and absolute, say) is fetched and embedded once.
  const byUrl = new Map<string, ResolvedImage | null>();
  for (const [key, src] of sources) {
    const absolute = absoluteUrl(src, baseUrl);
    if (absolute !== null && byUrl.has(absolute)) {
      const known = byUrl.get(absolute);
      if (known) images.set(key, known);
      continue;
    }
    if (absolute !== null) byUrl.set(absolute, null);
    const label = src.startsWith("data:") ? "a data: URL image" : src;
    if (fetched >= IMAGE_LIMITS.count) {
      skipped.push(`${label}: more than ${IMAGE_LIMITS.count} images`);
      continue;
    }
    fetched++;
    const bytes = await imageBytes(src, baseUrl, fetchResource, IMAGE_LIMITS.totalBytes - totalBytes, deadline);
    if (!bytes.ok) {
      skipped.push(`${label}: ${bytes.detail}`);
      continue;
    }
    totalBytes += bytes.bytes.length;
    const format = detectFormat(bytes.bytes);
    const header = format ? readImageHeader(bytes.bytes, format) : null;
    if (!format || !header) {
      skipped.push(`${label}: not a PNG, JPEG, GIF, WebP or BMP image`);
      continue;
    }
    if (header.width > IMAGE_LIMITS.side || header.height > IMAGE_LIMITS.side) {
      skipped.push(`${label}: ${header.width}×${header.height} pixels is too large`);
      continue;
    }
    const pixels = header.width * header.height;
    const converted = format !== "png" && format !== "jpeg";
    if (format !== "jpeg") {
      const limit = converted ? IMAGE_LIMITS.convertedPixels : IMAGE_LIMITS.pngPixels;
      if (pixels > limit || pngPixels + pixels > IMAGE_LIMITS.totalPngPixels) {
        skipped.push(`${label}: ${header.width}×${header.height} pixels is too large`);
        continue;
      }
      pngPixels += pixels;
    }
    let embedded = bytes.bytes;
    let mimeType = header.mimeType;
    if (converted) {
      const png = await convertToPng(bytes.bytes);
      if (!png) {
        skipped.push(`${label}: the ${format.toUpperCase()} image could not be decoded`);
        continue;
      }
      [embedded, mimeType] = [png, "image/png"];
    }
    const image = {
      key,
      dataUrl: `data:${mimeType};base64,${toBase64(embedded)}`,
      width: header.width,
      height: header.height,
    };
    images.set(key, image);
    if (absolute !== null) byUrl.set(absolute, image);
  }
  return { images, skipped };
}

async function imageBytes(
  src: string,
  baseUrl: string | undefined,
  fetchResource: ResourceFetcher,
  budget: number,
  deadline: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; detail: string }> {
  const maxBytes = Math.min(IMAGE_LIMITS.bytes, budget);
  if (maxBytes <= 0) return { ok: false, detail: "the images' byte budget is spent" };
  if (/^data:/i.test(src)) {
    const bytes = decodeDataUrl(src);
    if (!bytes) return { ok: false, detail: "not a readable data: URL" };
    if (bytes.length > maxBytes) return { ok: false, detail: "larger than the images' byte budget" };
    return { ok: true, bytes };
  }
  let url: URL;
  try {
    url = new URL(src, baseUrl);
  } catch {
    return { ok: false, detail: baseUrl ? "not a URL" : "a relative URL, and the request has no baseUrl" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, detail: `${url.protocol} URLs are not fetched` };
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { ok: false, detail: "no time was left to fetch it" };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([
    fetchResource(url.href, { maxBytes, accept: "image/png,image/jpeg,image/*;q=0.5" }),
    new Promise<{ ok: false; detail: string }>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, detail: "it took too long to fetch" }), remaining);
    }),
  ]).finally(() => clearTimeout(timer));
  return result.ok ? { ok: true, bytes: result.bytes } : { ok: false, detail: result.detail };
}

function absoluteUrl(src: string, baseUrl: string | undefined): string | null {
  if (/^data:/i.test(src)) return null;
  try {
    return new URL(src, baseUrl).href;
  } catch {
    return null;
  }
}

/** A GIF, WebP or BMP as PNG bytes, or null when photon cannot read it. */
async function convertToPng(bytes: Uint8Array): Promise<Uint8Array | null> {
  // Imported on first use: most pages have no such image, and the module is large.
  const { PhotonImage } = await import("@cf-wasm/photon/workerd");
  let image: InstanceType<typeof PhotonImage> | undefined;
  try {
    image = PhotonImage.new_from_byteslice(bytes);
    return image.get_bytes();
  } catch {
    // photon panics (a WebAssembly trap its instance survives) on data it cannot read.
    return null;
  } finally {
    image?.free();
  }
}

/** A `data:` URL's bytes (base64 or percent-encoded), or null when it is not one. */
export function decodeDataUrl(src: string): Uint8Array | null {
  const comma = src.indexOf(",");
  if (comma < 0) return null;
  const meta = src.slice(5, comma);
  const payload = src.slice(comma + 1);
  try {
    if (/;base64$/i.test(meta)) {
      const binary = atob(payload.replace(/\s+/g, ""));
      return Uint8Array.from(binary, (char) => char.charCodeAt(0));
    }
    return new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    return null;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}
