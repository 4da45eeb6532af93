/** `/api/user/*`: the signed-in account's own things, its referral code and its API keys. */
import { Hono } from "hono";
import { z } from "zod";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import {
  createApiKey,
  KeyNameSchema,
  listApiKeys,
  MAX_KEYS_PER_USER,
  revokeApiKey,
  rotateApiKey,
} from "~workers/platform/api-keys";
import { EMAIL_UNVERIFIED_MESSAGE } from "~workers/platform/roles";
import { problem } from "~workers/http/problem";
import { JSON_LIMIT, parseJson, requireSession, type ApiEnv } from "./context";

export const userApi = new Hono<ApiEnv>();

userApi.get("/referral-code", requireSession, (c) =>
  c.json({ referralCode: c.get("session").user.referralCode }),
);

userApi.get("/keys", requireSession, async (c) =>
  c.json({ keys: await listApiKeys(c.env.DB, c.get("session").user.id) }),
);

userApi.post("/keys", JSON_LIMIT, requireSession, async (c) => {
  const input = await parseJson(c, z.object({ name: KeyNameSchema }));
  if (!input.ok) return input.response;
  const result = await createApiKey(c.env.DB, c.get("session").user.id, input.data.name);
  if (!result.ok) {
    if (result.code === "email-unverified") return problem(c, "forbidden", EMAIL_UNVERIFIED_MESSAGE);
    return problem(c, "conflict", `An account may hold at most ${MAX_KEYS_PER_USER} active keys. Revoke one first.`);
  }
  // The only time the whole key is ever shown.
  return c.json({ key: result.key, ...result.summary }, 201);
});

userApi.delete("/keys/:id", requireSession, async (c) => {
  const revoked = await revokeApiKey(c.env.DB, gatewayNotices(c.env), c.get("session").user.id, c.req.param("id"));
  return revoked ? c.body(null, 204) : problem(c, "not-found", "No active key of yours has this id.");
});

userApi.post("/keys/:id/rotate", requireSession, async (c) => {
  const result = await rotateApiKey(c.env.DB, gatewayNotices(c.env), c.get("session").user.id, c.req.param("id"));
  if (!result.ok) {
    if (result.code === "email-unverified") return problem(c, "forbidden", EMAIL_UNVERIFIED_MESSAGE);
    return problem(c, result.code === "not-found" ? "not-found" : "conflict", "No active key of yours has this id.");
  }
  return c.json({ key: result.key, ...result.summary }, 201);
});
