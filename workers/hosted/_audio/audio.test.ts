/**
 * Audio sniffing and splitting on files built byte by byte (tests/audio-fixtures.ts): each
 * container recognised from its bytes with its duration, damaged and foreign files refused with
 * the right problem, and WAV and MP3 pieces that are whole files of their own, cover the
 * original exactly and start where they say.
 */
import { describe, expect, it } from "vitest";
import {
  makeFlac,
  makeM4a,
  makeMp3,
  makeOggOpus,
  makeWav,
  makeWebm,
  MP3_FRAME_BYTES,
  MP3_FRAME_SECONDS,
} from "../../../tests/audio-fixtures";
import { readWav, sniffAudio, walkUploadedMp3 as walkMp3 } from "./sniff";
import { splitAudio, type AudioPiece } from "./split";

const text = (value: string) => new TextEncoder().encode(value);

/** A 1 s, 16 kHz, 16-bit mono WAV written as WAVE_FORMAT_EXTENSIBLE with the given SubFormat. */
function extensibleWav(subFormat: number): Uint8Array {
  const plain = makeWav({ seconds: 1 });
  const samples = plain.subarray(44);
  const out = new Uint8Array(12 + 8 + 40 + 8 + samples.length);
  const view = new DataView(out.buffer);
  out.set(text("RIFF"), 0);
  view.setUint32(4, out.length - 8, true);
  out.set(text("WAVEfmt "), 8);
  view.setUint32(16, 40, true);
  out.set(plain.subarray(20, 36), 20); // tag, channels, rate, byte rate, block align, bits
  view.setUint16(20, 0xfffe, true);
  view.setUint16(36, 22, true); // cbSize
  view.setUint16(38, 16, true); // valid bits
  view.setUint32(40, 4, true); // channel mask: front centre
  view.setUint16(44, subFormat, true); // the GUID's first two bytes; the rest is the fixed suffix
  out.set([0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71], 46);
  out.set(text("data"), 60);
  view.setUint32(64, samples.length, true);
  out.set(samples, 68);
  return out;
}

function expectFailure(result: unknown, problem: string, reason?: string) {
  expect(result).toMatchObject({ ok: false, problem, ...(reason && { extensions: { reason } }) });
}

