/**
 * Text to Audio through its handler: offline with the real engine Worker's meSpeak (the test
 * environment's `mediaEnginesFor`), and on the Workers AI path with a fake binding answering in
 * Aura's and MeloTTS's real shapes (tests/fakes/workers-ai.ts). Every answer is read back by its
 * bytes: RIFF headers and samples, MPEG frames.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HandlerResult } from "~workers/hosted/definition";
import { mediaEnginesFor } from "~workers/gateway/services";
import { workersAiSpeech } from "~workers/providers/workers-ai/speech";
import { callHosted, createAccountWithKey, expectProblem as expectProblemResponse } from "../../../tests/factories";
import { fakeSpeechModels, mp3Of, type FakeSpeechModels } from "../../../tests/fakes/workers-ai";
import { createTestContext, expectProblem, runParsed } from "../../../tests/hosted-context";
import { mp3Seconds, walkMp3, type Mp3Layout } from "../_audio/mp3";
import { wavOf } from "../_audio/wav";
import { readWav } from "./audio";
import { definition } from "./index";
import { MAX_INPUT_CHARS, TextToSpeechInputSchema, VoicesOutputSchema } from "./schema";

const speak = definition.operations.find((operation) => operation.id === "speakText")!;
const voices = definition.operations.find((operation) => operation.id === "listSpeechVoices")!;

const SENTENCE = "The quick brown fox jumps over the lazy dog.";

/** The audio of a successful answer, with its headers. */
function audioOf(result: HandlerResult): { bytes: Uint8Array; contentType: string; engine?: string; voice?: string } {
  if (result.kind !== "binary") {
    throw new Error(`expected audio, got ${result.kind}: ${result.kind === "problem" ? result.detail : ""}`);
  }
  return {
    bytes: result.body as Uint8Array,
    contentType: result.contentType,
    engine: result.headers?.["X-Engine"],
    voice: result.headers?.["X-Voice"],
  };
}

/** A well-formed PCM WAV's facts, its header checked against its length. */
function wavFacts(bytes: Uint8Array) {
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  expect(text(0)).toBe("RIFF");
  expect(text(8)).toBe("WAVE");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(view.getUint32(4, true)).toBe(bytes.length - 8);
  const wav = readWav(bytes);
  if (!wav) throw new Error("not a WAV");
  expect(wav.audioFormat).toBe(1);
  expect(44 + wav.data.length).toBe(bytes.length);
  return { ...wav, seconds: wav.data.length / (wav.sampleRate * wav.channels * (wav.bitsPerSample / 8)) };
}

/**
 * The voice's median fundamental frequency (Hz): in each loud 40 ms window, the shortest lag
 * between 2.5 and 12.5 ms (400–80 Hz) at which the samples match themselves about as well as
 * at the best one.
 */
async function fundamental(raw: Record<string, unknown>): Promise<number> {
  const wav = wavFacts(audioOf(await runParsed(speak, { input: SENTENCE, ...raw })).bytes);
  const samples = new Int16Array(wav.data.slice().buffer);
  const window = Math.round(wav.sampleRate * 0.04);
  const [minLag, maxLag] = [Math.round(wav.sampleRate / 400), Math.round(wav.sampleRate / 80)];
  const estimates: number[] = [];
  for (let start = 0; start + window + maxLag < samples.length; start += window) {
    let energy = 0;
    for (let i = start; i < start + window; i++) energy += samples[i]! * samples[i]!;
    if (Math.sqrt(energy / window) < 2000) continue;
    const match: number[] = [];
    for (let lag = minLag; lag <= maxLag; lag++) {
      let sum = 0;
      for (let i = start; i < start + window; i++) sum += samples[i]! * samples[i + lag]!;
      match.push(sum);
    }
    // The shortest lag that matches nearly as well as the best: a period, not a multiple of it.
    const best = Math.max(...match);
    const lag = match.findIndex((sum) => sum >= best * 0.9);
    if (best > 0) estimates.push(wav.sampleRate / (minLag + lag));
  }
  estimates.sort((a, b) => a - b);
  return estimates[Math.floor(estimates.length / 2)] ?? 0;
}

