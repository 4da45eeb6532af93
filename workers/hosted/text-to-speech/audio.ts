/**
 * What both speech engines need to answer one audio file for a text longer than one call of
 * the engine takes: the text cut at sentence boundaries, and the pieces' audio joined the way
 * each format allows. WAV is one header over the summed samples (a second RIFF header in the
 * middle of the data would play as a click, and the first header's sizes would stop players
 * after the first piece); MP3 is a sequence of self-contained frames, so the pieces' frames
 * are concatenated once their tags and their Xing/Info frames (which state one piece's frame
 * count) are dropped; raw PCM is concatenated as it is. FLAC and Ogg Opus cannot be joined
 * without re-encoding, so the engines give them only for a text that fits one call.
 *
 * Shared by the main Worker (Workers AI's answers) and the engine Worker (meSpeak's).
 */

/** Sentence ends in the scripts the engines speak: Latin, CJK full stops, Devanagari's danda. */
const SENTENCE_END = /([.!?;…。！？；।]+["'”’)\]]*)(\s+|$)|(\n\s*\n)|([。！？])/gu;

/**
 * Cuts `text` into pieces of at most `maxChars` characters, at sentence ends where it can, then
 * at commas, then at spaces, and only as a last resort inside a word (a 5 000-character token
 * has nowhere else to be cut). Pieces keep their punctuation, so each is spoken with the
 * intonation of its sentence; runs of whitespace between them are dropped.
 */
export function splitText(text: string, maxChars: number): string[] {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return trimmed ? [trimmed] : [];
  // Each sentence with the whitespace that follows it, so packing keeps the text's own spacing
  // (none between CJK sentences, a space or a line break between others).
  const sentences: string[] = [];
  let start = 0;
  for (const match of trimmed.matchAll(SENTENCE_END)) {
    const end = (match.index ?? 0) + match[0].length;
    if (end > start) sentences.push(trimmed.slice(start, end));
    start = end;
  }
  if (start < trimmed.length) sentences.push(trimmed.slice(start));

  const pieces: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) pieces.push(current.trim());
    current = "";
  };
  for (const sentence of sentences) {
    if (sentence.trim().length > maxChars) {
      flush();
      pieces.push(...cutLong(sentence.trim(), maxChars));
    } else if ((current + sentence).trim().length <= maxChars) current += sentence;
    else {
      flush();
      current = sentence;
    }
  }
  flush();
  return pieces;
}

/** One sentence longer than a piece: cut at commas, then spaces, then anywhere. */
function cutLong(sentence: string, maxChars: number): string[] {
  if (sentence.length <= maxChars) return [sentence];
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > maxChars) {
    // ", " and " " are cut after their first character, so they may sit at maxChars; a
    // one-character CJK comma is kept with its piece, so it must fit inside it.
    const window = rest.slice(0, maxChars + 1);
    const inside = rest.slice(0, maxChars);
    let cut = Math.max(window.lastIndexOf(", "), inside.lastIndexOf("、"), inside.lastIndexOf("，"));
    if (cut < maxChars / 3) cut = window.lastIndexOf(" ");
    if (cut < maxChars / 3) {
      cut = maxChars - 1;
      // Never between the two halves of a surrogate pair (an emoji, a rare CJK character).
      if (isHighSurrogate(rest.charCodeAt(cut)) && cut > 0) cut -= 1;
    }
    out.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trim();
  }
  if (rest) out.push(rest);
  return out;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

// ---- WAV ----

