/**
 * Step 6: the answer. The handler's result becomes a response carrying the rate-limit headers;
 * then, after the response, a call that does not count is given back to the Meter and every
 * call goes to the usage rollups.
 *
 * What counts against the month (decision 013): an answer the handler produced, unless it is a
 * failure on our side (5xx), or a refusal (4xx) made without reaching the network, or a problem
 * whose type is marked `uncounted` (an upstream that failed to give what was asked: decision
 * 051). Calls refused before the handler ran never count.
 */
import type { HandlerResult, Operation } from "~workers/hosted/definition";
import { isUncountedProblem, type ProblemType } from "~workers/http/problem";
import type { MeterPolicy } from "../meter";
import { rateLimitHeaders } from "../rate-limit-headers";
import type { AccountMeter, UsageSink } from "../services";
import type { Taken } from "./meter-call";
import type { Refusal } from "./refusal";

function base64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * The handler's result as a response. A binary answer becomes `{ data, mimeType, size }` when
 * the caller asked `?as=json`; a problem is rendered by `render` (problem+json with the
 * request's id).
 */
export function toResponse(
  operation: Pick<Operation, "successStatus">,
  result: HandlerResult,
  headers: Record<string, string>,
  options: { asJson: boolean; render: (refusal: Refusal) => Response },
): Response {
  switch (result.kind) {
    case "json":
      return new Response(JSON.stringify(result.body), {
        status: result.status ?? operation.successStatus ?? 200,
        headers: { "content-type": "application/json; charset=utf-8", ...headers, ...result.headers },
      });
    case "binary": {
      const bytes = typeof result.body === "string" ? new TextEncoder().encode(result.body) : result.body;
      if (options.asJson) {
        // The wrapper is JSON, not the file: a Content-Disposition naming the file would make a
        // browser save the JSON under the file's name.
        const fileHeaders = Object.entries(result.headers ?? {}).filter(
          ([name]) => name.toLowerCase() !== "content-disposition",
        );
        return new Response(
          JSON.stringify({ data: base64(bytes), mimeType: result.contentType, size: bytes.byteLength }),
          {
            headers: {
              "content-type": "application/json; charset=utf-8",
              ...headers,
              ...Object.fromEntries(fileHeaders),
            },
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
      return options.render({
        type: result.type,
        detail: result.detail,
        extensions: result.extensions,
        headers: { ...headers, ...result.headers },
      });
  }
}

/** How a call that got past the Meter ended. */
export interface Outcome {
  response: Response;
  /** The handler was called: the input was read and passed its schema. */
  handlerRan: boolean;
  /** The handler made us look up or fetch something on the network (a caller's URL). */
  reachedOut: boolean;
  /** The problem type the handler answered with, when it answered one. */
  problemType?: ProblemType;
}

/**
 * Whether the call stays counted. A refusal the handler made after reaching the network
 * counts: the caller got what it asked us to find out (an upstream's 403, a page that is not
 * an image), and free answers would make us a free prober of other hosts. A problem type marked
 * `uncounted` (workers/http/problem.ts) never counts: what the caller asked for did not come.
 */
export function countsAgainstMonth(outcome: Outcome): boolean {
  const { status } = outcome.response;
  // An upstream that failed to give what was asked gave the caller nothing (decision 051).
  if (outcome.problemType !== undefined && isUncountedProblem(outcome.problemType)) return false;
  return outcome.handlerRan && status < 500 && ((status >= 200 && status < 300) || outcome.reachedOut);
}

export interface Settlement {
  meter: AccountMeter;
  usage: UsageSink;
  policy: MeterPolicy;
  taken: Taken;
  windowSeconds: number;
  call: { userId: string; keyId: string; apiSlug: string; started: number };
  waitUntil(promise: Promise<unknown>): void;
  requestId: string;
}

/** Gives back a call that does not count and records the call's usage, both after the response. */
export function settleCall(outcome: Outcome, settlement: Settlement): Response {
  const { response } = outcome;
  const { taken, call, waitUntil } = settlement;
  // The Meter counted the call when it let it through; only a call that does not count needs a
  // second trip.
  if (!countsAgainstMonth(outcome)) {
    // The answer shows the counts after the refund, so the headers agree with the next call's.
    // The Meter gives the bucket the weight back up to its size; a call heavier than the bucket
    // found it full, so that is a full bucket again.
    const uncounted = {
      ...taken,
      monthlyRemaining: taken.monthlyRemaining + taken.weight,
      burstRemaining: Math.min(taken.burstLimit, taken.burstRemaining + taken.weight),
      burstResetSeconds: 0,
    };
    // Every answer here was built by the gateway, so its headers can still be set.
    for (const [name, value] of Object.entries(rateLimitHeaders(uncounted, settlement.windowSeconds))) {
      response.headers.set(name, value);
    }
    waitUntil(
      settlement.meter
        .refund({
          periodStart: settlement.policy.periodStart,
          perSecond: settlement.policy.perSecond,
          weight: taken.weight,
          countsFreemium: taken.countsFreemium,
          bonusSpent: taken.bonusSpent,
        })
        .catch((error: unknown) => console.error(`[${settlement.requestId}] refund failed:`, error)),
    );
  }
  const success = response.status >= 200 && response.status < 300;
  // workerd's clock stands still while code runs and moves on I/O, so reading it now would miss
  // the handler's own CPU time (an image filter's whole cost). A zero timer is I/O: read it after.
  waitUntil(
    scheduler.wait(0).then(() =>
      settlement.usage.record({
        userId: call.userId,
        keyId: call.keyId,
        apiSlug: call.apiSlug,
        // The rollups count what the Meter counted, so the dashboard's calls agree with its quota.
        weight: countsAgainstMonth(outcome) ? taken.weight : 1,
        success,
        latencyMs: Date.now() - call.started,
        at: call.started,
      }),
    ),
  );
  return response;
}
