/**
 * The admin's prompt-to-image through the Worker (decision 063): only the admin account may
 * call it, its input is checked before anything is spent, and without the Workers AI binding
 * (as in these tests' own environment) it says which binding it needs instead of inventing an
 * image. With a fake binding answering in FLUX's real shape, the picture is kept in R2 with its
 * prompt and style, listed newest first, served and downloadable; the plan's day limit holds
 * for calls sent together, and a call that made no picture does not count.
 *
 * The fake is passed the way production passes the real one: as the `AI` binding in the env the
 * Worker is called with.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import worker from "~workers/app";
import { detectFormat } from "~workers/hosted/_image/sniff";
import { AI_IMAGE_LIMITS, AI_IMAGE_STYLES, aiImageUsage, type LinkedAiImage } from "~workers/platform/ai-images";
import { effectivePlan } from "~workers/platform/plans";
import { TEXT_TO_IMAGE_MODEL } from "~workers/providers/workers-ai/text-to-image";
import { callApi, expectProblem, sessionCookieFor, signUpUnverified, signUpVerified } from "../../tests/factories";
import {
  failingAnswer,
  fakeImageModel,
  fluxAnswer,
  jpegOf,
  middleColourOfJpeg,
  pngOf,
  streamAnswer,
  type FakeImageModel,
} from "../../tests/fakes/workers-ai-images";

const PATH = "/api/ai/prompt-to-image";
const PROMPT = { input_prompts: "a lighthouse at dusk", type: "anime" };
const bucket = () => (env as Env & { AI_IMAGES: R2Bucket }).AI_IMAGES;

/** The Worker, called with `bindings` added to the tests' environment. */
function workerWith(bindings: Record<string, unknown>) {
  return {
    async fetch(input: string, init?: RequestInit): Promise<Response> {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request(input, init) as Request<unknown, IncomingRequestCfProperties>,
        { ...env, ...bindings } as Env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return response;
    },
  };
}

const adminCookie = () => sessionCookieFor(SELF, env.ADMIN_EMAIL);

async function adminAccount() {
  await adminCookie();
  const row = await env.DB.prepare(`SELECT id, plan_id, plan_expires_at FROM users WHERE email = ?`)
    .bind(env.ADMIN_EMAIL)
    .first<{ id: string; plan_id: "free" | "standard" | "premium"; plan_expires_at: number | null }>();
  if (!row) throw new Error("no admin account");
  return { id: row.id, plan: { planId: row.plan_id, planExpiresAt: row.plan_expires_at } };
}

/**
 * The admin account is shared by every test file: each test here starts with its images and
 * its count gone, as on a new day, so the plan's day limit is the test's own.
 */
async function startAfresh(): Promise<void> {
  const { id } = await adminAccount();
  await env.DB.prepare(`DELETE FROM ai_image_generations WHERE user_id = ?`).bind(id).run();
  const listed = await bucket().list({ prefix: `users/${id}/` });
  if (listed.objects.length > 0) await bucket().delete(listed.objects.map((object) => object.key));
}

async function generate(ai: FakeImageModel, body: object = PROMPT) {
  return callApi(workerWith({ AI: ai }), "POST", PATH, { cookie: await adminCookie(), body });
}

