import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AI_IMAGE_LIMITS, takeAiImageAllowance } from "./ai-images";

const DAY = 24 * 60 * 60 * 1000;

async function allowedToday(
  plan: { planId: "free" | "standard" | "premium"; planExpiresAt: number | null },
  now: number,
) {
  const userId = `usr_ai_${crypto.randomUUID()}`;
  let allowed = 0;
  for (let i = 0; i < 10; i++) {
    const taken = await takeAiImageAllowance(env.DB, userId, plan, now);
    if (!taken.ok) {
      expect(taken.retryAfterSeconds).toBeGreaterThan(0);
      break;
    }
    allowed += 1;
  }
  return allowed;
}

describe("takeAiImageAllowance", () => {
  const now = Date.now();

  it("allows a running paid plan its own day's images", async () => {
    expect(await allowedToday({ planId: "premium", planExpiresAt: now + DAY }, now)).toBe(
      AI_IMAGE_LIMITS.premium.perDay,
    );
  });

  it("allows an expired paid plan only what Free allows", async () => {
    expect(await allowedToday({ planId: "premium", planExpiresAt: now - 1 }, now)).toBe(AI_IMAGE_LIMITS.free.perDay);
  });

  it("says which limit stopped the call", async () => {
    const userId = `usr_ai_${crypto.randomUUID()}`;
    const free = { planId: "free" as const, planExpiresAt: null };
    expect(await takeAiImageAllowance(env.DB, userId, free, now)).toEqual({ ok: true });
    expect(await takeAiImageAllowance(env.DB, userId, free, now)).toMatchObject({ ok: false, limit: "1 a day" });
  });
});
