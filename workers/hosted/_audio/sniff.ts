/**
 * What an uploaded audio file is, from its bytes alone: the container (magic bytes, never the
 * name or the declared type), and its duration where the header says it cheaply. Nothing here
 * decodes audio: WAV's chunks and FLAC's STREAMINFO are read, MP3's frame headers walked, Ogg's
 * last page, MP4's `mvhd` and WebM's `Info` looked up. A file that starts like a format but
 * whose header cannot be read is refused here (422 unreadable-document), and one that is not
 * audio we read is 415, so no model is called on bytes that cannot be speech.
 */
import { documentFailure as failure, type AudioContainer, type DocumentFailure } from "~workers/hosted/capabilities";
import { frameHeader, id3Size, mp3Seconds, walkMp3, type Mp3Layout } from "./mp3";
import { ascii, readWavLayout, type WavLayout } from "./wav";

export const AUDIO_FORMATS_TEXT = "WAV, MP3, M4A (MP4 audio), WebM, Ogg (Opus, Vorbis or FLAC) or FLAC";

export interface AudioInfo {
  ok: true;
  container: AudioContainer;
  /** Seconds, where the header gives it (always for WAV, MP3 and FLAC with a sample count). */
  duration: number | null;
  /** The codec inside, where the container names it (`pcm`, `opus`, `vorbis`, `flac`, `mp3`…). */
  codec: string | null;
}

const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32le = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

const unreadable = (format: string, why: string, reason: "malformed" | "truncated" | "no-audio" = "malformed") =>
  failure("unreadable-document", `The file starts like ${format} but ${why}.`, { reason });

// ---- WAV ----

/** WAV codecs whose samples are whole blocks of `blockAlign` bytes, so a cut between blocks is exact. */
const WAV_CODECS: Record<number, string> = {
  1: "pcm",
  3: "float",
  6: "alaw",
  7: "mulaw",
};

export interface WavInfo extends WavLayout {
  codec: string;
}

/**
 * A WAV's layout (wav.ts) under this API's policy: a codec whose samples are whole blocks, a
 * sane rate, and some samples; anything else refused with the problem the caller reads.
 */
export function readWav(bytes: Uint8Array): WavInfo | DocumentFailure {
  const layout = readWavLayout(bytes);
  if (!layout.ok) return unreadable("a WAV", layout.why, layout.reason);
  const codec = layout.formatTag === null ? undefined : WAV_CODECS[layout.formatTag];
  if (!codec) {
    const tag =
      layout.formatTag === null
        ? "(extensible, with no SubFormat)"
        : `0x${layout.formatTag.toString(16).padStart(4, "0")}`;
    return failure(
      "unsupported-media-type",
      `The WAV holds audio in codec ${tag}, which is not read: send PCM or float WAV, or ${AUDIO_FORMATS_TEXT.replace("WAV, ", "")}.`,
    );
  }
  if (layout.sampleRate > 384_000) {
    return unreadable("a WAV", `its fmt chunk names ${layout.channels} channels at ${layout.sampleRate} Hz`);
  }
  if (layout.dataBytes === 0) return unreadable("a WAV", "it holds no samples", "no-audio");
  return { ...layout, codec };
}

// ---- MP3 ----

/** Every Layer III frame of an uploaded MP3, damage tolerated up to a tenth of the file (mp3.ts). */
export function walkUploadedMp3(bytes: Uint8Array): Mp3Layout | DocumentFailure {
  const layout = walkMp3(bytes, { tolerant: true });
  return layout.ok ? layout : unreadable("an MP3", layout.why, layout.reason);
}

// ---- FLAC ----

function readFlacStreamInfo(bytes: Uint8Array, at: number): { sampleRate: number; totalSamples: number } | null {
  // STREAMINFO is the first metadata block (type 0, 34 bytes) after the `fLaC` marker.
  if (at + 8 + 34 > bytes.length || (bytes[at + 4]! & 0x7f) !== 0) return null;
  if (((bytes[at + 5]! << 16) | (bytes[at + 6]! << 8) | bytes[at + 7]!) !== 34) return null;
  const info = at + 8;
  const sampleRate = (bytes[info + 10]! << 12) | (bytes[info + 11]! << 4) | (bytes[info + 12]! >> 4);
  const totalSamples = (bytes[info + 13]! & 0x0f) * 2 ** 32 + u32be(bytes, info + 14);
  return { sampleRate, totalSamples };
}

