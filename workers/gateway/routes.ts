/**
 * The hosted APIs' routes: every operation of every API at `/<slug><path>` (and under the
 * registry's older spellings), mounted by workers/api/index.ts at `/api/v1`; and the legacy
 * paths older clients call (`POST /api/qrcode`, …), mounted at `/api`.
 */
import { Hono, type Context } from "hono";
import type { ApiEnv } from "~workers/http/env";
import { problem } from "~workers/http/problem";
import type { HostedApiDefinition, Operation } from "~workers/hosted/definition";
import { loadDefinition } from "~workers/hosted/definitions";
import { findHostedApi, type HostedApi } from "~workers/hosted/registry";
import { ROUTE_TABLE } from "~workers/hosted/route-table";
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

// Mounted from the route table, so no API's code is loaded until it is called (decision 064):
// the first call of an API loads its definition, later ones in the isolate find it loaded.
for (const [slug, routes] of Object.entries(ROUTE_TABLE)) {
  const api = findHostedApi(slug) as HostedApi;
  for (const name of [api.slug, ...api.aliases]) {
    for (const route of routes.operations) {
      hostedApi.on(route.method, `/${name}${route.path}`, async (c) => {
        const { operation } = await operationOf(slug, route.id);
        return runOperation(c, api, operation);
      });
    }
  }
  for (const legacy of routes.legacyRoutes) {
    legacyHostedApi.on(legacy.method, legacy.path.replace(/^\/api/, ""), async (c) => {
      const { definition, operation } = await operationOf(slug, legacy.operationId);
      const route = definition.legacyRoutes?.find(
        (candidate) => candidate.method === legacy.method && candidate.path === legacy.path,
      );
      if (!route) throw new Error(`${slug}: the route table's ${legacy.path} is not in its definition`);
      return runOperation(c, api, operation, { legacy: { route, operations: definition.operations } });
    });
  }
}

/**
 * The loaded definition and its operation `id`. A table that names what the definition does not
 * hold is out of date (route-table.test.ts fails on it first): thrown, answered as the API
 * router's unexpected failure.
 */
async function operationOf(
  slug: string,
  id: string,
): Promise<{ definition: HostedApiDefinition; operation: Operation }> {
  const definition = await loadDefinition(slug);
  const operation = definition?.operations.find((candidate) => candidate.id === id);
  if (!definition || !operation) throw new Error(`${slug}: the route table's operation ${id} is not in its definition`);
  return { definition, operation };
}

// Anything else under /v1: an unknown API, an API whose engine is not served here yet, or a
// method the API does not have. Each gets its own problem, never a bare 404.
const notRouted = async (c: Context<ApiEnv>) => {
  // Answered without reading the body: release it, as the gateway's refusals do.
  await releaseBody(c.req.raw);
  const slug = c.req.param("slug") ?? "";
  const api = findHostedApi(slug);
  if (!api) return problem(c, "not-found", `There is no API called ${slug}. See /docs for the list.`);
  if (!ROUTE_TABLE[api.slug]) {
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
