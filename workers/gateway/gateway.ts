/**
 * The gateway: every hosted-API call passes here, through six steps (workers/gateway/steps/),
 * each a module with its own test:
 *
 *   authenticate (key, or a signed URL) -> authorise (plan) -> meter (limits; a stale record is read again)
 *     -> read and validate input -> run the handler -> answer (headers; after the response,
 *        a refund for a call that does not count, and the usage rollup)
 *
 * An operation whose cost depends on its input (a batch: decision 048) has its input read once
 * the key is known and before the Meter, which then counts the call's whole weight or none of it.
 *
 * The infrastructure comes from one `Services` object made here per call (services.ts), which
 * tests replace piece by piece. Every answer but a handler's own is problem+json, and nothing a
 * caller sends produces a 500.
 */
import type { Context } from "hono";
import type { ApiEnv } from "~workers/http/env";
import { problem } from "~workers/http/problem";
import type { LegacyRoute, Operation } from "~workers/hosted/definition";
import type { HostedApi } from "~workers/hosted/registry";
import type { PlanId } from "~workers/platform/plans";
import type { KeyRecord } from "./api-key-auth";
import type { MeterPolicy } from "./meter";
import { createServices, type AccountMeter, type Services } from "./services";
import { settleCall, toResponse, type Outcome } from "./steps/answer";
import { hasSignedUrlParams } from "./signed-url";
import { authenticate, reauthenticate, type Credential } from "./steps/authenticate";
import { authorise } from "./steps/authorise";
import { readValidInput, type InputReading } from "./steps/input";
import { meterCall, type Taken } from "./steps/meter-call";
import type { Refusal } from "./steps/refusal";
import { runHandler } from "./steps/run";

export { DEFAULT_MAX_BODY_BYTES } from "./steps/input";
export { HANDLER_TIMEOUT_MS } from "./steps/run";

/**
 * Releases a body the gateway will not read. Answering before reading it leaves its bytes on
 * a keep-alive connection, where the dev server reads them as the next request.
 */
export async function releaseBody(request: Request): Promise<void> {
  // A body already being read, or already gone, cannot be cancelled; nothing is left to release.
  await request.body?.cancel().catch(() => undefined);
}

export interface RunOptions {
  /**
   * An older path (legacy routes): its input reshaped, the operation picked by the body where
   * the route says so (one of `operations`), and its answers shaped as the older clients read them.
   */
  legacy?: { route: LegacyRoute; operations: readonly Operation[] };
  /** Replaces some of the real services (tests: a fake DNS and upstream). */
  services?: Partial<Services>;
  /** The handler's time limit; HANDLER_TIMEOUT_MS unless given. */
  handlerTimeoutMs?: number;
}

