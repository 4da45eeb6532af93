/**
 * Step 5: the operation's handler, on input that parsed, within its time limit. The handler
 * gets its capabilities through an OperationContext whose network is watched, so the answer
 * step knows whether the call reached out on the caller's behalf (decision 013). A URL the
 * caller gave that may not or cannot be fetched (`UrlInputError`) is the caller's input error;
 * any other failure, the time limit's included, is thrown for the gateway to answer as ours.
 */
import { UrlInputError, type HandlerResult, type Operation } from "~workers/hosted/definition";
import { createOperationContext, type OperationContextOptions } from "../operation-context";
import { trackNetwork } from "../services";

export const HANDLER_TIMEOUT_MS = 25_000;

export interface HandlerRun {
  result: HandlerResult;
  /** The handler looked something up or fetched something on the network (a caller's URL). */
  reachedOut: boolean;
}

export async function runHandler(
  operation: Pick<Operation, "handler">,
  input: unknown,
  context: Omit<OperationContextOptions, "signal">,
  timeoutMs: number = HANDLER_TIMEOUT_MS,
): Promise<HandlerRun> {
  const network = trackNetwork(context.services);
  const deadline = new AbortController();
  const ctx = createOperationContext({ ...context, services: network.services, signal: deadline.signal });
  try {
    const result = await withTimeout(operation.handler(input, ctx), timeoutMs, deadline);
    return { result, reachedOut: network.reachedOut() };
  } catch (error) {
    if (!(error instanceof UrlInputError)) throw error;
    return {
      result: { kind: "problem", type: "invalid-input", detail: error.message },
      reachedOut: network.reachedOut(),
    };
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