/** An answer's MP3 frames, walked strictly as our own engines' answers are. */
function framesOf(bytes: Uint8Array): Mp3Layout {
  const layout = walkMp3(bytes, { tolerant: false });
  if (!layout.ok) throw new Error(`not an MP3: ${layout.why}`);
  return layout;
}

/** The field a 422 names. */
function expectFieldProblem(result: HandlerResult, field: string, detail?: RegExp): void {
  expectProblem(result, "invalid-input", detail);
  if (result.kind === "problem") expect(Object.keys((result.extensions?.errors ?? {}) as object)).toEqual([field]);
}

/** The schema's refusal of a raw input, as the field it names. */
function schemaErrors(raw: Record<string, unknown>): string[] {
  const parsed = TextToSpeechInputSchema.safeParse(raw);
  expect(parsed.success).toBe(false);
  return parsed.error!.issues.map((issue) => issue.path.join("."));
}

describe("text-to-speech input", () => {
  it("takes OpenAI's names and the older ones alike", () => {
    const openai = TextToSpeechInputSchema.parse({
      model: "tts-1",
      input: " Hi ",
      voice: "nova",
      response_format: "wav",
      speed: 1.5,
    });
    expect(openai).toEqual({ text: "Hi", voice: "nova", format: "wav", speed: 1.5, pitch: 50, language: undefined });
    const older = TextToSpeechInputSchema.parse({ text: "Hi", format: "mp3", pitch: 70, language: "pt-BR" });
    expect(older).toEqual({ text: "Hi", voice: undefined, format: "mp3", speed: 1, pitch: 70, language: "pt-BR" });
  });

  it("refuses text that is missing, empty, doubled or too long, at its field", () => {
    expect(schemaErrors({})).toEqual(["input"]);
    expect(schemaErrors({ input: "   " })).toEqual(["input"]);
    expect(schemaErrors({ input: "a", text: "b" })).toEqual(["text"]);
    expect(schemaErrors({ input: "a".repeat(MAX_INPUT_CHARS + 1) })).toEqual(["input"]);
    expect(TextToSpeechInputSchema.safeParse({ input: "a".repeat(MAX_INPUT_CHARS) }).success).toBe(true);
  });

  it("refuses a speed outside 0.25–4, a pitch outside 0–99, and formats and tags it does not know", () => {
    expect(schemaErrors({ input: "a", speed: 0.2 })).toEqual(["speed"]);
    expect(schemaErrors({ input: "a", speed: 4.5 })).toEqual(["speed"]);
    expect(schemaErrors({ input: "a", speed: "fast" })).toEqual(["speed"]);
    expect(schemaErrors({ input: "a", pitch: 100 })).toEqual(["pitch"]);
    expect(schemaErrors({ input: "a", response_format: "aac" })).toEqual(["response_format"]);
    expect(schemaErrors({ input: "a", response_format: "mp3", format: "wav" })).toEqual(["format"]);
    expect(schemaErrors({ input: "a", language: "english please" })).toEqual(["language"]);
    expect(schemaErrors({ input: "a", voice: { id: "voice_123" } })).toEqual(["voice"]);
  });

  it("refuses OpenAI's stream_format sse and instructions at their fields, rather than dropping them", () => {
    expect(schemaErrors({ input: "a", stream_format: "sse" })).toEqual(["stream_format"]);
    expect(TextToSpeechInputSchema.safeParse({ input: "a", stream_format: "sse" }).error?.issues[0]?.message).toMatch(
      /not supported.*audio/,
    );
    expect(schemaErrors({ input: "a", instructions: "Speak cheerfully." })).toEqual(["instructions"]);
    expect(
      TextToSpeechInputSchema.safeParse({ input: "a", instructions: "Speak cheerfully." }).error?.issues[0]?.message,
    ).toMatch(/not supported/);
    // What is honoured is accepted: the audio itself, and no instructions.
    expect(TextToSpeechInputSchema.safeParse({ input: "a", stream_format: "audio", instructions: "" }).success).toBe(
      true,
    );
  });
});

