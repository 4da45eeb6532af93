/**
 * Every `/api/*` request. Routers are mounted here; unknown paths and unexpected failures
 * answer problem+json, never a bare 500.
 */
import { Hono } from "hono";
import { assignRequestId, type ApiEnv } from "~workers/http/env";
import { problem } from "~workers/http/problem";
import { publicApi } from "./public";
import { gatewayApi } from "~workers/gateway/routes";
import { adminApi } from "./admin";
import { aiApi } from "./ai";
import { oidcApi } from "./oidc";
import { paymentsApi } from "./payments";
import { usersApi } from "./users";

export const api = new Hono<ApiEnv>({ strict: false }).basePath("/api");

api.use(assignRequestId);
api.route("/", publicApi);
api.route("/", usersApi);
api.route("/", oidcApi);
api.route("/", aiApi);
api.route("/", adminApi);
api.route("/", paymentsApi);
api.route("/", gatewayApi);

api.notFound((c) => problem(c, "not-found", `No API at ${c.req.method} ${new URL(c.req.url).pathname}.`));

api.onError((error, c) => {
  // The message may hold internals (SQL, stack): log it with the request id, answer without it.
  console.error(`[${c.get("requestId")}] ${c.req.method} ${c.req.path}:`, error);
  return problem(
    c,
    "service-unavailable",
    "Something failed on our side. Please retry; quote the requestId if it persists.",
  );
});
