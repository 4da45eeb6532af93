/**
 * `/api/admin/*` through the Worker: the cases tests/integration/docs-and-admin.test.ts leaves
 * out (it grants a plan, and refuses an ordinary account): no session, a body that is not a
 * grant, a user who does not exist, and that a refused grant changes and records nothing.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callApi, createAccountWithKey, expectProblem, sessionCookieFor, signUpUnverified } from "../../tests/factories";

const adminCookie = () => sessionCookieFor(SELF, env.ADMIN_EMAIL);

function planOf(userId: string) {
  return env.DB.prepare(`SELECT plan_id, plan_expires_at FROM users WHERE id = ?`).bind(userId).first();
}

function auditOf(userId: string) {
  return env.DB.prepare(`SELECT COUNT(*) AS n FROM admin_audit WHERE target_user_id = ?`).bind(userId).first();
}

describe("POST /api/admin/users/:id/plan", () => {
  it("needs a session (401) before anything else", async () => {
    const { userId } = await createAccountWithKey(env.DB);
    await expectProblem(
      await callApi(SELF, "POST", `/api/admin/users/${userId}/plan`, { body: { planId: "premium", days: 30 } }),
      401,
      "unauthenticated",
    );
  });

  it("refuses an unproven account as it refuses any account but the admin's", async () => {
    const { userId } = await createAccountWithKey(env.DB);
    const { cookie } = await signUpUnverified(SELF);
    await expectProblem(
      await callApi(SELF, "POST", `/api/admin/users/${userId}/plan`, { cookie, body: { planId: "premium", days: 30 } }),
      403,
      "forbidden",
    );
    expect(await planOf(userId)).toEqual({ plan_id: "free", plan_expires_at: null });
  });

  it.each([
    [{ planId: "gold", days: 30 }, ["planId"]],
    [{ planId: "premium", days: 0 }, ["days"]],
    [{ planId: "premium", days: 367 }, ["days"]],
    [{ planId: "premium", days: 1.5 }, ["days"]],
    [{}, ["days", "planId"]],
  ])("names what is wrong with %j, and grants nothing", async (body, fields) => {
    const { userId } = await createAccountWithKey(env.DB);
    const answer = await expectProblem(
      await callApi(SELF, "POST", `/api/admin/users/${userId}/plan`, { cookie: await adminCookie(), body }),
      422,
      "invalid-input",
    );
    expect(Object.keys(answer.errors as object).sort()).toEqual(fields);
    expect(await planOf(userId)).toEqual({ plan_id: "free", plan_expires_at: null });
    expect(await auditOf(userId)).toEqual({ n: 0 });
  });

  it("answers 404 for a user who does not exist, and records nothing", async () => {
    const missing = `usr_missing${crypto.randomUUID().slice(0, 8)}`;
    await expectProblem(
      await callApi(SELF, "POST", `/api/admin/users/${missing}/plan`, {
        cookie: await adminCookie(),
        body: { planId: "premium", days: 30 },
      }),
      404,
      "not-found",
    );
    expect(await auditOf(missing)).toEqual({ n: 0 });
  });
});

describe("GET /api/admin/sidemenus", () => {
  it("is public, and holds nothing but menu entries", async () => {
    const response = await callApi(SELF, "GET", "/api/admin/sidemenus");
    expect(response.status).toBe(200);
    const { message } = await response.json<{ message: Record<string, unknown>[] }>();
    for (const item of message) {
      expect(Object.keys(item).sort()).toEqual(["_id", "class_name", "description", "endpoint", "name"]);
    }
  });
});