describe("text-to-speech's engine for each environment", () => {
  it("picks Workers AI where AI is bound, even with ENGINES bound too (production), else meSpeak, else none", () => {
    type Bindings = Parameters<typeof mediaEnginesFor>[0];
    expect(mediaEnginesFor({ ...env, AI: fakeSpeechModels() } as unknown as Bindings).speech?.engine).toBe(
      "workers-ai",
    );
    expect(mediaEnginesFor(env).speech?.engine).toBe("mespeak");
    expect(mediaEnginesFor({ ...env, ENGINES: undefined } as unknown as Bindings).speech).toBeUndefined();
  });
});

describe("text-to-speech offline: meSpeak in the engine Worker", () => {
  it("answers a well-formed WAV: RIFF, PCM, 22 050 Hz mono 16-bit, named mespeak", async () => {
    const audio = audioOf(await runParsed(speak, { input: SENTENCE }));
    expect(audio.contentType).toBe("audio/wav");
    expect(audio.engine).toBe("mespeak");
    expect(audio.voice).toBe("en-us-male");
    const wav = wavFacts(audio.bytes);
    expect(wav.sampleRate).toBe(22_050);
    expect(wav.channels).toBe(1);
    expect(wav.bitsPerSample).toBe(16);
    expect(wav.seconds).toBeGreaterThan(1.5);
    expect(wav.seconds).toBeLessThan(6);
    // Speech, not silence: some samples are loud.
    const samples = new Int16Array(wav.data.slice().buffer);
    expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(3000);
  });

  it("grows with the text, and joins a text of several pieces into one WAV", async () => {
    const one = wavFacts(audioOf(await runParsed(speak, { input: SENTENCE })).bytes).seconds;
    const three = wavFacts(audioOf(await runParsed(speak, { input: `${SENTENCE} `.repeat(3) })).bytes).seconds;
    expect(three).toBeGreaterThan(one * 2.5);
    // 1 200 characters: three of meSpeak's 400-character pieces under one header.
    const long = wavFacts(audioOf(await runParsed(speak, { input: `${SENTENCE} `.repeat(27) })).bytes).seconds;
    expect(long).toBeGreaterThan(one * 22);
    expect(long).toBeLessThan(one * 32);
  }, 60_000);

  it("changes the duration with speed, and refuses a speed below meSpeak's slowest at speed", async () => {
    const normal = wavFacts(audioOf(await runParsed(speak, { input: SENTENCE })).bytes).seconds;
    const fast = wavFacts(audioOf(await runParsed(speak, { input: SENTENCE, speed: 2 })).bytes).seconds;
    const slow = wavFacts(audioOf(await runParsed(speak, { input: SENTENCE, speed: 0.5 })).bytes).seconds;
    expect(fast).toBeLessThan(normal * 0.65);
    expect(slow).toBeGreaterThan(normal * 1.6);
    expectFieldProblem(await runParsed(speak, { input: SENTENCE, speed: 0.3 }), "speed", /80 words a minute.*0\.46/);
  });

  it("refuses at input a text that would be more than 9 minutes of speech, before it holds it all", async () => {
    // 2 048 words of "nine", read one by one: about 25 minutes at this speed, 70 MB of samples.
    const digits = "9 ".repeat(2048).trim();
    expectFieldProblem(await runParsed(speak, { input: digits, speed: 0.5 }), "input", /more than 9 minutes/);
    // The same engine answers the next call (its isolate survived).
    expect(wavFacts(audioOf(await runParsed(speak, { input: SENTENCE })).bytes).seconds).toBeGreaterThan(1.5);
  }, 60_000);

  it("answers WAV only, and says so at response_format for another format", async () => {
    expectFieldProblem(
      await runParsed(speak, { input: SENTENCE, response_format: "mp3" }),
      "response_format",
      /answers wav/,
    );
  });

  it("picks voices by id, by language and by OpenAI's names, and refuses unknown ones at their field", async () => {
    expect(audioOf(await runParsed(speak, { input: "Bonjour à tous.", language: "fr" })).voice).toBe("fr-male");
    expect(audioOf(await runParsed(speak, { input: "Olá a todos.", language: "pt-BR" })).voice).toBe("pt-br-male");
    expect(audioOf(await runParsed(speak, { input: SENTENCE, voice: "nova" })).voice).toBe("en-us-female");
    expect(audioOf(await runParsed(speak, { input: SENTENCE, voice: "onyx", language: "de" })).voice).toBe("de-male");
    expect(audioOf(await runParsed(speak, { input: SENTENCE, voice: "en-gb-female" })).voice).toBe("en-gb-female");
    expectFieldProblem(await runParsed(speak, { input: SENTENCE, voice: "robot-9000" }), "voice", /not a voice/);
    expectFieldProblem(await runParsed(speak, { input: SENTENCE, language: "sw" }), "language", /no voice for sw/);
  });

  it("refuses a voice and a language that disagree, and an OpenAI name in a language it lacks, at language", async () => {
    expectFieldProblem(
      await runParsed(speak, { input: "Bonjour.", voice: "en-us-male", language: "fr" }),
      "language",
      /en-us-male speaks en-US, not fr/,
    );
    expectFieldProblem(await runParsed(speak, { input: "Habari.", voice: "alloy", language: "sw" }), "language", /sw/);
    expect(audioOf(await runParsed(speak, { input: SENTENCE, voice: "en-gb-male", language: "en-US" })).voice).toBe(
      "en-gb-male",
    );
  });

  it("speaks a female voice higher than the male one, and pitch raises it", async () => {
    const male = await fundamental({ voice: "en-us-male" });
    expect(male).toBeGreaterThan(70);
    expect(male).toBeLessThan(160);
    expect(await fundamental({ voice: "en-us-female" })).toBeGreaterThan(male * 1.3);
    expect(await fundamental({ voice: "en-us-male", pitch: 95 })).toBeGreaterThan(male * 1.2);
  });

  it("lists meSpeak's voices and its one format", async () => {
    const result = await runParsed(voices, {});
    if (result.kind !== "json") throw new Error(result.kind);
    const body = result.body as { engine: string; formats: string[]; voices: { id: string; gender: string | null }[] };
    expect(body.engine).toBe("mespeak");
    expect(body.formats).toEqual(["wav"]);
    expect(body.voices.find((voice) => voice.id === "en-us-female")?.gender).toBe("female");
  });
});

