/**
 * The main Worker: one Hono root listing every route that is not a page, then the pages.
 *
 *   /api/*            the platform calls and the hosted APIs: workers/api/index.ts mounts one
 *                     router per prefix (`/api/<name>` is workers/api/<name>.ts), the gateway at
 *                     /api/v1 (workers/gateway/routes.ts), and the older hosted paths the gateway
 *                     serves beside it: POST /api/qrcode, POST /api/polyline,
 *                     GET /api/country/phone-codes, POST /api/download/videos
 *   /s/:alias         a short link (workers/hosted/urlshortener/redirect.ts)
 *   /openapi.json     every hosted API described (workers/hosted/openapi.ts)
 *   /dev/oidc/*       development only: the fake identity provider,
 *   /dev/paypal/*       PayPal and Cashfree (workers/providers/fake-providers.ts)
 *   /dev/cashfree/*
 *   /__bench/bare/*   development only: a hosted API without the gateway, for `npm run bench`
 *                     (workers/gateway/bench-route.ts)
 *   *                 everything else: the pages, React Router (app/routes.ts lists them;
 *                     `/a/b/:id` is app/routes/a-b/route.tsx)
 *
 * Every request first crosses the request boundary (workers/http/boundary.ts): bodies bounded,
 * cross-site writes refused, and security headers on every answer.
 */
import { Hono, type Context } from "hono";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { api } from "./api";
import { readConfig } from "./config";
import { cloudflareContext, cspNonceContext } from "./context";
import { shortLinkRedirects } from "./hosted/urlshortener/redirect";
import { requestBoundary, type RootEnv } from "./http/boundary";
import { pruneExpiredSessions } from "./platform/sessions";
import { pruneThrottleWindows } from "./platform/throttle";
import { pruneHourlyUsage } from "./platform/usage";
import { ECB_CRONS, refreshEcbRates } from "./providers/ecb/job";
import { loadFakes } from "./providers/fakes";
import { deliveryThrough } from "./providers/payments";
import { RDAP_BOOTSTRAP_CRON, refreshRdapBootstrap } from "./providers/rdap/job";

// Durable Object classes must be exported from the main module.
export { Meter } from "./gateway/meter";

const handlePage = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export const root = new Hono<RootEnv>();

root.use(requestBoundary);

root.all("/api/*", (c) => api.fetch(c.req.raw, c.env, c.executionCtx));

const shortLink = (c: Context<RootEnv>) => shortLinkRedirects.fetch(c.req.raw, c.env, c.executionCtx);
root.get("/s/:alias", shortLink);
// Anything else under /s/ gets the redirect router's own 404, as a data path.
root.all("/s/*", shortLink);

// Loaded when asked for, with every API it describes: none of it is needed to start (decision 064).
root.all("/openapi.json", async (c) => {
  const { buildOpenApiDocument } = await import("./hosted/openapi");
  return Response.json(await buildOpenApiDocument(new URL(c.req.url).origin), {
    headers: { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" },
  });
});

// Development only, and only in a build that holds them (vite.config.ts leaves them out of a
// production build; production configuration refuses them too). When the configuration has
// not chosen a fake, its path is a page like any other. The fakes keep their own headers, as
// the providers' real pages would.
if (__DEV_FAKES__) {
  const fake = (serve: (c: Context<RootEnv>) => Promise<Response | null>) => async (c: Context<RootEnv>) => {
    const answer = await serve(c);
    if (!answer) return servePage(c);
    c.set("ownHeaders", true);
    return answer;
  };
  root.all(
    "/dev/oidc/*",
    fake(async (c) => (await loadFakes()).serveFakeIdp(readConfig(c.env), c.env, c.req.raw)),
  );
  const payments = fake(async (c) =>
    (await loadFakes()).serveFakePaymentProvider(
      readConfig(c.env),
      c.env.CACHE,
      c.req.raw,
      deliveryThrough(c.env.WEBHOOKS, (promise) => c.executionCtx.waitUntil(promise)),
    ),
  );
  root.all("/dev/paypal/*", payments);
  root.all("/dev/cashfree/*", payments);
  root.all(
    "/__bench/bare/*",
    fake(async (c) =>
      (await import("./gateway/bench-route")).serveBenchRoute(c.req.raw, c.env, workerCtx(c), readConfig(c.env)),
    ),
  );
}

root.all("*", (c) => servePage(c));

function servePage(c: Context<RootEnv>) {
  // An incomplete configuration stops a page before any of it renders (it throws, naming what
  // is missing); `/api` answers the same failure as problem+json.
  readConfig(c.env);
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env: c.env, ctx: workerCtx(c) });
  context.set(cspNonceContext, c.get("nonce"));
  return handlePage(c.req.raw, context);
}

/** The Worker's own ExecutionContext, which Hono types more narrowly. */
function workerCtx(c: Context<RootEnv>): ExecutionContext {
  return c.executionCtx as ExecutionContext;
}

// A failure no route answered propagates as it did before the root existed: pages and `/api`
// answer their own errors; nothing here turns one into a bare 500 with a body.
root.onError((error) => {
  throw error;
});

/**
 * Development builds with BENCH_ROUTES on: D1 counted for `npm run bench`, and its totals at
 * `/__bench/d1` (gateway/bench-d1-counter.ts). Production builds hold only `root.fetch`.
 */
async function benchCountingFetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  if ((env.BENCH_ROUTES as string | undefined) !== "on") return root.fetch(request, env, ctx);
  const { pathname } = new URL(request.url);
  // The platform's floor as this Worker is served (the same server, asset router and isolate):
  // an answer before any of the app's code runs.
  if (pathname === "/__bench/floor") return new Response("ok");
  const counter = await import("./gateway/bench-d1-counter");
  if (pathname === "/__bench/d1") return Response.json(counter.d1Counts);
  return root.fetch(request, counter.countedEnv(env), ctx);
}

export default {
  fetch: __DEV_FAKES__ ? benchCountingFetch : root.fetch,

  // Daily housekeeping (the cron in wrangler.toml): expired sessions, spent throttle windows and
  // hourly usage rollups past the benchmarking page's week.
  async scheduled(controller, env) {
    // IANA's RDAP bootstrap file, weekly (workers/providers/rdap/job.ts, decision 050).
    if (controller.cron === RDAP_BOOTSTRAP_CRON) {
      await refreshRdapBootstrap(env);
      return;
    }
    // The ECB's rates have their own triggers (workers/providers/ecb/job.ts, decision 049).
    if (ECB_CRONS.includes(controller.cron)) {
      await refreshEcbRates(env, controller.scheduledTime);
      return;
    }
    await Promise.all([
      pruneExpiredSessions(env.DB, controller.scheduledTime),
      pruneThrottleWindows(env.DB, controller.scheduledTime),
      pruneHourlyUsage(env.DB, controller.scheduledTime),
    ]);
  },
} satisfies ExportedHandler<Env>;
