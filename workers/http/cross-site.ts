/**
 * Refusing requests another site makes a browser send (issue #10, point 9: login CSRF). The
 * session cookie is SameSite=Lax, which still rides along on a top-level cross-site POST's
 * redirect chain and on every request from a sibling subdomain, and a cross-site form can log a
 * visitor into an account of the attacker's choosing; the browser's own `Sec-Fetch-Site` and
 * `Origin` headers say where a request comes from, so the Worker asks them instead.
 *
 * Only state-changing methods are checked: GET, HEAD and OPTIONS change nothing (the OIDC
 * callback is a GET a provider's page sends the visitor to). A request with neither header is
 * not a browser's (a server, curl, a provider) and carries no ambient cookie of a visitor, so it
 * passes. See docs/decisions/034-refuse-cross-site-state-changes.md for why `same-site` is refused too.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function changesState(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Why `request` comes from another site (`cross-site` or `same-site`: any origin but the
 * request's own), or null when it comes from this origin or from no browser at all.
 *
 * `Sec-Fetch-Site` decides when the browser sent it: pages cannot set it, and it names the
 * initiator even where `Origin` is "null" (a page with `Referrer-Policy: no-referrer`, such as
 * the local fake providers' approval forms, posts with `Origin: null`). Without it (an older
 * browser) the `Origin`'s host must be the request's.
 */
export function foreignOrigin(request: Request): string | null {
  const fetchSite = request.headers.get("sec-fetch-site")?.toLowerCase();
  if (fetchSite === "same-origin" || fetchSite === "none") return null;
  if (fetchSite) return `Sec-Fetch-Site is ${fetchSite}`;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  // "null" is an opaque origin: a sandboxed frame, a data: URL, a file — nothing of ours.
  if (origin === "null") return "the Origin is opaque (null)";
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return "the Origin is not a URL";
  }
  return originHost === new URL(request.url).host ? null : `the Origin ${origin} is another site`;
}
