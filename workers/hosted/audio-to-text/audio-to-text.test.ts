/**
 * Audio to Text through its handler with Whisper behind a fake AI binding that hears the audio
 * (tests/fakes/workers-ai-whisper.ts): every response_format exactly, OpenAI's field names and
 * spellings, uploads and URLs, refusals before any model call; and through the gateway, where
 * the tests (like `npm run dev`) have no AI binding: 503 naming it, and the body bounds.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EXAMPLE_TRANSCRIPT } from "~/lib/transcript";
import type { HandlerResult } from "~workers/hosted/definition";
import { PROBLEM_TYPES } from "~workers/http/problem";
import { whisperRecognizer, WHISPER_ENGINE } from "~workers/providers/workers-ai/transcription";
import { makeMp3, makeWav, WORDS, type Burst } from "../../../tests/audio-fixtures";
import {
  callHosted,
  createAccountWithKey,
  expectProblem as expectHttpProblem,
  multipartOf,
} from "../../../tests/factories";
import { fakeWhisperAi, inferenceUpstreamError } from "../../../tests/fakes/workers-ai-whisper";
import { createTestContext, expectProblem, jsonBody } from "../../../tests/hosted-context";
import { MAX_DURATION_SECONDS } from "./handler";
import { definition } from "./index";
import { AUDIO_BODY_BYTES, AudioToTextInputSchema, AudioToTextOutputSchema, MAX_AUDIO_BYTES } from "./schema";

const operation = definition.operations[0]!;

/** Two phrases: "alpha bravo" (0.50–1.20 s) and, after a pause, "charlie" (2.25–2.80 s). */
const PHRASES: Burst[] = [
  { start: 0.5, end: 0.8, code: 1 },
  { start: 0.9, end: 1.2, code: 2 },
  { start: 2.25, end: 2.8, code: 3 },
];

const wavFile = (bytes = makeWav({ seconds: 3.5, bursts: PHRASES }), name = "speech.wav") =>
  new File([bytes], name, { type: "audio/wav" });

function whisperContext(options: Parameters<typeof createTestContext>[0] = {}) {
  const ai = fakeWhisperAi();
  return { ai, ctx: createTestContext({ ...options, media: { transcription: whisperRecognizer(ai) } }) };
}

async function run(raw: Record<string, unknown>, ctx = whisperContext().ctx): Promise<HandlerResult> {
  const parsed = AudioToTextInputSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`input did not parse: ${parsed.error.message}`);
  return operation.handler(parsed.data, ctx);
}

function textOf(result: HandlerResult): { body: string; contentType: string; engine: string | undefined } {
  if (result.kind !== "binary")
    throw new Error(`expected a text answer, got ${result.kind}: ${JSON.stringify(result)}`);
  return {
    body: typeof result.body === "string" ? result.body : new TextDecoder().decode(result.body),
    contentType: result.contentType,
    engine: result.headers?.["X-Engine"],
  };
}

