/**
 * The WAV and MP3 readers both speech APIs share (wav.ts, mp3.ts): the canonical header written
 * byte for byte and read back, a streaming writer's sizes read as "to the end", and the strict
 * and tolerant MP3 walks telling damage apart the way each side needs.
 */
import { describe, expect, it } from "vitest";
import { makeMp3, MP3_FRAME_BYTES } from "../../../tests/audio-fixtures";
import { frameHeader, id3Size, isInfoFrame, mp3Seconds, walkMp3 } from "./mp3";
import { concatBytes, readWavLayout, wavHeader, wavOf } from "./wav";

describe("wav.ts", () => {
  it("writes the canonical 44-byte PCM header and reads it back", () => {
    const pcm = Uint8Array.from([1, 0, 2, 0, 3, 0, 4, 0]);
    const wav = wavOf(pcm, 24_000, 2, 16);
    // RIFF, size 36 + 8, WAVE, "fmt " 16, PCM, 2 channels, 24 kHz, 96 000 B/s, blocks of 4, 16 bits, data 8.
    expect([...wav.subarray(0, 44)]).toEqual([
      0x52, 0x49, 0x46, 0x46, 44, 0, 0, 0, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20, 16, 0, 0, 0, 1, 0, 2, 0,
      0xc0, 0x5d, 0, 0, 0x00, 0x77, 0x01, 0, 4, 0, 16, 0, 0x64, 0x61, 0x74, 0x61, 8, 0, 0, 0,
    ]);
    expect(readWavLayout(wav)).toMatchObject({
      ok: true,
      formatTag: 1,
      channels: 2,
      sampleRate: 24_000,
      blockAlign: 4,
      bitsPerSample: 16,
      dataOffset: 44,
      dataBytes: 8,
    });
    const layout = readWavLayout(wav);
    if (!layout.ok) throw new Error(layout.why);
    expect(wavHeader(layout.fmtChunk, 8)).toEqual(wav.subarray(0, 44));
  });

  it("reads a streaming writer's data size (0 or 0xFFFFFFFF) as to the end, in whole blocks", () => {
    const wav = concatBytes([wavOf(new Uint8Array(8), 16_000), Uint8Array.from([9])]);
    new DataView(wav.buffer).setUint32(40, 0xffffffff, true);
    expect(readWavLayout(wav)).toMatchObject({ ok: true, dataOffset: 44, dataBytes: 8 });
    new DataView(wav.buffer).setUint32(40, 0, true);
    expect(readWavLayout(wav)).toMatchObject({ ok: true, dataBytes: 8 });
  });

  it("says why a RIFF file is not a readable WAV", () => {
    expect(readWavLayout(new Uint8Array(12))).toMatchObject({ ok: false, reason: "malformed" });
    const noData = wavOf(new Uint8Array(0), 16_000).subarray(0, 36);
    expect(readWavLayout(noData)).toMatchObject({ ok: false, reason: "truncated", why: "it has no data chunk" });
  });
});

describe("mp3.ts", () => {
  it("reads a Layer III header, the ID3 tag's size and the Xing frame", () => {
    const mp3 = makeMp3({ seconds: 0.5, id3: true, xing: true });
    const at = id3Size(mp3);
    expect(at).toBe(30);
    const header = frameHeader(mp3, at);
    expect(header).toEqual({ version: 3, sampleRate: 48_000, size: MP3_FRAME_BYTES, samples: 1152, mono: true });
    expect(isInfoFrame(mp3, at, header!)).toBe(true);
    expect(isInfoFrame(mp3, at + MP3_FRAME_BYTES, header!)).toBe(false);
  });

  it("walks strictly to the first damaged byte, and tolerantly past it", () => {
    const mp3 = makeMp3({ seconds: 0.24, xing: true }); // the Xing frame and 10 audio frames
    mp3.fill(0x55, 1 + 5 * MP3_FRAME_BYTES, 1 + 5 * MP3_FRAME_BYTES + 4); // the 5th audio frame's header
    const strict = walkMp3(mp3, { tolerant: false });
    expect(strict).toMatchObject({ ok: true, infoFrame: { offset: 0, size: MP3_FRAME_BYTES } });
    expect(strict.ok && strict.offsets.length).toBe(4);
    const tolerant = walkMp3(mp3, { tolerant: true });
    expect(tolerant.ok && tolerant.offsets.length).toBe(9);
    expect(tolerant.ok && mp3Seconds(tolerant)).toBeCloseTo(9 * 0.024, 9);
    expect(walkMp3(new Uint8Array(100), { tolerant: false })).toMatchObject({ ok: false, reason: "malformed" });
  });
});
