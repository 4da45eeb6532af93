/**
 * Expected failures are values (STYLE.md): helpers return either the value or the problem the
 * handler should answer with, so a handler can pass a problem straight through.
 */
import type { HandlerResult } from "~workers/hosted/definition";

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: HandlerResult };

export const success = <T>(value: T): Outcome<T> => ({ ok: true, value });

export const failure = <T = never>(problem: HandlerResult): Outcome<T> => ({ ok: false, problem });
