/** Reading and writing the few cookies the Worker sets. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  /** Secure everywhere but plain-http localhost, where browsers would drop the cookie. */
  secure: boolean;
  path?: string;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? "/"}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** Plain-http hosts a browser treats as a secure context, yet would not store a Secure cookie from. */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether cookies set in answer to `request` are Secure: always, except over plain http to this
 * machine (`npm run dev`, the browser tests). Keying on https alone would leave a cookie
 * without Secure wherever a request's URL says http (a proxy, a misrouted hop), and a browser
 * then sends the session over any plain-http request to the host.
 */
export function isSecureRequest(request: Request): boolean {
  const url = new URL(request.url);
  return !(url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname));
}
