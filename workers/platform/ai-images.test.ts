/**
 * The admin's image allowance (docs/product.md#ai-image-plans): a calendar day and a calendar
 * month (UTC) per plan, exact when calls arrive together, untouched by the daily housekeeping,
 * and given back when no image came of the call.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FLUX_PROMPT_MAX_CHARS } from "~workers/providers/workers-ai/text-to-image";
import { createAccountWithKey, signUpVerified } from "../../tests/factories";
import { jpegOf } from "../../tests/fakes/workers-ai-images";
import {
  AI_IMAGE_LIMITS,
  AI_IMAGE_STYLES,
  aiImageUsage,
  listAiImages,
  modelPrompt,
  PROMPT_MAX_CHARS,
  readAiImage,
  releaseAiImageAllowance,
  takeAiImageAllowance,
} from "./ai-images";
import { currentPlanPeriod, type PlanId } from "./plans";
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

  it.each(PLANS)(
    "%s: the month's last images hold exactly for calls sent together, whatever the day still allows",
    async (planId, perDay, perMonth) => {
      const userId = await freshUser(planId);
      const now = Date.UTC(2030, 2, 20, 12);
      const { start } = currentPlanPeriod(planOf(planId), now);
      const today = now - (now % DAY);
      expect(start).toBeLessThan(today);
      // Free's day allows one: leave the month one short, so the month is what binds.
      const left = Math.min(2, perDay);
      const seeded = perMonth - (perDay === 1 ? 1 : 2);
      await env.DB.batch(
        Array.from({ length: seeded }, (_, i) =>
          env.DB.prepare(`INSERT INTO ai_image_generations (id, user_id, created_at) VALUES (?, ?, ?)`).bind(
            `seed-${userId}-${i}`,
            userId,
            start + i * 60_000,
          ),
        ),
      );
      expect(await aiImageUsage(env.DB, userId, planOf(planId), now)).toMatchObject({ today: 0, thisMonth: seeded });

      const answers = await burst(userId, planId, now);
      expect(answers.filter((answer) => answer.ok)).toHaveLength(left);
      for (const answer of answers.filter((answer) => !answer.ok)) {
        expect(answer).toMatchObject({ ok: false, limit: `${perMonth} a month` });
      }
      expect(await aiImageUsage(env.DB, userId, planOf(planId), now)).toMatchObject({ thisMonth: perMonth });
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

describe("the prompt", () => {
  it("stays within FLUX's 2048 characters at its longest, with the longest preset", () => {
    for (const type of Object.keys(AI_IMAGE_STYLES) as (keyof typeof AI_IMAGE_STYLES)[]) {
      const prompt = modelPrompt({ input_prompts: "x".repeat(PROMPT_MAX_CHARS), type });
      expect(prompt.length, type).toBeLessThanOrEqual(FLUX_PROMPT_MAX_CHARS);
    }
  });
});

describe("the store", () => {
  const bucket = () => (env as Env & { AI_IMAGES: R2Bucket }).AI_IMAGES;
  const ID = "7999999999999-00000000000000ab";

  async function keep(userId: string, prompt: string): Promise<void> {
    await bucket().put(`users/${userId}/${ID}`, jpegOf([1, 2, 3]), {
      httpMetadata: { contentType: "image/jpeg" },
      customMetadata: { prompt, style: "anime", createdAt: "1900000000000" },
    });
  }

  it("reads and lists only the account's own images, even under the same id", async () => {
    const ours = await freshUser("free");
    const theirs = await freshUser("free");
    const stranger = await freshUser("free");
    await keep(ours, "ours");
    await keep(theirs, "theirs");

    expect((await readAiImage(bucket(), ours, ID))?.image.prompt).toBe("ours");
    expect((await readAiImage(bucket(), theirs, ID))?.image.prompt).toBe("theirs");
    expect(await readAiImage(bucket(), stranger, ID)).toBeNull();
    expect((await listAiImages(bucket(), ours)).images.map((image) => image.prompt)).toEqual(["ours"]);
    expect((await listAiImages(bucket(), stranger)).images).toEqual([]);
    await bucket().delete([`users/${ours}/${ID}`, `users/${theirs}/${ID}`]);
  });

  it("goes with the account: deleting it removes its images and its ledger, and no one else's", async () => {
    const { email, cookie } = await signUpVerified(SELF);
    const user = await env.DB.prepare(`SELECT id FROM users WHERE email = ?`).bind(email).first<{ id: string }>();
    const userId = user!.id;
    const bystander = await freshUser("free");
    await keep(userId, "a portrait");
    await bucket().put(`users/${userId}/7999999999998-00000000000000cd`, jpegOf([4, 5, 6]));
    await keep(bystander, "not theirs to delete");
    expect(await takeAiImageAllowance(env.DB, userId, planOf("free"))).toMatchObject({ ok: true });

    const form = new FormData();
    form.set("intent", "delete");
    form.set("confirmation", email);
    const response = await SELF.fetch("https://portico.test/user/settings", {
      method: "POST",
      body: form,
      headers: { cookie, origin: "https://portico.test" },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(await env.DB.prepare(`SELECT id FROM users WHERE id = ?`).bind(userId).first()).toBeNull();

    expect((await bucket().list({ prefix: `users/${userId}/` })).objects).toEqual([]);
    const rows = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ai_image_generations WHERE user_id = ?`)
      .bind(userId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect((await readAiImage(bucket(), bystander, ID))?.image.prompt).toBe("not theirs to delete");
    await bucket().delete(`users/${bystander}/${ID}`);
  });
});
