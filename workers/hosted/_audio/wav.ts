/**
 * RIFF/WAVE read and written without decoding, shared by both sides of the speech APIs: Audio to
 * Text cuts uploads between sample blocks (split.ts), Text to Audio joins engines' pieces under
 * one header (text-to-speech/audio.ts). Reading is structural only (where the `fmt ` and `data`
 * chunks are, and what `fmt ` says); which codecs or rates a caller accepts is its own policy,
 * with its own wording, so a failure here is a short reason, not a problem.
 *
 * Pure functions: the engine Worker imports them as the main Worker does.
 */

export const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  at + length > bytes.length ? "" : String.fromCharCode(...bytes.subarray(at, at + length));

const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32le = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** WAVE_FORMAT_EXTENSIBLE: the real codec is the first two bytes of the SubFormat GUID. */
export const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

export interface WavLayout {
  ok: true;
  /** The `fmt ` chunk's format tag; for WAVE_FORMAT_EXTENSIBLE, the SubFormat's (null if absent). */
  formatTag: number | null;
  /** The tag as written (0xFFFE for an extensible WAV). */
  declaredTag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
  /** The whole `fmt ` chunk (id, size and body), for a header written over other samples. */
  fmtChunk: Uint8Array;
  /** Where the samples start, and how many bytes of whole blocks there are (may be 0). */
  dataOffset: number;
  dataBytes: number;
}

export type WavLayoutError = {
  ok: false;
  /** Why, as the end of "The file starts like a WAV but …". */
  why: string;
  reason: "malformed" | "truncated";
};

const broken = (why: string, reason: WavLayoutError["reason"] = "malformed"): WavLayoutError => ({
  ok: false,
  why,
  reason,
});

/**
 * The `fmt ` and `data` chunks of a RIFF WAVE file. A `data` size larger than the file (a
 * recording cut off, or a streaming writer's 0 or 0xFFFFFFFF, as Deepgram's streamed WAV may)
 * is read as "to the end"; the samples are counted in whole blocks (a stream may stop inside one).
 */
export function readWavLayout(bytes: Uint8Array): WavLayout | WavLayoutError {
  if (ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WAVE") return broken("its RIFF header is missing");
  let fmt: Omit<WavLayout, "ok" | "dataOffset" | "dataBytes"> | null = null;
  let at = 12;
  // A RIFF file is a list of chunks; a file of thousands is not audio but a trap, so stop early.
  for (let count = 0; count < 1000 && at + 8 <= bytes.length; count++) {
    const id = ascii(bytes, at, 4);
    const size = u32le(bytes, at + 4);
    const body = at + 8;
    if (id === "fmt ") {
      if (size < 16 || body + size > bytes.length) return broken("its fmt chunk is cut short");
      const declaredTag = u16le(bytes, body);
      // The SubFormat GUID follows cbSize (2), valid bits (2) and the channel mask (4).
      const formatTag =
        declaredTag !== WAVE_FORMAT_EXTENSIBLE ? declaredTag : size >= 40 ? u16le(bytes, body + 24) : null;
      fmt = {
        formatTag,
        declaredTag,
        channels: u16le(bytes, body + 2),
        sampleRate: u32le(bytes, body + 4),
        blockAlign: u16le(bytes, body + 12),
        bitsPerSample: u16le(bytes, body + 14),
        fmtChunk: bytes.slice(at, body + size),
      };
      if (fmt.channels === 0 || fmt.sampleRate === 0 || fmt.blockAlign === 0) {
        return broken(
          `its fmt chunk names ${fmt.channels} channels at ${fmt.sampleRate} Hz in ${fmt.blockAlign}-byte blocks`,
        );
      }
    } else if (id === "data") {
      if (!fmt) return broken("its samples come before its fmt chunk");
      const available = bytes.length - body;
      const declared = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      return { ok: true, ...fmt, dataOffset: body, dataBytes: declared - (declared % fmt.blockAlign) };
    }
    at = body + size + (size % 2);
  }
  return broken(fmt ? "it has no data chunk" : "it has no fmt chunk", "truncated");
}

/**
 * A canonical RIFF header over `dataBytes` of samples: `RIFF` size `WAVE`, the given `fmt `
 * chunk (id and size included), `data` size. The 16, 18 and 40-byte fmt chunks need no pad byte.
 */
export function wavHeader(fmtChunk: Uint8Array, dataBytes: number): Uint8Array {
  const header = new Uint8Array(12 + fmtChunk.length + 8);
  const view = new DataView(header.buffer);
  header.set([0x52, 0x49, 0x46, 0x46], 0); // RIFF
  view.setUint32(4, header.length - 8 + dataBytes, true);
  header.set([0x57, 0x41, 0x56, 0x45], 8); // WAVE
  header.set(fmtChunk, 12);
  const data = 12 + fmtChunk.length;
  header.set([0x64, 0x61, 0x74, 0x61], data); // data
  view.setUint32(data + 4, dataBytes, true);
  return header;
}

/** The 16-byte `fmt ` chunk (with its id and size) of integer PCM. */
export function pcmFmtChunk(sampleRate: number, channels = 1, bitsPerSample = 16): Uint8Array {
  const chunk = new Uint8Array(24);
  const view = new DataView(chunk.buffer);
  const blockAlign = channels * (bitsPerSample / 8);
  chunk.set([0x66, 0x6d, 0x74, 0x20], 0); // "fmt "
  view.setUint32(4, 16, true);
  view.setUint16(8, 1, true);
  view.setUint16(10, channels, true);
  view.setUint32(12, sampleRate, true);
  view.setUint32(16, sampleRate * blockAlign, true);
  view.setUint16(20, blockAlign, true);
  view.setUint16(22, bitsPerSample, true);
  return chunk;
}

/** A canonical 44-byte-header WAV of integer PCM samples. */
export function wavOf(pcm: Uint8Array, sampleRate: number, channels = 1, bitsPerSample = 16): Uint8Array {
  const header = wavHeader(pcmFmtChunk(sampleRate, channels, bitsPerSample), pcm.length);
  return concatBytes([header, pcm]);
}

/** Concatenates byte arrays into one, allocated once. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
