import type { MiddlewareHandler } from "hono";
import { readConfig, type Config } from "~workers/config";
import { readSession, type Session } from "~workers/platform/sessions";
import { problem } from "./problem";

/** What every Hono handler of the main Worker can read. */
export type ApiEnv = {
  Bindings: Env;
  Variables: { requestId: string; config: Config; session: Session };
};

/** Names each request once, so a logged failure and the answer's `requestId` match. */
export const assignRequestId: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const requestId = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", requestId);
  c.set("config", readConfig(c.env));
  await next();
  c.header("x-request-id", requestId);
};

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
