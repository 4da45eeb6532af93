/**
 * The admin's AI prompt-to-image (docs/product.md#other-calls, decision 063):
 *   POST /api/ai/prompt-to-image   generate one image (limited per plan by day and month), keep it
 *   GET  /api/ai/images            the admin's images, newest first (`?after=<last id shown>` for the next page)
 *   GET  /api/ai/images/:id        one image's bytes (`?download=1` to save it as a file)
 * All three need a session of the admin account.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { DocumentFailure } from "~workers/hosted/capabilities";
import { bytesToBase64 } from "~workers/hosted/_image/base64";
import { problem, problemFromZod } from "~workers/http/problem";
import {
  AI_IMAGE_ID,
  aiImageEngineFor,
  aiImageFilename,
  linkAiImage,
  listAiImages,
  modelPrompt,
  PromptToImageSchema,
  readAiImage,
  releaseAiImageAllowance,
  storeAiImage,
  takeAiImageAllowance,
  type AiImageBindings,
  type AiImageEngine,
  type PromptToImageInput,
  type StoredAiImage,
} from "~workers/platform/ai-images";
import { isAdmin } from "~workers/platform/roles";
import { generateImage, type GeneratedImage } from "~workers/providers/workers-ai/text-to-image";
import { JSON_LIMIT, requireSession, type ApiEnv } from "./context";

export const aiApi = new Hono<ApiEnv>();

const ADMIN_ONLY = "Only the admin account may generate images.";

const requireAdminSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (!isAdmin(c.get("config"), c.get("session").user))
    return problem(c, "forbidden", ADMIN_ONLY, { message: ADMIN_ONLY });
  await next();
};

aiApi.post("/prompt-to-image", requireSession, requireAdminSession, JSON_LIMIT, async (c) => {
  const { user } = c.get("session");
  const parsed = PromptToImageSchema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) return problemFromZod(c, parsed.error);
  const engine = aiImageEngineFor(c.env as Env & AiImageBindings);
  if (!engine.available) {
    return problem(c, "engine-unavailable", engine.message, { message: engine.message, binding: engine.binding });
  }
  const now = Date.now();
  const allowance = await takeAiImageAllowance(c.env.DB, user.id, user, now);
  if (!allowance.ok) {
    const message = `Your plan allows ${allowance.limit}. Try again later or upgrade.`;
    return problem(
      c,
      "too-many-requests",
      message,
      { message, limit: allowance.limit },
      { "Retry-After": String(allowance.retryAfterSeconds) },
    );
  }
  // Workers cancel a request whose browser went away, but not what it handed to waitUntil: the
  // work runs to its end either way, so the picture is kept or the reservation given back.
  const work = makeAndKeep(c.env.DB, engine, user.id, allowance.id, parsed.data, now, c.get("requestId"));
  c.executionCtx.waitUntil(work.catch(() => undefined));
  const made = await work;
  if (!made.ok && made.failure) {
    const { failure } = made;
    const retryAfter = failure.extensions?.retryAfterSeconds;
    return problem(
      c,
      failure.problem,
      failure.detail,
      { message: failure.detail, ...failure.extensions },
      retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) },
    );
  }
  if (!made.ok) {
    const message = "The image was made but could not be kept; it was not counted. Please try again.";
    return problem(c, "service-unavailable", message, { message });
  }
  return c.json({
    message: "Image generated",
    image: `data:${made.image.mimeType};base64,${bytesToBase64(made.image.bytes)}`,
    ...linkAiImage(made.stored),
  });
});

type Made =
  | { ok: true; image: Extract<GeneratedImage, { ok: true }>; stored: StoredAiImage }
  /** No picture: the model's failure, or (failure null) R2 did not keep the one made. */
  | { ok: false; failure: DocumentFailure | null };

/**
 * Generates the picture and keeps it. Unless it was kept, the reservation is given back
 * whatever happened (a failure of the model, of its answer, of R2, or a throw): a call that
 * made no picture does not count against the plan.
 */
async function makeAndKeep(
  db: D1Database,
  engine: Extract<AiImageEngine, { available: true }>,
  userId: string,
  reservation: string,
  input: PromptToImageInput,
  now: number,
  requestId: string,
): Promise<Made> {
  let kept = false;
  try {
    const image = await generateImage(engine.ai, modelPrompt(input), { timeoutMs: engine.timeoutMs });
    if (!image.ok) return { ok: false, failure: image };
    try {
      const stored = await storeAiImage(engine.bucket, userId, reservation, image, input, now);
      kept = true;
      return { ok: true, image, stored };
    } catch (error) {
      console.error(`[${requestId}] storing an AI image failed:`, error);
      return { ok: false, failure: null };
    }
  } finally {
    if (!kept) await releaseAiImageAllowance(db, reservation);
  }
}

/** The bucket, if this environment has one (listing works offline: Miniflare simulates R2). */
function bucketOf(env: Env) {
  return (env as Env & AiImageBindings).AI_IMAGES;
}

const BUCKET_MISSING = "The admin's images need the R2 bucket binding AI_IMAGES, which this environment does not have.";

aiApi.get("/images", requireSession, requireAdminSession, async (c) => {
  const bucket = bucketOf(c.env);
  if (!bucket)
    return problem(c, "engine-unavailable", BUCKET_MISSING, { message: BUCKET_MISSING, binding: "AI_IMAGES" });
  const after = c.req.query("after") || undefined;
  if (after !== undefined && !AI_IMAGE_ID.test(after)) {
    const message = "after is the id of the last image shown, as this list gives them";
    return problem(c, "invalid-input", message, { errors: { after: message } });
  }
  const page = await listAiImages(bucket, c.get("session").user.id, { after });
  return c.json({ images: page.images.map(linkAiImage), next: page.next });
});

aiApi.get("/images/:id", requireSession, requireAdminSession, async (c) => {
  const bucket = bucketOf(c.env);
  if (!bucket)
    return problem(c, "engine-unavailable", BUCKET_MISSING, { message: BUCKET_MISSING, binding: "AI_IMAGES" });
  // Only If-None-Match is a condition here: the browser's revalidation of its copy.
  const known = c.req.header("if-none-match");
  const conditions = known ? new Headers({ "if-none-match": known }) : undefined;
  // The account's own prefix is part of the key: an id names only this admin's images.
  const found = await readAiImage(bucket, c.get("session").user.id, c.req.param("id"), conditions);
  if (!found) return problem(c, "not-found", "No image by that id.");
  // The admin's own pictures: never in a shared cache, and never shown from the browser's cache
  // without asking here first, so a signed-out browser cannot show them again from history.
  // The ETag makes that asking cheap: 304, no bytes, once the session is checked.
  const caching = { etag: found.etag, "cache-control": "private, no-cache" };
  if (!found.body) return new Response(null, { status: 304, headers: caching });
  const disposition = c.req.query("download") === "1" ? "attachment" : "inline";
  return new Response(found.body, {
    headers: {
      "content-type": found.image.contentType,
      "content-length": String(found.image.size),
      "content-disposition": `${disposition}; filename="${aiImageFilename(found.image)}"`,
      ...caching,
    },
  });
});
