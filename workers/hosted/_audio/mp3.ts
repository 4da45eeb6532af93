/**
 * MPEG audio Layer III walked frame by frame without decoding, shared by both sides of the
 * speech APIs: Audio to Text sniffs and cuts uploads between frames (sniff.ts, split.ts), Text to
 * Audio joins engines' pieces frame by frame (text-to-speech/audio.ts). Any run of whole frames is
 * a valid MP3, which is what makes both possible.
 *
 * Pure functions: the engine Worker imports them as the main Worker does.
 */
import { ascii } from "./wav";

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG 1
  2: [22050, 24000, 16000], // MPEG 2
  0: [11025, 12000, 8000], // MPEG 2.5
};

export interface FrameHeader {
  /** 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5. */
  version: number;
  sampleRate: number;
  /** The frame's size in bytes, header included. */
  size: number;
  samples: number;
  mono: boolean;
}

/** An MPEG audio Layer III frame header at `at`, or null (free format and reserved values too). */
export function frameHeader(bytes: Uint8Array, at: number): FrameHeader | null {
  if (at < 0 || at + 4 > bytes.length) return null;
  const [b0, b1, b2, b3] = [bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3;
  if (version === 1 || ((b1 >> 1) & 3) !== 1) return null; // reserved version; not Layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const sampleRate = SAMPLE_RATES[version]![rateIndex]!;
  const kbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex]!;
  const padding = (b2 >> 1) & 1;
  const size = Math.floor(((version === 3 ? 144_000 : 72_000) * kbps) / sampleRate) + padding;
  return { version, sampleRate, size, samples: version === 3 ? 1152 : 576, mono: b3 >> 6 === 3 };
}

/** The size of the ID3v2 tags at `at` (an encoder may write several in a row), 0 if none. */
export function id3Size(bytes: Uint8Array, at = 0): number {
  let total = 0;
  while (ascii(bytes, at + total, 3) === "ID3" && at + total + 10 <= bytes.length) {
    const base = at + total;
    const size =
      ((bytes[base + 6]! & 0x7f) << 21) |
      ((bytes[base + 7]! & 0x7f) << 14) |
      ((bytes[base + 8]! & 0x7f) << 7) |
      (bytes[base + 9]! & 0x7f);
    total += 10 + size + (bytes[base + 5]! & 0x10 ? 10 : 0);
  }
  return total;
}

/**
 * Whether the frame at `at` holds an encoder's Xing/Info or VBRI header (the file's frame count,
 * no sound): Xing/Info right after the side information, whose size is fixed by the version and
 * the channel mode; VBRI always 32 bytes in.
 */
export function isInfoFrame(bytes: Uint8Array, at: number, header: FrameHeader): boolean {
  const sideInfo = header.version === 3 ? (header.mono ? 17 : 32) : header.mono ? 9 : 17;
  const tag = ascii(bytes, at + 4 + sideInfo, 4);
  return tag === "Xing" || tag === "Info" || ascii(bytes, at + 4 + 32, 4) === "VBRI";
}

/** Whether a frame at `at` is followed by another of the same stream (or by the file's end). */
function frameChains(bytes: Uint8Array, at: number, first: FrameHeader): boolean {
  const next = at + first.size;
  if (next >= bytes.length - 4) return next <= bytes.length;
  const header = frameHeader(bytes, next);
  return !!header && header.version === first.version && header.sampleRate === first.sampleRate;
}

export interface Mp3Layout {
  ok: true;
  sampleRate: number;
  samplesPerFrame: number;
  /** Each audio frame's offset and size, in order (a Xing/Info/VBRI frame left out). */
  offsets: number[];
  sizes: number[];
  /** The Xing/Info/VBRI frame, where there is one. */
  infoFrame: { offset: number; size: number } | null;
}

export type Mp3LayoutError = {
  ok: false;
  /** Why, as the end of "The file starts like an MP3 but …". */
  why: string;
  reason: "malformed" | "no-audio";
};

/** Largest stretch searched for the first frame, and the share of the file that may be junk. */
const FIRST_FRAME_SEARCH = 64 * 1024;
const MAX_JUNK_SHARE = 0.1;

/**
 * Every Layer III frame of an MP3, walked header by header: the sample rate and where each frame
 * is, so the file can be cut or joined between frames. Strict (`tolerant: false`, for our own
 * engines' answers): the first frame right after the ID3 tags, and the walk ends at the first
 * byte that does not start a frame. Tolerant (uploads): the first frame that chains is searched
 * for within 64 KiB, and damaged bytes are skipped to the next frame that chains, up to a tenth
 * of the file (so 25 MB of noise after one frame is not searched byte by byte). Either way the
 * walk ends at a tag that may close an MP3 (ID3v1, APE, Lyrics3, an appended ID3v2), and a last
 * frame cut short is dropped.
 */
export function walkMp3(bytes: Uint8Array, options: { tolerant: boolean }): Mp3Layout | Mp3LayoutError {
  let at = id3Size(bytes);
  let first: FrameHeader | null = null;
  const searchEnd = options.tolerant ? Math.min(bytes.length, at + FIRST_FRAME_SEARCH) : at + 1;
  for (; at < searchEnd; at++) {
    const header = frameHeader(bytes, at);
    if (header && (!options.tolerant || frameChains(bytes, at, header))) {
      first = header;
      break;
    }
  }
  if (!first) return { ok: false, why: "no MPEG audio frame was found in it", reason: "malformed" };
  let infoFrame: Mp3Layout["infoFrame"] = null;
  if (isInfoFrame(bytes, at, first)) {
    infoFrame = { offset: at, size: first.size };
    at += first.size;
  }
  const offsets: number[] = [];
  const sizes: number[] = [];
  let junk = 0;
  const maxJunk = bytes.length * MAX_JUNK_SHARE;
  while (at + 4 <= bytes.length) {
    const header = frameHeader(bytes, at);
    if (header && header.version === first.version && header.sampleRate === first.sampleRate) {
      if (at + header.size > bytes.length) break; // the last frame cut short: dropped
      offsets.push(at);
      sizes.push(header.size);
      at += header.size;
      continue;
    }
    const rest = ascii(bytes, at, 8);
    if (rest.startsWith("TAG") || rest === "APETAGEX" || rest.startsWith("LYRICS") || rest.startsWith("ID3")) break;
    if (!options.tolerant) break;
    let next = at + 1;
    while (next + 4 <= bytes.length && junk + (next - at) <= maxJunk) {
      const candidate = frameHeader(bytes, next);
      if (candidate && candidate.sampleRate === first.sampleRate && frameChains(bytes, next, candidate)) break;
      next++;
    }
    junk += next - at;
    at = next;
    if (junk > maxJunk) break;
  }
  if (offsets.length === 0) return { ok: false, why: "it holds no whole audio frame", reason: "no-audio" };
  if (junk > maxJunk) {
    return { ok: false, why: "over a tenth of it is not MPEG audio frames (damaged)", reason: "malformed" };
  }
  return { ok: true, sampleRate: first.sampleRate, samplesPerFrame: first.samples, offsets, sizes, infoFrame };
}

/** Seconds of sound in a walked MP3 (the Xing/Info frame is silent and left out). */
export const mp3Seconds = (layout: Mp3Layout): number =>
  (layout.offsets.length * layout.samplesPerFrame) / layout.sampleRate;
