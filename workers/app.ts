/**
 * The main Worker. `/api/*` goes to Hono; every other request (pages and React Router's
 * `.data` requests, all methods) goes to React Router.
 *
 * Before either router sees a request, the entry bounds its body and refuses state-changing
 * requests from other sites (issue #10); after, it adds the headers that tell the browser how
 * to treat the answer. The hosted-API gateway (`/api/v1/*` and the legacy hosted paths) is
 * left alone on the way in: its calls are authenticated by API key, not by a cookie, so any
 * site may make them, and it caps each operation's body at that operation's own limit.
 */
import { createRequestHandler, RouterContextProvider } from "react-router";
import { api } from "./api";
import { readConfig } from "./config";
import { cloudflareContext, cspNonceContext } from "./context";
import { serveBenchRoute } from "./gateway/bench-route";
import { HOSTED_DEFINITIONS } from "./hosted/definitions";
import { buildOpenApiDocument } from "./hosted/openapi";
import { shortLinkRedirects } from "./hosted/urlshortener/redirect";
import { changesState, foreignOrigin } from "./http/cross-site";
import { FROM_ANOTHER_SITE, refusalResponse, TOO_LARGE, UNREADABLE_FORM } from "./http/refusals";
import { bufferBody, discardBody, FORM_BODY_LIMIT, guardUnreadBody } from "./http/request-body";
import { createNonce, dataSecurityHeaders, pageSecurityHeaders, withHeaders } from "./http/security-headers";
import { serveFakeIdp } from "./providers/oidc";
import { pruneExpiredSessions } from "./platform/sessions";
import { pruneThrottleWindows } from "./platform/throttle";
import { pruneHourlyUsage } from "./platform/usage";
import { deliveryThrough, serveFakePaymentProvider } from "./providers/payments";

// Durable Object classes must be exported from the main module.
export { Meter } from "./gateway/meter";

const handlePage = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

/** The older hosted calls the gateway serves besides `/api/v1` (workers/gateway/routes.ts mounts them). */
const LEGACY_HOSTED_CALLS = new Set(
  HOSTED_DEFINITIONS.flatMap((definition) => definition.legacyRoutes ?? []).map(
    (legacy) => `${legacy.method} ${legacy.path}`,
  ),
);

/** Where a request goes: the gateway, the rest of `/api`, the data-only paths, or a page. */
type Area = "gateway" | "api" | "data" | "page";

function areaOf(method: string, pathname: string): Area {
  // As Hono routes them: case-sensitive, and not strict (`/api/qrcode/` is `/api/qrcode`).
  const path = pathname.replace(/(.)\/$/, "$1");
  if (path === "/api/v1" || path.startsWith("/api/v1/")) return "gateway";
  if (LEGACY_HOSTED_CALLS.has(`${method.toUpperCase()} ${path}`)) return "gateway";
  if (path === "/api" || path.startsWith("/api/")) return "api";
  if (path.startsWith("/s/") || path === "/openapi.json") return "data";
  return "page";
}

/**
 * The request a router may read, or the refusal to answer instead. A refusal first lets go of
 * the body it did not read, so the bytes do not stay behind in a keep-alive connection.
 */
async function admit(request: Request, area: Exclude<Area, "gateway">): Promise<Request | Response> {
  const kind = area === "page" ? "page" : "api";
  if (changesState(request.method)) {
    const reason = foreignOrigin(request);
    if (reason) {
      await discardBody(request);
      return refusalResponse(request, kind === "api" ? FROM_ANOTHER_SITE.api(reason) : FROM_ANOTHER_SITE.page(), kind);
    }
  }
  const buffered = await bufferBody(request, FORM_BODY_LIMIT);
  if (!buffered.ok) return refusalResponse(request, TOO_LARGE[kind](FORM_BODY_LIMIT), kind);
  // Page actions read their forms with `request.formData()`, which throws on a body that is not
  // the form its content type claims: that is bad input, and it gets a 400 here, not a 500 there.
  if (area === "page" && changesState(request.method) && !(await parsesAsForm(buffered.request))) {
    return refusalResponse(request, UNREADABLE_FORM, kind);
  }
  return buffered.request;
}

async function parsesAsForm(request: Request): Promise<boolean> {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) return true;
  // The body is in memory (at most FORM_BODY_LIMIT), so parsing a copy costs no socket read.
  return request
    .clone()
    .formData()
    .then(() => true)
    .catch(() => false);
}

async function serve(request: Request, env: Env, ctx: ExecutionContext, area: Area, nonce: string) {
  if (area === "gateway" || area === "api") return api.fetch(request, env, ctx);
  const { pathname, origin } = new URL(request.url);
  if (pathname.startsWith("/s/")) return shortLinkRedirects.fetch(request, env, ctx);
  if (area === "data") {
    return Response.json(buildOpenApiDocument(origin), {
      headers: { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" },
    });
  }
  const config = readConfig(env);
  // Development only: the fake identity provider, the fake payment providers and the bench
  // route (production configuration refuses them all). They keep their own headers: the
  // fakes' pages set a policy of their own, as the providers' real pages would.
  const fake =
    serveFakeIdp(config, env, request) ??
    serveFakePaymentProvider(
      config,
      env.CACHE,
      request,
      deliveryThrough(env.WEBHOOKS, (p) => ctx.waitUntil(p)),
    );
  if (fake) return { own: await fake };
  const bench = await serveBenchRoute(request, env, ctx, config);
  if (bench) return { own: bench };
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env, ctx });
  context.set(cspNonceContext, nonce);
  return handlePage(request, context);
}

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    const area = areaOf(request.method, pathname);
    // A plain var, not the parsed config: a broken configuration must not cost `/api` its
    // problem+json answer (Hono's error handler reports it there).
    const production = env.APP_ENV === "production";
    const nonce = createNonce();
    let answer: Response | { own: Response };
    if (area === "gateway") {
      // The gateway refuses some calls (no key, over a limit) before it reads their input. A
      // body left unread or cancelled costs the connection it came on (request-body.ts), so
      // what the gateway does not read is read away before the answer goes out.
      const guarded = guardUnreadBody(request);
      answer = await serve(guarded.request, env, ctx, area, nonce);
      await guarded.settle();
    } else {
      const admitted = await admit(request, area);
      answer = admitted instanceof Response ? admitted : await serve(admitted, env, ctx, area, nonce);
    }
    if (!(answer instanceof Response)) return answer.own;
    return withHeaders(
      answer,
      area === "page" ? pageSecurityHeaders({ nonce, pathname, production }) : dataSecurityHeaders({ production }),
    );
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
