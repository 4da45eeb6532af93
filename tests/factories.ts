/** Test data with random parts, so tests sharing a file's storage never collide. */
export function randomSuffix(): string {
  return crypto.randomUUID().slice(0, 8);
}

export function randomEmail(prefix = "dev"): string {
  return `${prefix}-${randomSuffix()}@example.com`;
}

/** A client address of its own for each test, so per-address throttles start from zero. */
export function randomClientAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return `203.0.${bytes[0]}.${bytes[1]}`;
}

export const STRONG_PASSWORD = "correct horse battery staple 42";

const BASE = "https://portico.test";

/** Calls the platform JSON API of the Worker under test. */
export async function callApi(
  fetcher: { fetch: (input: string, init?: RequestInit) => Promise<Response> },
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; token?: string; ip?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": options.ip ?? randomClientAddress() };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.cookie) headers.cookie = options.cookie;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return fetcher.fetch(`${BASE}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: "manual",
  });
}

/** The `name=value` part of a response's Set-Cookie, to send back. */
export function cookieFrom(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0] ?? "";
}
