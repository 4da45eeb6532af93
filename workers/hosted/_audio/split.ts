/**
 * Cutting long audio into pieces a speech model takes one at a time, without decoding it: a WAV
 * between sample blocks (each piece a whole WAV with its own header, the original `fmt ` chunk
 * kept), an MP3 between frames (any run of whole frames is a valid MP3). Pieces are described
 * here and built one by one as they are sent (AudioPiece.read). Each piece knows where
 * it starts in the whole, so the model's timestamps can be moved back onto the whole's clock.
 * Other containers cannot be cut without demuxing; they are sent whole (the caller bounds them).
 */
import type { AudioContainer, DocumentFailure } from "~workers/hosted/capabilities";
import { readWav, walkUploadedMp3, type WavInfo } from "./sniff";
import { concatBytes, wavHeader } from "./wav";

/**
 * One piece, described rather than built: its bytes are made by `read()` just before it is sent,
 * so a 25 MB upload is not held a second time as all its pieces at once (only the pieces in
 * flight exist). An MP3 piece is a view on the upload (its frames are contiguous), no copy.
 */
export interface AudioPiece {
  /** Seconds from the start of the whole file. */
  offset: number;
  /** Seconds; null where the container's header does not say (a piece sent whole). */
  duration: number | null;
  byteLength: number;
  read(): Uint8Array;
}

export interface PieceLimits {
  /** Largest piece in bytes (headers included). */
  maxBytes: number;
  /** Longest piece in seconds. */
  maxSeconds: number;
}

/** The containers cut into pieces; the others are sent whole. */
export const SPLITTABLE: readonly AudioContainer[] = ["wav", "mp3"];

/** How far back from a piece's end a quieter place to cut is looked for, in seconds. */
const QUIET_SEARCH_SECONDS = 2;
/** The window whose loudness is measured when looking for it, in seconds. */
const QUIET_WINDOW_SECONDS = 0.02;

/**
 * The block at which to end a piece of at most `limitBlocks` from `startBlock`: the quietest
 * 20 ms in the last two seconds for 16-bit PCM (so a cut falls between words, not inside one),
 * else exactly at the limit.
 */
function cutBlock(bytes: Uint8Array, layout: WavInfo, startBlock: number, limitBlocks: number): number {
  const end = startBlock + limitBlocks;
  if (layout.bitsPerSample !== 16 || layout.codec !== "pcm") return end;
  const window = Math.max(1, Math.round(layout.sampleRate * QUIET_WINDOW_SECONDS));
  const searchFrom = Math.max(
    startBlock + Math.floor(limitBlocks / 2),
    end - Math.round(layout.sampleRate * QUIET_SEARCH_SECONDS),
  );
  const view = new DataView(bytes.buffer, bytes.byteOffset + layout.dataOffset);
  let best = end;
  let quietest = Infinity;
  for (let from = end - window; from >= searchFrom; from -= window) {
    let energy = 0;
    for (let block = from; block < from + window; block++) {
      const sample = view.getInt16(block * layout.blockAlign, true); // the first channel's
      energy += sample * sample;
    }
    if (energy < quietest) {
      quietest = energy;
      best = from + window; // cut at the end of the quiet window: what follows is the next piece
    }
  }
  return best;
}

function splitWav(bytes: Uint8Array, limits: PieceLimits): AudioPiece[] | DocumentFailure {
  const layout = readWav(bytes);
  if (!layout.ok) return layout;
  const headerBytes = 12 + layout.fmtChunk.length + 8;
  const rate = layout.sampleRate;
  const totalBlocks = layout.dataBytes / layout.blockAlign;
  const limitBlocks = Math.max(
    1,
    Math.min(Math.floor((limits.maxBytes - headerBytes) / layout.blockAlign), Math.floor(limits.maxSeconds * rate)),
  );
  const pieces: AudioPiece[] = [];
  for (let start = 0; start < totalBlocks;) {
    const end = totalBlocks - start <= limitBlocks ? totalBlocks : cutBlock(bytes, layout, start, limitBlocks);
    const dataBytes = (end - start) * layout.blockAlign;
    const from = layout.dataOffset + start * layout.blockAlign;
    pieces.push({
      offset: start / rate,
      duration: (end - start) / rate,
      byteLength: headerBytes + dataBytes,
      read: () => concatBytes([wavHeader(layout.fmtChunk, dataBytes), bytes.subarray(from, from + dataBytes)]),
    });
    start = end;
  }
  return pieces;
}

function splitMp3(bytes: Uint8Array, limits: PieceLimits): AudioPiece[] | DocumentFailure {
  const layout = walkUploadedMp3(bytes);
  if (!layout.ok) return layout;
  const frameSeconds = layout.samplesPerFrame / layout.sampleRate;
  const maxFrames = Math.max(1, Math.floor(limits.maxSeconds / frameSeconds));
  const pieces: AudioPiece[] = [];
  for (let first = 0; first < layout.offsets.length;) {
    // Whole frames while both bounds hold (the ID3 tag and the Xing frame are left out).
    let last = first;
    let size = layout.sizes[first]!;
    while (
      last + 1 < layout.offsets.length &&
      last + 1 - first < maxFrames &&
      size + layout.sizes[last + 1]! <= limits.maxBytes
    ) {
      last++;
      size += layout.sizes[last]!;
    }
    const from = first;
    const to = last;
    const start = layout.offsets[from]!;
    // Frames follow each other unless damaged bytes were skipped between them: then copied.
    const contiguous = layout.offsets[to]! + layout.sizes[to]! - start === size;
    pieces.push({
      offset: first * frameSeconds,
      duration: (last + 1 - first) * frameSeconds,
      byteLength: size,
      read: () =>
        contiguous
          ? bytes.subarray(start, start + size)
          : concatBytes(
              layout.offsets
                .slice(from, to + 1)
                .map((offset, index) => bytes.subarray(offset, offset + layout.sizes[from + index]!)),
            ),
    });
    first = last + 1;
  }
  return pieces;
}

/**
 * The file as pieces within `limits`: a WAV or MP3 cut (a file within them is one piece), any
 * other container as one piece of unknown duration, which the caller must have bounded itself.
 */
export function splitAudio(
  bytes: Uint8Array,
  container: AudioContainer,
  limits: PieceLimits,
): { ok: true; pieces: AudioPiece[] } | DocumentFailure {
  const pieces =
    container === "wav"
      ? splitWav(bytes, limits)
      : container === "mp3"
        ? splitMp3(bytes, limits)
        : [{ offset: 0, duration: null, byteLength: bytes.length, read: () => bytes }];
  return Array.isArray(pieces) ? { ok: true, pieces } : pieces;
}
