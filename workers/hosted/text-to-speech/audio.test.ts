import { describe, expect, it } from "vitest";
import { concatBytes, joinMp3, joinWav, mp3Duration, mp3Frames, readWav, splitText, wavOf } from "./audio";
import { id3Tag, mp3Frame, mp3Of } from "../../../tests/fakes/workers-ai";

describe("splitText", () => {
  it("keeps a text that fits whole, and cuts a longer one at sentence ends, packing sentences", () => {
    expect(splitText("  One. Two.  ", 50)).toEqual(["One. Two."]);
    expect(splitText("First one. Second one! Third one? Fourth.", 24)).toEqual([
      "First one. Second one!",
      "Third one? Fourth.",
    ]);
  });

  it("cuts CJK text at its full stops, which no space follows", () => {
    expect(splitText("今日は晴れです。明日は雨です。明後日は雪です。", 16)).toEqual([
      "今日は晴れです。明日は雨です。",
      "明後日は雪です。",
    ]);
  });

  it("cuts a sentence longer than a piece at commas, then spaces, then anywhere, never past the limit", () => {
    const commas = "alpha beta gamma, delta epsilon zeta, eta theta iota, kappa lambda mu.";
    for (const piece of splitText(commas, 30)) expect(piece.length).toBeLessThanOrEqual(30);
    expect(splitText(commas, 30).join(" ")).toBe(commas);
    const word = "x".repeat(95);
    expect(splitText(word, 40)).toEqual(["x".repeat(40), "x".repeat(40), "x".repeat(15)]);
    expect(splitText("   ", 10)).toEqual([]);
  });
});

describe("WAV", () => {
  const pcm = (values: number[]) => new Uint8Array(new Int16Array(values).buffer);

  it("joins pieces under one header whose sizes add up, the samples in order", () => {
    const joined = joinWav([wavOf(pcm([1, 2]), 24_000), wavOf(pcm([3]), 24_000)])!;
    const read = readWav(joined)!;
    expect(read.sampleRate).toBe(24_000);
    expect([...new Int16Array(read.data.slice().buffer)]).toEqual([1, 2, 3]);
    expect(new DataView(joined.buffer).getUint32(4, true)).toBe(joined.length - 8);
  });

  it("reads a streamed header's unknown sizes as 'to the end', in whole samples", () => {
    const wav = concatBytes([wavOf(pcm([5, 6, 7]), 16_000), new Uint8Array([9])]);
    new DataView(wav.buffer).setUint32(40, 0xffffffff, true);
    expect([...new Int16Array(readWav(wav)!.data.slice().buffer)]).toEqual([5, 6, 7]);
  });

  it("refuses to join pieces of different formats, or bytes that are no WAV", () => {
    expect(joinWav([wavOf(pcm([1]), 24_000), wavOf(pcm([1]), 22_050)])).toBeNull();
    expect(joinWav([new TextEncoder().encode("not a wav at all")])).toBeNull();
  });
});

describe("MP3", () => {
  it("walks the frames after an ID3 tag, and times them", () => {
    const file = concatBytes([id3Tag(30), ...Array.from({ length: 50 }, () => mp3Frame())]);
    expect(mp3Frames(file).length).toBe(50);
    expect(mp3Duration(file)).toBeCloseTo((50 * 576) / 24_000, 6);
  });

  it("joins pieces frame by frame, without their tags and Info frames", () => {
    const joined = joinMp3([mp3Of(3), mp3Of(4), mp3Of(5)])!;
    expect(joined.length).toBe(12 * 144);
    expect(mp3Frames(joined).length).toBe(12);
    expect(mp3Duration(joined)).toBeCloseTo((12 * 576) / 24_000, 6);
    expect(joinMp3([mp3Of(3), new Uint8Array(100)])).toBeNull();
  });
});
