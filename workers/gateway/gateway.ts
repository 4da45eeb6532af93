/**
 * The gateway: every hosted-API call passes here.
 *
 *   key -> plan policy -> Meter (stale record? burst, month, freemium cap) -> input (zod)
 *       -> handler -> response with rate-limit headers
 *       -> (after the response) refund a call that does not count + usage rollup
 *
 * What counts against the month (docs/decisions/013-what-counts-against-the-month.md): an
 * answer the handler produced, unless it is a failure on our side (5xx), or a refusal (4xx) made
 * without reaching the network. Calls refused before the handler ran (key, plan, limits, body,
 * schema) never count. Every answer but a handler's own is problem+json, and nothing a caller
 * sends produces a 500.
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { ApiEnv } from "~workers/http/env";
import { problem, problemFromZod } from "~workers/http/problem";
import type { HandlerResult, Operation, OperationContext } from "~workers/hosted/definition";
import { UrlInputError } from "~workers/hosted/definition";
import type { HostedApi } from "~workers/hosted/registry";
import { FREE_PLAN_FREEMIUM_CAP, PLANS, plansIncludingGroup, type PlanId } from "~workers/platform/plans";
import { presentedKey, reloadApiKey, resolveApiKey, type KeyRecord } from "./api-key-auth";
import type { CallerRecord, MeterCounts, MeterPolicy, Standing, TakeResult } from "./meter";
import { meterFor, meterPolicy } from "./meter-policy";
import { rateLimitHeaders } from "./rate-limit-headers";
import { readInput } from "./request-input";
import { createDohResolver, fetchGuarded, type AddressResolver } from "./url-guard";
import { recordCall } from "./usage-recorder";

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
export const HANDLER_TIMEOUT_MS = 25_000;

const LIMIT_PROBLEMS = {
  burst: [
    "rate-limited",
    (perSecond: number) => `Your plan allows ${perSecond} calls a second. Retry after the Retry-After seconds.`,
  ],
  monthly: [
    "monthly-quota-exceeded",
    () => "This month's calls are used up. They reset at the period's end, or upgrade your plan.",
  ],
  // The freemium cap is part of the Free plan's month, so it answers as the monthly limit;
  // the problem's `limit` member says which one.
  freemium: [
    "monthly-quota-exceeded",
    () =>
      `The Free plan includes ${FREE_PLAN_FREEMIUM_CAP} calls a month to freemium APIs, and they are used up. Upgrade to call it more.`,
  ],
} as const;

function base64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function toResponse(
  c: Context<ApiEnv>,
  operation: Operation,
  result: HandlerResult,
  headers: Record<string, string>,
): Response {
  switch (result.kind) {
    case "json":
      return new Response(JSON.stringify(result.body), {
        status: result.status ?? operation.successStatus ?? 200,
        headers: { "content-type": "application/json; charset=utf-8", ...headers, ...result.headers },
      });
    case "binary": {
      const bytes = typeof result.body === "string" ? new TextEncoder().encode(result.body) : result.body;
      if (c.req.query("as") === "json") {
        return new Response(
          JSON.stringify({ data: base64(bytes), mimeType: result.contentType, size: bytes.byteLength }),
          {
            headers: { "content-type": "application/json; charset=utf-8", ...headers, ...result.headers },
          },
        );
      }
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: {
          "content-type": result.contentType,
          "content-length": String(bytes.byteLength),
          ...headers,
          ...result.headers,
        },
      });
    }
    case "redirect":
      return new Response(null, { status: result.status, headers: { location: result.location, ...headers } });
    case "problem":
      return problem(c, result.type, result.detail, result.extensions, headers);
  }
}

/**
 * The handler's answer, or a failure after `ms`; the timer is cleared as soon as either comes.
 * On the time-out the handler's signal is aborted too, so its outbound fetches stop rather than
 * run on after the answer (the time-out wins the race first: the abort's rejections come later).
 */
function withTimeout<T>(promise: Promise<T>, ms: number, controller: AbortController): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`handler exceeded ${ms} ms`);
      reject(error);
      controller.abort(error);
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Releases a body the gateway will not read. Answering before reading it leaves its bytes on
 * a keep-alive connection, where the dev server reads them as the next request.
 */
export async function releaseBody(request: Request): Promise<void> {
  // A body already being read, or already gone, cannot be cancelled; nothing is left to release.
  await request.body?.cancel().catch(() => undefined);
}

export interface RunOptions {
  /** Reshapes an older client's input (legacy routes). */
  adapt?: (raw: Record<string, unknown>) => Record<string, unknown>;
  /** Where caller-supplied URLs are looked up and fetched: DNS over HTTPS and `fetch` unless given (tests fake it). */
  network?: { resolver: AddressResolver; fetcher?: typeof fetch };
  /** The handler's time limit; HANDLER_TIMEOUT_MS unless given. */
  handlerTimeoutMs?: number;
}

