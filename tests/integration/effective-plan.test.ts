/**
 * One answer to "which plan is in force" (`effectivePlan`, workers/platform/plans.ts), seen the
 * same at every door: a paid plan counts until its end and not a moment after, whether the
 * gateway, the dashboard or the account call asks.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signUpBuyer } from "../buyers";
import { callApi, callHosted } from "../factories";

const DAY = 24 * 60 * 60 * 1000;

async function putOnPlan(userId: string, planId: "free" | "standard" | "premium", planExpiresAt: number | null) {
  await env.DB.prepare(
    "UPDATE users SET plan_id = ?, plan_expires_at = ?, plan_version = plan_version + 1 WHERE id = ?",
  )
    .bind(planId, planExpiresAt, userId)
    .run();
}

async function me(cookie: string) {
  const response = await callApi(SELF, "GET", "/api/users/me", { cookie });
  expect(response.status).toBe(200);
  return response.json<{ plan: string; planExpiresAt: number | null }>();
}

describe("the plan in force", () => {
  it("is the paid plan while it runs, on the account call", async () => {
    const buyer = await signUpBuyer();
    const end = Date.now() + 10 * DAY;
    await putOnPlan(buyer.userId, "premium", end);
    expect(await me(buyer.cookie)).toMatchObject({ plan: "premium", planExpiresAt: end });
  });

  it("is Free once the paid plan has ended, on the account call as at the gateway", async () => {
    const buyer = await signUpBuyer();
    const ended = Date.now() - DAY;
    await putOnPlan(buyer.userId, "premium", ended);
    // The end stays visible; the plan is no longer Premium.
    expect(await me(buyer.cookie)).toMatchObject({ plan: "free", planExpiresAt: ended });

    const created = await callApi(SELF, "POST", "/api/user/keys", { cookie: buyer.cookie, body: { name: "expired" } });
    expect(created.status).toBe(201);
    const { key } = await created.json<{ key: string }>();
    const call = await callHosted(SELF, "GET", "/api/v1/colorconvert?hex=%23336699", { key });
    expect(call.status).toBe(200);
    // The Free plan's limits, not Premium's.
    expect(call.headers.get("x-ratelimit-limit")).toBe("200");
  });
});
