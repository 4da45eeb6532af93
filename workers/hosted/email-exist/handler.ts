import type { MailLookup } from "~workers/providers/dns/mail";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { checkEmails, judge, loadLists, lookupDomains, resolverFailure } from "./engine";
import type { EmailBatchInput, EmailInput } from "./schema";
import { parseAddress } from "./syntax";

/** Our resolver failing: 502 naming it, so the gateway gives the call (its whole weight) back. */
function resolverFailed(failure: Extract<MailLookup, { ok: false }>, counted: string): HandlerResult {
  const why = failure.reason === "timeout" ? "did not answer in time" : "could not be reached";
  return problemResult(
    "upstream-failed",
    `The DNS resolver ${failure.resolver} ${why}, so the domain's mail servers are unknown. Retry later; ${counted}.`,
    { upstream: failure.resolver },
  );
}

/**
 * One address. A resolver that does not answer (down, too slow, answering garbage) is our
 * upstream failing: 502 naming it, and the call is given back. A domain whose own servers fail
 * (SERVFAIL) is an answer about the domain: `unknown`.
 */
export async function handleEmailCheck(input: EmailInput, ctx: OperationContext): Promise<HandlerResult> {
  const lists = await loadLists();
  const parsed = parseAddress(input.email);
  if (!parsed.ok) return json(judge(input.email, null, lists));
  const lookup = await ctx.mail.lookup(parsed.domain, ctx.signal);
  if (!lookup.ok && lookup.reason !== "servfail") return resolverFailed(lookup, "this call was not counted");
  return json(judge(input.email, lookup, lists));
}

/**
 * Up to 50 addresses, each domain looked up once. A lookup that fails leaves its addresses
 * `unknown`, so one slow domain does not cost the others their answers; but when every lookup
 * failed on the resolver's side the batch holds nothing the caller should pay for: 502, and
 * the gateway gives its whole weight back.
 */
export async function handleEmailBatch(input: EmailBatchInput, ctx: OperationContext): Promise<HandlerResult> {
  const lookups = await lookupDomains(input.emails, ctx.mail, ctx.signal);
  const failure = resolverFailure(lookups);
  if (failure) return resolverFailed(failure, "none of the batch was counted");
  const results = await checkEmails(input.emails, lookups);
  return json({ count: results.length, results });
}
