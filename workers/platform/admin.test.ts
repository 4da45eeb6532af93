/**
 * Granting a plan (support's tool): the use case the admin's page action and
 * POST /api/admin/users/:id/plan both call. Who may call it is the adapters' check.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { resolveApiKey } from "~workers/gateway/api-key-auth";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { createAccountWithKey } from "../../tests/factories";
import { recordingNotices } from "../../tests/fakes/services";
import { grantPlan, GrantPlanSchema } from "./admin";
import { apiKeyCacheName } from "./api-keys";
import { sha256Hex } from "./ids";

const DAY = 24 * 60 * 60 * 1000;

function planRow(userId: string) {
  return env.DB.prepare("SELECT plan_id, plan_expires_at, plan_version FROM users WHERE id = ?")
    .bind(userId)
    .first<{ plan_id: string; plan_expires_at: number | null; plan_version: number }>();
}

function auditOf(userId: string) {
  return env.DB.prepare("SELECT admin_user_id, action, detail FROM admin_audit WHERE target_user_id = ?")
    .bind(userId)
    .all<{ admin_user_id: string; action: string; detail: string }>();
}

describe("grantPlan", () => {
  it("puts the account on the plan for the days given, and records who did it and what it was", async () => {
    const { userId } = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    const now = Date.UTC(2026, 10, 20, 12);
    const result = await grantPlan(
      env.DB,
      notices,
      { adminUserId: "usr_admin", targetUserId: userId, planId: "premium", days: 30, reason: "goodwill" },
      now,
    );
    expect(result).toEqual({ ok: true, planExpiresAt: now + 30 * DAY });
    expect(await planRow(userId)).toEqual({ plan_id: "premium", plan_expires_at: now + 30 * DAY, plan_version: 1 });
    const { results } = await auditOf(userId);
    expect(results).toHaveLength(1);
    expect(results[0]?.admin_user_id).toBe("usr_admin");
    expect(results[0]?.action).toBe("grant-plan");
    expect(JSON.parse(results[0]?.detail ?? "{}")).toEqual({
      from: { planId: "free", planExpiresAt: null },
      to: { planId: "premium", planExpiresAt: now + 30 * DAY },
      days: 30,
      reason: "goodwill",
    });
    // The gateway hears of the new version, so the next call is judged on the new plan.
    expect(notices.planVersions).toEqual([{ userId, version: 1 }]);
  });

  it("ends a paid plan when it grants Free", async () => {
    const { userId } = await createAccountWithKey(env.DB, { planId: "standard" });
    const result = await grantPlan(env.DB, recordingNotices(), {
      adminUserId: "usr_admin",
      targetUserId: userId,
      planId: "free",
      days: 30,
      reason: "",
    });
    expect(result).toEqual({ ok: true, planExpiresAt: null });
    expect(await planRow(userId)).toMatchObject({ plan_id: "free", plan_expires_at: null });
  });

  it("forgets the account's cached keys itself, so no caller has to", async () => {
    const { userId, key } = await createAccountWithKey(env.DB);
    const cacheName = apiKeyCacheName(await sha256Hex(key));
    // A call just now cached the Free record.
    expect((await resolveApiKey(env, key))?.planId).toBe("free");
    expect(await env.CACHE.get(cacheName)).not.toBeNull();
    await grantPlan(env.DB, gatewayNotices(env), {
      adminUserId: "usr_admin",
      targetUserId: userId,
      planId: "premium",
      days: 7,
      reason: "",
    });
    expect(await env.CACHE.get(cacheName)).toBeNull();
    expect((await resolveApiKey(env, key))?.planId).toBe("premium");
  });

  it("answers not-found for an account that does not exist, changing and telling nothing", async () => {
    const notices = recordingNotices();
    const target = `usr_missing_${crypto.randomUUID()}`;
    const result = await grantPlan(env.DB, notices, {
      adminUserId: "usr_admin",
      targetUserId: target,
      planId: "premium",
      days: 30,
      reason: "",
    });
    expect(result).toEqual({ ok: false, code: "not-found" });
    expect((await auditOf(target)).results).toEqual([]);
    expect(notices.planVersions).toEqual([]);
  });
});

describe("GrantPlanSchema", () => {
  it.each([
    [{ planId: "enterprise", days: 30 }],
    [{ planId: "premium", days: 0 }],
    [{ planId: "premium", days: 367 }],
    [{ planId: "premium", days: 1.5 }],
    [{ planId: "premium", days: 30, reason: "x".repeat(501) }],
  ])("refuses %j", (input) => {
    expect(GrantPlanSchema.safeParse(input).success).toBe(false);
  });

  it("reads a form's text fields", () => {
    expect(GrantPlanSchema.parse({ planId: "standard", days: "14", reason: "  promo  " })).toEqual({
      planId: "standard",
      days: 14,
      reason: "promo",
    });
  });
});
