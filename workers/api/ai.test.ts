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
import {
  AI_IMAGE_LIMITS,
  AI_IMAGE_STYLES,
  aiImageUsage,
  PROMPT_MAX_CHARS,
  type LinkedAiImage,
} from "~workers/platform/ai-images";
import { effectivePlan } from "~workers/platform/plans";
import { TEXT_TO_IMAGE_MODEL } from "~workers/providers/workers-ai/text-to-image";
import {
  callApi,
  createAccountWithKey,
  expectProblem,
  sessionCookieFor,
  signUpUnverified,
  signUpVerified,
} from "../../tests/factories";
import {
  brokenStreamAnswer,
  failingAnswer,
  fakeImageModel,
  fluxAnswer,
  hangingAnswer,
  jpegOf,
  middleColourOfJpeg,
  pngOf,
  stalledStreamAnswer,
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
    const { images, next } = await list.json<{ images: LinkedAiImage[]; next: string | null }>();
    expect(next).toBeNull();
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
      expect(body.limit).toBe(`${perDay} a day`);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Only the calls that got through reached the model, and only their pictures were kept.
    expect(ai.calls).toHaveLength(perDay);
    expect((await bucket().list({ prefix: `users/${id}/` })).objects).toHaveLength(perDay);
  });

  it.each([
    ["the model fails", failingAnswer(), /^FLUX\.1 schnell failed\./],
    ["the model answers no image", () => ({ result: "nothing" }), /without an image/],
    ["the model's bytes are no image", fluxAnswer(new TextEncoder().encode("not a picture at all")), /not an image/],
    ["the stream answer breaks after its first bytes", brokenStreamAnswer(), /^FLUX\.1 schnell failed\./],
  ])("when %s: 502 engine-failed, nothing kept, nothing counted", async (_case, answer, reason) => {
    const { id, plan } = await adminAccount();
    const response = await generate(fakeImageModel(answer));
    const body = await expectProblem(response, 502, "engine-failed");
    expect(String(body.message)).toMatch(reason);
    // The platform's own words speak of the operator's account: they stay in our logs.
    expect(String(body.message)).not.toMatch(/Invalid or incomplete|Network connection lost/);
    expect((await bucket().list({ prefix: `users/${id}/` })).objects).toHaveLength(0);
    expect((await aiImageUsage(env.DB, id, plan)).today).toBe(0);
    // The day's allowance is intact: the next call makes its picture.
    expect((await generate(fakeImageModel(fluxAnswer()))).status).toBe(200);
  });

  it("names the platform's error code, and asks to retry later when it has no capacity", async () => {
    const { id, plan } = await adminAccount();
    const failed = await expectProblem(await generate(fakeImageModel(failingAnswer())), 502, "engine-failed");
    expect(failed.upstreamCode).toBe(3010);
    const busy = await generate(fakeImageModel(failingAnswer("3040: No more data centers to forward the request to")));
    const body = await expectProblem(busy, 503, "engine-unavailable");
    expect(body).toMatchObject({ upstreamCode: 3040, retryAfterSeconds: 60 });
    expect(busy.headers.get("retry-after")).toBe("60");
    expect((await aiImageUsage(env.DB, id, plan)).today).toBe(0);
  });

  it.each([
    ["never answers", hangingAnswer()],
    ["stops its stream after the first bytes", stalledStreamAnswer()],
  ])("when the model %s: 502 engine-failed within its time limit, nothing counted", async (_case, answer) => {
    const { id, plan } = await adminAccount();
    const ai = fakeImageModel(answer);
    const started = Date.now();
    const response = await callApi(workerWith({ AI: ai, AI_IMAGE_TIMEOUT_MS: "200" }), "POST", PATH, {
      cookie: await adminCookie(),
      body: PROMPT,
    });
    const body = await expectProblem(response, 502, "engine-failed");
    expect(String(body.message)).toMatch(/within 0\.2 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ai.calls).toHaveLength(1);
    expect((await bucket().list({ prefix: `users/${id}/` })).objects).toHaveLength(0);
    expect((await aiImageUsage(env.DB, id, plan)).today).toBe(0);
  });

  it("when R2 cannot keep the picture: 503 service-unavailable, the model asked once, nothing counted", async () => {
    const { id, plan } = await adminAccount();
    const ai = fakeImageModel(fluxAnswer());
    const real = bucket();
    const refusing = {
      put: () => Promise.reject(new Error("We encountered an internal error. Please try again.")),
      get: real.get.bind(real),
      list: real.list.bind(real),
      head: real.head.bind(real),
      delete: real.delete.bind(real),
    };
    const response = await callApi(workerWith({ AI: ai, AI_IMAGES: refusing }), "POST", PATH, {
      cookie: await adminCookie(),
      body: PROMPT,
    });
    const body = await expectProblem(response, 503, "service-unavailable");
    expect(body.message).toBe("The image was made but could not be kept; it was not counted. Please try again.");
    expect(ai.calls).toHaveLength(1);
    expect((await aiImageUsage(env.DB, id, plan)).today).toBe(0);
    expect((await bucket().list({ prefix: `users/${id}/` })).objects).toHaveLength(0);
  });

  it("takes the longest prompt with the longest preset within FLUX's 2048 characters", async () => {
    const ai = fakeImageModel(fluxAnswer());
    const longest = (Object.keys(AI_IMAGE_STYLES) as (keyof typeof AI_IMAGE_STYLES)[]).reduce((a, b) =>
      AI_IMAGE_STYLES[a].preset.length >= AI_IMAGE_STYLES[b].preset.length ? a : b,
    );
    const answer = await generate(ai, { input_prompts: "a".repeat(PROMPT_MAX_CHARS), type: longest });
    expect(answer.status).toBe(200);
    expect(String(ai.calls[0]!.inputs.prompt)).toBe(
      `${"a".repeat(PROMPT_MAX_CHARS)}. ${AI_IMAGE_STYLES[longest].preset}`,
    );
  });
});