describe("text-to-speech on Workers AI (fake binding in the models' shapes)", () => {
  const withAi = (ai: FakeSpeechModels = fakeSpeechModels()) => ({
    ai,
    ctx: createTestContext({ media: { speech: workersAiSpeech(ai) } }),
  });

  it("answers Aura 2's MP3 by default, with Luna, named by its model", async () => {
    const { ai, ctx } = withAi();
    const audio = audioOf(await runParsed(speak, { input: SENTENCE }, ctx));
    expect(audio.contentType).toBe("audio/mpeg");
    expect(audio.engine).toBe("workers-ai/@cf/deepgram/aura-2-en");
    expect(audio.voice).toBe("luna");
    expect(ai.calls).toEqual([
      { model: "@cf/deepgram/aura-2-en", inputs: { text: SENTENCE, speaker: "luna", encoding: "mp3" } },
    ]);
    // The fake speaks one frame a character (after its tag and Info frame): all of them arrive.
    expect(framesOf(audio.bytes).offsets.length).toBe(SENTENCE.length);
  });

  it("maps each format to Aura's encoding and container, and answers its type", async () => {
    const cases = [
      ["wav", { encoding: "linear16", container: "wav", sample_rate: 24_000 }, "audio/wav"],
      ["pcm", { encoding: "linear16", container: "none", sample_rate: 24_000 }, "audio/pcm"],
      ["flac", { encoding: "flac" }, "audio/flac"],
      ["opus", { encoding: "opus", container: "ogg" }, "audio/ogg"],
      ["mp3", { encoding: "mp3" }, "audio/mpeg"],
    ] as const;
    for (const [format, inputs, contentType] of cases) {
      const { ai, ctx } = withAi();
      const audio = audioOf(await runParsed(speak, { input: SENTENCE, response_format: format, voice: "zeus" }, ctx));
      expect(ai.calls[0]?.inputs, format).toEqual({ text: SENTENCE, speaker: "zeus", ...inputs });
      expect(audio.contentType, format).toBe(contentType);
    }
    const { ctx } = withAi();
    const wav = wavFacts(audioOf(await runParsed(speak, { input: SENTENCE, response_format: "wav" }, ctx)).bytes);
    expect(wav.sampleRate).toBe(24_000);
    expect(wav.data.length).toBe(SENTENCE.length * 480 * 2);
  });

  it("answers OpenAI's voice names with Aura's voice of the same gender", async () => {
    const { ai, ctx } = withAi();
    expect(audioOf(await runParsed(speak, { input: SENTENCE, voice: "onyx" }, ctx)).voice).toBe("orion");
    expect(audioOf(await runParsed(speak, { input: SENTENCE, voice: "shimmer" }, ctx)).voice).toBe("luna");
    expect(ai.calls.map((call) => call.inputs.speaker)).toEqual(["orion", "luna"]);
  });

  it("splits a long text at sentence ends within Aura's limit and joins the MP3 frame by frame", async () => {
    const { ai, ctx } = withAi();
    const text = Array.from({ length: 110 }, (_, i) => `Sentence number ${i + 1} is spoken here.`).join(" ");
    expect(text.length).toBeGreaterThan(3600);
    expect(text.length).toBeLessThanOrEqual(4096);
    const audio = audioOf(await runParsed(speak, { input: text }, ctx));
    expect(ai.calls.length).toBe(3);
    const pieces = ai.calls.map((call) => String(call.inputs.text));
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(1800);
      expect(piece).toMatch(/^Sentence number \d+ is spoken here\..*\.$/);
    }
    expect(pieces.join(" ")).toBe(text);
    // One file: each piece's frames, without the pieces' tags and Info frames.
    const frames = framesOf(audio.bytes);
    expect(frames.offsets[0]).toBe(0);
    expect(frames.infoFrame).toBeNull();
    expect(frames.offsets.length).toBe(pieces.reduce((sum, piece) => sum + piece.length, 0));
    expect(frames.offsets.at(-1)! + frames.sizes.at(-1)!).toBe(audio.bytes.length);
    expect(mp3Seconds(frames)).toBeCloseTo((frames.offsets.length * 576) / 24_000, 5);
  });

  it("joins a long text's WAV pieces under one header, in order, even from streamed headers", async () => {
    const { ai, ctx } = withAi(fakeSpeechModels({ streamedWavSizes: true }));
    const text = Array.from({ length: 110 }, (_, i) => `Sentence number ${i + 1} is spoken here.`).join(" ");
    const wav = wavFacts(audioOf(await runParsed(speak, { input: text, response_format: "wav" }, ctx)).bytes);
    const lengths = ai.calls.map((call) => String(call.inputs.text).length * 480);
    expect(wav.data.length).toBe(lengths.reduce((sum, n) => sum + n, 0) * 2);
    // The fake's samples carry their call's number: 1s, then 2s, then 3s.
    const samples = new Int16Array(wav.data.slice().buffer);
    expect(samples[0]).toBe(1);
    expect(samples[lengths[0]! - 1]).toBe(1);
    expect(samples[lengths[0]!]).toBe(2);
    expect(samples[lengths[0]! + lengths[1]!]).toBe(3);
    expect(samples.at(-1)).toBe(3);
  });

  it("refuses FLAC and Opus for a text Aura cannot speak in one call, at response_format", async () => {
    const { ai, ctx } = withAi();
    const text = `${SENTENCE} `.repeat(50);
    expectFieldProblem(
      await runParsed(speak, { input: text, response_format: "flac" }, ctx),
      "response_format",
      /up to 1800/,
    );
    expect(ai.calls).toEqual([]);
  });

  it("speaks other languages with MeloTTS, MP3 from its base64 JSON, and refuses other formats for them", async () => {
    const { ai, ctx } = withAi();
    const audio = audioOf(await runParsed(speak, { input: "Bonjour à tous.", language: "fr-FR" }, ctx));
    expect(audio.engine).toBe("workers-ai/@cf/myshell-ai/melotts");
    expect(audio.voice).toBe("melotts-fr");
    expect(audio.contentType).toBe("audio/mpeg");
    expect(ai.calls).toEqual([{ model: "@cf/myshell-ai/melotts", inputs: { prompt: "Bonjour à tous.", lang: "fr" } }]);
    expect(framesOf(audio.bytes).offsets.length).toBe("Bonjour à tous.".length);
    await runParsed(speak, { input: "こんにちは。", language: "ja" }, ctx);
    expect(ai.calls.at(-1)?.inputs.lang).toBe("jp");
    expectFieldProblem(
      await runParsed(speak, { input: "Hola.", language: "es", response_format: "wav" }, ctx),
      "response_format",
      /MP3 only/,
    );
    expectFieldProblem(await runParsed(speak, { input: "Habari.", language: "sw" }, ctx), "language");
    expectFieldProblem(
      await runParsed(speak, { input: "Hola.", voice: "zeus", language: "es" }, ctx),
      "language",
      /zeus speaks en-US, not es/,
    );
    expectFieldProblem(await runParsed(speak, { input: "Habari.", voice: "alloy", language: "sw" }, ctx), "language");
  });

  it("refuses a speed for mp3, opus, flac and MeloTTS, and a pitch, at the field, without calling them", async () => {
    const { ai, ctx } = withAi();
    expectFieldProblem(await runParsed(speak, { input: SENTENCE, speed: 1.5 }, ctx), "speed", /wav or pcm/);
    for (const format of ["opus", "flac"]) {
      expectFieldProblem(
        await runParsed(speak, { input: SENTENCE, speed: 0.5, response_format: format }, ctx),
        "speed",
        /wav or pcm/,
      );
    }
    expectFieldProblem(await runParsed(speak, { input: "Hola.", language: "es", speed: 2 }, ctx), "speed", /MeloTTS/);
    expectFieldProblem(await runParsed(speak, { input: SENTENCE, pitch: 70 }, ctx), "pitch");
    expect(ai.calls).toEqual([]);
  });

  it("gives Aura's wav and pcm a speed by time-stretching: the samples' count × 1/speed, one header", async () => {
    for (const format of ["wav", "pcm"] as const) {
      const { ai, ctx } = withAi();
      const samples = async (speed: number) => {
        const bytes = audioOf(await runParsed(speak, { input: SENTENCE, response_format: format, speed }, ctx)).bytes;
        return format === "wav" ? wavFacts(bytes).data.length / 2 : bytes.length / 2;
      };
      const normal = await samples(1);
      expect(normal).toBe(SENTENCE.length * 480);
      for (const speed of [2, 0.5, 1.25]) {
        expect(Math.abs((await samples(speed)) / (normal / speed) - 1), `${format} at ${speed}`).toBeLessThan(0.02);
      }
      // The model is asked as at speed 1: the speed is ours.
      for (const call of ai.calls) expect(call.inputs).not.toHaveProperty("speed");
    }
  });

  it("answers Workers AI's errors by their code, never with the platform's words about the account", async () => {
    const capacity = await runParsed(speak, { input: SENTENCE }, withAi(fakeSpeechModels({ errorCode: 3036 })).ctx);
    expectProblem(capacity, "engine-unavailable");
    if (capacity.kind === "problem") {
      expect(capacity.extensions).toMatchObject({ upstreamCode: 3036, retryAfterSeconds: 60 });
      expect(capacity.detail).not.toMatch(/neurons|account|3036/);
    }
    const failed = await runParsed(speak, { input: SENTENCE }, withAi(fakeSpeechModels({ fail: true })).ctx);
    expectProblem(failed, "engine-failed");
    if (failed.kind === "problem") {
      expect(failed.extensions).toMatchObject({ upstreamCode: 3010 });
      expect(failed.detail).not.toMatch(/InferenceUpstreamError|incomplete input/);
    }
  });

  it("answers in time when the model does not answer, or its stream stalls", async () => {
    const request = { text: SENTENCE, format: "wav", speed: 1, pitch: 50, timeoutMs: 100 } as const;
    for (const ai of [fakeSpeechModels({ delayMs: 5_000 }), fakeSpeechModels({ stallStream: true })]) {
      const started = Date.now();
      const outcome = await workersAiSpeech(ai).synthesize(request);
      expect(outcome).toMatchObject({ ok: false, problem: "engine-failed" });
      expect(outcome.ok ? "" : outcome.detail).toMatch(/did not answer within/);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });

  it("speaks a long text's pieces four at a time, joined in the text's order whatever answers first", async () => {
    // Aura: three pieces, the last answering first.
    const aura = fakeSpeechModels({ delayMs: (call) => [300, 200, 100][call - 1] ?? 0 });
    const text = Array.from({ length: 110 }, (_, i) => `Sentence number ${i + 1} is spoken here.`).join(" ");
    let started = Date.now();
    const wav = wavFacts(
      audioOf(await runParsed(speak, { input: text, response_format: "wav" }, withAi(aura).ctx)).bytes,
    );
    expect(Date.now() - started).toBeLessThan(550);
    const lengths = aura.calls.map((call) => String(call.inputs.text).length * 480);
    const samples = new Int16Array(wav.data.slice().buffer);
    expect([samples[0], samples[lengths[0]!], samples[lengths[0]! + lengths[1]!], samples.at(-1)]).toEqual([
      1, 2, 3, 3,
    ]);

    // MeloTTS: nine pieces of at most 500 characters, MPEG-1 frames joined whole.
    const melo = fakeSpeechModels({ delayMs: 150 });
    const french = Array.from({ length: 120 }, (_, i) => `La phrase numéro ${i + 1} est dite ici.`).join(" ");
    expect(french.length).toBeLessThanOrEqual(4096);
    started = Date.now();
    const mp3 = audioOf(await runParsed(speak, { input: french, language: "fr" }, withAi(melo).ctx)).bytes;
    expect(Date.now() - started).toBeLessThan(melo.calls.length * 150 * 0.75);
    expect(melo.calls.length).toBeGreaterThanOrEqual(8);
    const prompts = melo.calls.map((call) => String(call.inputs.prompt));
    for (const prompt of prompts) expect(prompt.length).toBeLessThanOrEqual(500);
    expect(prompts.join(" ")).toBe(french);
    const frames = framesOf(mp3);
    expect(frames.offsets.length).toBe(prompts.reduce((sum, prompt) => sum + prompt.length, 0));
    expect(frames.sampleRate).toBe(44_100);
    expect(frames.offsets.at(-1)! + frames.sizes.at(-1)!).toBe(mp3.length);
  });

  it("joins pcm pieces as they are, and refuses audio that is not the format asked as 502", async () => {
    const ai = fakeSpeechModels();
    const text = Array.from({ length: 110 }, (_, i) => `Sentence number ${i + 1} is spoken here.`).join(" ");
    const pcm = audioOf(await runParsed(speak, { input: text, response_format: "pcm" }, withAi(ai).ctx)).bytes;
    const lengths = ai.calls.map((call) => String(call.inputs.text).length * 480);
    expect(pcm.length).toBe(lengths.reduce((sum, n) => sum + n, 0) * 2);
    const samples = new Int16Array(pcm.slice().buffer);
    expect([samples[0], samples[lengths[0]!], samples.at(-1)]).toEqual([1, 2, 3]);

    const riff = withAi(fakeSpeechModels({ answerBytes: wavOf(new Uint8Array(960), 24_000) })).ctx;
    expectProblem(
      await runParsed(speak, { input: SENTENCE, response_format: "pcm" }, riff),
      "engine-failed",
      /not pcm/,
    );
    const mp3 = withAi(fakeSpeechModels({ answerBytes: mp3Of(3) })).ctx;
    expectProblem(await runParsed(speak, { input: SENTENCE, response_format: "wav" }, mp3), "engine-failed", /not wav/);
    const huge = withAi(fakeSpeechModels({ answerBytes: new Uint8Array(17 * 1024 * 1024) })).ctx;
    expectProblem(
      await runParsed(speak, { input: SENTENCE, response_format: "pcm" }, huge),
      "engine-failed",
      /too large/,
    );
  });

  it("lists Aura's and MeloTTS's voices and all five formats", async () => {
    const { ctx } = withAi();
    const result = await runParsed(voices, {}, ctx);
    if (result.kind !== "json") throw new Error(result.kind);
    const body = result.body as {
      engine: string;
      formats: string[];
      voices: { id: string; language: string; gender: string | null }[];
    };
    expect(body.engine).toBe("workers-ai");
    expect(body.formats).toEqual(["mp3", "wav", "opus", "flac", "pcm"]);
    expect(body.voices).toContainEqual({
      id: "luna",
      name: "Luna (Deepgram Aura 2)",
      language: "en-US",
      gender: "female",
    });
    // MeloTTS's voices say what they answer: mp3 only, though the engine lists five formats.
    expect(body.voices).toContainEqual({
      id: "melotts-fr",
      name: "French (MeloTTS)",
      language: "fr",
      gender: null,
      formats: ["mp3"],
    });
    expect(VoicesOutputSchema.parse(body).voices.find((voice) => voice.id === "luna")?.formats).toBeUndefined();
    expect(body.voices.filter((voice) => voice.id.startsWith("melotts-")).length).toBe(5);
  });
});

