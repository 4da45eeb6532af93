/**
 * An OperationContext for calling a hosted API's handler directly in tests, made the way the
 * gateway makes one (`createOperationContext`), from test services: a real D1 and the network
 * edge faked, so `fetchUrl` runs the real SSRF guard over a fake DNS and a fake fetch.
 */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { readConfig } from "~workers/config";
import { createOperationContext } from "~workers/gateway/operation-context";
import type { MediaEngines } from "~workers/hosted/capabilities";
import type { CallerAccount, HandlerResult, OperationContext } from "~workers/hosted/definition";
import type { PlanId } from "~workers/platform/plans";
import type { FakeRoutes } from "./fakes/network";
import { testHostedServices } from "./fakes/services";

export function createTestContext(
  options: {
    planId?: PlanId;
    /** The caller; a made-up account on `planId` unless given (short links need a real one). */
    account?: CallerAccount;
    routes?: FakeRoutes;
    dns?: Record<string, string[]>;
    origin?: string;
    request?: Request;
    signal?: AbortSignal;
    /** PUBLIC_HOSTS as the configuration parses it; the local wrangler.toml's unless given. */
    publicHosts?: readonly string[];
    /** Text to Audio, Audio to Text and Remove Background's engines; the test environment's unless given. */
    media?: MediaEngines;
  } = {},
): OperationContext & { pending: Promise<unknown>[] } {
  const pending: Promise<unknown>[] = [];
  const origin = options.origin ?? "https://portico.test";
  const context = createOperationContext({
    request: options.request ?? new Request(`${origin}/api/v1/test`),
    origin,
    requestId: crypto.randomUUID(),
    account: options.account ?? {
      userId: `usr_test_${crypto.randomUUID().slice(0, 8)}`,
      keyId: "key_test",
      planId: options.planId ?? "premium",
    },
    services: testHostedServices({ dns: options.dns, routes: options.routes, media: options.media }),
    publicHosts: options.publicHosts ?? readConfig(env).PUBLIC_HOSTS,
    signal: options.signal ?? new AbortController().signal,
    waitUntil: (promise) => pending.push(promise),
  });
  return { ...context, pending };
}

/** Parses raw input with the operation's schema (failing the test if it does not parse) and runs the handler. */
export async function runParsed(
  operation: {
    input: {
      safeParse(raw: unknown): { success: true; data: unknown } | { success: false; error: { message: string } };
    };
    handler(input: never, ctx: OperationContext): Promise<HandlerResult>;
  },
  raw: Record<string, unknown>,
  ctx: OperationContext = createTestContext(),
): Promise<HandlerResult> {
  const parsed = operation.input.safeParse(raw);
  if (!parsed.success) throw new Error(`input did not parse: ${parsed.error.message}`);
  return operation.handler(parsed.data as never, ctx);
}

/** Asserts a handler answered a problem of this type (and, optionally, a detail matching). */
export function expectProblem(result: HandlerResult, type: string, detail?: RegExp): void {
  expect(result.kind).toBe("problem");
  if (result.kind !== "problem") return;
  expect(result.type).toBe(type);
  if (detail) expect(result.detail).toMatch(detail);
}

/** The JSON body of a handler's answer, checked against the documented output schema. */
export function jsonBody<T>(result: HandlerResult, schema: { parse(body: unknown): T }): T {
  if (result.kind !== "json")
    throw new Error(`expected json, got ${result.kind}: ${result.kind === "problem" ? result.detail : ""}`);
  return schema.parse(result.body);
}
