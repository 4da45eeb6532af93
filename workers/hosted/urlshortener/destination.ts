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
 *   but goes to evil.example, a classic phishing disguise (and the spec's URL inputs refuse
 *   credentials too).
 * - No loopback, private, link-local or reserved addresses, and no names that only mean
 *   something inside one network (`localhost`, `*.local`, `*.internal`, `*.home.arpa`,
 *   `*.lan`, single labels such as `http://router/`). Such a link means a different machine
 *   for every visitor, so it has no use on a public shortener, and its one effective use is
 *   aiming strangers' browsers at their own routers and admin pages (drive-by CSRF against the
 *   LAN). The spec names no reason to allow them. Names are not resolved: we never connect, and
 *   a name's DNS can change after the link is made, so only what the URL itself says is checked.
 */
import { isForbiddenAddress } from "~workers/gateway/url-guard";

export const MAX_URL_LENGTH = 2048;

export type DestinationCheck = { ok: true; url: string } | { ok: false; reason: string };

const LOCAL_NAME_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".lan"];

function isLocalHost(hostname: string): boolean {
  // A trailing dot names the same host ("localhost." is localhost).
  const host = hostname.toLowerCase().replace(/\.$/, "");
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

/** Whether a destination is one of our own short links, which would chain redirects or loop. */
export function isShortLinkOf(origin: string, destination: string): boolean {
  const url = new URL(destination);
  return url.origin === origin && url.pathname.startsWith("/s/");
}
