/**
 * `GET /__bench/bare/<slug>`: a hosted API's first GET operation without the gateway (no key,
 * no Meter, no usage), so `npm run bench` can compare it with the same call through the
 * gateway. Mounted only when BENCH_ROUTES is "on", which production configuration refuses.
 */
import type { Config } from "~workers/config";
import { findDefinition } from "~workers/hosted/definitions";

export async function serveBenchRoute(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  config: Config,
): Promise<Response | null> {
  const url = new URL(request.url);
  if (config.BENCH_ROUTES !== "on" || !url.pathname.startsWith("/__bench/bare/")) return null;
  const operation = findDefinition(url.pathname.slice("/__bench/bare/".length))?.operations.find(
    (op) => op.method === "GET" && op.path === "",
  );
  if (!operation) return new Response("no such operation", { status: 404 });
  const parsed = operation.input.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return new Response("bad input", { status: 422 });
  const result = await operation.handler(parsed.data, {
    env,
    config,
    request,
    requestId: "bench",
    account: { userId: "bench", keyId: "bench", planId: "premium" },
    origin: url.origin,
    // No time limit here: the bench measures the bare handler.
    signal: new AbortController().signal,
    waitUntil: (promise) => ctx.waitUntil(promise),
    fetchUrl: () => Promise.reject(new Error("not available on the bench route")),
  });
  return result.kind === "json" ? Response.json(result.body) : new Response("unsupported result", { status: 500 });
}
