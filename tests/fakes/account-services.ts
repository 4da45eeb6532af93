/**
 * The account use cases' services (workers/platform/account-services.ts) over the test's own
 * D1, with a mailbox in memory, so a use case is called directly and its mail read back as it
 * was sent. `settle()` waits for the work it left to run after the response (`defer`).
 */
import { env } from "cloudflare:test";
import type { AccountServices } from "~workers/platform/account-services";
import type { MailMessage } from "~workers/providers/mail";

export function recordingAccountServices(origin = "https://portico.test") {
  const sent: MailMessage[] = [];
  const deferred: Promise<unknown>[] = [];
  const services: AccountServices = {
    db: env.DB,
    origin,
    mail: {
      send: async (message) => {
        sent.push(message);
      },
    },
    defer: (work) => {
      deferred.push(work);
    },
  };
  return {
    services,
    sent,
    /** Waits for every deferred piece of work, and fails the test if one failed. */
    settle: async () => {
      await Promise.all(deferred);
    },
  };
}

/** The token of the `/<kind>/<token>` link in a mail's text. */
export function tokenInMail(message: MailMessage | undefined, kind: string): string {
  const token = message?.text.match(new RegExp(`/${kind}/([A-Za-z0-9_-]+)`))?.[1];
  if (!token) throw new Error(`no ${kind} link in ${JSON.stringify(message?.text)}`);
  return token;
}

/** A request from its own client address, as a page action or a handler hands the use case. */
export function requestFrom(ip: string): Request {
  return new Request("https://portico.test/", { headers: { "cf-connecting-ip": ip } });
}