const callerOf = (record: KeyRecord): CallerRecord => ({ keyId: record.keyId, planVersion: record.planVersion });

/** Serves one operation of one API. */
export async function runOperation(
  c: Context<ApiEnv>,
  api: HostedApi,
  operation: Operation,
  options: RunOptions = {},
): Promise<Response> {
  const started = Date.now();
  const admitted = await admit(c, api, started);
  if (!admitted.ok) {
    // Every refusal before the handler leaves the body unread.
    await releaseBody(c.req.raw);
    return admitted.response;
  }
  const { record, planId, policy, taken, headers, windowSeconds, meter } = admitted;

  let outcome: HandlerOutcome;
  try {
    outcome = await runHandler(c, operation, record, planId, options, headers);
  } catch (error) {
    console.error(`[${c.get("requestId")}] ${api.slug}.${operation.id} failed:`, error);
    outcome = {
      response: problem(
        c,
        "engine-failed",
        "The API failed to produce an answer. Please retry; quote the requestId if it persists.",
        {},
        headers,
      ),
      handlerRan: true,
      reachedOut: false,
    };
  }
  const { response } = outcome;
  const success = response.status >= 200 && response.status < 300;
  // The Meter counted the call when it let it through; only a call that does not count needs a
  // second trip. A refusal the handler made after reaching the network counts: the caller got
  // what it asked us to find out (an upstream's 403, a page that is not an image), and free
  // answers would make us a free prober of other hosts.
  const counted = outcome.handlerRan && response.status < 500 && (success || outcome.reachedOut);
  if (!counted) {
    // The answer shows the count after the refund, so the headers agree with the next call's.
    const uncounted = { ...(taken as MeterCounts), monthlyRemaining: taken.monthlyRemaining + 1 };
    // Every answer here was built by the gateway, so its headers can still be set.
    for (const [name, value] of Object.entries(rateLimitHeaders(uncounted, windowSeconds))) {
      response.headers.set(name, value);
    }
    c.executionCtx.waitUntil(
      meter
        .refund({ periodStart: policy.periodStart, countsFreemium: taken.countsFreemium, spentBonus: taken.spentBonus })
        .catch((error: unknown) => console.error(`[${c.get("requestId")}] refund failed:`, error)),
    );
  }
  const waitUntil = (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise);
  // workerd's clock stands still while code runs and moves on I/O, so reading it now would miss
  // the handler's own CPU time (an image filter's whole cost). A zero timer is I/O: read it after.
  waitUntil(
    scheduler.wait(0).then(() =>
      recordCall(c.env.DB, waitUntil, {
        userId: record.userId,
        keyId: record.keyId,
        apiSlug: api.slug,
        success,
        latencyMs: Date.now() - started,
        at: started,
      }),
    ),
  );
  return response;
}

type Admission =
  | {
      ok: true;
      record: KeyRecord;
      planId: PlanId;
      policy: MeterPolicy;
      taken: Extract<TakeResult, { ok: true }>;
      headers: Record<string, string>;
      windowSeconds: number;
      meter: ReturnType<typeof meterFor>;
    }
  | { ok: false; response: Response };

/**
 * Key, plan and limits: the call is let through (and counted by the Meter) or refused. The
 * Meter also judges the cached key record; when it says the record is stale (a revoked key, a
 * newer plan), the record is read again from D1 and the call judged once more on it.
 */