// ---- Ogg ----

function oggDuration(bytes: Uint8Array, serial: number, rate: number, preSkip: number): number | null {
  // The last page's granule position is the stream's length in samples; a page is < 64 KiB.
  const from = Math.max(0, bytes.length - 65_536 - 27);
  for (let at = bytes.length - 27; at >= from; at--) {
    if (bytes[at] !== 0x4f || ascii(bytes, at, 4) !== "OggS" || u32le(bytes, at + 14) !== serial) continue;
    const low = u32le(bytes, at + 6);
    const high = u32le(bytes, at + 10);
    if (high === 0xffffffff && low === 0xffffffff) continue; // a page where no packet ends
    const granule = high * 2 ** 32 + low;
    return Math.max(0, granule - preSkip) / rate;
  }
  return null;
}

function readOgg(bytes: Uint8Array): AudioInfo | DocumentFailure {
  if (bytes.length < 28) return unreadable("an Ogg file", "its first page is cut short", "truncated");
  const segments = bytes[26]!;
  const payload = 27 + segments;
  const serial = u32le(bytes, 14);
  if (payload + 8 > bytes.length) return unreadable("an Ogg file", "its first page is cut short", "truncated");
  if (ascii(bytes, payload, 8) === "OpusHead") {
    const preSkip = u16le(bytes, payload + 10);
    return { ok: true, container: "ogg", codec: "opus", duration: oggDuration(bytes, serial, 48_000, preSkip) };
  }
  if (bytes[payload] === 1 && ascii(bytes, payload + 1, 6) === "vorbis") {
    const rate = u32le(bytes, payload + 12);
    if (rate === 0) return unreadable("an Ogg Vorbis file", "its header names a sample rate of 0");
    return { ok: true, container: "ogg", codec: "vorbis", duration: oggDuration(bytes, serial, rate, 0) };
  }
  if (bytes[payload] === 0x7f && ascii(bytes, payload + 1, 4) === "FLAC") {
    const info = readFlacStreamInfo(bytes, payload + 9);
    if (!info || info.sampleRate === 0) return unreadable("an Ogg FLAC file", "its STREAMINFO cannot be read");
    return { ok: true, container: "ogg", codec: "flac", duration: oggDuration(bytes, serial, info.sampleRate, 0) };
  }
  const name = ascii(bytes, payload, 8)
    .replace(/[^\x20-\x7e]/g, "")
    .trim();
  return failure(
    "unsupported-media-type",
    `The Ogg file holds ${name ? `a ${name} stream` : "a stream"} that is not read: Ogg files may hold Opus, Vorbis or FLAC.`,
  );
}

// ---- MP4 / M4A ----

/** ISO-BMFF brands that are pictures, not sound. */
const IMAGE_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis", "crx "]);

