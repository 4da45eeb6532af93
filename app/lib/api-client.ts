/**
 * The shared request helper (docs/product.md#request-helper): base `/api`, 30 s timeout, bearer token from the
 * stored user, a fixed client header, GET options as query parameters, an optional global
 * loader, and a 401 turned into a 'redirect-to-home' event with no result.
 */
import { readAuthUser } from "./auth-user";
import { startLoader } from "./loader-store";

export const REQUEST_TIMEOUT_MS = 30_000;
/** Identifies the web client to the server (docs/product.md#request-helper). */
export const CLIENT_HEADER = { "x-portico-client": "web" } as const;
export const REDIRECT_HOME_EVENT = "portico:redirect-home";

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Query parameters for GET, JSON body for the others. */
  options?: object;
  headers?: Record<string, string>;
  /** Send cookies (the session) along. Same-origin requests do anyway; kept for the calls of docs/product.md#calls. */
  credentials?: boolean;
  /** Show the full-screen loader while the request runs. */
  loader?: boolean;
  signal?: AbortSignal;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Request failed with status code ${status}`);
  }
}

/**
 * Resolves to the parsed JSON answer, to `undefined` on a 401 (after emitting the event),
 * and throws `ApiError` for any other non-2xx answer. A cancelled request resolves to
 * `undefined` too: the caller went away and has nothing to show.
 */
export async function apiRequest<T>(path: string, request: ApiRequest = {}): Promise<T | undefined> {
  const { method = "GET", options, headers, credentials, loader, signal } = request;
  let url = `/api${path}`;
  if (method === "GET" && options) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(options)) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    if ([...query].length > 0) url += `?${query}`;
  }
  const token = readAuthUser()?.auth_token;
  const stopLoader = loader ? startLoader() : () => {};
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method,
      credentials: credentials ? "include" : "same-origin",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: {
        accept: "application/json",
        ...CLIENT_HEADER,
        ...(typeof token === "string" ? { authorization: `Bearer ${token}` } : {}),
        ...(method !== "GET" ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: method !== "GET" && options ? JSON.stringify(options) : undefined,
    });
    if (response.status === 401) {
      window.dispatchEvent(new Event(REDIRECT_HOME_EVENT));
      return undefined;
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw new ApiError(response.status, body);
    return body as T;
  } catch (error) {
    if (signal?.aborted) {
      console.info(`Request to ${path} was cancelled`);
      return undefined;
    }
    throw error;
  } finally {
    stopLoader();
  }
}

/** The server's `message` member of an error answer, when it sent one. */
export function serverMessage(error: unknown): string | undefined {
  if (error instanceof ApiError && error.body && typeof error.body === "object" && "message" in error.body) {
    const message = (error.body as { message: unknown }).message;
    return typeof message === "string" ? message : undefined;
  }
  return undefined;
}
