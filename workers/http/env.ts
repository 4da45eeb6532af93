/**
 * The Hono environment of the main Worker's routers (`api/` and `gateway/` alike), and the
 * middleware that names each request. It lives here, beside problem.ts, so neither router
 * imports the other to share it.
 */
import type { MiddlewareHandler } from "hono";
import { readConfig, type Config } from "~workers/config";
import type { Session } from "~workers/platform/sessions";

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
