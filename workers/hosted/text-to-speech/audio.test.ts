import { describe, expect, it } from "vitest";
import { mp3Seconds, walkMp3, type Mp3Layout } from "../_audio/mp3";
import { concatBytes, wavOf } from "../_audio/wav";
import { joinMp3, joinWav, readWav, splitText } from "./audio";
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

  it("never passes the limit at a one-character CJK comma, and never cuts a surrogate pair", () => {
    // A 、 right at the limit once gave a piece of limit + 1.
    const cjk = splitText("あ".repeat(10) + "、" + "い".repeat(20), 10);
    for (const piece of cjk) expect(piece.length).toBeLessThanOrEqual(10);
    expect(cjk.join("")).toBe("あ".repeat(10) + "、" + "い".repeat(20));
    // Emoji are two UTF-16 units: a cut between them would leave lone surrogates.
    const emoji = splitText("😀".repeat(30), 11);
    for (const piece of emoji) {
      expect(piece.length).toBeLessThanOrEqual(11);
      expect(piece).toMatch(/^(?:😀)+$/u);
    }
    expect(emoji.join("")).toBe("😀".repeat(30));
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

  it("joins into one new array of the result's size, with no intermediate copy of the samples", () => {
    const pieces = Array.from({ length: 4 }, (_, i) => wavOf(pcm(Array.from({ length: 5000 }, () => i)), 24_000));
    const Original = globalThis.Uint8Array;
    let large = 0;
    globalThis.Uint8Array = new Proxy(Original, {
      construct(target, args, newTarget) {
        const made = Reflect.construct(target, args, newTarget) as Uint8Array;
        if (made.length >= 4 * 10_000) large += 1;
        return made;
      },
    });
    let joined: Uint8Array | null;
    try {
      joined = joinWav(pieces);
    } finally {
      globalThis.Uint8Array = Original;
    }
    expect(joined!.length).toBe(44 + 4 * 10_000);
    expect(large).toBe(1);
    // The answer owns its buffer: it keeps no piece alive.
    expect(joined!.buffer.byteLength).toBe(joined!.length);
    expect([...new Int16Array(readWav(joined!)!.data.slice().buffer).filter((_, i) => i % 5000 === 0)]).toEqual([
      0, 1, 2, 3,
    ]);
  });

  it("refuses to join pieces of different formats, or bytes that are no WAV", () => {
    expect(joinWav([wavOf(pcm([1]), 24_000), wavOf(pcm([1]), 22_050)])).toBeNull();
    expect(joinWav([new TextEncoder().encode("not a wav at all")])).toBeNull();
  });
});

describe("MP3", () => {
  const walk = (bytes: Uint8Array): Mp3Layout => {
    const layout = walkMp3(bytes, { tolerant: false });
    if (!layout.ok) throw new Error(layout.why);
    return layout;
  };

  it("reads the fake's frames after an ID3 tag, and times them", () => {
    const file = concatBytes([id3Tag(30), ...Array.from({ length: 50 }, () => mp3Frame())]);
    expect(walk(file).offsets.length).toBe(50);
    expect(mp3Seconds(walk(file))).toBeCloseTo((50 * 576) / 24_000, 6);
  });

  it("joins pieces frame by frame, without their tags and Info frames", () => {
    const joined = joinMp3([mp3Of(3), mp3Of(4), mp3Of(5)])!;
    expect(joined.length).toBe(12 * 144);
    expect(walk(joined).offsets.length).toBe(12);
    expect(walk(joined).infoFrame).toBeNull();
    expect(mp3Seconds(walk(joined))).toBeCloseTo((12 * 576) / 24_000, 6);
    expect(joinMp3([mp3Of(3), new Uint8Array(100)])).toBeNull();
    // Pieces of two sample rates are not one stream.
    expect(joinMp3([mp3Of(3), mp3Of(3, "mpeg1-44k")])).toBeNull();
  });
});
