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
 * Shared by the main Worker (Workers AI's answers) and the engine Worker (meSpeak's). The WAV
 * and MP3 structure is read by workers/hosted/_audio/ (wav.ts, mp3.ts), which Audio to Text
 * reads uploads with too.
 */
import { walkMp3 } from "../_audio/mp3";
import { concatBytes, pcmFmtChunk, readWavLayout, wavHeader } from "../_audio/wav";

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
  /** The codec's format tag: 1 for integer PCM. */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** The samples, as the file holds them (whole blocks). */
  data: Uint8Array;
}

/**
 * A RIFF/WAVE file's format and samples (a streamed header's unknown sizes read as "to the
 * end"), or null when the bytes are not a WAV.
 */
export function readWav(bytes: Uint8Array): WavAudio | null {
  const layout = readWavLayout(bytes);
  if (!layout.ok) return null;
  return {
    audioFormat: layout.formatTag ?? -1,
    channels: layout.channels,
    sampleRate: layout.sampleRate,
    bitsPerSample: layout.bitsPerSample,
    data: bytes.subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes),
  };
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
  const header = wavHeader(pcmFmtChunk(first.sampleRate, first.channels, first.bitsPerSample), dataBytes);
  const out = new Uint8Array(header.length + dataBytes);
  out.set(header);
  let offset = header.length;
  for (const piece of read) {
    out.set(piece!.data, offset);
    offset += piece!.data.length;
  }
  return out;
}

// ---- MP3 ----

/**
 * One MP3 of several pieces, in order: each piece's audio frames, without its tags or its
 * Xing/Info frame (which would state a single piece's length for the whole file). Null when a
 * piece holds no MP3 frames, or its sample rate differs from the first's.
 */
export function joinMp3(pieces: readonly Uint8Array[]): Uint8Array | null {
  const layouts = pieces.map((piece) => walkMp3(piece, { tolerant: false }));
  if (layouts.length === 0 || layouts.some((layout) => !layout.ok)) return null;
  if (pieces.length === 1) return pieces[0]!;
  const parts: Uint8Array[] = [];
  const rate = layouts[0]!.ok ? layouts[0]!.sampleRate : 0;
  for (const [index, layout] of layouts.entries()) {
    if (!layout.ok || layout.sampleRate !== rate) return null;
    const end = layout.offsets.at(-1)! + layout.sizes.at(-1)!;
    parts.push(pieces[index]!.subarray(layout.offsets[0]!, end));
  }
  return concatBytes(parts);
}
