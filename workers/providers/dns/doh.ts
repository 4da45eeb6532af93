/**
 * One question to a DNS-over-HTTPS resolver's JSON API (`application/dns-json`: Cloudflare's
 * and Google's `/dns-query` and `/resolve`), the one way this Worker looks names up: a Worker
 * has no resolver of its own. The URL guard's address lookups (workers/gateway/url-guard.ts)
 * and Email Exists' mail lookups (./mail.ts) both ask through here, at DNS_RESOLVER_URL.
 *
 * The answer is parsed, never trusted: a resolver that answers HTML, or JSON of another shape,
 * is a failure of the resolver, as is an HTTP error, a network error or the time limit.
 */
import { z } from "zod";

/** RR types by number (RFC 1035, 3596, 7505). */
export const RR = { A: 1, CNAME: 5, SOA: 6, MX: 15, AAAA: 28 } as const;
export type RrTypeName = keyof typeof RR;

/** DNS response codes the callers tell apart (RFC 1035 §4.1.1). */
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

const RecordSchema = z.object({
  name: z.string(),
  type: z.number().int(),
  TTL: z.number().int().nonnegative().optional(),
  data: z.string(),
});

const DohAnswerSchema = z.object({
  Status: z.number().int().min(0).max(65_535),
  Answer: z.array(RecordSchema).optional(),
  Authority: z.array(RecordSchema).optional(),
});

export type DohRecord = z.infer<typeof RecordSchema>;
export interface DohAnswer {
  status: number;
  answers: DohRecord[];
  authority: DohRecord[];
}

/** Why the resolver gave no answer; `resolver` is its host name, for the caller's message. */
export class DohError extends Error {
  constructor(
    readonly kind: "timeout" | "unreachable" | "malformed",
    readonly resolver: string,
    message: string,
    /** The resolver's HTTP status, when it answered with an error. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "DohError";
  }
}

/** A resolver that has not answered in this long is as good as down (a mail check has others to make). */
export const DOH_TIMEOUT_MS = 4_000;

/** The largest answer read: a name's MX or A set is a few hundred bytes; 64 KiB is DNS's own ceiling. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface DohOptions {
  fetcher?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export async function queryDoh(
  endpoint: string,
  name: string,
  type: RrTypeName,
  options: DohOptions = {},
): Promise<DohAnswer> {
  const resolver = new URL(endpoint).host;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DOH_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const url = new URL(endpoint);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  let text: string;
  try {
    const response = await (options.fetcher ?? fetch)(url.toString(), {
      headers: { accept: "application/dns-json" },
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new DohError("unreachable", resolver, `${resolver} answered HTTP ${response.status}`, response.status);
    }
    text = await response.text();
  } catch (error) {
    if (error instanceof DohError) throw error;
    if (timeout.aborted)
      throw new DohError(
        "timeout",
        resolver,
        `${resolver} did not answer within ${options.timeoutMs ?? DOH_TIMEOUT_MS} ms`,
      );
    // The caller's own signal (its time limit) is the caller's to report.
    if (options.signal?.aborted) throw options.signal.reason;
    throw new DohError("unreachable", resolver, `${resolver} could not be reached`);
  }
  if (text.length > MAX_ANSWER_BYTES) throw new DohError("malformed", resolver, `${resolver} answered too much`);
  let parsed: z.infer<typeof DohAnswerSchema>;
  try {
    parsed = DohAnswerSchema.parse(JSON.parse(text));
  } catch {
    throw new DohError("malformed", resolver, `${resolver} did not answer DNS JSON`);
  }
  return { status: parsed.Status, answers: parsed.Answer ?? [], authority: parsed.Authority ?? [] };
}