describe("POST /api/ai/prompt-to-image", () => {
  beforeEach(startAfresh);

  it("needs a session", async () => {
    await expectProblem(await callApi(SELF, "POST", PATH, { body: PROMPT }), 401, "unauthenticated");
  });

  it("is the admin's only: a proven or an unproven ordinary account gets 403, even where the engine exists", async () => {
    const ai = fakeImageModel(fluxAnswer());
    for (const { cookie } of [await signUpVerified(SELF), await signUpUnverified(SELF)]) {
      for (const [method, path] of [
        ["POST", PATH],
        ["GET", "/api/ai/images"],
        ["GET", "/api/ai/images/9999999999999-0000000000000000"],
      ] as const) {
        const answer = await callApi(workerWith({ AI: ai }), method, path, {
          cookie,
          body: method === "POST" ? PROMPT : undefined,
        });
        const body = await expectProblem(answer, 403, "forbidden");
        expect(body.message).toBe("Only the admin account may generate images.");
      }
    }
    expect(ai.calls).toHaveLength(0);
  });

  it.each([
    [{ type: "anime" }, ["input_prompts"]],
    [{ input_prompts: "hi", type: "anime" }, ["input_prompts"]],
    [{ input_prompts: "x".repeat(1001), type: "anime" }, ["input_prompts"]],
    [{ input_prompts: "a lighthouse", type: "cartoon" }, ["type"]],
    [{}, ["input_prompts", "type"]],
  ])("names what is wrong with %j, and spends nothing", async (body, fields) => {
    const ai = fakeImageModel(fluxAnswer());
    const answer = await expectProblem(await generate(ai, body), 422, "invalid-input");
    expect(Object.keys(answer.errors as object).sort()).toEqual(fields);
    expect(ai.calls).toHaveLength(0);
  });

  it("says it needs the AI binding where there is none, and makes nothing up", async () => {
    const cookie = await adminCookie();
    const body = await expectProblem(
      await callApi(SELF, "POST", PATH, { cookie, body: PROMPT }),
      503,
      "engine-unavailable",
    );
    expect(body).toMatchObject({ binding: "AI" });
    expect(String(body.message)).toContain("Workers AI binding (AI)");
    expect(body).not.toHaveProperty("image");
  });

  it("names the R2 bucket where the model exists but the bucket does not", async () => {
    const ai = fakeImageModel(fluxAnswer());
    const answer = await callApi(workerWith({ AI: ai, AI_IMAGES: undefined }), "POST", PATH, {
      cookie: await adminCookie(),
      body: PROMPT,
    });
    expect(await expectProblem(answer, 503, "engine-unavailable")).toMatchObject({ binding: "AI_IMAGES" });
    expect(ai.calls).toHaveLength(0);
  });

  it("asks FLUX.1 schnell for the style's preset, keeps the image with its prompt and style, and answers it", async () => {
    const jpeg = jpegOf([200, 40, 40]);
    const ai = fakeImageModel(fluxAnswer(jpeg));
    const answer = await generate(ai, { input_prompts: "  a lighthouse at dusk ", type: "anime" });
    expect(answer.status).toBe(200);
    const body = await answer.json<LinkedAiImage & { message: string; image: string }>();

    expect(ai.calls).toHaveLength(1);
    const [call] = ai.calls;
    expect(call!.model).toBe(TEXT_TO_IMAGE_MODEL);
    expect(call!.inputs.prompt).toBe(`a lighthouse at dusk. ${AI_IMAGE_STYLES.anime.preset}`);
    expect(call!.inputs.steps).toBeGreaterThanOrEqual(1);
    expect(call!.inputs.steps).toBeLessThanOrEqual(8);
    // FLUX takes `prompt` and `steps` only (additionalProperties: false).
    expect(Object.keys(call!.inputs).sort()).toEqual(["prompt", "steps"]);

    expect(body).toMatchObject({ message: "Image generated", prompt: "a lighthouse at dusk", style: "anime" });
    expect(body.image).toBe(`data:image/jpeg;base64,${btoa(String.fromCharCode(...jpeg))}`);
    expect(body.filename).toMatch(/^portico-anime-\d{4}-\d{2}-\d{2}-a-lighthouse-at-dusk\.jpg$/);
    expect(body.downloadUrl).toBe(`/api/ai/images/${body.id}?download=1`);

    const { id } = await adminAccount();
    const object = await bucket().get(`users/${id}/${body.id}`);
    expect(object).not.toBeNull();
    expect(object!.httpMetadata?.contentType).toBe("image/jpeg");
    expect(object!.customMetadata).toMatchObject({ prompt: "a lighthouse at dusk", style: "anime" });
    const stored = new Uint8Array(await object!.arrayBuffer());
    expect(middleColourOfJpeg(stored)).toEqual(middleColourOfJpeg(jpeg));
    expect(stored).toEqual(jpeg);
  });

  it("lists the admin's images newest first, serves each with its type, and downloads it under a sensible name", async () => {
    const cookie = await adminCookie();
    const first = await generate(fakeImageModel(fluxAnswer(jpegOf([10, 200, 10]))), {
      input_prompts: "Ein Leuchtturm am Fjord, Dämmerung 🌅",
      type: "anime",
    });
    expect(first.status).toBe(200);
    const firstBody = await first.json<LinkedAiImage>();
    // The next picture on another day: today's count set aside so a Free admin may make it.
    await env.DB.prepare(`DELETE FROM ai_image_generations WHERE id = ?`).bind(firstBody.id).run();
    // A PNG inside FLUX's JSON: the bytes, not the model's habit, decide the type.
    const png = pngOf([40, 40, 200]);
    const second = await generate(fakeImageModel(fluxAnswer(png)), {
      input_prompts: "a chemist at work",
      type: "human",
    });
    expect(second.status).toBe(200);
    const secondBody = await second.json<LinkedAiImage & { image: string }>();
    expect(secondBody.image.startsWith("data:image/png;base64,")).toBe(true);

    const list = await callApi(SELF, "GET", "/api/ai/images", { cookie });
    expect(list.status).toBe(200);
    const { images, cursor } = await list.json<{ images: LinkedAiImage[]; cursor: string | null }>();
    expect(cursor).toBeNull();
    expect(images.map((image) => [image.id, image.prompt, image.style, image.contentType])).toEqual([
      [secondBody.id, "a chemist at work", "human", "image/png"],
      [firstBody.id, "Ein Leuchtturm am Fjord, Dämmerung 🌅", "anime", "image/jpeg"],
    ]);
    expect(images[0]!.createdAt).toBeGreaterThanOrEqual(images[1]!.createdAt);

    const shown = await callApi(SELF, "GET", secondBody.url, { cookie });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/png");
    expect(shown.headers.get("content-disposition")).toMatch(
      /^inline; filename="portico-human-[\d-]+-a-chemist-at-work\.png"$/,
    );
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(png);

    const saved = await callApi(SELF, "GET", images[1]!.downloadUrl, { cookie });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("content-type")).toBe("image/jpeg");
    expect(saved.headers.get("content-disposition")).toBe(`attachment; filename="${images[1]!.filename}"`);
    expect(images[1]!.filename).toMatch(/^portico-anime-[\d-]+-ein-leuchtturm-am-fjord-dammerung\.jpg$/);
    expect(detectFormat(new Uint8Array(await saved.arrayBuffer()))).toBe("jpeg");

    for (const missing of ["/api/ai/images/9999999999999-0123456789abcdef", "/api/ai/images/..%2F..%2Fsecret"]) {
      await expectProblem(await callApi(SELF, "GET", missing, { cookie }), 404, "not-found");
    }
  });

  it("reads an SDXL-style stream answer too", async () => {
    const png = pngOf([1, 2, 3]);
    const answer = await generate(fakeImageModel(streamAnswer(png)));
    expect(answer.status).toBe(200);
    const body = await answer.json<LinkedAiImage>();
    expect(body.contentType).toBe("image/png");
  });

  it("holds the plan's day limit exactly for ten calls sent together", async () => {
    const { id, plan } = await adminAccount();
    const perDay = AI_IMAGE_LIMITS[effectivePlan(plan, Date.now())].perDay;
    const ai = fakeImageModel(fluxAnswer());
    const cookie = await adminCookie();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => callApi(workerWith({ AI: ai }), "POST", PATH, { cookie, body: PROMPT })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array<number>(perDay).fill(200), ...Array<number>(10 - perDay).fill(429)]);
    for (const answer of answers.filter((answer) => answer.status === 429)) {
      const body = await expectProblem(answer, 429, "too-many-requests");
      expect(body.message).toBe(`Your plan allows ${perDay} a day. Try again later or upgrade.`);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Only the calls that got through reached the model, and only their pictures were kept.
    expect(ai.calls).toHaveLength(perDay);
    expect((await bucket().list({ prefix: `users/${id}/` })).objects).toHaveLength(perDay);
  });

  it.each([
    ["the model fails", failingAnswer(), /InferenceUpstreamError: 3010/],
    ["the model answers no image", () => ({ result: "nothing" }), /without an image/],
    ["the model's bytes are no image", fluxAnswer(new TextEncoder().encode("not a picture at all")), /not an image/],
  ])("when %s: 502 engine-failed, nothing kept, nothing counted", async (_case, answer, reason) => {
    const { id, plan } = await adminAccount();
    const response = await generate(fakeImageModel(answer));
    const body = await expectProblem(response, 502, "engine-failed");
    expect(String(body.message)).toMatch(reason);
    expect((await bucket().list({ prefix: `users/${id}/` })).objects).toHaveLength(0);
    expect((await aiImageUsage(env.DB, id, plan)).today).toBe(0);
    // The day's allowance is intact: the next call makes its picture.
    expect((await generate(fakeImageModel(fluxAnswer()))).status).toBe(200);
  });
});
