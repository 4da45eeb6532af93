import type { MiddlewareHandler } from "hono";

/** What every Hono handler of the main Worker can read. */
export type ApiEnv = {
  Bindings: Env;
  Variables: { requestId: string };
};

/** Names each request once, so a logged failure and the answer's `requestId` match. */
export const assignRequestId: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const requestId = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", requestId);
  await next();
  c.header("x-request-id", requestId);
};