describe("audio-to-text: formats", () => {
  it("answers SRT exactly: cues numbered from 1, HH:MM:SS,mmm, in order, a blank line between", async () => {
    const answer = textOf(await run({ file: wavFile(), response_format: "srt" }));
    expect(answer.body).toBe(
      "1\n00:00:00,500 --> 00:00:01,200\nalpha bravo\n\n" + "2\n00:00:02,250 --> 00:00:02,800\ncharlie\n",
    );
    expect(answer.contentType).toBe("text/plain; charset=utf-8");
    expect(answer.engine).toBe(WHISPER_ENGINE);
  });

  it("answers WebVTT exactly", async () => {
    const answer = textOf(await run({ file: wavFile(), response_format: "vtt" }));
    expect(answer.body).toBe(
      "WEBVTT\n\n00:00:00.500 --> 00:00:01.200\nalpha bravo\n\n00:00:02.250 --> 00:00:02.800\ncharlie\n",
    );
    expect(answer.contentType).toBe("text/vtt; charset=utf-8");
  });

  it("answers {text} for json (the default) and the text alone for text", async () => {
    const result = await run({ file: wavFile() });
    expect(result).toMatchObject({
      kind: "json",
      body: { text: "alpha bravo charlie" },
      headers: { "X-Engine": WHISPER_ENGINE },
    });
    expect(Object.keys((result as { body: object }).body)).toEqual(["text"]);
    expect(textOf(await run({ file: wavFile(), response_format: "text" })).body).toBe("alpha bravo charlie");
  });

  it("answers verbose_json in OpenAI's shape with segments and, asked, words", async () => {
    const result = await run({
      file: wavFile(),
      response_format: "verbose_json",
      timestamp_granularities: ["segment", "word"],
    });
    const body = jsonBody(result, AudioToTextOutputSchema);
    expect(body).toMatchObject({ task: "transcribe", language: "english", duration: 3.5, text: "alpha bravo charlie" });
    expect(body.segments).toEqual([
      {
        id: 0,
        seek: 50,
        start: 0.5,
        end: 1.2,
        text: " alpha bravo",
        tokens: [],
        temperature: 0,
        avg_logprob: -0.25,
        compression_ratio: 1.1,
        no_speech_prob: 0.02,
      },
      expect.objectContaining({ id: 1, start: 2.25, end: 2.8, text: " charlie" }),
    ]);
    expect(body.words).toEqual([
      { word: "alpha", start: 0.5, end: 0.8 },
      { word: "bravo", start: 0.9, end: 1.2 },
      { word: "charlie", start: 2.25, end: 2.8 },
    ]);
  });

  it("takes OpenAI's form spelling timestamp_granularities[], repeated, and leaves segments out for words alone", async () => {
    const words = jsonBody(
      await run({ file: wavFile(), response_format: "verbose_json", "timestamp_granularities[]": "word" }),
      AudioToTextOutputSchema,
    );
    expect(words.words?.map((word) => word.word)).toEqual(["alpha", "bravo", "charlie"]);
    expect(words).not.toHaveProperty("segments");
    const both = jsonBody(
      await run({ file: wavFile(), response_format: "verbose_json", "timestamp_granularities[]": ["word", "segment"] }),
      AudioToTextOutputSchema,
    );
    expect(both.segments).toHaveLength(2);
    expect(both.words).toHaveLength(3);
    // Only segments unless asked: OpenAI's default.
    expect(
      jsonBody(await run({ file: wavFile(), response_format: "verbose_json" }), AudioToTextOutputSchema),
    ).not.toHaveProperty("words");
  });

  it("stitches a long upload's pieces: a 250 s WAV's words keep their times across three Whisper calls", async () => {
    const bursts: Burst[] = [10, 97, 99.5, 150, 199, 240].map((start, index) => ({
      start,
      end: start + 0.4,
      code: index + 4,
    }));
    const { ai, ctx } = whisperContext();
    const srt = textOf(
      await run({ file: wavFile(makeWav({ seconds: 250, bursts })), response_format: "srt" }, ctx),
    ).body;
    expect(ai.calls).toHaveLength(3);
    const cues = srt.trimEnd().split("\n\n");
    expect(cues.map((cue) => cue.split("\n")[0])).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(cues.map((cue) => cue.split("\n")[2])).toEqual(bursts.map((burst) => WORDS[burst.code]));
    // Within the fake's 10 ms hearing of each piece, on the whole file's clock.
    cues.forEach((cue, index) => {
      const [from] = cue.split("\n")[1]!.split(" --> ");
      const [h, m, s] = from!.replace(",", ".").split(":").map(Number);
      expect(Math.abs(h! * 3600 + m! * 60 + s! - bursts[index]!.start)).toBeLessThanOrEqual(0.011);
    });
  });

  it("reads an MP3 and passes language and prompt to Whisper, with its voice-activity filter on", async () => {
    const { ai, ctx } = whisperContext();
    const mp3 = new File([makeMp3({ seconds: 2, id3: true, bursts: [{ start: 0.48, end: 0.96, code: 5 }] })], "a.mp3");
    const result = await run(
      { file: mp3, language: "DE", prompt: "  Namen: Echo  ", model: "whisper-1", temperature: "0.2" },
      ctx,
    );
    expect(result).toMatchObject({ kind: "json", body: { text: "echo" } });
    expect(ai.calls[0]!.inputs).toEqual({
      task: "transcribe",
      vad_filter: true,
      language: "de",
      initial_prompt: "Namen: Echo",
    });
  });
});

describe("audio-to-text: engine failures", () => {
  it("answers Workers AI out of capacity as 503 with a Retry-After header, without the platform's message", async () => {
    const ai = fakeWhisperAi({
      fail: inferenceUpstreamError("3040: Out of capacity for this model, please upgrade to the Workers Paid plan"),
    });
    const ctx = createTestContext({ media: { transcription: whisperRecognizer(ai) } });
    const result = await run({ file: wavFile() }, ctx);
    expectProblem(result, "engine-unavailable");
    expect(result).toMatchObject({ headers: { "Retry-After": "60" }, extensions: { retryAfterSeconds: 60 } });
    expect(JSON.stringify(result)).not.toMatch(/upgrade|Paid/);
  });
});

