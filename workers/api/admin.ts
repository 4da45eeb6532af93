/** Admin calls (the ADMIN_EMAIL account only). */
import { Hono } from "hono";
import { forgetAccountKeys } from "~workers/gateway/api-key-auth";
import { grantPlan, GrantPlanSchema } from "~workers/platform/admin";
import { isAdmin } from "~workers/platform/roles";
import { requireSession, type ApiEnv } from "./context";
import { problem, problemFromZod } from "~workers/http/problem";

export const adminApi = new Hono<ApiEnv>();

adminApi.use("/admin/users/*", requireSession, async (c, next) => {
  if (!isAdmin(c.get("config"), c.get("session").user))
    return problem(c, "forbidden", "Only the admin account may do this.");
  await next();
});

adminApi.post("/admin/users/:id/plan", async (c) => {
  const parsed = GrantPlanSchema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) return problemFromZod(c, parsed.error);
  const targetUserId = c.req.param("id");
  const result = await grantPlan(c.env.DB, c.env.METER, {
    adminUserId: c.get("session").user.id,
    targetUserId,
    ...parsed.data,
  });
  if (!result.ok) return problem(c, "not-found", "No user has this id.");
  // The gateway caches plans with keys: forget them so the new plan applies to the next call.
  await forgetAccountKeys(c.env.DB, c.env.CACHE, targetUserId);
  return c.json({ userId: targetUserId, planId: parsed.data.planId, planExpiresAt: result.planExpiresAt });
});
