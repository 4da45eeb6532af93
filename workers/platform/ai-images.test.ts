/**
 * The admin's image allowance (docs/product.md#ai-image-plans): a calendar day and a calendar
 * month (UTC) per plan, exact when calls arrive together, untouched by the daily housekeeping,
 * and given back when no image came of the call.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccountWithKey } from "../../tests/factories";
import { AI_IMAGE_LIMITS, aiImageUsage, releaseAiImageAllowance, takeAiImageAllowance } from "./ai-images";
import type { PlanId } from "./plans";
import { pruneThrottleWindows } from "./throttle";

const DAY = 24 * 60 * 60 * 1000;
// Far enough ahead that a paid plan granted for the tests runs through every day they visit.
const PLAN_END = Date.UTC(2031, 0, 1);

function planOf(planId: PlanId) {
  return { planId, planExpiresAt: planId === "free" ? null : PLAN_END };
}

async function freshUser(planId: PlanId): Promise<string> {
  return (await createAccountWithKey(env.DB, { planId, planExpiresAt: PLAN_END })).userId;
}

/** `count` calls started together, as a burst of clicks or tabs would send them. */
function burst(userId: string, planId: PlanId, now: number, count = 10) {
  return Promise.all(Array.from({ length: count }, () => takeAiImageAllowance(env.DB, userId, planOf(planId), now)));
}

const PLANS = (["free", "standard", "premium"] as const).map(
  (planId) => [planId, AI_IMAGE_LIMITS[planId].perDay, AI_IMAGE_LIMITS[planId].perMonth] as const,
);

describe("takeAiImageAllowance", () => {
  it("holds the spec's limits", () => {
    expect(AI_IMAGE_LIMITS).toEqual({
      free: { perMonth: 30, perDay: 1 },
      standard: { perMonth: 90, perDay: 3 },
      premium: { perMonth: 150, perDay: 5 },
    });
  });

  it.each(PLANS)(
    "%s: of 10 calls at once exactly %i get through, the rest wait for midnight UTC",
    async (planId, perDay) => {
      const userId = await freshUser(planId);
      const now = Date.UTC(2030, 4, 14, 21, 30);
      const answers = await burst(userId, planId, now);
      expect(answers.filter((answer) => answer.ok)).toHaveLength(perDay);
      const refused = answers.filter((answer) => !answer.ok);
      expect(refused).toHaveLength(10 - perDay);
      for (const answer of refused) {
        expect(answer).toMatchObject({ ok: false, limit: `${perDay} a day`, retryAfterSeconds: 2.5 * 60 * 60 });
      }
    },
  );

  it.each(PLANS)(
    "%s: a 31-day month allows exactly its %i a day and %i in all, bursts and daily housekeeping notwithstanding",
    async (planId, perDay, perMonth) => {
      const userId = await freshUser(planId);
      let granted = 0;
      let lastDay: Awaited<ReturnType<typeof burst>> = [];
      for (let day = 0; day < 31; day++) {
        const noon = Date.UTC(2030, 0, 1 + day, 12);
        // The daily cron (workers/app.ts `scheduled`) runs at 03:17 UTC.
        await pruneThrottleWindows(env.DB, noon - 8 * 60 * 60 * 1000);
        lastDay = await burst(userId, planId, noon);
        const today = lastDay.filter((answer) => answer.ok).length;
        expect(today, `January ${day + 1}`).toBe(day < 30 ? perDay : 0);
        granted += today;
      }
      expect(granted).toBe(perMonth);
      // On the 31st the month is spent: every refusal names it and waits for February.
      for (const answer of lastDay) {
        expect(answer).toMatchObject({ ok: false, limit: `${perMonth} a month`, retryAfterSeconds: 12 * 60 * 60 });
      }
      const february = await burst(userId, planId, Date.UTC(2030, 1, 1, 0, 0, 1));
      expect(february.filter((answer) => answer.ok)).toHaveLength(perDay);
    },
  );

  it("allows a running paid plan its own day's images, and an expired one only Free's", async () => {
    const now = Date.UTC(2030, 6, 1, 9);
    const running = await createAccountWithKey(env.DB, { planId: "premium", planExpiresAt: now + DAY });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        takeAiImageAllowance(env.DB, running.userId, { planId: "premium", planExpiresAt: now + DAY }, now),
      ),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(AI_IMAGE_LIMITS.premium.perDay);

    const expired = await createAccountWithKey(env.DB, { planId: "premium", planExpiresAt: now - 1 });
    const late = await Promise.all(
      Array.from({ length: 10 }, () =>
        takeAiImageAllowance(env.DB, expired.userId, { planId: "premium", planExpiresAt: now - 1 }, now),
      ),
    );
    expect(late.filter((answer) => answer.ok)).toHaveLength(AI_IMAGE_LIMITS.free.perDay);
  });

  it("gives back a reservation whose call made no image, and the page's usage follows", async () => {
    const userId = await freshUser("free");
    const now = Date.UTC(2030, 8, 9, 10);
    const first = await takeAiImageAllowance(env.DB, userId, planOf("free"), now);
    if (!first.ok) throw new Error("the day's first image was refused");
    expect(await aiImageUsage(env.DB, userId, planOf("free"), now)).toEqual({
      planId: "free",
      today: 1,
      thisMonth: 1,
      perDay: 1,
      perMonth: 30,
    });
    expect(await takeAiImageAllowance(env.DB, userId, planOf("free"), now + 1)).toMatchObject({ ok: false });
    await releaseAiImageAllowance(env.DB, first.id);
    expect((await aiImageUsage(env.DB, userId, planOf("free"), now)).today).toBe(0);
    expect(await takeAiImageAllowance(env.DB, userId, planOf("free"), now + 2)).toMatchObject({ ok: true });
  });
});
