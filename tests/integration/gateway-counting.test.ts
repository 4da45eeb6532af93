/**
 * What a call costs, and what the gateway leaves running or unread when it answers:
 * - a call the handler answered after reaching the network counts, whatever it found there
 *   (a 403 upstream, a page that is not an image); refused input and failures on our side
 *   (5xx) are given back;
 * - the handler's time limit aborts its outbound fetches;
 * - an early refusal (no key, unknown key, revoked key, plan, limits, declared size) does not
 *   leave the request body unread.
 *
 * The gateway runs for real (keys in D1, the Meter, problem+json), mounted on a small app so
 * the network edge can be faked: a fake DNS and fake upstreams (tests/fakes/network.ts).
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { assignRequestId, type ApiEnv } from "~workers/http/env";
import { runOperation, type RunOptions } from "~workers/gateway/gateway";
import { meterPolicy, meterStanding } from "~workers/gateway/meter-policy";
import { hostedApi, legacyHostedApi } from "~workers/gateway/routes";
import { loadDefinitions } from "~workers/hosted/definitions";
import type { Operation } from "~workers/hosted/definition";
import { findHostedApi, type HostedApi } from "~workers/hosted/registry";
import { PLANS } from "~workers/platform/plans";
import { createAccountWithKey } from "../factories";
import { fakeFetch, fakeResolver } from "../fakes/network";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();
const findDefinition = (slug: string) => HOSTED_DEFINITIONS.find((definition) => definition.slug === slug);

const UPSTREAM = "https://images.example.net";
const dns = fakeResolver({ "images.example.net": ["93.184.215.14"] });

function operationOf(slug: string, method: string): { api: HostedApi; operation: Operation } {
  const api = findHostedApi(slug) as HostedApi;
  const operation = findDefinition(slug)?.operations.find((candidate) => candidate.method === method);
  if (!operation) throw new Error(`${slug} has no ${method} operation`);
  return { api, operation };
}

const toBase64 = operationOf("image-to-base64", "POST");
const qrcode = operationOf("qrcode", "POST");

/** Calls one operation through the real gateway and waits for its after-response work (refunds). */
async function call(
  target: { api: HostedApi; operation: Operation },
  request: { key?: string; body?: BodyInit; contentType?: string; contentLength?: string },
  options: RunOptions = {},
): Promise<Response> {
  const app = new Hono<ApiEnv>()
    .use(assignRequestId)
    .post("/call", (c) => runOperation(c, target.api, target.operation, options));
  const headers: Record<string, string> = { "content-type": request.contentType ?? "application/json" };
  if (request.key) headers["x-api-key"] = request.key;
  if (request.contentLength) headers["content-length"] = request.contentLength;
  const ctx = createExecutionContext();
  const response = await app.request(
    new Request("https://portico.test/call", { method: "POST", headers, body: request.body }),
    undefined,
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** Where a Free account's month stands in its Meter, after the call's refund (if any) ran. */
async function monthlyRemaining(account: { userId: string }) {
  const free = { userId: account.userId, planId: "free" as const, planExpiresAt: null, bonusCalls: 0 };
  return (await meterStanding(env, free, Date.now())).monthlyRemaining;
}

const FREE_QUOTA = PLANS.free.monthlyQuota;

describe("gateway: what a call costs", () => {
  it.each([
    ["answers 403", () => new Response("forbidden", { status: 403 })],
    [
      "answers a page that is not an image",
      () => new Response("<html>hi</html>", { headers: { "content-type": "text/html" } }),
    ],
  ])("counts a URL input whose remote %s", async (_label, upstream) => {
    const account = await createAccountWithKey(env.DB);
    const response = await call(
      toBase64,
      { key: account.key, body: JSON.stringify({ url: `${UPSTREAM}/x.png` }) },
      { services: { dns, upstream: fakeFetch({ [`${UPSTREAM}/x.png`]: upstream }) } },
    );
    expect(response.status).toBe(422);
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(FREE_QUOTA - 1));
    // Nothing gives it back after the answer either.
    expect(await monthlyRemaining(account)).toBe(FREE_QUOTA - 1);
  });

  it("counts nothing for input the schema refuses before the handler runs", async () => {
    const account = await createAccountWithKey(env.DB);
    const response = await call(toBase64, { key: account.key, body: JSON.stringify({ url: "not a url at all" }) });
    expect(response.status).toBe(422);
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(FREE_QUOTA));
    expect(await monthlyRemaining(account)).toBe(FREE_QUOTA);
  });

  it("counts nothing for a URL the guard refuses without reaching the network", async () => {
    const account = await createAccountWithKey(env.DB);
    const unused = fakeFetch({});
    const response = await call(
      toBase64,
      { key: account.key, body: JSON.stringify({ url: "http://127.0.0.1/x.png" }) },
      { services: { dns: fakeResolver({}), upstream: unused } },
    );
    expect(response.status).toBe(422);
    expect(await monthlyRemaining(account)).toBe(FREE_QUOTA);
  });

  it("counts nothing when the failure is ours (5xx)", async () => {
    const account = await createAccountWithKey(env.DB);
    const brokenDns = { resolve: () => Promise.reject(new Error("resolver down")) };
    const response = await call(
      toBase64,
      { key: account.key, body: JSON.stringify({ url: `${UPSTREAM}/x.png` }) },
      { services: { dns: brokenDns, upstream: fakeFetch({}) } },
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(FREE_QUOTA));
    expect(await monthlyRemaining(account)).toBe(FREE_QUOTA);
  });
});

