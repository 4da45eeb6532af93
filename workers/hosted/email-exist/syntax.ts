/**
 * An email address's syntax as mail servers accept it: RFC 5321's mailbox (a dot-atom or a
 * quoted string, `@`, a domain), with its limits (64 octets of local part, 254 of address,
 * 63 of a label), and RFC 6531's UTF-8 in the local part, which the large providers accept.
 *
 * What RFC 5322 allows but mail servers refuse is refused here too: comments and folding
 * white space, address literals (`user@[192.0.2.1]`), and single-label domains (RFC 7085:
 * `user@localhost` is no address on the Internet). An internationalised domain is converted
 * to its ASCII (punycode) form by the runtime's URL parser, which implements UTS #46 as
 * browsers do, so `jane@bücher.de` is checked, looked up and answered as `jane@xn--bcher-kva.de`.
 */

export type SyntaxError =
  | "missing-at"
  | "empty-local-part"
  | "local-part-too-long"
  | "invalid-local-part"
  | "empty-domain"
  | "domain-literal"
  | "invalid-domain"
  | "single-label-domain"
  | "label-too-long"
  | "address-too-long";

export type ParsedAddress =
  | { ok: true; username: string; domain: string; normalized: string }
  | { ok: false; error: SyntaxError; username: string; domain: string };

export const MAX_LOCAL_PART_OCTETS = 64;
export const MAX_ADDRESS_OCTETS = 254;
const MAX_LABEL_OCTETS = 63;

const octets = (text: string) => new TextEncoder().encode(text).length;

// atext (RFC 5322 §3.2.3) plus UTF-8 beyond ASCII (RFC 6532 §3.2); a dot only between atoms.
// (C1 controls and lone surrogates are not text.)
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u00A0-\uD7FF\uE000-\u{10FFFF}-]+$/u;
// A quoted string's content: printable ASCII but " and \ (qtext), space, or any quoted pair,
// and UTF-8 beyond ASCII (RFC 6532).
const QUOTED = /^(?:[\x20\x21\x23-\x5B\x5D-\x7E\u00A0-\uD7FF\uE000-\u{10FFFF}]|\\[\x20-\x7E])*$/u;

function isDotAtom(local: string): boolean {
  return local.split(".").every((atom) => atom.length > 0 && ATOM.test(atom));
}

/** The local part as it is written once unquoted where quoting is not needed: `"john"` is `john`. */
function canonicalLocal(local: string): string | null {
  if (local.startsWith('"') && local.endsWith('"') && local.length >= 2) {
    const inner = local.slice(1, -1);
    if (!QUOTED.test(inner)) return null;
    const unescaped = inner.replace(/\\(.)/g, "$1");
    return unescaped.length > 0 && isDotAtom(unescaped) ? unescaped : local;
  }
  return isDotAtom(local) ? local : null;
}

/** Where the local part ends: the `@` after it, outside any quotes (a quoted local part may hold `@`). */
function splitAt(address: string): { local: string; domain: string } | null {
  if (address.startsWith('"')) {
    // The closing quote is the first " not escaped by a backslash.
    for (let i = 1; i < address.length; i++) {
      const char = address[i];
      if (char === "\\") {
        i++;
        continue;
      }
      if (char === '"') {
        if (address[i + 1] !== "@") return null;
        return { local: address.slice(0, i + 1), domain: address.slice(i + 2) };
      }
    }
    return null;
  }
  const at = address.lastIndexOf("@");
  if (at === -1) return null;
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/** The domain in ASCII (punycode), or why it is no mail domain. */
function asciiDomain(domain: string): { ok: true; ascii: string } | { ok: false; error: SyntaxError } {
  if (domain === "") return { ok: false, error: "empty-domain" };
  if (domain.startsWith("[")) return { ok: false, error: "domain-literal" };
  // What the URL parser would read as something else than a host name: a port, a path, a
  // user, percent-escapes, spaces.
  if (/[\s/\\?#@:%[\]<>^|"]/u.test(domain)) return { ok: false, error: "invalid-domain" };
  const trimmed = domain.endsWith(".") ? domain.slice(0, -1) : domain;
  let ascii: string;
  try {
    ascii = new URL(`http://${trimmed}/`).hostname;
  } catch {
    return { ok: false, error: "invalid-domain" };
  }
  const labels = ascii.split(".");
  if (labels.length < 2) return { ok: false, error: "single-label-domain" };
  for (const label of labels) {
    if (label.length > MAX_LABEL_OCTETS) return { ok: false, error: "label-too-long" };
    // LDH labels (RFC 1035, 5891): letters, digits, hyphens, not at either end.
    if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(label)) return { ok: false, error: "invalid-domain" };
  }
  // The parser reads "1.2.3.4" as an address; an all-numeric top-level label is no domain.
  if (/^\d+$/.test(labels.at(-1) ?? "")) return { ok: false, error: "invalid-domain" };
  return { ok: true, ascii };
}

export function parseAddress(input: string): ParsedAddress {
  const address = input.trim();
  const split = splitAt(address);
  if (!split) return { ok: false, error: "missing-at", username: "", domain: "" };
  const { local, domain } = split;
  const failed = (error: SyntaxError): ParsedAddress => ({ ok: false, error, username: local, domain });
  if (local === "") return failed("empty-local-part");
  if (octets(local) > MAX_LOCAL_PART_OCTETS) return failed("local-part-too-long");
  const canonical = canonicalLocal(local);
  if (canonical === null) return failed("invalid-local-part");
  const ascii = asciiDomain(domain);
  if (!ascii.ok) return failed(ascii.error);
  const normalized = `${canonical}@${ascii.ascii}`;
  if (octets(normalized) > MAX_ADDRESS_OCTETS) return failed("address-too-long");
  return { ok: true, username: canonical, domain: ascii.ascii, normalized };
}
