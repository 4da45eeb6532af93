import type { MiddlewareHandler } from "hono";
import type { ApiEnv } from "~workers/http/env";
import { problem } from "~workers/http/problem";
import { readSession } from "~workers/platform/sessions";

export type { ApiEnv } from "~workers/http/env";

/** Lets only signed-in callers (session cookie or bearer auth_token) through. */
export const requireSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const session = await readSession(c.env.DB, c.get("config").SESSION_SECRET, c.req.raw);
  if (!session) {
    return problem(
      c,
      "unauthenticated",
      "Sign in first: send the session cookie or `Authorization: Bearer <auth_token>`.",
      {},
      {
        "WWW-Authenticate": 'Bearer realm="portico"',
      },
    );
  }
  c.set("session", session);
  await next();
};
