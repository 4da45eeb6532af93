/** Small pieces every provider adapter needs around `fetch`. */

/** The body as JSON, or undefined when it is empty, truncated or not JSON. */
export async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** A thrown value as one line of text, for a result's `detail` or a log. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A `fetch` that answers every request under `baseUrl` from a fake provider's app, in process.
 * Anything else is refused, as an offline fake must not fall through to the network.
 */
export function inProcessFetch(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  baseUrl: string,
  name: string,
): typeof fetch {
  const prefix = `${baseUrl.replace(/\/+$/, "")}/`;
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(prefix)) {
      throw new TypeError(`The fake ${name}'s fetch refuses ${request.method} ${request.url}`);
    }
    return app.fetch(request);
  };
}
