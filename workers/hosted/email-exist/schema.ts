import { z } from "zod";

/**
 * Far longer than any address (254 octets) so an over-long one is answered as such with its
 * reason, short enough that nothing absurd is parsed. Beyond it the field is refused (422).
 */
export const EMAIL_FIELD_MAX = 1024;
/** The most addresses one batch call checks; each counts as a call (decision 048). */
export const BATCH_MAX = 50;

const email = () =>
  z
    .string()
    .max(EMAIL_FIELD_MAX, `at most ${EMAIL_FIELD_MAX} characters`)
    .refine((value) => value.trim().length > 0, "give an email address")
    .describe("the address to check, as a person would type it; IDN domains are accepted");

export const EmailInputSchema = z.object({ email: email() });
export type EmailInput = z.infer<typeof EmailInputSchema>;

export const EmailBatchInputSchema = z.object({
  emails: z
    .array(email())
    .min(1, "give at least one address")
    .max(BATCH_MAX, `at most ${BATCH_MAX} addresses a call`)
    .describe(`1 to ${BATCH_MAX} addresses; each counts as one call`),
});
export type EmailBatchInput = z.infer<typeof EmailBatchInputSchema>;

const MxRecordSchema = z.object({
  exchange: z.string().describe("the mail host; the domain itself for an implicit MX"),
  priority: z.number().int().describe("RFC 5321 preference: lower is tried first"),
});

export const EmailCheckSchema = z.object({
  email: z.string().describe("the address as given, trimmed"),
  normalized: z
    .string()
    .nullable()
    .describe(
      "the address with its domain in lower-case ASCII (punycode) and needless quotes removed; null when the syntax is invalid",
    ),
  status: z
    .enum(["valid", "invalid", "risky", "unknown"])
    .describe(
      "valid: syntax good, the domain accepts mail, not disposable; invalid; risky: disposable; unknown: DNS could not say",
    ),
  reason: z.string().describe("why, as a code (see the docs' table)"),
  syntax: z.object({
    valid: z.boolean(),
    username: z.string().describe("the local part (before the @)"),
    domain: z.string().describe("the domain, in ASCII when the syntax is valid"),
  }),
  suggestion: z
    .string()
    .nullable()
    .describe("the address with a common provider's domain, when the domain looks like a typo of it"),
  mx: z.object({
    acceptsMail: z
      .boolean()
      .nullable()
      .describe("whether the domain takes mail; null when DNS could not say or the syntax is invalid"),
    records: z.array(MxRecordSchema).describe("the mail hosts, most preferred first"),
  }),
  disposable: z.boolean().describe("a throwaway-address service's domain"),
  role: z.boolean().describe("a role's mailbox (info@, support@, no-reply@) rather than a person's"),
  free: z.boolean().describe("a free mail provider's domain (Gmail, Outlook, …)"),
  smtp: z.literal("unchecked").describe("the mailbox is never probed: a Worker cannot open port 25"),
});
export type EmailCheckOutput = z.infer<typeof EmailCheckSchema>;

export const EmailBatchSchema = z.object({
  count: z.number().int().describe("how many addresses were checked, and calls counted"),
  results: z.array(EmailCheckSchema).describe("one answer per address, in the order given"),
});
