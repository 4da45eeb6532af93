/**
 * The main Worker. `/api/*` goes to Hono; every other request (pages and React Router's
 * `.data` requests, all methods) goes to React Router.
 */
import { createRequestHandler, RouterContextProvider } from "react-router";
import { api } from "./api";
import { readConfig } from "./config";
import { cloudflareContext } from "./context";
import { serveBenchRoute } from "./gateway/bench-route";
import { buildOpenApiDocument } from "./hosted/openapi";
import { shortLinkRedirects } from "./hosted/urlshortener/redirect";
import { serveFakeIdp } from "./providers/oidc";
import { pruneExpiredSessions } from "./platform/sessions";
import { pruneThrottleWindows } from "./platform/throttle";
import { pruneHourlyUsage } from "./platform/usage";
import { deliveryThrough, serveFakePaymentProvider } from "./providers/payments";

// Durable Object classes must be exported from the main module.
export { Meter } from "./gateway/meter";

/**
 * Pages may not be framed by other sites (the pricing page holds payment buttons), and the
 * browser must not guess content types. Scripts are not restricted here: React Router's
 * hydration writes inline scripts, which a nonce-based policy would have to cover first.
 */
const PAGE_SECURITY_HEADERS = {
  "content-security-policy": "frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};

function withPageSecurityHeaders(response: Response): Response {
  const secured = new Response(response.body, response);
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) {
    if (!secured.headers.has(name)) secured.headers.set(name, value);
  }
  return secured;
}

const handlePage = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      return api.fetch(request, env, ctx);
    }
    if (pathname.startsWith("/s/")) return shortLinkRedirects.fetch(request, env, ctx);
    if (pathname === "/openapi.json") {
      return Response.json(buildOpenApiDocument(new URL(request.url).origin), {
        headers: { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" },
      });
    }
    const config = readConfig(env);
    // Development only: the fake identity provider, the fake payment providers and the bench
    // route (production configuration refuses them all).
    const fake =
      serveFakeIdp(config, env, request) ??
      serveFakePaymentProvider(
        config,
        env.CACHE,
        request,
        deliveryThrough(env.WEBHOOKS, (p) => ctx.waitUntil(p)),
      );
    if (fake) return fake;
    const bench = await serveBenchRoute(request, env, ctx, config);
    if (bench) return bench;
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env, ctx });
    return withPageSecurityHeaders(await handlePage(request, context));
  },

  // Daily housekeeping (the cron in wrangler.toml): expired sessions, spent throttle windows and
  // hourly usage rollups past the benchmarking page's week.
  async scheduled(controller, env) {
    await Promise.all([
      pruneExpiredSessions(env.DB, controller.scheduledTime),
      pruneThrottleWindows(env.DB, controller.scheduledTime),
      pruneHourlyUsage(env.DB, controller.scheduledTime),
    ]);
  },
} satisfies ExportedHandler<Env>;
