/**
 * The request boundary of the main Worker (issue #10), as the Hono root's first middleware:
 * before any route sees a request, its body is bounded and a state-changing request from another
 * site is refused; after, the answer gets the headers that tell the browser how to treat it.
 *
 * The hosted-API gateway (`/api/v1/*` and the older hosted paths) is left alone on the way in:
 * its calls are authenticated by API key, not by a cookie, so any site may make them, and it
 * caps each operation's body at that operation's own limit.
 */
import type { MiddlewareHandler } from "hono";
import { legacyRouteEntries } from "~workers/hosted/route-table";
import { SAVED_BODY_MAX_BYTES, SAVED_BODY_TOO_LARGE } from "~workers/platform/saved-items";
import { changesState, foreignOrigin } from "./cross-site";
import { FROM_ANOTHER_SITE, refusalResponse, TOO_LARGE, UNREADABLE_FORM, type Refusal } from "./refusals";
import { bufferBody, discardBody, FORM_BODY_LIMIT, guardUnreadBody } from "./request-body";
import { createNonce, dataSecurityHeaders, pageSecurityHeaders, withHeaders } from "./security-headers";

/**
 * What the root's routes can read: this response's CSP nonce, and whether the answer keeps its
 * own headers (the development fakes' pages set a policy of their own, as the providers' real
 * pages would).
 */
export type RootEnv = { Bindings: Env; Variables: { nonce: string; ownHeaders: boolean } };

/** The older hosted calls the gateway serves besides `/api/v1` (workers/gateway/routes.ts mounts them). */
const LEGACY_HOSTED_CALLS = new Set(legacyRouteEntries().map((legacy) => `${legacy.method} ${legacy.path}`));

/**
 * `/api` routes whose body has a cap and a refusal of their own, as each gateway operation has:
 * the boundary reads their body up to that cap and refuses in their words, since it refuses
 * before the route runs and a limit the route set for itself would never be reached.
 */
const API_BODY_LIMITS: { method: string; path: RegExp; maxBytes: number; detail: string }[] = [
  {
    method: "POST",
    path: /^\/api\/user\/saved\/[^/]+\/?$/,
    maxBytes: SAVED_BODY_MAX_BYTES,
    detail: SAVED_BODY_TOO_LARGE,
  },
];

function bodyLimitOf(request: Request, area: "api" | "page"): { maxBytes: number; refusal: Refusal } {
  if (area === "api") {
    const { pathname } = new URL(request.url);
    const own = API_BODY_LIMITS.find((entry) => entry.method === request.method && entry.path.test(pathname));
    if (own) return { maxBytes: own.maxBytes, refusal: { ...TOO_LARGE.api(own.maxBytes), detail: own.detail } };
  }
  return { maxBytes: FORM_BODY_LIMIT, refusal: TOO_LARGE[area](FORM_BODY_LIMIT) };
}

/** Which boundary a request gets: the gateway's, the rest of `/api`, the data-only paths, or a page's. */
export type Area = "gateway" | "api" | "data" | "page";

export function areaOf(method: string, pathname: string): Area {
  // As Hono routes them: case-sensitive, and not strict (`/api/qrcode/` is `/api/qrcode`).
  const path = pathname.replace(/(.)\/$/, "$1");
  if (path === "/api/v1" || path.startsWith("/api/v1/")) return "gateway";
  // The bench's bare handler (development builds only) crosses the boundary the gateway's calls
  // cross, so the bench's difference between the two is the gateway's own steps.
  if (__DEV_FAKES__ && path.startsWith("/__bench/bare/")) return "gateway";
  if (LEGACY_HOSTED_CALLS.has(`${method.toUpperCase()} ${path}`)) return "gateway";
  if (path === "/api" || path.startsWith("/api/")) return "api";
  if (path.startsWith("/s/") || path === "/openapi.json") return "data";
  return "page";
}

export const requestBoundary: MiddlewareHandler<RootEnv> = async (c, next) => {
  const { pathname } = new URL(c.req.url);
  const area = areaOf(c.req.method, pathname);
  // A plain var, not the parsed config: a broken configuration must not cost `/api` its
  // problem+json answer (Hono's error handler reports it there).
  const production = c.env.APP_ENV === "production";
  // Only a page has scripts for a policy to admit; the other areas' answers carry no nonce, and
  // a nonce's random bytes were a measurable part of a hosted call's CPU (#17).
  const nonce = area === "page" ? createNonce() : "";
  c.set("nonce", nonce);
  let answer: Response;
  if (area === "gateway") {
    // The gateway refuses some calls (no key, over a limit) before it reads their input. A
    // body left unread or cancelled costs the connection it came on (request-body.ts), so
    // what the gateway does not read is read away before the answer goes out.
    const guarded = guardUnreadBody(c.req.raw);
    c.req.raw = guarded.request;
    await next();
    answer = c.res;
    await guarded.settle();
  } else {
    const admitted = await admit(c.req.raw, area);
    if (admitted instanceof Response) {
      answer = admitted;
    } else {
      c.req.raw = admitted;
      await next();
      answer = c.res;
    }
  }
  if (c.get("ownHeaders")) return;
  // Unset first: Hono copies the old answer's headers onto a new one, which would put back the
  // values these headers replace.
  c.res = undefined;
  c.res = withHeaders(
    answer,
    area === "page" ? pageSecurityHeaders({ nonce, pathname, production }) : dataSecurityHeaders({ production }),
  );
};

/**
 * The request a route may read, or the refusal to answer instead. A refusal first lets go of
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
  const limit = bodyLimitOf(request, kind);
  const buffered = await bufferBody(request, limit.maxBytes);
  if (!buffered.ok) return refusalResponse(request, limit.refusal, kind);
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