function readMp4(bytes: Uint8Array): AudioInfo | DocumentFailure {
  const brand = ascii(bytes, 8, 4);
  if (IMAGE_BRANDS.has(brand)) {
    return failure(
      "unsupported-media-type",
      `That is an image (HEIF/AVIF, brand "${brand.trim()}"), not audio: expected ${AUDIO_FORMATS_TEXT}.`,
    );
  }
  // Top-level boxes: ftyp, moov (with mvhd, the movie's duration), mdat, in any order.
  let at = 0;
  let moov: { start: number; end: number } | null = null;
  for (let count = 0; count < 1000 && at + 8 <= bytes.length; count++) {
    let size = u32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > bytes.length) break;
      size = u32be(bytes, at + 8) * 2 ** 32 + u32be(bytes, at + 12);
      header = 16;
    } else if (size === 0) {
      size = bytes.length - at;
    }
    if (size < header) return unreadable("an MP4/M4A file", `its ${JSON.stringify(type)} box has an impossible size`);
    if (type === "moov") moov = { start: at + header, end: Math.min(bytes.length, at + size) };
    at += size;
  }
  if (!moov) {
    return unreadable(
      "an MP4/M4A file",
      "it has no moov box (its index), so it was cut short or never finished",
      "truncated",
    );
  }
  for (let inner = moov.start; inner + 8 <= moov.end;) {
    const size = u32be(bytes, inner);
    if (size < 8) break;
    if (ascii(bytes, inner + 4, 4) === "mvhd") {
      const version = bytes[inner + 8];
      const [timescale, duration] =
        version === 1
          ? [u32be(bytes, inner + 28), u32be(bytes, inner + 32) * 2 ** 32 + u32be(bytes, inner + 36)]
          : [u32be(bytes, inner + 20), u32be(bytes, inner + 24)];
      // A fragmented MP4 (Safari's MediaRecorder, DASH) writes 0 here: its length is in the
      // fragments, so it is unknown, not zero (a zero would pin every timestamp to 0).
      const known =
        timescale > 0 && inner + (version === 1 ? 40 : 28) <= moov.end && duration !== 0 && duration !== 0xffffffff;
      return { ok: true, container: "m4a", codec: null, duration: known ? duration / timescale : null };
    }
    inner += size;
  }
  return { ok: true, container: "m4a", codec: null, duration: null };
}

// ---- WebM / Matroska ----

/** An EBML variable-length integer: its value (marker bit removed unless `keepMarker`) and length. */
function vint(
  bytes: Uint8Array,
  at: number,
  keepMarker: boolean,
): { value: number; length: number; unknown: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23; // 1 for 0b1xxxxxxx … 8 for 0b00000001
  if (at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let index = 1; index < length; index++) {
    value = value * 256 + bytes[at + index]!;
    if (bytes[at + index] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function readFloat(bytes: Uint8Array, at: number, size: number): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, size);
  if (size === 4) return view.getFloat32(0);
  if (size === 8) return view.getFloat64(0);
  return null;
}

function readUint(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let index = 0; index < size; index++) value = value * 256 + bytes[at + index]!;
  return value;
}

/** Elements of [start, end) as id, body offset and size; stops at an unknown size or the end. */
function* ebmlChildren(bytes: Uint8Array, start: number, end: number) {
  for (let at = start, count = 0; at < end && count < 256; count++) {
    const id = vint(bytes, at, true);
    if (!id) return;
    const size = vint(bytes, at + id.length, false);
    if (!size) return;
    const body = at + id.length + size.length;
    yield { id: id.value, body, size: size.unknown ? end - body : size.value };
    if (size.unknown) return;
    at = body + size.value;
  }
}

const EBML_DOCTYPE = 0x4282;
const MKV_SEGMENT = 0x18538067;
const MKV_INFO = 0x1549a966;
const MKV_TIMECODE_SCALE = 0x2ad7b1;
const MKV_DURATION = 0x4489;
const MKV_CLUSTER = 0x1f43b675;

