/**
 * Mounts every operation of every hosted API at `/api/v1/<slug><path>` (and under the
 * registry's older spellings), plus the legacy paths older clients call.
 */
import { Hono } from "hono";
import type { ApiEnv } from "~workers/api/context";
import { problem } from "~workers/api/problem";
import { HOSTED_DEFINITIONS } from "~workers/hosted/definitions";
import { findHostedApi, type HostedApi } from "~workers/hosted/registry";
import { runOperation } from "./gateway";

export const gatewayApi = new Hono<ApiEnv>();

for (const definition of HOSTED_DEFINITIONS) {
  const api = findHostedApi(definition.slug) as HostedApi;
  for (const slug of [api.slug, ...api.aliases]) {
    for (const operation of definition.operations) {
      gatewayApi.on(operation.method, `/v1/${slug}${operation.path}`, (c) => runOperation(c, api, operation));
    }
  }
  for (const legacy of definition.legacyRoutes ?? []) {
    const operation = definition.operations.find((candidate) => candidate.id === legacy.operationId);
    if (!operation) throw new Error(`${definition.slug}: legacy route ${legacy.path} names no operation`);
    gatewayApi.on(legacy.method, legacy.path.replace(/^\/api/, ""), (c) =>
      runOperation(c, api, operation, legacy.adapt),
    );
  }
}

// An API in the registry whose engine is not mounted here answers that, rather than 404.
gatewayApi.all("/v1/:slug/*", (c) => {
  const api = findHostedApi(c.req.param("slug"));
  if (!api) return problem(c, "not-found", `There is no API called ${c.req.param("slug")}. See /docs for the list.`);
  return problem(
    c,
    "method-not-allowed",
    `${api.name} has no ${c.req.method} ${new URL(c.req.url).pathname}. See /docs/api/${api.slug}.`,
  );
});
