/**
 * The dashboard's month figures are the Meter's: after calls (and a refused one), the page
 * shows the same "left" as the last answer's X-RateLimit-Remaining, referral bonus included.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { currentPlanPeriod, PLANS, REFERRAL_BONUS_CALLS } from "~workers/platform/plans";
import { signUpBuyer } from "../buyers";
import { callApi, callHosted, eventually } from "../factories";

async function keyFor(cookie: string): Promise<string> {
  const response = await callApi(SELF, "POST", "/api/user/keys", { cookie, body: { name: "dashboard" } });
  expect(response.status).toBe(201);
  return (await response.json<{ key: string }>()).key;
}

async function dashboardText(cookie: string): Promise<string> {
  const response = await SELF.fetch("https://portico.test/user/dashboard", { headers: { cookie } });
  expect(response.status).toBe(200);
  // The figures sit in separate elements; compare them as the reader sees them.
  return (await response.text()).replace(/<!--.*?-->/g, "").replace(/<[^>]+>/g, "");
}

describe("dashboard: calls this month", () => {
  it("shows the Meter's count, limit and remaining, agreeing with the rate-limit headers", async () => {
    const referrer = await signUpBuyer();
    const { cookie } = await signUpBuyer(referrer.referralCode);
    const key = await keyFor(cookie);

    const limit = PLANS.free.monthlyQuota + REFERRAL_BONUS_CALLS;
    const good = await callHosted(SELF, "GET", "/api/v1/colorconvert?hex=%23336699", { key });
    expect(good.status).toBe(200);
    const refused = await callHosted(SELF, "GET", "/api/v1/colorconvert?hex=nope", { key });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1));

    // The refused call's refund reaches the Meter just after its answer.
    const text = await eventually(
      () => dashboardText(cookie),
      (page) => page.includes(`${limit - 1} left`),
    );
    expect(text).toContain(`1 of ${limit} used`);
    expect(text).toContain(`includes ${REFERRAL_BONUS_CALLS} referral bonus calls`);
    expect(text).toContain(`${limit - 1} left; resets on`);
    // A free month starts at midnight UTC, where the day rollups start too: the per-API rows
    // (there once the usage buffer flushes) carry no caveat.
    const withRows = await eventually(
      () => dashboardText(cookie),
      (page) => page.includes("Calls this period"),
    );
    expect(withRows).not.toContain("Counted by UTC day");
  });

  it("says where the per-API rows of a paid period, which starts mid-day, begin counting", async () => {
    const { cookie, userId } = await signUpBuyer();
    const planExpiresAt = Date.now() + 20 * 24 * 60 * 60 * 1000;
    await env.DB.prepare("UPDATE users SET plan_id = 'premium', plan_expires_at = ? WHERE id = ?")
      .bind(planExpiresAt, userId)
      .run();
    const key = await keyFor(cookie);
    expect((await callHosted(SELF, "GET", "/api/v1/colorconvert?hex=%23336699", { key })).status).toBe(200);

    const since = new Date(currentPlanPeriod({ planId: "premium", planExpiresAt }, Date.now()).start)
      .toISOString()
      .slice(0, 10);
    const text = await eventually(
      () => dashboardText(cookie),
      (page) => page.includes("Calls this period"),
    );
    expect(text).toContain(`Counted by UTC day from ${since}, so the rows include any calls made earlier that day`);
  });
});
