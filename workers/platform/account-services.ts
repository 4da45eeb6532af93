/**
 * What the account use cases (registration, sign-in, password reset, newsletter) need from the
 * outside, built once per request by the page action or the Hono handler that calls them, so
 * both adapters hand the same use case the same things.
 */
import type { Config } from "~workers/config";
import { createMailProvider, type MailProvider } from "~workers/providers/mail";

export interface AccountServices {
  db: D1Database;
  mail: MailProvider;
  /** The site's origin, for the links mails carry. */
  origin: string;
  /**
   * Runs work after the response. Mail goes out this way, so an answer takes the same time
   * whether or not an account exists and a slow mail provider never holds a request.
   */
  defer(work: Promise<unknown>): void;
}

export function accountServices(
  config: Config,
  env: Env,
  request: Request,
  waitUntil: (promise: Promise<unknown>) => void,
): AccountServices {
  return {
    db: env.DB,
    mail: createMailProvider(config, env),
    origin: new URL(request.url).origin,
    defer: (work) =>
      waitUntil(work.catch((error: unknown) => console.error("Deferred account work failed:", error))),
  };
}
