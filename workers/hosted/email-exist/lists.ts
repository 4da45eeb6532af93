/**
 * The domain and mailbox lists, each from a maintained package that installs offline
 * (decision 048): disposable domains from disposable-email-domains-js (CC0, the
 * disposable-email-domains project's blocklist), free-mail providers from email-providers
 * (ISC), role mailboxes from role-based-email-addresses (MIT). They are some 300 KB, so this
 * module is imported only when an address is first checked, not by every API's cold start.
 */
import disposableDomains from "disposable-email-domains-js/dist/dict/disposable_email_blocklist.json";
import freeProviders from "email-providers/all.json";
import roleMailboxes from "role-based-email-addresses";

const DISPOSABLE = new Set<string>(disposableDomains);
/**
 * Names in the free list that are no mail service: RFC 2606's example.com, and placeholders
 * people type into forms. Flagging them `free` would tell a caller they are webmail.
 */
const NOT_PROVIDERS = new Set([
  "example.com",
  "example.net",
  "example.org",
  "test.com",
  "test.de",
  "mydomain.com",
  "yourdomain.com",
]);
// The free list also holds disposable services; disposable is the stronger flag.
const FREE = new Set<string>(
  (freeProviders as string[]).filter((domain) => !DISPOSABLE.has(domain) && !NOT_PROVIDERS.has(domain)),
);
const ROLES = new Set<string>((roleMailboxes as string[]).map((role) => role.toLowerCase()));

/** The domain and each parent of it down to two labels: a disposable service's subdomain is disposable too. */
function withParents(domain: string): string[] {
  const labels = domain.split(".");
  return labels.slice(0, -1).map((_, index) => labels.slice(index).join("."));
}

export function isDisposableDomain(domain: string): boolean {
  return withParents(domain).some((candidate) => DISPOSABLE.has(candidate));
}

export function isFreeProvider(domain: string): boolean {
  return FREE.has(domain);
}

/**
 * Whether the mailbox is a role's rather than a person's (info@, support@, no-reply@). A
 * subaddress (`support+billing`) is the same mailbox; a quoted local part is compared unquoted.
 */
export function isRoleMailbox(username: string): boolean {
  const mailbox = username.replace(/^"|"$/g, "").split("+")[0]?.toLowerCase() ?? "";
  return ROLES.has(mailbox);
}
