import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { judge, checkEmails, loadLists } from "./engine";
import type { EmailBatchInput, EmailInput } from "./schema";
import { parseAddress } from "./syntax";

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
  if (!lookup.ok && lookup.reason !== "servfail") {
    const why = lookup.reason === "timeout" ? "did not answer in time" : "could not be reached";
    return problemResult(
      "upstream-failed",
      `The DNS resolver ${lookup.resolver} ${why}, so the domain's mail servers are unknown. Retry later; this call was not counted.`,
      { upstream: lookup.resolver },
    );
  }
  return json(judge(input.email, lookup, lists));
}

/** Up to 50 addresses, each domain looked up once; a lookup that fails leaves its addresses `unknown`. */
export async function handleEmailBatch(input: EmailBatchInput, ctx: OperationContext): Promise<HandlerResult> {
  const results = await checkEmails(input.emails, ctx.mail, ctx.signal);
  return json({ count: results.length, results });
}