export interface WavAudio {
  /** 1 for integer PCM. */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** The samples, as the file holds them. */
  data: Uint8Array;
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * Reads a RIFF/WAVE file's format and samples. A streaming encoder writes its sizes before it
 * knows them (0 or 0xFFFFFFFF, as Deepgram's streamed WAV may): a `data` size past the end of
 * the bytes is read as "to the end". Null when the bytes are not a PCM WAV.
 */
export function readWav(bytes: Uint8Array): WavAudio | null {
  if (bytes.length < 12 || ascii(bytes, 0) !== "RIFF" || ascii(bytes, 8) !== "WAVE") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: Omit<WavAudio, "data"> | null = null;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "fmt " && size >= 16 && body + 16 <= bytes.length) {
      format = {
        audioFormat: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === "data") {
      if (!format) return null;
      const end = size === 0 || body + size > bytes.length ? bytes.length : body + size;
      const frame = format.channels * (format.bitsPerSample / 8);
      // Whole sample frames only: a streamed file may stop inside one.
      const usable = end - body - ((end - body) % Math.max(1, frame));
      return { ...format, data: bytes.subarray(body, body + usable) };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/**
 * Writes a canonical 44-byte WAV header for `dataBytes` of integer PCM samples at the start of
 * `out`, whose samples follow it at byte 44.
 */
export function writeWavHeader(
  out: Uint8Array,
  dataBytes: number,
  sampleRate: number,
  channels = 1,
  bitsPerSample = 16,
): void {
  const view = new DataView(out.buffer, out.byteOffset, 44);
  const text = (at: number, value: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = value.charCodeAt(i);
  };
  const blockAlign = channels * (bitsPerSample / 8);
  text(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bitsPerSample, true);
  text(36, "data");
  view.setUint32(40, dataBytes, true);
}

/** A canonical 44-byte-header WAV of integer PCM samples. */
export function wavOf(pcm: Uint8Array, sampleRate: number, channels = 1, bitsPerSample = 16): Uint8Array {
  const out = new Uint8Array(44 + pcm.length);
  writeWavHeader(out, pcm.length, sampleRate, channels, bitsPerSample);
  out.set(pcm, 44);
  return out;
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

/**
 * One WAV of several pieces' samples, in order, allocated once at its final size with the
 * samples copied straight in (a long answer is tens of MB: an intermediate copy of the samples
 * would hold them twice over). Null when a piece is not a PCM WAV or its format differs from
 * the first's (the engines give one format for every piece of a call).
 */
export function joinWav(pieces: readonly Uint8Array[]): Uint8Array | null {
  const read = pieces.map(readWav);
  const first = read[0];
  if (!first || first.audioFormat !== 1) return null;
  for (const piece of read) {
    if (
      !piece ||
      piece.audioFormat !== first.audioFormat ||
      piece.channels !== first.channels ||
      piece.sampleRate !== first.sampleRate ||
      piece.bitsPerSample !== first.bitsPerSample
    )
      return null;
  }
  const dataBytes = read.reduce((sum, piece) => sum + piece!.data.length, 0);
  const out = new Uint8Array(44 + dataBytes);
  writeWavHeader(out, dataBytes, first.sampleRate, first.channels, first.bitsPerSample);
  let offset = 44;
  for (const piece of read) {
    out.set(piece!.data, offset);
    offset += piece!.data.length;
  }
  return out;
}

// ---- MP3 ----

export interface Mp3Frame {
  offset: number;
  length: number;
  sampleRate: number;
  samples: number;
}

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_L3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG 1
  2: [22050, 24000, 16000], // MPEG 2
  0: [11025, 12000, 8000], // MPEG 2.5
};

/** The length of an ID3v2 tag at `offset` (0 when there is none). */
function id3Length(bytes: Uint8Array, offset: number): number {
  if (offset + 10 > bytes.length || ascii(bytes, offset).slice(0, 3) !== "ID3") return 0;
  const size =
    ((bytes[offset + 6]! & 0x7f) << 21) |
    ((bytes[offset + 7]! & 0x7f) << 14) |
    ((bytes[offset + 8]! & 0x7f) << 7) |
    (bytes[offset + 9]! & 0x7f);
  const footer = bytes[offset + 5]! & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** The MPEG Layer III frame header at `offset`, or null. */
function mp3FrameAt(bytes: Uint8Array, offset: number): Mp3Frame | null {
  if (offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3;
  if (version === 1 || ((b1 >> 1) & 3) !== 1) return null; // reserved version, or not Layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const kbps = (version === 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[bitrateIndex]!;
  const sampleRate = SAMPLE_RATES[version]![rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const length = Math.floor(((version === 3 ? 144_000 : 72_000) * kbps) / sampleRate) + padding;
  return { offset, length, sampleRate, samples: version === 3 ? 1152 : 576 };
}

/**
 * The audio frames of an MP3 file, its ID3v2 tag skipped, in order, up to the first byte that
 * does not start a frame (an ID3v1 tag at the end, or damage). Empty for bytes that are no MP3.
 */
export function mp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  let offset = id3Length(bytes, 0);
  for (;;) {
    const frame = mp3FrameAt(bytes, offset);
    if (!frame || frame.offset + frame.length > bytes.length) break;
    frames.push(frame);
    offset += frame.length;
  }
  return frames;
}

/**
 * A frame that holds an encoder's Xing/Info or VBRI header (no audio; the file's frame count):
 * the tag sits right after the side information (9, 17 or 32 bytes, by version and channels),
 * VBRI 32 bytes in.
 */
function isInfoFrame(bytes: Uint8Array, frame: Mp3Frame): boolean {
  return [9, 17, 32].some((side) => {
    const tag = ascii(bytes, frame.offset + 4 + side);
    return tag === "Xing" || tag === "Info" || (side === 32 && tag === "VBRI");
  });
}

/** Seconds of audio in an MP3 file, from its frames. */
export function mp3Duration(bytes: Uint8Array): number {
  return mp3Frames(bytes)
    .filter((frame) => !isInfoFrame(bytes, frame))
    .reduce((sum, frame) => sum + frame.samples / frame.sampleRate, 0);
}

/**
 * One MP3 of several pieces, in order: each piece's audio frames, without its tags or its
 * Xing/Info frame (which would state a single piece's length for the whole file). Null when a
 * piece holds no MP3 frames.
 */
export function joinMp3(pieces: readonly Uint8Array[]): Uint8Array | null {
  if (pieces.length === 1) return mp3Frames(pieces[0]!).length > 0 ? pieces[0]! : null;
  const parts: Uint8Array[] = [];
  for (const piece of pieces) {
    const frames = mp3Frames(piece).filter((frame) => !isInfoFrame(piece, frame));
    if (frames.length === 0) return null;
    const first = frames[0]!;
    const last = frames[frames.length - 1]!;
    parts.push(piece.subarray(first.offset, last.offset + last.length));
  }
  return concatBytes(parts);
}
