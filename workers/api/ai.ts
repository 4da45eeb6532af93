/** POST /api/ai/prompt-to-image (docs/product.md#other-calls): admin only, limited per plan. */
import { Hono } from "hono";
import { generateImage, PromptToImageSchema, takeAiImageAllowance, type ImageModel } from "~workers/platform/ai-images";
import { isAdmin } from "~workers/platform/roles";
import { requireSession, type ApiEnv } from "./context";
import { problem, problemFromZod } from "~workers/http/problem";

export const aiApi = new Hono<ApiEnv>();

aiApi.post("/prompt-to-image", requireSession, async (c) => {
  const { user } = c.get("session");
  if (!isAdmin(c.get("config"), user))
    return problem(c, "forbidden", "Only the admin account may generate images.", {
      message: "Only the admin account may generate images.",
    });
  const parsed = PromptToImageSchema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) return problemFromZod(c, parsed.error);
  const ai = (c.env as Env & { AI?: ImageModel }).AI;
  if (!ai) {
    const message = "Image generation needs the Workers AI binding (AI), which this environment does not have.";
    return problem(c, "engine-unavailable", message, { message, binding: "AI" });
  }
  const allowance = await takeAiImageAllowance(c.env.DB, user.id, user);
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
  const image = await generateImage(ai, parsed.data);
  if (!image)
    return problem(c, "engine-failed", "The image model answered without an image.", {
      message: "The image model answered without an image.",
    });
  return c.json({ message: "Image generated", image });
});