/** Serves one operation of one API. */
export async function runOperation(
  c: Context<ApiEnv>,
  api: HostedApi,
  operation: Operation,
  options: RunOptions = {},
): Promise<Response> {
  const started = Date.now();
  const requestId = c.get("requestId");
  const config = c.get("config");
  const waitUntil = (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise);
  const services: Services = { ...createServices(c.env, config, waitUntil), ...options.services };
  const { legacy } = options;
  const problemMembers = legacy?.route.answer?.problemMembers ?? {};
  const render = (refusal: Refusal) =>
    problem(c, refusal.type, refusal.detail, { ...problemMembers, ...refusal.extensions }, refusal.headers);
  // On an older path: the body as it came (its answer may depend on it), and the operation it picks.
  let raw: Record<string, unknown> = {};
  let target = operation;
  const adapt = legacy && ((input: Record<string, unknown>) => legacy.route.adapt((raw = input)));
  const select =
    legacy?.route.select &&
    ((input: Record<string, unknown>) => {
      const id = legacy.route.select?.(input);
      target = legacy.operations.find((candidate) => candidate.id === id) ?? operation;
      return target;
    });

  const params = c.req.param() as Record<string, string>;
  // Read before the Meter only for an operation that weighs its input, and only for a known key.
  let early: InputReading | undefined;
  const { weight } = operation;
  const weigh =
    typeof weight === "function"
      ? async () => {
          early = await readValidInput(c.req.raw, operation, params, adapt, select);
          // Input that does not parse costs what any call costs: one, given back (decision 013).
          return early.ok ? weight(early.input) : 1;
        }
      : async () => weight ?? 1;
  const admitted = await admit(c.req.raw, api, operation, services, started, weigh);
  if (!admitted.ok) {
    // Every refusal before the handler leaves the body unread.
    await releaseBody(c.req.raw);
    return withSignedUrlCaching(c.req.raw, render(admitted.refusal), null, started);
  }
  const { record, planId, headers } = admitted;

  let outcome: Outcome;
  try {
    const read = early ?? (await readValidInput(c.req.raw, operation, params, adapt, select));
    if (!read.ok) {
      outcome = { response: render({ ...read.refusal, headers }), handlerRan: false, reachedOut: false };
    } else {
      const run = await runHandler(
        target,
        read.input,
        {
          request: c.req.raw,
          requestId,
          account: { userId: record.userId, keyId: record.keyId, planId },
          services,
          publicHosts: config.PUBLIC_HOSTS,
          waitUntil,
        },
        options.handlerTimeoutMs,
      );
      const asJson = c.req.query("as") === "json";
      const shape = legacy?.route.answer;
      const result =
        shape && run.result.kind === "json"
          ? { ...run.result, body: shape.json(run.result.body, { operationId: target.id, raw }) }
          : run.result;
      outcome = {
        response: toResponse(target, result, headers, { asJson, render }),
        handlerRan: true,
        reachedOut: run.reachedOut,
        ...(run.result.kind === "problem" && { problemType: run.result.type }),
      };
    }
  } catch (error) {
    console.error(`[${requestId}] ${api.slug}.${target.id} failed:`, error);
    outcome = {
      response: render({
        type: "engine-failed",
        detail: "The API failed to produce an answer. Please retry; quote the requestId if it persists.",
        headers,
      }),
      handlerRan: true,
      reachedOut: false,
    };
  }
  const response = settleCall(outcome, {
    ...admitted,
    usage: services.usage,
    call: { userId: record.userId, keyId: record.keyId, apiSlug: api.slug, started },
    waitUntil,
    requestId,
  });
  return withSignedUrlCaching(c.req.raw, response, admitted.credential, started);
}

/** How long a browser may keep an image a signed URL answered: up to its expiry, a day at most. */
const SIGNED_URL_MAX_AGE_SECONDS = 24 * 60 * 60;

/**
 * Caching for answers to signed URLs (decision 043). A success is the same bytes for the same
 * URL until it expires, so the browser may keep it that long (a page showing the image twice,
 * or again, does not spend a call); `private` keeps shared caches from serving it to others
 * without the call being counted or the key's revocation being seen. A refusal is never kept.
 * Answers to calls with a key header are left as they are.
 */
function withSignedUrlCaching(
  request: Request,
  response: Response,
  credential: Credential | null,
  started: number,
): Response {
  if (!hasSignedUrlParams(new URL(request.url))) return response;
  const success = response.status >= 200 && response.status < 300;
  if (success && credential && "expiresAt" in credential) {
    const remaining = Math.max(0, credential.expiresAt - Math.floor(started / 1000));
    response.headers.set(
      "Cache-Control",
      `private, max-age=${Math.min(remaining, SIGNED_URL_MAX_AGE_SECONDS)}, immutable`,
    );
  } else {
    response.headers.set("Cache-Control", "no-store");
  }
  return response;
}

type Admission =
  | {
      ok: true;
      credential: Credential;
      record: KeyRecord;
      planId: PlanId;
      policy: MeterPolicy;
      taken: Taken;
      headers: Record<string, string>;
      windowSeconds: number;
      meter: AccountMeter;
    }
  | { ok: false; refusal: Refusal };

/**
 * Steps 1-3: the call is let through (and counted by the Meter) or refused. The Meter also
 * judges the cached key record; when it says the record is stale (a revoked key, a newer
 * plan), the record is read again from D1 and the call judged once more on it.
 */
async function admit(
  request: Request,
  api: HostedApi,
  operation: Operation,
  services: Services,
  now: number,
  weigh: () => Promise<number>,
): Promise<Admission> {
  let authentication = await authenticate(request, services.keys, now, {
    accepted: operation.acceptsSignedUrl === true,
    signer: services.urlSigner,
  });
  if (!authentication.ok) return authentication;
  const weight = await weigh();
  for (let reloaded = false; ; reloaded = true) {
    if (!authentication.ok) return authentication;
    const { credential, record } = authentication;
    const authorisation = authorise(record, api, now);
    const meter = services.meters.of(record.userId);
    const metering = await meterCall(meter, record, authorisation, weight);
    if (metering.ok) return { ...authorisation, ...metering, credential, record, meter };
    if (!metering.stale || reloaded) return metering;
    authentication = await reauthenticate(credential, services.keys, now);
  }
}