describe("sniffing", () => {
  it("recognises each container from its bytes, with the duration its header gives", () => {
    expect(sniffAudio(makeWav({ seconds: 2.5, sampleRate: 22_050, channels: 2 }))).toEqual({
      ok: true,
      container: "wav",
      codec: "pcm",
      duration: 2.5,
    });
    const mp3 = sniffAudio(makeMp3({ seconds: 3, id3: true, xing: true }));
    expect(mp3).toMatchObject({ ok: true, container: "mp3" });
    expect((mp3 as { duration: number }).duration).toBeCloseTo(
      Math.round(3 / MP3_FRAME_SECONDS) * MP3_FRAME_SECONDS,
      9,
    );
    expect(sniffAudio(makeFlac({ sampleRate: 44_100, totalSamples: 441_000 }))).toEqual({
      ok: true,
      container: "flac",
      codec: "flac",
      duration: 10,
    });
    expect(sniffAudio(makeOggOpus(4.25))).toEqual({ ok: true, container: "ogg", codec: "opus", duration: 4.25 });
    expect(sniffAudio(makeM4a({ seconds: 12.5 }))).toEqual({ ok: true, container: "m4a", codec: null, duration: 12.5 });
    expect(sniffAudio(makeWebm({ seconds: 6.5 }))).toEqual({ ok: true, container: "webm", codec: null, duration: 6.5 });
    // MediaRecorder's WebM has no Duration: known as WebM, length unknown.
    expect(sniffAudio(makeWebm({ seconds: null }))).toEqual({
      ok: true,
      container: "webm",
      codec: null,
      duration: null,
    });
    expect(sniffAudio(makeWebm({ seconds: 1, docType: "matroska" }))).toMatchObject({ ok: true, container: "webm" });
  });

  it("reads a WAV whose writer put other chunks before its samples, and one whose data size says 0", () => {
    expect(sniffAudio(makeWav({ seconds: 1, extraChunks: true }))).toMatchObject({ ok: true, duration: 1 });
    const streaming = makeWav({ seconds: 1 });
    new DataView(streaming.buffer).setUint32(40, 0, true);
    expect(sniffAudio(streaming)).toMatchObject({ ok: true, duration: 1 });
  });

  it("refuses what is not audio we read with 415, naming what it is", () => {
    expectFailure(sniffAudio(text("%PDF-1.7\n%âãÏÓ")), "unsupported-media-type");
    expect((sniffAudio(text("%PDF-1.7\n")) as { detail: string }).detail).toMatch(/PDF, not audio/);
    expect(
      (sniffAudio(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10])) as { detail: string }).detail,
    ).toMatch(/image/);
    expect((sniffAudio(text("FORM\0\0\0\x20AIFFCOMM")) as { detail: string }).detail).toMatch(/AIFF/);
    expect((sniffAudio(text("#!AMR\n")) as { detail: string }).detail).toMatch(/AMR/);
    expect((sniffAudio(Uint8Array.from([0xff, 0xf1, 0x50, 0x80, 0, 0x1f, 0xfc])) as { detail: string }).detail).toMatch(
      /AAC/,
    );
    expectFailure(sniffAudio(text("hello, this is a text file")), "unsupported-media-type");
    expectFailure(sniffAudio(makeM4a({ seconds: 1, brand: "heic" })), "unsupported-media-type");
    expectFailure(sniffAudio(makeWebm({ seconds: 1, docType: "notwebm" })), "unsupported-media-type");
    // A WAV of compressed audio (MPEG Layer III in RIFF, tag 0x55) is not cut between blocks.
    const mp3InWav = makeWav({ seconds: 1 });
    new DataView(mp3InWav.buffer).setUint16(20, 0x55, true);
    expectFailure(sniffAudio(mp3InWav), "unsupported-media-type");
    const speex = makeOggOpus(1);
    speex.set(text("Speex   "), 28);
    expect((sniffAudio(speex) as { detail: string }).detail).toMatch(/Speex stream/);
  });

  it("reads an extensible WAV's codec from its SubFormat: PCM is read, compressed audio refused with 415", () => {
    expect(sniffAudio(extensibleWav(0x0001))).toMatchObject({ ok: true, container: "wav", codec: "pcm", duration: 1 });
    expect(sniffAudio(extensibleWav(0x0003))).toMatchObject({ ok: true, codec: "float" });
    // MPEG Layer III (0x55) in an extensible WAV is not whole blocks of samples: cutting it would corrupt it.
    expectFailure(sniffAudio(extensibleWav(0x0055)), "unsupported-media-type");
    expect((sniffAudio(extensibleWav(0x0055)) as { detail: string }).detail).toMatch(/0x0055/);
  });

  it("treats an M4A whose mvhd says 0 (fragmented MP4: Safari's MediaRecorder, DASH) as of unknown length", () => {
    expect(sniffAudio(makeM4a({ seconds: 0 }))).toEqual({ ok: true, container: "m4a", codec: null, duration: null });
  });

  it("refuses a file that starts like audio but is damaged or cut short with 422 unreadable-document", () => {
    expectFailure(sniffAudio(new Uint8Array()), "invalid-input");
    const wav = makeWav({ seconds: 1 });
    expectFailure(sniffAudio(wav.subarray(0, 30)), "unreadable-document", "malformed"); // fmt cut short
    expectFailure(sniffAudio(wav.subarray(0, 36)), "unreadable-document", "truncated"); // no data chunk
    expectFailure(sniffAudio(wav.subarray(0, 44)), "unreadable-document", "no-audio"); // no samples
    const noRate = makeWav({ seconds: 1 });
    new DataView(noRate.buffer).setUint32(24, 0, true);
    expectFailure(sniffAudio(noRate), "unreadable-document", "malformed");
    // An ID3 tag followed by noise: no frame of MPEG audio anywhere.
    const noise = Uint8Array.from({ length: 4000 }, (_, index) => (index * 37) & 0x7f);
    noise.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 10], 0);
    expectFailure(sniffAudio(noise), "unreadable-document", "malformed");
    const flac = makeFlac({ sampleRate: 0, totalSamples: 100 });
    expectFailure(sniffAudio(flac), "unreadable-document");
    expectFailure(sniffAudio(makeM4a({ seconds: 1, moov: false })), "unreadable-document", "truncated");
    expectFailure(sniffAudio(makeOggOpus(1).subarray(0, 30)), "unreadable-document", "truncated");
  });

  it("refuses an MP3 more than a tenth of which is not frames, and reads one with a little damage", () => {
    const damaged = makeMp3({ seconds: 2 });
    const frames = damaged.length / MP3_FRAME_BYTES;
    // Three frames' headers broken in the middle: about 4 % of the file skipped.
    for (const frame of [10, 30, 50]) damaged[frame * MP3_FRAME_BYTES] = 0;
    const walked = walkMp3(damaged);
    expect(walked.ok && walked.offsets.length).toBe(frames - 3);
    const wrecked = makeMp3({ seconds: 2 });
    for (let frame = 5; frame < frames; frame += 4) wrecked[frame * MP3_FRAME_BYTES] = 0;
    expectFailure(sniffAudio(wrecked), "unreadable-document", "malformed");
    // Two frames and 8 MB of noise: refused once a tenth is skipped, not searched to the end.
    const noisy = new Uint8Array(8 * 1024 * 1024).fill(0x11);
    noisy.set(makeMp3({ seconds: 0.048 }), 0);
    const started = performance.now();
    const refused = sniffAudio(noisy);
    expectFailure(refused, "unreadable-document", "malformed");
    expect((refused as { detail: string }).detail).toMatch(/over a tenth of it is not MPEG audio frames/);
    console.log(`an MP3 with 8 MB of noise refused in ${Math.round(performance.now() - started)} ms`);
  });

  it("drops an MP3's cut-off last frame and its ID3v1 tag, and leaves the Xing frame out of the audio", () => {
    const mp3 = makeMp3({ seconds: 1, id3: true, xing: true });
    const tagged = new Uint8Array(mp3.length + 128 + 100);
    tagged.set(mp3, 0);
    tagged.set(text("TAG"), mp3.length);
    const walked = walkMp3(tagged);
    const frames = Math.round(1 / MP3_FRAME_SECONDS);
    expect(walked.ok && walked.offsets.length).toBe(frames);
    expect(walked.ok && walked.offsets[0]).toBe(30 + MP3_FRAME_BYTES); // after the ID3 tag and the Xing frame
    const cut = walkMp3(mp3.subarray(0, mp3.length - 100));
    expect(cut.ok && cut.offsets.length).toBe(frames - 1);
  });
});

