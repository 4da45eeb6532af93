/**
 * Every `/api/*` request. `/api/<name>/…` is served by `workers/api/<name>.ts`, mounted here at
 * its prefix (`/api/v1` is the gateway's, workers/gateway/routes.ts); the two exceptions are listed with their files (tests/integration/route-map.test.ts
 * holds the map to this). Unknown paths and unexpected failures answer problem+json, never a
 * bare 500.
 */
import { Hono } from "hono";
import { assignRequestId, type ApiEnv } from "~workers/http/env";
import { problem } from "~workers/http/problem";
import { hostedApi, legacyHostedApi } from "~workers/gateway/routes";
import { adminApi } from "./admin";
import { aiApi } from "./ai";
import { authApi } from "./auth";
import { paymentsApi } from "./payments";
import { publicApi } from "./public";
import { userApi } from "./user";
import { usersApi } from "./users";

export const api = new Hono<ApiEnv>({ strict: false }).basePath("/api");

api.use(assignRequestId);
api.route("/users", usersApi); // sign-up, log-in, passwords, the account, its payments
api.route("/user", userApi); // the signed-in account's API keys and referral code
api.route("/auth", authApi); // Continue with Google (OpenID Connect)
api.route("/payments", paymentsApi); // buying a plan, a payment's status
api.route("/admin", adminApi); // granting plans; the side menu
api.route("/ai", aiApi); // prompt to image (admin)
// The home page's forms, /api/contact and /api/subscribe/newsletter: public.ts.
api.route("/", publicApi);
api.route("/v1", hostedApi); // the hosted APIs, /api/v1/<slug>/…: workers/gateway/routes.ts
// The older hosted paths the gateway serves beside them (POST /api/qrcode, POST /api/polyline,
// GET /api/country/phone-codes, POST /api/download/videos): workers/gateway/routes.ts too.
api.route("/", legacyHostedApi);

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