describe("text-to-speech with no engine", () => {
  it("answers 503 engine-unavailable naming the AI binding, for speech and for voices", async () => {
    const ctx = createTestContext({ media: {} });
    expectProblem(await runParsed(speak, { input: SENTENCE }, ctx), "engine-unavailable", /AI binding.*ENGINES/);
    const listed = await runParsed(voices, {}, ctx);
    expectProblem(listed, "engine-unavailable");
    if (listed.kind === "problem") expect(listed.extensions?.binding).toBe("AI");
  });
});

describe("text-to-speech through the gateway", () => {
  it("answers the WAV to a Premium key, and as JSON with ?as=json", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const response = await callHosted(SELF, "POST", "/api/v1/text-to-speech", { key, body: { input: "Hello." } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    expect(response.headers.get("x-engine")).toBe("mespeak");
    wavFacts(new Uint8Array(await response.arrayBuffer()));
    const asJson = await callHosted(SELF, "POST", "/api/v1/text-to-speech?as=json", { key, body: { text: "Hello." } });
    const body = await asJson.json<{ data: string; mimeType: string; size: number }>();
    expect(body.mimeType).toBe("audio/wav");
    const bytes = Uint8Array.from(atob(body.data), (c) => c.charCodeAt(0));
    expect(bytes.length).toBe(body.size);
    wavFacts(bytes);
  });

  it("lists the voices at GET /voices, and refuses a Free key (premium API)", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const listed = await callHosted(SELF, "GET", "/api/v1/text-to-speech/voices", { key });
    expect(listed.status).toBe(200);
    const body = await listed.json<{ engine: string; voices: unknown[] }>();
    expect(body.engine).toBe("mespeak");
    expect(body.voices.length).toBeGreaterThan(40);
    const free = await createAccountWithKey(env.DB, { planId: "free" });
    await expectProblemResponse(
      await callHosted(SELF, "POST", "/api/v1/text-to-speech", { key: free.key, body: { input: "Hello." } }),
      403,
      "plan-required",
    );
  });

  it("answers a too-long input as 422 naming input", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const response = await callHosted(SELF, "POST", "/api/v1/text-to-speech", {
      key,
      body: { input: "a".repeat(MAX_INPUT_CHARS + 1) },
    });
    const body = await expectProblemResponse(response, 422, "invalid-input");
    expect(Object.keys(body.errors as object)).toEqual(["input"]);
  });
});