describe("audio-to-text: sources", () => {
  it("fetches a url through the guard, and refuses a private one", async () => {
    const wav = makeWav({ seconds: 3.5, bursts: PHRASES });
    const { ai, ctx } = whisperContext({
      dns: { "media.example.com": ["93.184.216.34"], "intranet.example.com": ["10.0.0.5"] },
      routes: {
        "https://media.example.com/talk.wav": () => new Response(wav, { headers: { "content-type": "audio/wav" } }),
      },
    });
    expect(await run({ url: "https://media.example.com/talk.wav" }, ctx)).toMatchObject({
      body: { text: "alpha bravo charlie" },
    });
    expectProblem(await run({ url: "https://intranet.example.com/talk.wav" }, ctx), "invalid-input", /private address/);
    expect(ai.calls).toHaveLength(1);
  });

  it("refuses a fetched page that is not audio with 415, and one over 25 MB at url, before any model call", async () => {
    const { ai, ctx } = whisperContext({
      dns: { "media.example.com": ["93.184.216.34"] },
      routes: {
        "https://media.example.com/page": () =>
          new Response("<!doctype html><title>Not found</title>", { headers: { "content-type": "text/html" } }),
        "https://media.example.com/huge.wav": () =>
          new Response(new Uint8Array(MAX_AUDIO_BYTES + 1), { headers: { "content-type": "audio/wav" } }),
      },
    });
    expectProblem(await run({ url: "https://media.example.com/page" }, ctx), "unsupported-media-type", /not audio/);
    expectProblem(await run({ url: "https://media.example.com/huge.wav" }, ctx), "invalid-input");
    expect(ai.calls).toHaveLength(0);
  });
});

describe("audio-to-text: refusals before any model call", () => {
  it("refuses a PDF, an image and text with 415, and damaged audio with 422, without calling Whisper", async () => {
    const { ai, ctx } = whisperContext();
    const encode = (text: string) => new TextEncoder().encode(text);
    for (const bytes of [
      encode("%PDF-1.7\n"),
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0]),
      encode("just text"),
    ]) {
      expectProblem(
        await run({ file: new File([bytes], "fake.mp3", { type: "audio/mpeg" }) }, ctx),
        "unsupported-media-type",
      );
    }
    const wav = makeWav({ seconds: 1 });
    expectProblem(await run({ file: new File([wav.subarray(0, 40)], "cut.wav") }, ctx), "unreadable-document", /WAV/);
    const noise = Uint8Array.from({ length: 3000 }, (_, index) => (index * 31) & 0x7f);
    noise.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0], 0);
    const result = await run({ file: new File([noise], "noise.mp3") }, ctx);
    expectProblem(result, "unreadable-document", /no MPEG audio frame/);
    expect(result).toMatchObject({ extensions: { reason: "malformed" } });
    expect(ai.calls).toHaveLength(0);
  });

  it("refuses audio longer than 30 minutes from its header", async () => {
    const { ai, ctx } = whisperContext();
    // 31 minutes at 1 kHz: 3.7 MB, its length read from the header.
    const long = makeWav({ seconds: MAX_DURATION_SECONDS + 60, sampleRate: 1000 });
    const result = await run({ file: new File([long], "long.wav") }, ctx);
    expectProblem(result, "unreadable-document", /31\.0 minutes/);
    expect(result).toMatchObject({ extensions: { reason: "too-long" } });
    expect(ai.calls).toHaveLength(0);
  });

  it("refuses bad fields with their names: format, granularities without verbose_json, language, both or neither source", () => {
    const issues = (raw: Record<string, unknown>) =>
      AudioToTextInputSchema.safeParse(raw).error?.issues.map((issue) => issue.path.join(".")) ?? [];
    const file = wavFile();
    expect(issues({ file, response_format: "mp3" })).toEqual(["response_format"]);
    expect(issues({ file, response_format: "srt", timestamp_granularities: ["word"] })).toEqual([
      "timestamp_granularities",
    ]);
    expect(issues({ file, response_format: "verbose_json", timestamp_granularities: ["letter"] })).toEqual([
      "timestamp_granularities.0",
    ]);
    expect(issues({ file, language: "english" })).toEqual(["language"]);
    expect(issues({ file, url: "https://example.com/a.wav" })).toEqual(["file"]);
    expect(issues({})).toEqual(["file"]);
    expect(issues({ url: "ftp://example.com/a.wav" })).toEqual(["url"]);
    expect(issues({ file, temperature: 2 })).toEqual(["temperature"]);
    expect(issues({ file: new File([], "empty.wav") })).toEqual(["file"]);
    // The live demo sends a list as JSON text in a form.
    expect(issues({ file, response_format: "verbose_json", timestamp_granularities: '["segment","word"]' })).toEqual(
      [],
    );
  });

  it("documents every reason it answers with unreadable-document in that problem type's page", () => {
    const described = PROBLEM_TYPES["unreadable-document"].description;
    for (const reason of ["malformed", "truncated", "no-audio", "too-large", "too-long"]) {
      expect(described).toMatch(new RegExp(`[\`\\s]${reason}\``));
    }
  });

  it("documents an example answer that fits its schema and is labelled as an example", () => {
    expect(AudioToTextOutputSchema.safeParse(EXAMPLE_TRANSCRIPT).success).toBe(true);
    expect(operation.output).toMatchObject({ kind: "json", example: EXAMPLE_TRANSCRIPT });
    expect(operation.description).toMatch(/labelled as an example/);
    expect(operation.description).toMatch(/Local \(`npm run dev`, tests\) — none/);
    // The quiet-moment cut reads 16-bit samples only; the docs promise no more.
    expect(operation.description).toMatch(/a 16-bit PCM WAV at the quietest moment/);
    expect(operation.description).toMatch(/at most 3\.6 MB/);
  });
});

