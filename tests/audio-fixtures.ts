/**
 * Audio files made in the tests, byte by byte, so every header field is known: PCM WAVs whose
 * "words" are tone bursts (loudness encodes which word, for the fake Whisper in
 * fakes/workers-ai-whisper.ts), MP3s of whole Layer III frames whose first main-data byte marks
 * a word the same way, and the headers of FLAC, Ogg, MP4 and WebM files.
 */

/** The words the fakes "hear": a burst of loudness `k × 1000` (WAV) or marker `k` (MP3) is WORDS[k]. */
export const WORDS = [
  "",
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliett",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
] as const;

export interface Burst {
  /** Seconds. */
  start: number;
  end: number;
  /** 1–20: which of WORDS is said. */
  code: number;
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** A 16-bit PCM WAV of `seconds`, silent but for 440 Hz bursts of amplitude `code × 1000`. */
export function makeWav(options: {
  seconds: number;
  sampleRate?: number;
  channels?: number;
  bursts?: Burst[];
  /** Chunks before `fmt ` and between `fmt ` and `data` (LIST/INFO), as writers add them. */
  extraChunks?: boolean;
}): Uint8Array<ArrayBuffer> {
  const rate = options.sampleRate ?? 16_000;
  const channels = options.channels ?? 1;
  const frames = Math.round(options.seconds * rate);
  const blockAlign = channels * 2;
  const dataBytes = frames * blockAlign;
  const list = options.extraChunks ? [...ascii("LIST"), 4, 0, 0, 0, ...ascii("INFO")] : [];
  const header = [
    ...ascii("RIFF"),
    ...u32(36 + list.length + dataBytes),
    ...ascii("WAVE"),
    ...ascii("fmt "),
    ...u32(16),
    ...u16(1),
    ...u16(channels),
    ...u32(rate),
    ...u32(rate * blockAlign),
    ...u16(blockAlign),
    ...u16(16),
    ...list,
    ...ascii("data"),
    ...u32(dataBytes),
  ];
  const bytes = new Uint8Array(header.length + dataBytes);
  bytes.set(header, 0);
  const view = new DataView(bytes.buffer, header.length);
  for (const burst of options.bursts ?? []) {
    const from = Math.round(burst.start * rate);
    const to = Math.min(frames, Math.round(burst.end * rate));
    for (let frame = from; frame < to; frame++) {
      const sample = Math.round(Math.sin((2 * Math.PI * 440 * frame) / rate) * burst.code * 1000);
      for (let channel = 0; channel < channels; channel++)
        view.setInt16(frame * blockAlign + channel * 2, sample, true);
    }
  }
  return bytes;
}

function u16(value: number): number[] {
  return [value & 0xff, (value >> 8) & 0xff];
}

function u32(value: number): number[] {
  return [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff];
}

/** MPEG-1 Layer III, 128 kbps, 48 kHz, mono: 384-byte frames of 1152 samples (24 ms), no padding. */
export const MP3_FRAME_BYTES = 384;
export const MP3_FRAME_SECONDS = 1152 / 48_000;
const MP3_HEADER = [0xff, 0xfb, 0x94, 0xc4];
/** Where a frame's main data starts: the 4-byte header and 17 bytes of mono side information. */
export const MP3_MARKER_AT = 4 + 17;

/**
 * An MP3 of `seconds` (whole frames), each frame's first main-data byte the code of the word
 * said during it (0: silence), optionally behind an ID3v2 tag and a Xing frame.
 */
export function makeMp3(options: {
  seconds: number;
  bursts?: Burst[];
  id3?: boolean;
  xing?: boolean;
}): Uint8Array<ArrayBuffer> {
  const frames = Math.round(options.seconds / MP3_FRAME_SECONDS);
  const id3 = options.id3 ? [...ascii("ID3"), 4, 0, 0, 0, 0, 0, 20, ...new Array<number>(20).fill(0)] : [];
  const xing = options.xing ? 1 : 0;
  const bytes = new Uint8Array(id3.length + (frames + xing) * MP3_FRAME_BYTES);
  bytes.set(id3, 0);
  for (let frame = 0; frame < frames + xing; frame++) {
    const at = id3.length + frame * MP3_FRAME_BYTES;
    bytes.set(MP3_HEADER, at);
    if (frame < xing) {
      bytes.set(ascii("Xing"), at + MP3_MARKER_AT);
      continue;
    }
    const time = (frame - xing + 0.5) * MP3_FRAME_SECONDS;
    const burst = options.bursts?.find(({ start, end }) => time >= start && time < end);
    bytes[at + MP3_MARKER_AT] = burst?.code ?? 0;
  }
  return bytes;
}

/** A FLAC file's marker and STREAMINFO (then a few bytes standing for frames). */
export function makeFlac(options: { sampleRate: number; totalSamples: number }): Uint8Array<ArrayBuffer> {
  const info = new Uint8Array(34);
  info[10] = (options.sampleRate >> 12) & 0xff;
  info[11] = (options.sampleRate >> 4) & 0xff;
  // 4 bits of rate, 3 of channels − 1 (mono: 0), 1 of bits per sample − 1's top bit.
  info[12] = ((options.sampleRate & 0x0f) << 4) | 0;
  info[13] = (15 << 4) | Math.floor(options.totalSamples / 2 ** 32); // 16 bits a sample (15 + 1)
  new DataView(info.buffer).setUint32(14, options.totalSamples >>> 0);
  return Uint8Array.from([...ascii("fLaC"), 0x80, 0, 0, 34, ...info, 0xff, 0xf8, 0, 0]);
}

function oggPage(serial: number, granule: number, payload: number[], headerType = 0): number[] {
  const page = [
    ...ascii("OggS"),
    0,
    headerType,
    ...u32(granule >>> 0),
    ...u32(Math.floor(granule / 2 ** 32)),
    ...u32(serial),
    ...u32(0),
    ...u32(0),
    1,
    payload.length,
  ];
  return [...page, ...payload];
}

/** An Ogg Opus file: the OpusHead page, and a last page whose granule is 48 kHz × `seconds` + pre-skip. */
export function makeOggOpus(seconds: number, preSkip = 312): Uint8Array<ArrayBuffer> {
  const head = [...ascii("OpusHead"), 1, 1, ...u16(preSkip), ...u32(48_000), 0, 0, 0];
  const last = Math.round(seconds * 48_000) + preSkip;
  return Uint8Array.from([...oggPage(7, 0, head, 2), ...oggPage(7, last, new Array<number>(40).fill(1), 4)]);
}

function box(type: string, body: number[]): number[] {
  const size = 8 + body.length;
  return [(size >>> 24) & 0xff, (size >> 16) & 0xff, (size >> 8) & 0xff, size & 0xff, ...ascii(type), ...body];
}

const u32be = (value: number) => [(value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];

/** An M4A's boxes: ftyp, moov with mvhd (timescale, duration), and an mdat; `moov: false` leaves the index out. */
export function makeM4a(options: {
  seconds: number;
  timescale?: number;
  moov?: boolean;
  brand?: string;
}): Uint8Array<ArrayBuffer> {
  const timescale = options.timescale ?? 44_100;
  const mvhd = box("mvhd", [
    0,
    0,
    0,
    0,
    ...u32be(0),
    ...u32be(0),
    ...u32be(timescale),
    ...u32be(Math.round(options.seconds * timescale)),
    ...new Array<number>(80).fill(0),
  ]);
  return Uint8Array.from([
    ...box("ftyp", [...ascii(options.brand ?? "M4A "), 0, 0, 0, 0, ...ascii("M4A isom")]),
    ...(options.moov === false ? [] : box("moov", mvhd)),
    ...box("mdat", new Array<number>(64).fill(0x21)),
  ]);
}

function ebml(id: number[], body: number[]): number[] {
  // Sizes under 127 in one byte (0x80 | size) are all these tests need.
  return [...id, 0x80 | body.length, ...body];
}

/** A WebM: EBML header with its DocType, a Segment with Info (TimecodeScale, Duration in ms) and a Cluster. */
export function makeWebm(options: { seconds: number | null; docType?: string }): Uint8Array<ArrayBuffer> {
  const duration = new Uint8Array(8);
  new DataView(duration.buffer).setFloat64(0, (options.seconds ?? 0) * 1000);
  const info = [
    ...ebml([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]), // 1 000 000 ns
    ...(options.seconds === null ? [] : ebml([0x44, 0x89], [...duration])),
  ];
  const segment = [...ebml([0x15, 0x49, 0xa9, 0x66], info), ...ebml([0x1f, 0x43, 0xb6, 0x75], [0xe7, 0x81, 0x00])];
  return Uint8Array.from([
    ...ebml([0x1a, 0x45, 0xdf, 0xa3], ebml([0x42, 0x82], ascii(options.docType ?? "webm"))),
    ...ebml([0x18, 0x53, 0x80, 0x67], segment),
  ]);
}
