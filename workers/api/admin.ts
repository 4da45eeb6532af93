/** `/api/admin/*`: the admin account's calls, and the side menu every page reads. */
import { Hono } from "hono";
import { listSideMenu } from "~workers/hosted/side-menu";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { grantPlan, GrantPlanSchema } from "~workers/platform/admin";
import { isAdmin } from "~workers/platform/roles";
import { requireSession, type ApiEnv } from "./context";
import { problem, problemFromZod } from "~workers/http/problem";

export const adminApi = new Hono<ApiEnv>();

// The side menu is public: its path is the one the site's client has always called.
adminApi.get("/sidemenus", (c) => c.json({ message: listSideMenu() }));

// Everything under /users is the ADMIN_EMAIL account's only.
adminApi.use("/users/*", requireSession, async (c, next) => {
  if (!isAdmin(c.get("config"), c.get("session").user))
    return problem(c, "forbidden", "Only the admin account may do this.");
  await next();
});

adminApi.post("/users/:id/plan", async (c) => {
  const parsed = GrantPlanSchema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) return problemFromZod(c, parsed.error);
  const targetUserId = c.req.param("id");
  const result = await grantPlan(c.env.DB, gatewayNotices(c.env), {
    adminUserId: c.get("session").user.id,
    targetUserId,
    ...parsed.data,
  });
  if (!result.ok) return problem(c, "not-found", "No user has this id.");
  return c.json({ userId: targetUserId, planId: parsed.data.planId, planExpiresAt: result.planExpiresAt });
});
