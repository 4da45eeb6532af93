/**
 * AI prompt-to-image (docs/product.md#ai-image-plans): the admin's page, limited per plan by day and by month.
 * The engine is Workers AI; where no AI binding exists (local development) the call answers
 * that the engine is unavailable instead of inventing a picture.
 */
import { z } from "zod";
import { effectivePlan, type PlanId, type StoredPlan } from "./plans";
import { hitThrottle, type ThrottleRule } from "./throttle";

export const AI_IMAGE_LIMITS: Record<PlanId, { perMonth: number; perDay: number }> = {
  free: { perMonth: 30, perDay: 1 },
  standard: { perMonth: 90, perDay: 3 },
  premium: { perMonth: 150, perDay: 5 },
};

export const AI_IMAGE_MODEL = "@cf/black-forest-labs/flux-1-schnell";

export const PromptToImageSchema = z.object({
  input_prompts: z
    .string({ error: "Describe the picture" })
    .trim()
    .min(3, "Describe the picture in a few words")
    .max(1000),
  type: z.enum(["anime", "human"], { error: "type is 'anime' or 'human'" }),
});
export type PromptToImageInput = z.infer<typeof PromptToImageSchema>;

const STYLE_PROMPTS: Record<PromptToImageInput["type"], string> = {
  anime: "anime illustration, clean line art, vibrant colours",
  human: "photorealistic portrait photograph, natural light, 50mm lens",
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Counts one generation against the day and month of the plan in force (an expired paid plan
 * allows what Free does); says how long to wait when over.
 */
export async function takeAiImageAllowance(
  db: D1Database,
  userId: string,
  plan: StoredPlan,
  now: number = Date.now(),
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number; limit: string }> {
  const limits = AI_IMAGE_LIMITS[effectivePlan(plan, now)];
  const day: ThrottleRule = { name: "ai-image-day", limit: limits.perDay, windowMs: DAY_MS };
  const month: ThrottleRule = { name: "ai-image-month", limit: limits.perMonth, windowMs: 30 * DAY_MS };
  const daily = await hitThrottle(db, day, userId, now);
  if (!daily.ok) return { ok: false, retryAfterSeconds: daily.retryAfterSeconds, limit: `${limits.perDay} a day` };
  const monthly = await hitThrottle(db, month, userId, now);
  if (!monthly.ok)
    return { ok: false, retryAfterSeconds: monthly.retryAfterSeconds, limit: `${limits.perMonth} a month` };
  return { ok: true };
}

export interface ImageModel {
  run(model: string, input: { prompt: string; steps?: number }): Promise<unknown>;
}

/** A JPEG data URL from the model, or null when the model answered something else. */
export async function generateImage(ai: ImageModel, input: PromptToImageInput): Promise<string | null> {
  const answer = await ai.run(AI_IMAGE_MODEL, {
    prompt: `${input.input_prompts}. ${STYLE_PROMPTS[input.type]}`,
    steps: 4,
  });
  const image = z.object({ image: z.string().min(1) }).safeParse(answer);
  return image.success ? `data:image/jpeg;base64,${image.data.image}` : null;
}
