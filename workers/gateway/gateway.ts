/**
 * The gateway: every hosted-API call passes here.
 *
 *   key -> plan policy -> Meter (burst, month, freemium cap) -> input (zod) -> handler
 *       -> response with rate-limit headers -> (after the response) refund a failure + usage rollup
 *
 * Only calls that reach the handler and answer 2xx count against the month; every other
 * answer is problem+json, and nothing a caller sends produces a 500.
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { ApiEnv } from "~workers/api/context";
import { problem } from "~workers/api/problem";
import type { HandlerResult, Operation, OperationContext } from "~workers/hosted/definition";
import { UrlInputError } from "~workers/hosted/definition";
import type { HostedApi } from "~workers/hosted/registry";
import { FREE_PLAN_FREEMIUM_CAP, PLANS, plansIncludingGroup, type PlanId } from "~workers/platform/plans";
import { presentedKey, resolveApiKey, type KeyRecord } from "./api-key-auth";
import type { MeterCounts, TakeResult } from "./meter";
import { meterFor, meterPolicy } from "./meter-policy";
import { rateLimitHeaders } from "./rate-limit-headers";
import { readInput } from "./request-input";
import { createDohResolver, fetchGuarded } from "./url-guard";
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

/** The handler's answer, or a failure after `ms`; the timer is cleared as soon as either comes. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`handler exceeded ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Serves one operation of one API. `adapt` reshapes an older client's input (legacy routes).
 */
export async function runOperation(
  c: Context<ApiEnv>,
  api: HostedApi,
  operation: Operation,
  adapt?: (raw: Record<string, unknown>) => Record<string, unknown>,
): Promise<Response> {
  const started = Date.now();
  const now = started;
  const key = presentedKey(c.req.raw);
  if (!key) {
    return problem(
      c,
      "missing-api-key",
      "Send your API key in the x-api-key header (or Authorization: Bearer <key>).",
      {},
      {
        "WWW-Authenticate": 'ApiKey realm="portico", header="x-api-key"',
      },
    );
  }
  const record = await resolveApiKey(c.env, key, now);
  if (!record) {
    return problem(
      c,
      "invalid-api-key",
      "This API key is not one of ours. Copy it again from your API Key page.",
      {},
      {
        "WWW-Authenticate": 'ApiKey realm="portico", error="invalid_key"',
      },
    );
  }

  const { planId, policy } = meterPolicy(record, api.group, now);
  const meter = meterFor(c.env, record.userId);
  const windowSeconds = Math.round((policy.periodEnd - policy.periodStart) / 1000);
  const allowed = plansIncludingGroup(api.group);
  if (record.revoked || !allowed.includes(planId)) {
    // The account is known, so even a refusal shows where it stands (without counting a call).
    const standing = rateLimitHeaders((await meter.peek(policy)) as MeterCounts, windowSeconds);
    if (record.revoked) {
      return problem(
        c,
        "revoked-api-key",
        "This API key was revoked. Create a new one on your API Key page.",
        {},
        standing,
      );
    }
    const names = allowed.map((id) => PLANS[id].name);
    return problem(
      c,
      "plan-required",
      `${api.name} is included in the ${names.join(" and ")} plans; yours is ${PLANS[planId].name}.`,
      { plans: allowed },
      standing,
    );
  }

  const taken = (await meter.take(policy)) as TakeResult;
  const headers = rateLimitHeaders(taken as MeterCounts, windowSeconds);
  if (!taken.ok) {
    const [type, detail] = LIMIT_PROBLEMS[taken.limit];
    return problem(
      c,
      type,
      detail(policy.perSecond),
      { limit: taken.limit },
      { ...headers, "Retry-After": String(taken.retryAfterSeconds) },
    );
  }

  let response: Response;
  try {
    response = await runHandler(c, operation, record, planId, adapt, headers);
  } catch (error) {
    console.error(`[${c.get("requestId")}] ${api.slug}.${operation.id} failed:`, error);
    response = problem(
      c,
      "engine-failed",
      "The API failed to produce an answer. Please retry; quote the requestId if it persists.",
      {},
      headers,
    );
  }
  const success = response.status >= 200 && response.status < 300;
  // The Meter counted the call when it let it through; only a failure needs a second trip.
  if (!success) {
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
        at: now,
      }),
    ),
  );
  return response;
}

async function runHandler(
  c: Context<ApiEnv>,
  operation: Operation,
  record: KeyRecord,
  planId: PlanId,
  adapt: ((raw: Record<string, unknown>) => Record<string, unknown>) | undefined,
  headers: Record<string, string>,
): Promise<Response> {
  const read = await readInput(
    c.req.raw,
    operation.inputSource,
    c.req.param() as Record<string, string>,
    operation.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  );
  if (!read.ok) {
    return read.reason === "too-large"
      ? problem(c, "body-too-large", read.detail, {}, headers)
      : problem(c, "malformed-body", read.detail, {}, headers);
  }
  let raw = read.input;
  if (adapt) {
    try {
      raw = adapt(raw);
    } catch {
      return problem(c, "invalid-input", "The request does not have the expected shape.", {}, headers);
    }
  }
  const parsed = (operation.input as z.ZodType).safeParse(raw);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[issue.path.join(".") || "input"] ??= issue.message;
    const [field, message] = Object.entries(errors)[0] ?? ["input", "Invalid input"];
    return problem(c, "invalid-input", `${field}: ${message}`, { errors }, headers);
  }
  const config = c.get("config");
  const resolver = createDohResolver(config.DNS_RESOLVER_URL);
  const context: OperationContext = {
    env: c.env,
    config,
    request: c.req.raw,
    requestId: c.get("requestId"),
    account: { userId: record.userId, keyId: record.keyId, planId },
    origin: new URL(c.req.url).origin,
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    fetchUrl: (url, options) => fetchGuarded(url, { resolver, maxBytes: options?.maxBytes, accept: options?.accept }),
  };
  try {
    const result = await withTimeout(operation.handler(parsed.data, context), HANDLER_TIMEOUT_MS);
    return toResponse(c, operation, result, headers);
  } catch (error) {
    if (error instanceof UrlInputError) return problem(c, "invalid-input", error.message, {}, headers);
    throw error;
  }
}