function readWebm(bytes: Uint8Array): AudioInfo | DocumentFailure {
  const header = [...ebmlChildren(bytes, 0, bytes.length)][0];
  if (!header || header.body + header.size > bytes.length)
    return unreadable("a WebM file", "its EBML header is cut short", "truncated");
  let docType = "";
  for (const child of ebmlChildren(bytes, header.body, header.body + header.size)) {
    if (child.id === EBML_DOCTYPE) docType = ascii(bytes, child.body, Math.min(child.size, 16)).replace(/\0+$/, "");
  }
  if (docType !== "webm" && docType !== "matroska") {
    return failure(
      "unsupported-media-type",
      `The EBML file is a ${JSON.stringify(docType)} document, not WebM or Matroska audio.`,
    );
  }
  let duration: number | null = null;
  for (const top of ebmlChildren(bytes, header.body + header.size, bytes.length)) {
    if (top.id !== MKV_SEGMENT) continue;
    const segmentEnd = Math.min(bytes.length, top.body + top.size);
    for (const part of ebmlChildren(bytes, top.body, segmentEnd)) {
      if (part.id === MKV_CLUSTER) break; // the Info element comes before the media
      if (part.id !== MKV_INFO) continue;
      let scale = 1_000_000;
      let raw: number | null = null;
      for (const field of ebmlChildren(bytes, part.body, Math.min(segmentEnd, part.body + part.size))) {
        if (field.body + field.size > bytes.length) break;
        if (field.id === MKV_TIMECODE_SCALE && field.size <= 8) scale = readUint(bytes, field.body, field.size);
        if (field.id === MKV_DURATION) raw = readFloat(bytes, field.body, field.size);
      }
      // MediaRecorder's WebM often has no Duration: then it is unknown, not refused.
      if (raw !== null && Number.isFinite(raw) && raw > 0) duration = (raw * scale) / 1e9;
      break;
    }
    break;
  }
  return { ok: true, container: "webm", codec: null, duration };
}

// ---- Sniffing ----

/** Formats people send by mistake, named so the refusal helps. */
function describeOther(bytes: Uint8Array): string {
  const text = ascii(bytes, 0, Math.min(12, bytes.length));
  if (text.startsWith("%PDF")) return "That is a PDF, not audio";
  if (text.startsWith("\x89PNG") || (bytes[0] === 0xff && bytes[1] === 0xd8)) return "That is an image, not audio";
  if (text.startsWith("FORM") && (text.slice(8) === "AIFF" || text.slice(8) === "AIFC"))
    return "AIFF audio is not read";
  if (text.startsWith("#!AMR")) return "AMR audio is not read";
  if (bytes[0] === 0xff && (bytes[1]! & 0xf6) === 0xf0) return "A raw AAC (ADTS) stream is not read: put it in an M4A";
  if (text.startsWith("RF64") || text.startsWith("RIFX")) return "RF64 and big-endian (RIFX) WAV files are not read";
  if (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0) return "MPEG audio Layer I and II are not read";
  return "That is not audio we read";
}

/** The container and (where cheap) the duration, or why the bytes are refused. */
export function sniffAudio(bytes: Uint8Array): AudioInfo | DocumentFailure {
  if (bytes.length === 0) return failure("invalid-input", "The audio file is empty.");
  const head = ascii(bytes, 0, 4);
  if (head === "RIFF" && ascii(bytes, 8, 4) === "WAVE") {
    const wav = readWav(bytes);
    if (!wav.ok) return wav;
    return {
      ok: true,
      container: "wav",
      codec: wav.codec,
      duration: wav.dataBytes / (wav.sampleRate * wav.blockAlign),
    };
  }
  if (head === "OggS") return readOgg(bytes);
  if (ascii(bytes, 4, 4) === "ftyp") return readMp4(bytes);
  if (u32be(bytes, 0) === 0x1a45dfa3) return readWebm(bytes);
  // FLAC and MP3 may both follow an ID3v2 tag.
  const tagged = id3Size(bytes);
  if (ascii(bytes, tagged, 4) === "fLaC") {
    const info = readFlacStreamInfo(bytes, tagged);
    if (!info || info.sampleRate === 0) return unreadable("a FLAC file", "its STREAMINFO block cannot be read");
    return {
      ok: true,
      container: "flac",
      codec: "flac",
      duration: info.totalSamples > 0 ? info.totalSamples / info.sampleRate : null,
    };
  }
  if (tagged > 0 || frameHeader(bytes, 0)) {
    if (tagged > bytes.length) return unreadable("an MP3", "its ID3 tag runs past the end of the file", "truncated");
    const mp3 = walkUploadedMp3(bytes);
    if (!mp3.ok) return mp3;
    return { ok: true, container: "mp3", codec: "mp3", duration: mp3Seconds(mp3) };
  }
  return failure(
    "unsupported-media-type",
    `${describeOther(bytes)}: expected ${AUDIO_FORMATS_TEXT} (the type is read from the file's bytes, not its name).`,
  );
}
