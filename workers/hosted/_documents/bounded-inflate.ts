/**
 * Deflate data inflated without trusting it: in small slices of the compressed bytes, with a
 * running count of what comes out, stopped as soon as the output passes a limit. A bomb (a few
 * hundred KB that inflate to gigabytes, whatever sizes its headers declare) so costs at most the
 * limit. Raw deflate is a ZIP entry's (a DOCX's parts); zlib-wrapped is a PNG's image data.
 */
import { Inflate, Unzlib } from "fflate";

/** Compressed bytes pushed at a time: deflate expands at most ~1032:1, so ~1 MB of output per push. */
const SLICE = 1024;

export type InflateFailure = { ok: false; reason: "too-large" | "malformed" };

/** Pushes `parts` through the inflater, handing each output chunk to `take`; false once past `limit`. */
function inflateInSlices(
  parts: readonly Uint8Array[],
  limit: number,
  format: "raw" | "zlib",
  take: (chunk: Uint8Array) => void,
): { ok: true; size: number } | InflateFailure {
  let total = 0;
  const onChunk = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total <= limit) take(chunk);
  };
  const inflater = format === "raw" ? new Inflate(onChunk) : new Unzlib(onChunk);
  try {
    for (const part of parts) {
      for (let at = 0; at < part.length; at += SLICE) {
        inflater.push(part.subarray(at, Math.min(at + SLICE, part.length)), false);
        if (total > limit) return { ok: false, reason: "too-large" };
      }
    }
    inflater.push(new Uint8Array(0), true);
  } catch {
    return { ok: false, reason: total > limit ? "too-large" : "malformed" };
  }
  return total > limit ? { ok: false, reason: "too-large" } : { ok: true, size: total };
}

/** How many bytes `parts` inflate to, at most `limit`; nothing inflated is kept. */
export function inflatedSize(
  parts: readonly Uint8Array[],
  limit: number,
  format: "raw" | "zlib",
): { ok: true; size: number } | InflateFailure {
  return inflateInSlices(parts, limit, format, () => {});
}

/** What `data` inflates to, when that is at most `limit` bytes. */
export function inflateAtMost(
  data: Uint8Array,
  limit: number,
  format: "raw" | "zlib",
): { ok: true; bytes: Uint8Array } | InflateFailure {
  const chunks: Uint8Array[] = [];
  const inflated = inflateInSlices([data], limit, format, (chunk) => chunks.push(chunk));
  if (!inflated.ok) return inflated;
  const bytes = new Uint8Array(inflated.size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { ok: true, bytes };
}