describe("gateway: the handler's time limit", () => {
  it("aborts the handler's outbound fetch when the handler runs out of time", async () => {
    const account = await createAccountWithKey(env.DB);
    let upstreamSignal: AbortSignal | undefined;
    // An upstream that never answers: it only ends when its caller gives up.
    const silent = ((_input: RequestInfo | URL, init?: RequestInit) => {
      upstreamSignal = init?.signal ?? undefined;
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    }) as typeof fetch;
    const response = await call(
      toBase64,
      { key: account.key, body: JSON.stringify({ url: `${UPSTREAM}/slow.png` }) },
      { services: { dns, upstream: silent }, handlerTimeoutMs: 50 },
    );
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(upstreamSignal).toBeDefined();
    expect(upstreamSignal?.aborted).toBe(true);
    // A time-out is a failure on our side: it costs nothing.
    expect(await monthlyRemaining(account)).toBe(FREE_QUOTA);
  });
});

/** A request body that records whether the gateway released it (read to its end or cancelled). */
function watchedBody(size = 1024) {
  const state = { released: false, pulls: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulls += 1;
      if (state.pulls * 256 > size) {
        state.released = true;
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(256).fill(0x20));
    },
    cancel() {
      state.released = true;
    },
  });
  return { body, state };
}

describe("gateway: early refusals release the request body", () => {
  it.each([
    ["no key", async () => ({ key: undefined, target: toBase64, status: 401 })],
    ["an unknown key", async () => ({ key: "pk_live_notarealkeyatall1234567890", target: toBase64, status: 401 })],
    [
      "a revoked key",
      async () => {
        const { key, keyId } = await createAccountWithKey(env.DB);
        await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), keyId).run();
        return { key, target: toBase64, status: 403 };
      },
    ],
    [
      "a plan without the API",
      async () => ({ key: (await createAccountWithKey(env.DB)).key, target: qrcode, status: 403 }),
    ],
  ])("cancels the body of a call refused for %s", async (_label, setup) => {
    const { key, target, status } = await setup();
    const { body, state } = watchedBody();
    const response = await call(target, { key, body });
    expect(response.status).toBe(status);
    expect(state.released).toBe(true);
  });

  it("cancels the body of a call refused by its declared Content-Length", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const { body, state } = watchedBody();
    const response = await call(toBase64, { key, body, contentLength: String(64 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(state.released).toBe(true);
  });

  it("cancels the body of a call to an API that does not exist", async () => {
    const app = new Hono<ApiEnv>().use(assignRequestId).route("/api/v1", hostedApi).route("/api", legacyHostedApi);
    const { body, state } = watchedBody();
    const ctx = createExecutionContext();
    const response = await app.request(
      new Request("https://portico.test/api/v1/no-such-api", { method: "POST", body }),
      undefined,
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(404);
    expect(state.released).toBe(true);
  });

  it("cancels the body of a call refused by the per-second limit", async () => {
    const account = await createAccountWithKey(env.DB);
    const { key } = account;
    // The bucket spent a minute ahead of the clock, so no refill can come before the call.
    const { policy } = meterPolicy(
      { ...account, planId: "free", planExpiresAt: null, bonusCalls: 0 },
      "free",
      Date.now() + 60_000,
    );
    const meter = env.METER.get(env.METER.idFromName(account.userId));
    for (let i = 0; i < PLANS.free.perSecond; i++) expect((await meter.take(policy)).ok).toBe(true);
    const { body, state } = watchedBody();
    const response = await call(toBase64, { key, body });
    expect(response.status).toBe(429);
    expect(state.released).toBe(true);
  });
});