async function admit(c: Context<ApiEnv>, api: HostedApi, now: number): Promise<Admission> {
  const key = presentedKey(c.req.raw);
  if (!key) {
    return refused(
      problem(
        c,
        "missing-api-key",
        "Send your API key in the x-api-key header (or Authorization: Bearer <key>).",
        {},
        { "WWW-Authenticate": 'ApiKey realm="portico", header="x-api-key"' },
      ),
    );
  }
  let record = await resolveApiKey(c.env, key, now);
  for (let reloaded = false; ; reloaded = true) {
    if (!record) {
      return refused(
        problem(
          c,
          "invalid-api-key",
          "This API key is not one of ours. Copy it again from your API Key page.",
          {},
          { "WWW-Authenticate": 'ApiKey realm="portico", error="invalid_key"' },
        ),
      );
    }
    const { planId, policy } = meterPolicy(record, api.group, now);
    const meter = meterFor(c.env, record.userId);
    const windowSeconds = Math.round((policy.periodEnd - policy.periodStart) / 1000);
    const allowed = plansIncludingGroup(api.group);

    if (record.revoked || !allowed.includes(planId)) {
      // The account is known, so even a refusal shows where it stands (without counting a
      // call). A revoke is final; a plan refusal is judged by the Meter, which knows of a newer plan.
      const standing = (await meter.peek(policy, record.revoked ? undefined : callerOf(record))) as Standing;
      if (standing.stale && !reloaded) {
        record = await reloadApiKey(c.env, key, now);
        continue;
      }
      const headers = rateLimitHeaders(standing, windowSeconds);
      if (record.revoked) return refused(revokedProblem(c, headers));
      const names = allowed.map((id) => PLANS[id].name);
      return refused(
        problem(
          c,
          "plan-required",
          `${api.name} is included in the ${names.join(" and ")} plans; yours is ${PLANS[planId].name}.`,
          { plans: allowed },
          headers,
        ),
      );
    }

    const taken = (await meter.take(policy, callerOf(record))) as TakeResult;
    if (taken.stale) {
      if (!reloaded) {
        record = await reloadApiKey(c.env, key, now);
        continue;
      }
      // D1 was just read and still disagrees with the Meter, which only hears of changes D1
      // has committed: a read that lagged. A revoke stands; a plan cannot be judged yet.
      if (taken.stale === "key-revoked") return refused(revokedProblem(c, {}));
      return refused(
        problem(
          c,
          "service-unavailable",
          "Your account's plan is changing. Retry in a moment.",
          {},
          { "Retry-After": "1" },
        ),
      );
    }
    const headers = rateLimitHeaders(taken, windowSeconds);
    if (!taken.ok) {
      const [type, detail] = LIMIT_PROBLEMS[taken.limit];
      return refused(
        problem(
          c,
          type,
          detail(policy.perSecond),
          { limit: taken.limit },
          { ...headers, "Retry-After": String(taken.retryAfterSeconds) },
        ),
      );
    }
    return { ok: true, record, planId, policy, taken, headers, windowSeconds, meter };
  }
}

const refused = (response: Response) => ({ ok: false as const, response });

function revokedProblem(c: Context<ApiEnv>, headers: Record<string, string>): Response {
  return problem(c, "revoked-api-key", "This API key was revoked. Create a new one on your API Key page.", {}, headers);
}

interface HandlerOutcome {
  response: Response;
  /** The handler was called: the input was read and passed its schema. */
  handlerRan: boolean;
  /** The handler made us look up or fetch something on the network (a caller's URL). */
  reachedOut: boolean;
}

async function runHandler(
  c: Context<ApiEnv>,
  operation: Operation,
  record: KeyRecord,
  planId: PlanId,
  options: RunOptions,
  headers: Record<string, string>,
): Promise<HandlerOutcome> {
  const before = (response: Response): HandlerOutcome => ({ response, handlerRan: false, reachedOut: false });
  const read = await readInput(
    c.req.raw,
    operation.inputSource,
    c.req.param() as Record<string, string>,
    operation.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  );
  if (!read.ok) {
    return before(
      read.reason === "too-large"
        ? problem(c, "body-too-large", read.detail, {}, headers)
        : problem(c, "malformed-body", read.detail, {}, headers),
    );
  }
  let raw = read.input;
  if (options.adapt) {
    try {
      raw = options.adapt(raw);
    } catch {
      return before(problem(c, "invalid-input", "The request does not have the expected shape.", {}, headers));
    }
  }
  const parsed = (operation.input as z.ZodType).safeParse(raw);
  if (!parsed.success) return before(problemFromZod(c, parsed.error, { root: "input", fieldInDetail: true, headers }));
  const config = c.get("config");
  // Whatever reaches the network on the caller's behalf marks the call as counted.
  let reachedOut = false;
  const resolver = options.network?.resolver ?? createDohResolver(config.DNS_RESOLVER_URL);
  const fetcher = options.network?.fetcher ?? fetch;
  const network = {
    resolver: {
      resolve: (hostname: string, signal?: AbortSignal) => {
        reachedOut = true;
        return resolver.resolve(hostname, signal);
      },
    },
    fetcher: ((input: RequestInfo | URL, init?: RequestInit) => {
      reachedOut = true;
      return fetcher(input, init);
    }) as typeof fetch,
  };
  const deadline = new AbortController();
  const context: OperationContext = {
    env: c.env,
    config,
    request: c.req.raw,
    requestId: c.get("requestId"),
    account: { userId: record.userId, keyId: record.keyId, planId },
    origin: new URL(c.req.url).origin,
    signal: deadline.signal,
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    fetchUrl: (url, fetchOptions) =>
      fetchGuarded(url, {
        ...network,
        signal: deadline.signal,
        maxBytes: fetchOptions?.maxBytes,
        accept: fetchOptions?.accept,
      }),
  };
  let response: Response;
  try {
    const result = await withTimeout(
      operation.handler(parsed.data, context),
      options.handlerTimeoutMs ?? HANDLER_TIMEOUT_MS,
      deadline,
    );
    response = toResponse(c, operation, result, headers);
  } catch (error) {
    if (!(error instanceof UrlInputError)) throw error;
    response = problem(c, "invalid-input", error.message, {}, headers);
  }
  return { response, handlerRan: true, reachedOut };
}
