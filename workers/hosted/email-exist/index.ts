/**
 * Email Exists: whether an address can receive mail, as far as a Worker can tell — syntax as
 * mail servers accept it, the domain's MX over DNS-over-HTTPS (null MX and implicit MX
 * included), disposable / free / role flags from maintained lists, and typo suggestions. The
 * mailbox itself is never probed (no port 25 from a Worker): `smtp` is always "unchecked"
 * (decision 048). A batch of up to 50 counts one call per address.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleEmailBatch, handleEmailCheck } from "./handler";
import {
  BATCH_MAX,
  EmailBatchInputSchema,
  EmailBatchSchema,
  EmailCheckSchema,
  EmailInputSchema,
  type EmailCheckOutput,
} from "./schema";

const REASONS =
  "`reason` says why, as a code: `accepts-mail` (MX records), `implicit-mx` (no MX, but the domain has an address, which RFC 5321 §5.1 makes its mail host), `disposable` (status `risky`), " +
  "`no-such-domain` (NXDOMAIN), `null-mx` (the domain publishes RFC 7505's null MX: it takes no mail), `no-mail-server` (neither MX nor address), " +
  "`dns-servfail` (the domain's own name servers failed; status `unknown`), and for an invalid syntax the fault: `missing-at`, `empty-local-part`, `local-part-too-long` (over 64 octets), `invalid-local-part`, `empty-domain`, `domain-literal` (`user@[192.0.2.1]`, which mail servers refuse), `invalid-domain`, `single-label-domain` (`user@localhost`), `label-too-long`, `address-too-long` (over 254 octets). ";

const DESCRIPTION =
  "Checks one address: its syntax as mail servers accept it (RFC 5321/5322: a dot-atom or a quoted local part of at most 64 octets, UTF-8 allowed as RFC 6531 does, 254 octets in all; no comments, no address literals, no single-label domains), its domain converted to ASCII when it is internationalised (`jane@bücher.de` is checked as `jane@xn--bcher-kva.de`), " +
  "where the domain's mail goes (MX records over DNS-over-HTTPS, most preferred first; a null MX means no mail; no MX falls back to the domain's A/AAAA address), and whether the domain is disposable, a free provider, or a typo of a common provider (`suggestion`: given only when the domain takes no mail or is disposable, so a real domain that looks like a provider's is never taken for a typo), and whether the mailbox is a role's (`info@`, `support@`). " +
  "`status` is `valid` when the syntax is good, the domain accepts mail and it is not disposable; `invalid` when the syntax is bad or the domain takes no mail; `risky` for a disposable domain that takes mail; `unknown` when DNS could not say. " +
  REASONS +
  'What it does not do: probe the mailbox. A Cloudflare Worker cannot open a connection to port 25, so no SMTP conversation (`RCPT TO`) is held: `smtp` is always `"unchecked"`, and no answer ever says `deliverable`. A `valid` address has a domain that takes mail; the mailbox itself may still not exist. ' +
  "DNS answers are kept per domain for their own TTL (at least a minute, at most a day). If the DNS resolver itself cannot be reached or does not answer in time, the call is answered 502 naming it, and not counted. " +
  "Compared with the references: [reacher's check-if-email-exists](https://github.com/reacherhq/check-if-email-exists) (open source): it connects to the mail server over SMTP and can say whether a mailbox exists, which needs a host with port 25 open — this API cannot; " +
  "its syntax check accepts what this one does, and this one adds IDN-to-punycode, RFC 7505 null MX and the implicit MX, which reacher reports as no MX; reacher's `is_reachable` (safe/risky/invalid/unknown) maps to `status`, its `misc.is_disposable` and `is_role_account` to `disposable` and `role`; " +
  "reacher's `syntax.suggestion` compares the domain with seven providers by plain Levenshtein distance under 3, whether or not the domain takes mail; this one knows some 50 providers, counts a swapped pair of letters as one edit, and suggests only for a domain that takes no mail or is disposable. Reacher's self-hosted backend has a bulk API that queues a list (it needs PostgreSQL) and is read back later as a job; this API's batch answers up to 50 addresses in the same response. [AbstractAPI's Email Validation](https://www.abstractapi.com/api/email-verification-validation-api): `is_valid_format`, `is_free_email`, `is_disposable_email`, `is_role_email`, `is_mx_found` and `autocorrect` correspond to `syntax.valid`, `free`, `disposable`, `role`, `mx.acceptsMail` and `suggestion`; " +
  'its `is_smtp_valid` and `deliverability` come from an SMTP probe, which this API does not claim — it says `smtp: "unchecked"` rather than guess — and this API adds the MX hosts with their priorities, null MX, the reason for every verdict, and a batch of up to 50 addresses.';

const GMAIL_MX = [
  { exchange: "gmail-smtp-in.l.google.com", priority: 5 },
  { exchange: "alt1.gmail-smtp-in.l.google.com", priority: 10 },
  { exchange: "alt2.gmail-smtp-in.l.google.com", priority: 20 },
  { exchange: "alt3.gmail-smtp-in.l.google.com", priority: 30 },
  { exchange: "alt4.gmail-smtp-in.l.google.com", priority: 40 },
];

const JANE: EmailCheckOutput = {
  email: "Jane.Doe@Gmail.com",
  normalized: "Jane.Doe@gmail.com",
  status: "valid",
  reason: "accepts-mail",
  syntax: { valid: true, username: "Jane.Doe", domain: "gmail.com" },
  suggestion: null,
  mx: { acceptsMail: true, records: GMAIL_MX },
  disposable: false,
  role: false,
  free: true,
  smtp: "unchecked",
};

const BATCH_EXAMPLE: EmailCheckOutput[] = [
  JANE,
  {
    email: "bob@gmaill.com",
    normalized: "bob@gmaill.com",
    status: "invalid",
    reason: "no-such-domain",
    syntax: { valid: true, username: "bob", domain: "gmaill.com" },
    suggestion: "bob@gmail.com",
    mx: { acceptsMail: false, records: [] },
    disposable: false,
    role: false,
    free: false,
    smtp: "unchecked",
  },
  {
    email: "info@example.com",
    normalized: "info@example.com",
    status: "invalid",
    reason: "null-mx",
    syntax: { valid: true, username: "info", domain: "example.com" },
    suggestion: null,
    mx: { acceptsMail: false, records: [] },
    disposable: false,
    role: true,
    free: false,
    smtp: "unchecked",
  },
];

const ERRORS = [
  {
    type: "upstream-failed" as const,
    when: "The DNS resolver could not be reached or did not answer in time (the call is not counted).",
  },
];

export const definition: HostedApiDefinition = {
  slug: "email-exist",
  operations: [
    defineOperation({
      id: "checkEmail",
      method: "POST",
      path: "",
      summary: "Check whether an email address can receive mail",
      description: DESCRIPTION,
      inputSource: "json",
      input: EmailInputSchema,
      output: { kind: "json", schema: EmailCheckSchema, example: JANE },
      example: { email: "Jane.Doe@Gmail.com" },
      errors: ERRORS,
      handler: handleEmailCheck,
    }),
    defineOperation({
      id: "checkEmailByQuery",
      method: "GET",
      path: "",
      summary: "Check an email address given in the query string",
      description: "The same check as the POST call, with the address in `?email=` (URL-encoded: `+` is `%2B`).",
      inputSource: "query",
      input: EmailInputSchema,
      output: { kind: "json", schema: EmailCheckSchema, example: JANE },
      example: { email: "Jane.Doe@Gmail.com" },
      errors: ERRORS,
      handler: handleEmailCheck,
    }),
    defineOperation({
      id: "checkEmailBatch",
      method: "POST",
      path: "/batch",
      summary: `Check up to ${BATCH_MAX} addresses at once`,
      description:
        `Checks 1 to ${BATCH_MAX} addresses, each as the single call does, and counts one call per address against the plan's limits: a batch of n takes n calls from the month and the per-second allowance, all of them or none. ` +
        "A batch larger than what is left of the month is refused whole (429) and nothing is counted; a batch larger than the per-second allowance is let through when the allowance is full and the next calls wait until it has refilled. " +
        "Each distinct domain is looked up once. When the DNS resolver fails for a domain, that domain's addresses are answered `unknown` with `reason` `dns-timeout` or `dns-unavailable`, and the rest of the batch is answered as usual. When it fails for every domain of the batch, the call is answered 502 naming it and none of the batch is counted.",
      inputSource: "json",
      input: EmailBatchInputSchema,
      output: {
        kind: "json",
        schema: EmailBatchSchema,
        example: { count: BATCH_EXAMPLE.length, results: BATCH_EXAMPLE },
      },
      example: { emails: BATCH_EXAMPLE.map((result) => result.email) },
      errors: [
        {
          type: "upstream-failed" as const,
          when: "The DNS resolver failed for every domain of the batch (none of the batch is counted).",
        },
      ],
      weight: (input) => input.emails.length,
      handler: handleEmailBatch,
    }),
  ],
};
