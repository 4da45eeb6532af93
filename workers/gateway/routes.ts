/**
 * The hosted APIs' routes: every operation of every API at `/<slug><path>` (and under the
 * registry's older spellings), mounted by workers/api/index.ts at `/api/v1`; and the legacy
 * paths older clients call (`POST /api/qrcode`, …), mounted at `/api`.
 */
import { Hono, type Context } from "hono";
import type { ApiEnv } from "~workers/http/env";
import { problem } from "~workers/http/problem";
import { findDefinition, HOSTED_DEFINITIONS } from "~workers/hosted/definitions";
import { findHostedApi, type HostedApi } from "~workers/hosted/registry";
import { serveTunnel, TUNNEL_PATH } from "~workers/gateway/tunnel";
import { releaseBody, runOperation } from "./gateway";
import { createServices } from "./services";

/** `/api/v1/*`: the hosted APIs. */
export const hostedApi = new Hono<ApiEnv>();
/** The older absolute paths spec-era clients call, relative to `/api`. */
export const legacyHostedApi = new Hono<ApiEnv>();

// The downloader's media tunnel (decision 052): no key, the token in the path is the
// credential, and fetching it is not a counted call (the extraction that minted it was).
hostedApi.on(["GET", "HEAD"], `${TUNNEL_PATH.replace(/^\/api\/v1/, "")}/:token`, (c) => {
  const services = createServices(c.env, c.get("config"), (promise) => c.executionCtx.waitUntil(promise));
  return serveTunnel(c.req.raw, {
    tokens: services.tunnels,
    media: services.social,
    keys: services.keys,
    requestId: c.get("requestId"),
    now: Date.now(),
  });
});

for (const definition of HOSTED_DEFINITIONS) {
  const api = findHostedApi(definition.slug) as HostedApi;
  for (const slug of [api.slug, ...api.aliases]) {
    for (const operation of definition.operations) {
      hostedApi.on(operation.method, `/${slug}${operation.path}`, (c) => runOperation(c, api, operation));
    }
  }
  for (const legacy of definition.legacyRoutes ?? []) {
    const operation = definition.operations.find((candidate) => candidate.id === legacy.operationId);
    if (!operation) throw new Error(`${definition.slug}: legacy route ${legacy.path} names no operation`);
    legacyHostedApi.on(legacy.method, legacy.path.replace(/^\/api/, ""), (c) =>
      runOperation(c, api, operation, { legacy: { route: legacy, operations: definition.operations } }),
    );
  }
}

// Anything else under /v1: an unknown API, an API whose engine is not served here yet, or a
// method the API does not have. Each gets its own problem, never a bare 404.
const notRouted = async (c: Context<ApiEnv>) => {
  // Answered without reading the body: release it, as the gateway's refusals do.
  await releaseBody(c.req.raw);
  const slug = c.req.param("slug") ?? "";
  const api = findHostedApi(slug);
  if (!api) return problem(c, "not-found", `There is no API called ${slug}. See /docs for the list.`);
  if (!findDefinition(api.slug)) {
    return problem(c, "engine-unavailable", `${api.name} is not served in this environment yet.`, { api: api.slug });
  }
  return problem(
    c,
    "method-not-allowed",
    `${api.name} has no ${c.req.method} ${new URL(c.req.url).pathname}. See /docs/api/${api.slug}.`,
  );
};
hostedApi.all("/:slug", notRouted);
hostedApi.all("/:slug/*", notRouted);
