/**
 * meSpeak in the real engine Worker, over its RPC, as the main Worker calls it. The WAVs are
 * read back by their RIFF headers; durations are samples over the sample rate.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SpeechRequest } from "~workers/hosted/capabilities";
import { readWav } from "~workers/hosted/text-to-speech/audio";
import { pieceCharsFor } from "./index";
import { Mespeak } from "./mespeak";

const request = (overrides: Partial<SpeechRequest> = {}): SpeechRequest => ({
  text: "The quick brown fox jumps over the lazy dog.",
  format: "wav",
  speed: 1,
  pitch: 50,
  timeoutMs: 20_000,
  ...overrides,
});

const seconds = (wav: Uint8Array) => {
  const read = readWav(wav);
  if (!read) throw new Error("not a WAV");
  return read.data.length / (read.sampleRate * read.channels * (read.bitsPerSample / 8));
};

describe("meSpeak in the engine Worker", () => {
  it("answers every one of 120 calls in a row in full (meSpeak's own API breaks on its 80th)", async () => {
    // One isolate serves them all; the package's module-level instance answers a truncated WAV
    // on the 80th call and throws from the 81st. Identical text must give identical audio.
    const sizes: number[] = [];
    for (let call = 0; call < 120; call++) {
      const outcome = await env.ENGINES.speak(request({ text: "Call after call, the same words." }));
      if (!outcome.ok) throw new Error(`call ${call + 1}: ${outcome.problem}: ${outcome.detail}`);
      sizes.push(outcome.audio.length);
      expect(readWav(outcome.audio), `call ${call + 1}`).not.toBeNull();
    }
    expect(new Set(sizes).size).toBe(1);
    expect(sizes[0]).toBeGreaterThan(20_000);
  }, 120_000);

  it("keeps answering in full across voices and languages, which open more files a call", async () => {
    const voices = ["en-us-male", "fr-female", "de-male", "zh-female", "es-419-male"];
    const first = new Map<string, number>();
    for (let call = 0; call < 60; call++) {
      const voice = voices[call % voices.length]!;
      const outcome = await env.ENGINES.speak(request({ text: "Un, deux, drei, one.", voice }));
      if (!outcome.ok) throw new Error(`call ${call + 1} (${voice}): ${outcome.detail}`);
      const size = outcome.audio.length;
      expect(size, `call ${call + 1} (${voice})`).toBe(first.get(voice) ?? size);
      first.set(voice, size);
    }
  }, 120_000);

  it("survives concurrent first calls in a language, and answers every call after, across a replacement", async () => {
    // Slovak: a language no other test loads, so these calls are its first in this isolate.
    const slovak = (voice: string) => env.ENGINES.speak(request({ text: "Dobrý deň, ako sa máte?", voice }));
    const first = await Promise.all([slovak("sk-male"), slovak("sk-female"), slovak("sk-male")]);
    for (const outcome of first) if (!outcome.ok) throw new Error(`concurrent first call: ${outcome.detail}`);
    const sizes = new Set<number>();
    // 45 calls: enough opens to cross an instance replacement, which replays the loaded files.
    for (let call = 0; call < 45; call++) {
      const outcome = await slovak("sk-male");
      if (!outcome.ok) throw new Error(`call ${call + 1} after: ${outcome.detail}`);
      sizes.add(outcome.audio.length);
    }
    expect([...sizes]).toEqual([first[0]!.ok ? first[0]!.audio.length : 0]);
  }, 120_000);

  it("loads a voice once when two loads race, and replays it into the next instance", async () => {
    const engine = new Mespeak();
    await Promise.all([engine.load("hu"), engine.load("hu")]);
    const sizes = new Set<number>();
    for (let call = 0; call < 45; call++) sizes.add(engine.speak("Jó napot kívánok.", { file: "hu" }, 175).length);
    expect(engine.instancesBuilt).toBeGreaterThan(1);
    expect(sizes.size).toBe(1);
  }, 120_000);

  it("answers 4 096 characters of prose at its slowest speed: 8 to 10 minutes of speech", async () => {
    const prose = "The quick brown fox jumps over the lazy dog, and then it runs away into the forest. "
      .repeat(60)
      .slice(0, 4096)
      .trim();
    const outcome = await env.ENGINES.speak(request({ text: prose, speed: 0.46 }));
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(seconds(outcome.audio) / 60).toBeGreaterThan(8);
    expect(seconds(outcome.audio) / 60).toBeLessThan(10);
  }, 120_000);

  it("cuts text of short spoken units into shorter pieces, and refuses plainly too long text unspoken", async () => {
    // Each piece's samples sit in eSpeak's runtime as a plain array: pieces are bounded by what
    // is spoken (words, digits, CJK characters), not by characters alone.
    expect(pieceCharsFor("The quick brown fox jumps over the lazy dog. ".repeat(20))).toBeGreaterThanOrEqual(150);
    expect(pieceCharsFor("9 ".repeat(500))).toBe(60);
    expect(pieceCharsFor("这是一个测试句子。".repeat(50))).toBeLessThan(40 + 1);
    const started = Date.now();
    const outcome = await env.ENGINES.speak(request({ text: "9 ".repeat(2048).trim(), speed: 0.5 }));
    expect(outcome).toMatchObject({ ok: false, problem: "invalid-input", extensions: { field: "input" } });
    // Refused from its length before any of its 25 minutes is spoken (speaking it takes seconds).
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("lists its voices with language and gender, two for each language", async () => {
    const voices = await env.ENGINES.speechVoices();
    expect(voices.length).toBeGreaterThanOrEqual(40);
    expect(voices).toContainEqual({
      id: "en-us-female",
      name: "English (US), female",
      language: "en-US",
      gender: "female",
    });
    expect(voices).toContainEqual({ id: "fr-male", name: "French, male", language: "fr", gender: "male" });
    const languages = new Set(voices.map((voice) => voice.language));
    for (const language of languages) {
      const genders = voices.filter((voice) => voice.language === language).map((voice) => voice.gender);
      expect(genders.sort(), language).toEqual(["female", "male"]);
    }
  });

  it("speaks UTF-8 text as UTF-8: a word of accents is not read as Latin-1 bytes", async () => {
    // Passed as Latin-1, each accented letter would be two letters (Ã¼), spoken as more audio.
    const accented = await env.ENGINES.speak(request({ text: "Grüße aus Köln, schön.", voice: "de-male" }));
    const mangled = await env.ENGINES.speak(request({ text: "GrÃ¼ÃŸe aus KÃ¶ln, schÃ¶n.", voice: "de-male" }));
    if (!accented.ok || !mangled.ok) throw new Error("no audio");
    expect(seconds(accented.audio)).toBeLessThan(seconds(mangled.audio) * 0.9);
  });

  it("reads a text that starts with a dash as text, not as an option", async () => {
    const outcome = await env.ENGINES.speak(request({ text: "-h -v xx minus signs first" }));
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(seconds(outcome.audio)).toBeGreaterThan(1);
  });
});