describe("GET /api/ai/images", () => {
  beforeEach(startAfresh);

  /** `count` pictures kept for `userId` as the API keeps them, newest first by id; their ids, newest first. */
  async function keepPictures(userId: string, count: number, prompt = "kept"): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const at = Date.UTC(2030, 0, 1) + i * 60_000;
      // A random part as the API's own ids have: two accounts' pictures never share a name.
      const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) =>
        byte.toString(16).padStart(2, "0"),
      );
      const id = `${String(9_999_999_999_999 - at).padStart(13, "0")}-${random.join("")}${i.toString(16).padStart(4, "0")}`;
      await bucket().put(`users/${userId}/${id}`, jpegOf([i, i, i]), {
        httpMetadata: { contentType: "image/jpeg" },
        customMetadata: { prompt: `${prompt} ${i}`, style: "anime", createdAt: String(at) },
      });
      ids.push(id);
    }
    return ids.sort();
  }

  it("pages through more than a page of images by the last one shown, with no gap or overlap", async () => {
    const cookie = await adminCookie();
    const { id } = await adminAccount();
    const ids = await keepPictures(id, 27);

    const first = await callApi(SELF, "GET", "/api/ai/images", { cookie });
    expect(first.status).toBe(200);
    const page1 = await first.json<{ images: LinkedAiImage[]; next: string | null }>();
    expect(page1.images.map((image) => image.id)).toEqual(ids.slice(0, 24));
    expect(page1.next).toBe(ids[23]);

    const second = await callApi(SELF, "GET", `/api/ai/images?after=${page1.next}`, { cookie });
    expect(second.status).toBe(200);
    const page2 = await second.json<{ images: LinkedAiImage[]; next: string | null }>();
    expect(page2.images.map((image) => image.id)).toEqual(ids.slice(24));
    expect(page2.next).toBeNull();
  });

  it.each(["not-an-id", "../../users", "9999999999999-0123456789abcdeg"])(
    "refuses ?after=%s with the field named",
    async (after) => {
      const cookie = await adminCookie();
      const answer = await callApi(SELF, "GET", `/api/ai/images?after=${encodeURIComponent(after)}`, { cookie });
      const body = await expectProblem(answer, 422, "invalid-input");
      expect(Object.keys(body.errors as object)).toEqual(["after"]);
    },
  );

  it("never shows the admin another account's image, by id or in the list", async () => {
    const cookie = await adminCookie();
    const other = await createAccountWithKey(env.DB);
    const [theirs] = await keepPictures(other.userId, 1, "someone else's");
    const { id } = await adminAccount();
    const [ours] = await keepPictures(id, 1, "the admin's");

    await expectProblem(await callApi(SELF, "GET", `/api/ai/images/${theirs}`, { cookie }), 404, "not-found");
    expect((await callApi(SELF, "GET", `/api/ai/images/${ours}`, { cookie })).status).toBe(200);
    const list = await (await callApi(SELF, "GET", "/api/ai/images", { cookie })).json<{ images: LinkedAiImage[] }>();
    expect(list.images.map((image) => image.prompt)).toEqual(["the admin's 0"]);
    await bucket().delete(`users/${other.userId}/${theirs}`);
  });

  it("serves an image for this session only: private, revalidated each time, 304 when unchanged, 401 without a session", async () => {
    const cookie = await adminCookie();
    const { id } = await adminAccount();
    const [image] = await keepPictures(id, 1);
    const url = `https://portico.test/api/ai/images/${image}`;

    const shown = await SELF.fetch(url, { headers: { cookie } });
    expect(shown.status).toBe(200);
    await shown.arrayBuffer();
    const cacheControl = shown.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/\bprivate\b/);
    expect(cacheControl).toMatch(/\bno-cache\b|\bno-store\b/);
    expect(cacheControl).not.toMatch(/immutable|max-age=[1-9]/);
    const etag = shown.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);

    const again = await SELF.fetch(url, { headers: { cookie, "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);

    const changed = await SELF.fetch(url, { headers: { cookie, "if-none-match": '"something-else"' } });
    expect(changed.status).toBe(200);
    expect(detectFormat(new Uint8Array(await changed.arrayBuffer()))).toBe("jpeg");

    const signedOut = await SELF.fetch(url, { headers: { "if-none-match": etag! } });
    await expectProblem(signedOut, 401, "unauthenticated");
  });
});
