/**
 * Reads named entries of a ZIP (a DOCX) without trusting what the archive says about itself:
 * entries are found in the central directory, and each is inflated in small slices of its
 * compressed bytes with a running count of what came out, so a zip bomb (a few hundred KB that
 * inflate to gigabytes, whatever size its headers declare) is stopped at the limit instead of
 * filling the isolate's memory. The central directory is walked by the module the API's sniffer
 * uses too (workers/hosted/_documents/zip-directory.ts).
 */
import { inflateAtMost } from "~workers/hosted/_documents/bounded-inflate";
import { readZipDirectory } from "~workers/hosted/_documents/zip-directory";

export type ZipRead =
  { ok: true; files: Map<string, Uint8Array> } | { ok: false; reason: "malformed" | "too-large" | "encrypted" };

/** The named entries' contents, inflating at most `maxTotalBytes` in all. */
export function readZipEntries(bytes: Uint8Array, names: readonly string[], maxTotalBytes: number): ZipRead {
  const directory = readZipDirectory(bytes);
  if (!directory?.complete) return { ok: false, reason: "malformed" };
  const { entries } = directory;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const files = new Map<string, Uint8Array>();
  let budget = maxTotalBytes;
  for (const entry of entries) {
    if (!names.includes(entry.name) || files.has(entry.name)) continue;
    if (entry.flags & 1) return { ok: false, reason: "encrypted" };
    const local = entry.localOffset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50)
      return { ok: false, reason: "malformed" };
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const end = start + entry.compressedSize;
    if (end > bytes.length) return { ok: false, reason: "malformed" };
    const data = bytes.subarray(start, end);
    if (entry.method === 0) {
      if (data.length > budget) return { ok: false, reason: "too-large" };
      budget -= data.length;
      files.set(entry.name, data);
      continue;
    }
    if (entry.method !== 8) return { ok: false, reason: "malformed" };
    const inflated = inflateAtMost(data, budget, "raw");
    if (!inflated.ok) return inflated;
    budget -= inflated.bytes.length;
    files.set(entry.name, inflated.bytes);
  }
  return { ok: true, files };
}
