/**
 * `GET /__bench/bare/<slug>[/<path>]`: a hosted API's GET operation at that path (its main one
 * when none is given; paths without parameters only), or with `POST` and a JSON body its JSON
 * POST operation (the video downloader has no GET), without the gateway (no key, no Meter, no
 * usage), so `npm run bench` can compare it with the same call through the gateway. Mounted
 * only when BENCH_ROUTES is "on", which production configuration refuses.
 */
import type { Config } from "~workers/config";
import { loadDefinition } from "~workers/hosted/definitions";
import { createOperationContext } from "./operation-context";
import { createServices } from "./services";

export async function serveBenchRoute(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  config: Config,
): Promise<Response | null> {
  const url = new URL(request.url);
  if (config.BENCH_ROUTES !== "on" || !url.pathname.startsWith("/__bench/bare/")) return null;
  const [slug = "", ...rest] = url.pathname.slice("/__bench/bare/".length).split("/");
  const path = rest.length > 0 ? `/${rest.join("/")}` : "";
  const method = request.method === "POST" ? "POST" : "GET";
  const operation = (await loadDefinition(slug))?.operations.find(
    (op) =>
      op.method === method &&
      op.path === path &&
      !op.path.includes(":") &&
      (method === "GET" || op.inputSource === "json"),
  );
  if (!operation) return new Response("no such operation", { status: 404 });
  const raw: unknown =
    method === "POST" ? await request.json().catch(() => null) : Object.fromEntries(url.searchParams);
  const parsed = operation.input.safeParse(raw);
  if (!parsed.success) return new Response("bad input", { status: 422 });
  const waitUntil = (promise: Promise<unknown>) => ctx.waitUntil(promise);
  // The same context the gateway builds, so the bench's difference is the gateway's own steps.
  const context = createOperationContext({
    request,
    requestId: "bench",
    account: { userId: "bench", keyId: "bench", planId: "premium" },
    services: createServices(env, config, waitUntil),
    publicHosts: config.PUBLIC_HOSTS,
    origin: url.origin,
    // No time limit here: the bench measures the bare handler.
    signal: new AbortController().signal,
    waitUntil,
  });
  const result = await operation.handler(parsed.data, context);
  return result.kind === "json" ? Response.json(result.body) : new Response("unsupported result", { status: 500 });
}
