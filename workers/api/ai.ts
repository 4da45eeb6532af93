/**
 * The admin's AI prompt-to-image (docs/product.md#other-calls, decision 063):
 *   POST /api/ai/prompt-to-image   generate one image (limited per plan by day and month), keep it
 *   GET  /api/ai/images            the admin's images, newest first (`?cursor=` for the next page)
 *   GET  /api/ai/images/:id        one image's bytes (`?download=1` to save it as a file)
 * All three need a session of the admin account.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { bytesToBase64 } from "~workers/hosted/_image/base64";
import { problem, problemFromZod } from "~workers/http/problem";
import {
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
  type StoredAiImage,
} from "~workers/platform/ai-images";
import { isAdmin } from "~workers/platform/roles";
import { generateImage } from "~workers/providers/workers-ai/text-to-image";
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
      { message },
      { "Retry-After": String(allowance.retryAfterSeconds) },
    );
  }
  const image = await generateImage(engine.ai, modelPrompt(parsed.data));
  if (!image.ok) {
    // No picture, so the call does not count against the plan.
    await releaseAiImageAllowance(c.env.DB, allowance.id);
    return problem(c, "engine-failed", image.message, { message: image.message });
  }
  let stored: StoredAiImage;
  try {
    stored = await storeAiImage(engine.bucket, user.id, allowance.id, image, parsed.data, now);
  } catch (error) {
    console.error(`[${c.get("requestId")}] storing an AI image failed:`, error);
    await releaseAiImageAllowance(c.env.DB, allowance.id);
    const message = "The image was made but could not be kept; it was not counted. Please try again.";
    return problem(c, "service-unavailable", message, { message });
  }
  return c.json({
    message: "Image generated",
    image: `data:${image.mimeType};base64,${bytesToBase64(image.bytes)}`,
    ...linkAiImage(stored),
  });
});

/** The bucket, or the answer naming the binding it needs (listing works offline: R2 is simulated). */
function bucketOf(env: Env) {
  return (env as Env & AiImageBindings).AI_IMAGES;
}

const BUCKET_MISSING = "The admin's images need the R2 bucket binding AI_IMAGES, which this environment does not have.";

aiApi.get("/images", requireSession, requireAdminSession, async (c) => {
  const bucket = bucketOf(c.env);
  if (!bucket)
    return problem(c, "engine-unavailable", BUCKET_MISSING, { message: BUCKET_MISSING, binding: "AI_IMAGES" });
  const cursor = c.req.query("cursor") || undefined;
  try {
    const page = await listAiImages(bucket, c.get("session").user.id, { cursor });
    return c.json({ images: page.images.map(linkAiImage), cursor: page.cursor });
  } catch (error) {
    // R2 refuses a cursor it did not give out; with none, a failure is ours (api's onError).
    if (!cursor) throw error;
    const message = "cursor is not one this list gave out: start again without it";
    return problem(c, "invalid-input", message, { errors: { cursor: message } });
  }
});

aiApi.get("/images/:id", requireSession, requireAdminSession, async (c) => {
  const bucket = bucketOf(c.env);
  if (!bucket)
    return problem(c, "engine-unavailable", BUCKET_MISSING, { message: BUCKET_MISSING, binding: "AI_IMAGES" });
  // The account's own prefix is part of the key: an id names only this admin's images.
  const found = await readAiImage(bucket, c.get("session").user.id, c.req.param("id"));
  if (!found) return problem(c, "not-found", "No image by that id.");
  const disposition = c.req.query("download") === "1" ? "attachment" : "inline";
  return new Response(found.body, {
    headers: {
      "content-type": found.image.contentType,
      "content-length": String(found.image.size),
      "content-disposition": `${disposition}; filename="${aiImageFilename(found.image)}"`,
      // The admin's own pictures: never in a shared cache; they never change once made.
      "cache-control": "private, max-age=31536000, immutable",
    },
  });
});