/** The pieces' samples, put back together, are the original's. */
function joinedWavSamples(pieces: AudioPiece[]): Uint8Array {
  const parts = pieces.map((piece) => {
    const bytes = piece.read();
    const layout = readWav(bytes);
    if (!layout.ok) throw new Error(layout.detail);
    return bytes.subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes);
  });
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

describe("splitting", () => {
  it("cuts a WAV into whole WAVs within the bounds that cover it exactly, each knowing where it starts", () => {
    const wav = makeWav({ seconds: 25, sampleRate: 16_000, channels: 2, extraChunks: true });
    const split = splitAudio(wav, "wav", { maxBytes: 1_000_000, maxSeconds: 10 });
    if (!split.ok) throw new Error(split.detail);
    expect(split.pieces.length).toBe(3);
    let expectedOffset = 0;
    for (const piece of split.pieces) {
      const bytes = piece.read();
      expect(bytes.length).toBe(piece.byteLength);
      expect(bytes.length).toBeLessThanOrEqual(1_000_000);
      expect(piece.duration!).toBeLessThanOrEqual(10);
      expect(piece.offset).toBeCloseTo(expectedOffset, 9);
      expectedOffset += piece.duration!;
      // Each piece is a WAV of its own: RIFF size and data size match its bytes.
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      expect(view.getUint32(4, true)).toBe(bytes.length - 8);
      expect(sniffAudio(bytes)).toMatchObject({ ok: true, container: "wav", duration: piece.duration });
    }
    const original = readWav(wav);
    if (!original.ok) throw new Error(original.detail);
    expect(joinedWavSamples(split.pieces)).toEqual(wav.subarray(original.dataOffset));
    expect(expectedOffset).toBeCloseTo(25, 9);
  });

  it("cuts a WAV at the quietest moment of the piece's last two seconds, not inside a sound", () => {
    // Sound everywhere but 8.50–8.70 s: the cut before the 10 s limit falls in that gap.
    const wav = makeWav({
      seconds: 15,
      bursts: [
        { start: 0, end: 8.5, code: 3 },
        { start: 8.7, end: 15, code: 3 },
      ],
    });
    const split = splitAudio(wav, "wav", { maxBytes: 10_000_000, maxSeconds: 10 });
    if (!split.ok) throw new Error(split.detail);
    expect(split.pieces).toHaveLength(2);
    const cut = split.pieces[1]!.offset;
    expect(cut).toBeGreaterThanOrEqual(8.5);
    expect(cut).toBeLessThanOrEqual(8.7);
  });

  it("keeps a WAV within the bounds whole, its header as it was", () => {
    const wav = makeWav({ seconds: 2 });
    const split = splitAudio(wav, "wav", { maxBytes: 1_000_000, maxSeconds: 10 });
    expect(split.ok && split.pieces.map((piece) => [piece.offset, piece.duration])).toEqual([[0, 2]]);
    // A canonical WAV comes back byte for byte; one with other chunks would be rebuilt without them.
    expect(split.ok && split.pieces[0]!.read()).toEqual(wav);
  });

  it("builds no piece's bytes until it is sent, and reads an MP3 piece as a view on the upload, not a copy", () => {
    const wav = makeWav({ seconds: 25 });
    const wavSplit = splitAudio(wav, "wav", { maxBytes: 1_000_000, maxSeconds: 10 });
    if (!wavSplit.ok) throw new Error(wavSplit.detail);
    for (const piece of wavSplit.pieces) {
      expect(Object.values(piece).some((value) => value instanceof Uint8Array)).toBe(false);
    }
    const mp3 = makeMp3({ seconds: 10, id3: true, xing: true });
    const mp3Split = splitAudio(mp3, "mp3", { maxBytes: 10_000_000, maxSeconds: 3 });
    if (!mp3Split.ok) throw new Error(mp3Split.detail);
    for (const piece of mp3Split.pieces) {
      expect(Object.values(piece).some((value) => value instanceof Uint8Array)).toBe(false);
      expect(piece.read().buffer).toBe(mp3.buffer);
    }
  });

  it("cuts an MP3 between frames, dropping the ID3 tag and Xing frame, into valid MP3s", () => {
    const mp3 = makeMp3({ seconds: 10, id3: true, xing: true });
    const frames = Math.round(10 / MP3_FRAME_SECONDS);
    const split = splitAudio(mp3, "mp3", { maxBytes: 100 * MP3_FRAME_BYTES + 10, maxSeconds: 3 });
    if (!split.ok) throw new Error(split.detail);
    // 3 s is 125 frames, but 100 frames is the byte bound: 417 frames in 5 pieces.
    expect(split.pieces.map((piece) => piece.read().length / MP3_FRAME_BYTES)).toEqual([
      100,
      100,
      100,
      100,
      frames - 400,
    ]);
    split.pieces.forEach((piece, index) => {
      expect(piece.offset).toBeCloseTo(index * 100 * MP3_FRAME_SECONDS, 9);
      expect(piece.read()[0]).toBe(0xff);
      expect(walkMp3(piece.read())).toMatchObject({ ok: true });
    });
    const byTime = splitAudio(mp3, "mp3", { maxBytes: 10_000_000, maxSeconds: 3 });
    expect(byTime.ok && byTime.pieces.map((piece) => Math.round(piece.duration! / MP3_FRAME_SECONDS))).toEqual([
      125,
      125,
      125,
      frames - 375,
    ]);
  });
});
