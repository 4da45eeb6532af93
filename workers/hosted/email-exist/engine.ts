/**
 * One address checked as far as a Worker can (decision 048): its syntax, where its domain's
 * mail goes (MX over DNS-over-HTTPS), whether the domain is disposable or a free provider,
 * whether the mailbox is a role's, and a likely typo. A Worker cannot open port 25, so the
 * mailbox itself is never probed: `smtp` is always "unchecked" and no answer says
 * "deliverable".
 *
 * status: `valid` = syntax good, the domain accepts mail, not disposable; `invalid` = the
 * syntax, or a domain that takes no mail; `risky` = a disposable domain that takes mail;
 * `unknown` = DNS could not say.
 */
import type { MailLookup, MailResolver, MxRecord } from "~workers/providers/dns/mail";
import { parseAddress, type SyntaxError } from "./syntax";
import { suggestDomain } from "./suggest";

export type Status = "valid" | "invalid" | "risky" | "unknown";

export type Reason =
  | SyntaxError
  | "accepts-mail"
  | "implicit-mx"
  | "disposable"
  | "no-such-domain"
  | "null-mx"
  | "no-mail-server"
  | "dns-servfail"
  | "dns-timeout"
  | "dns-unavailable";

export interface EmailCheck {
  email: string;
  normalized: string | null;
  status: Status;
  reason: Reason;
  syntax: { valid: boolean; username: string; domain: string };
  suggestion: string | null;
  mx: { acceptsMail: boolean | null; records: MxRecord[] };
  disposable: boolean;
  role: boolean;
  free: boolean;
  smtp: "unchecked";
}

/** The lists, loaded on first use (./lists.ts is large). */
type Lists = typeof import("./lists");
let lists: Promise<Lists> | undefined;
export const loadLists = (): Promise<Lists> => (lists ??= import("./lists"));

/** What a failed lookup means for one address. */
const FAILURE_REASONS: Record<Extract<MailLookup, { ok: false }>["reason"], Reason> = {
  servfail: "dns-servfail",
  timeout: "dns-timeout",
  unreachable: "dns-unavailable",
  malformed: "dns-unavailable",
};

/** The answer for a parsed address and its domain's lookup (or null: syntax refused it, nothing was asked). */
export function judge(email: string, lookup: MailLookup | null, lists: Lists): EmailCheck {
  const parsed = parseAddress(email);
  const base = { email: email.trim(), smtp: "unchecked" as const };
  if (!parsed.ok) {
    return {
      ...base,
      normalized: null,
      status: "invalid",
      reason: parsed.error,
      syntax: { valid: false, username: parsed.username, domain: parsed.domain },
      suggestion: null,
      mx: { acceptsMail: null, records: [] },
      disposable: false,
      role: false,
      free: false,
    };
  }
  const disposable = lists.isDisposableDomain(parsed.domain);
  const free = lists.isFreeProvider(parsed.domain);
  // A domain that takes mail is someone's real domain (mx.com is not a typo of me.com), unless
  // it is disposable: typo domains that catch mistyped mail (gmial.com) are listed as such.
  // While DNS cannot say, nothing is suggested either.
  const takesNoMail = lookup?.ok === true && lookup.kind !== "mx" && lookup.kind !== "implicit";
  const suggested = takesNoMail || (disposable && lookup?.ok === true) ? suggestDomain(parsed.domain) : null;
  const flags = {
    ...base,
    normalized: parsed.normalized,
    syntax: { valid: true, username: parsed.username, domain: parsed.domain },
    suggestion: suggested ? `${parsed.username}@${suggested}` : null,
    disposable,
    role: lists.isRoleMailbox(parsed.username),
    free,
  };
  if (!lookup || !lookup.ok) {
    const reason = lookup ? FAILURE_REASONS[lookup.reason] : "dns-unavailable";
    return { ...flags, status: "unknown", reason, mx: { acceptsMail: null, records: [] } };
  }
  switch (lookup.kind) {
    case "mx":
    case "implicit":
      return {
        ...flags,
        status: disposable ? "risky" : "valid",
        reason: disposable ? "disposable" : lookup.kind === "mx" ? "accepts-mail" : "implicit-mx",
        mx: { acceptsMail: true, records: lookup.records },
      };
    case "null-mx":
      return { ...flags, status: "invalid", reason: "null-mx", mx: { acceptsMail: false, records: [] } };
    case "no-mail":
      return { ...flags, status: "invalid", reason: "no-mail-server", mx: { acceptsMail: false, records: [] } };
    case "nxdomain":
      return { ...flags, status: "invalid", reason: "no-such-domain", mx: { acceptsMail: false, records: [] } };
  }
}

/** At most this many lookups at once for a batch: a Worker has six simultaneous connections. */
const LOOKUP_CONCURRENCY = 6;

/** Each distinct domain of `emails` looked up once (a batch of colleagues is one lookup). */
export async function lookupDomains(
  emails: string[],
  mail: MailResolver,
  signal?: AbortSignal,
): Promise<Map<string, MailLookup>> {
  const domains = [
    ...new Set(emails.map((email) => parseAddress(email)).flatMap((parsed) => (parsed.ok ? [parsed.domain] : []))),
  ];
  const lookups = new Map<string, MailLookup>();
  let next = 0;
  const worker = async () => {
    while (next < domains.length) {
      const domain = domains[next++] as string;
      lookups.set(domain, await mail.lookup(domain, signal));
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUP_CONCURRENCY, domains.length) }, worker));
  return lookups;
}

/**
 * The failure to blame on our resolver when every lookup failed on its side (down, silent,
 * garbage; not a SERVFAIL, which is the domain's own answer), or null. Then nothing in the
 * answer would be the caller's: it is our upstream failing, answered 502 and not counted.
 */
export function resolverFailure(lookups: Map<string, MailLookup>): Extract<MailLookup, { ok: false }> | null {
  const all = [...lookups.values()];
  const failed = all.filter((lookup) => !lookup.ok && lookup.reason !== "servfail");
  return all.length > 0 && failed.length === all.length ? (failed[0] as Extract<MailLookup, { ok: false }>) : null;
}

/** The answers for addresses whose domains `lookupDomains` looked up; a failed lookup leaves its addresses `unknown`. */
export async function checkEmails(emails: string[], lookups: Map<string, MailLookup>): Promise<EmailCheck[]> {
  const loaded = await loadLists();
  return emails.map((email) => {
    const parsed = parseAddress(email);
    return judge(email, parsed.ok ? (lookups.get(parsed.domain) ?? null) : null, loaded);
  });
}