describe("audio-to-text: through the gateway (no AI binding, as offline)", () => {
  it("answers 503 engine-unavailable naming the AI binding", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const form = multipartOf(
      { response_format: "srt" },
      { name: "file", filename: "speech.wav", type: "audio/wav", bytes: makeWav({ seconds: 1, bursts: PHRASES }) },
    );
    const body = await expectHttpProblem(
      await callHosted(SELF, "POST", "/api/v1/audio-to-text", { key, ...form }),
      503,
      "engine-unavailable",
    );
    expect(body).toMatchObject({ binding: "AI" });
    expect(body.detail).toMatch(/no AI binding/);
    const json = await callHosted(SELF, "POST", "/api/v1/audio-to-text", { key, body: operation.example });
    await expectHttpProblem(json, 503, "engine-unavailable");
  });

  it("still reads an upload's bytes offline: a PDF is 415 and a damaged WAV 422, not 503", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const pdf = multipartOf(
      {},
      { name: "file", filename: "talk.mp3", type: "audio/mpeg", bytes: new TextEncoder().encode("%PDF-1.7\n") },
    );
    const body = await expectHttpProblem(
      await callHosted(SELF, "POST", "/api/v1/audio-to-text", { key, ...pdf }),
      415,
      "unsupported-media-type",
    );
    expect(body.detail).toMatch(/PDF, not audio/);
    const cut = multipartOf(
      {},
      { name: "file", filename: "cut.wav", type: "audio/wav", bytes: makeWav({ seconds: 1 }).subarray(0, 40) },
    );
    await expectHttpProblem(
      await callHosted(SELF, "POST", "/api/v1/audio-to-text", { key, ...cut }),
      422,
      "unreadable-document",
    );
  });

  it("refuses a file over 25 MB as 422 invalid-input at file, and a larger body as 413", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const over = multipartOf(
      {},
      { name: "file", filename: "big.wav", type: "audio/wav", bytes: new Uint8Array(MAX_AUDIO_BYTES + 1) },
    );
    const body = await expectHttpProblem(
      await callHosted(SELF, "POST", "/api/v1/audio-to-text", { key, ...over }),
      422,
      "invalid-input",
    );
    expect(JSON.stringify(body)).toMatch(/"file":\[?"An audio file may be at most 25 MB/);
    const huge = multipartOf(
      {},
      { name: "file", filename: "huge.wav", type: "audio/wav", bytes: new Uint8Array(AUDIO_BODY_BYTES + 1) },
    );
    await expectHttpProblem(
      await callHosted(SELF, "POST", "/api/v1/audio-to-text", { key, ...huge }),
      413,
      "body-too-large",
    );
  });

  it("has the live demo say so and show the labelled example on first render, before any call", async () => {
    const response = await SELF.fetch("https://portico.test/audio-to-text/live-demo");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("this environment has no AI binding");
    expect(html).toContain("not a transcription of your audio");
    for (const segment of EXAMPLE_TRANSCRIPT.segments) expect(html).toContain(segment.text.trim());
  });

  it("is refused to a Free plan, as a premium API", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "free" });
    const response = await callHosted(SELF, "POST", "/api/v1/audio-to-text", { key, body: operation.example });
    expect(response.status).toBe(403);
    await response.arrayBuffer();
  });
});
