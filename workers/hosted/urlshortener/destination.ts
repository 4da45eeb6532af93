/**
 * Which destinations a short link may point at.
 *
 * The server never fetches a destination, so this is not an SSRF guard: a redirect sends the
 * visitor's own browser there. That is exactly why some destinations are refused:
 *
 * - Only http and https. A `javascript:` or `data:` link runs script or shows a page under
 *   whatever origin the browser gives it, and `file:` points at the visitor's own disk; none
 *   has any business behind a public short link.
 * - No user name or password in the URL. `https://bank.example@evil.example/` reads as the bank
 *   but goes to evil.example, a classic phishing disguise (and the URL inputs' rules refuse
 *   credentials too).
 * - No loopback, private, link-local or reserved addresses, and no names that only mean
 *   something inside one network (`localhost`, `*.local`, `*.internal`, `*.home.arpa`,
 *   `*.lan`, single labels such as `http://router/`). Such a link means a different machine
 *   for every visitor, so it has no use on a public shortener, and its one effective use is
 *   aiming strangers' browsers at their own routers and admin pages (drive-by CSRF against the
 *   LAN). The spec names no reason to allow them. Names are not resolved: we never connect, and
 *   a name's DNS can change after the link is made, so only what the URL itself says is checked.
 * - No host of our own (`ownHostOf`): a link to one of our short links chains redirects, and
 *   two links to each other loop, each hop counted as a click.
 */
import { isForbiddenAddress } from "~workers/gateway/url-guard";

export const MAX_URL_LENGTH = 2048;

export type DestinationCheck = { ok: true; url: string } | { ok: false; reason: string };

const LOCAL_NAME_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".lan"];

/** A host name without the root's trailing dots: "localhost." and "portico.dev.." name the same hosts. */
function withoutTrailingDots(hostname: string): string {
  let end = hostname.length;
  while (end > 0 && hostname.charAt(end - 1) === ".") end -= 1;
  return hostname.slice(0, end);
}

function isLocalHost(hostname: string): boolean {
  const host = withoutTrailingDots(hostname.toLowerCase());
  // A literal address, judged by the gateway's ranges (which read IPv4 mapped into IPv6, the
  // form the parser writes `[::ffff:127.0.0.1]` in). The parser has already turned every IPv4
  // spelling (`2130706433`, `0x7f.1`, `127.1`) into dotted form.
  if (host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host)) return isForbiddenAddress(host);
  if (host === "localhost" || LOCAL_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  return !host.includes(".");
}

/**
 * Checks a destination and returns it in the parser's serialisation, the form stored and sent
 * in `Location`: tabs and newlines removed and spaces and non-ASCII percent-encoded, so no
 * caller's string can break the header.
 */
export function checkDestination(input: string): DestinationCheck {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: "an absolute http:// or https:// URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `an http:// or https:// URL (${url.protocol} links are refused)` };
  }
  if (url.username || url.password) return { ok: false, reason: "a URL without a user name or password in it" };
  if (isLocalHost(url.hostname)) {
    return { ok: false, reason: "a public address: loopback, private and local-network hosts are refused" };
  }
  if (url.href.length > MAX_URL_LENGTH) return { ok: false, reason: `at most ${MAX_URL_LENGTH} characters` };
  return { ok: true, url: url.href };
}

const WORKERS_DEV = ".workers.dev";

/**
 * The domain an own host stands for. Under workers.dev it is the whole account subdomain:
 * `portico.<account>.workers.dev`, the environment's `portico-production.<account>…`, every
 * preview URL (`<version>-portico.<account>…`) and the webhook Worker all serve our code.
 */
function ownDomainOf(host: string): string {
  if (!host.endsWith(WORKERS_DEV)) return host;
  const labels = host.split(".");
  return labels.length > 3 ? labels.slice(-3).join(".") : host;
}

/**
 * The own host a destination is on, or null. Our hosts are the one the request came to and
 * the configured PUBLIC_HOSTS (already normalised by the config parser), each with its
 * subdomains. The whole host is refused, not just `/s/`: a path test is easy to slip past (the
 * origin-and-path check this replaced let `http://` and `www.` spellings through), and any page
 * of ours that redirects, now or later, would lead back. Ports are ignored: the edge serves
 * several ports of a host from the same Worker. The URL parser has already folded case, IDNA
 * and percent-encoding in both names.
 */
export function ownHostOf(destination: string, own: { origin: string; publicHosts: readonly string[] }): string | null {
  const host = withoutTrailingDots(new URL(destination).hostname);
  const domains = [withoutTrailingDots(new URL(own.origin).hostname), ...own.publicHosts].map(ownDomainOf);
  return domains.find((domain) => host === domain || host.endsWith(`.${domain}`)) ?? null;
}
