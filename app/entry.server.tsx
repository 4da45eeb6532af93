/**
 * React Router's server entry, rendered by Preact (docs/decisions/065,
 * app/lib/react-shim/aliases.ts) with the response's Content-Security-Policy nonce
 * (workers/app.ts makes it): React Router's scripts and the data scripts below carry it, and so
 * do the app's own (CspNonceContext).
 *
 * React's default entry streams the document and lets React Router's <ServerRouter> write the
 * loaders' data (the turbo-stream React Router decodes to hydrate) from a Suspense boundary it
 * renders after </html>. preact-render-to-string places the streamed part of such a boundary
 * where its markers are, which come after </html>, so those scripts never ran and the page
 * never hydrated. Nothing in the app suspends on the server, so the document renders to one
 * string, and the data is written here, as <ServerRouter> would, before </body>.
 */
import { isbot } from "isbot";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { cspNonceContext } from "~workers/context";
import { CspNonceContext } from "./lib/csp-nonce";

// React Router rejects loader promises still pending after this, which ends the data stream.
export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const nonce = loadContext.get(cspNonceContext);
  const { serverHandoffStream } = routerContext;
  // The JSX is typed by @types/react; at run time it is Preact's (the aliases). A render error
  // throws here, before any byte is sent, and React Router renders the error boundary instead.
  const html = renderToString(
    (
      <CspNonceContext value={nonce}>
        <ServerRouter context={{ ...routerContext, serverHandoffStream: undefined }} url={request.url} nonce={nonce} />
      </CspNonceContext>
    ) as unknown as VNode,
  );
  // <Scripts> sets up the stream the data scripts feed; without it they would have nowhere to go.
  const data = serverHandoffStream && routerContext.renderMeta?.didRenderScripts ? serverHandoffStream : undefined;
  const end = html.lastIndexOf("</body>");
  const [shell, tail] = end === -1 ? [html, ""] : [html.slice(0, end), html.slice(end)];
  const chunks = documentChunks(shell, data, tail, nonce);

  responseHeaders.set("Content-Type", "text/html");
  // Bots and SPA mode get the whole document at once.
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) {
    let whole = "";
    for await (const chunk of chunks) whole += chunk;
    return new Response(whole, { headers: responseHeaders, status: responseStatusCode });
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/** The document: its doctype and shell, then a script per piece of data as it comes, then the end. */
async function* documentChunks(
  shell: string,
  data: ReadableStream<Uint8Array> | undefined,
  tail: string,
  nonce: string | undefined,
): AsyncGenerator<string, void, undefined> {
  // React writes the doctype itself; Preact renders only the elements.
  yield `<!DOCTYPE html>${shell}`;
  if (data) {
    const controller = "window.__reactRouterContext.streamController";
    const decoder = new TextDecoder();
    const reader = data.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        const text = decoder.decode(value, { stream: !done });
        if (text) yield script(`${controller}.enqueue(${escapeScript(JSON.stringify(text))});`, nonce);
        if (done) break;
      }
    } finally {
      reader.releaseLock();
    }
    yield script(`${controller}.close();`, nonce);
  }
  yield tail;
}

function script(source: string, nonce: string | undefined): string {
  return `<script${nonce ? ` nonce="${nonce.replaceAll('"', "&quot;")}"` : ""}>${source}</script>`;
}

/** What React Router's escapeHtml does to the JSON it puts in a script: nothing can end the element. */
function escapeScript(json: string): string {
  return json.replace(/[&<>\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
