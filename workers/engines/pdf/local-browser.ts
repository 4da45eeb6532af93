/**
 * A stand-in for the Browser Rendering binding over a local Chromium's DevTools endpoint
 * (CHROMIUM_CDP_URL), so development and the tests print through the very @cloudflare/puppeteer
 * code production runs (decision 056).
 *
 * @cloudflare/puppeteer 1.4.0 reaches its binding only through `fetch` on a fake host
 * (lib/esm/puppeteer/cloudflare/PuppeteerWorkers.js, WorkersWebSocketTransport.js):
 * - `POST /v1/devtools/browser?keep_alive=…` (launch, acquire) answers `{ sessionId }`;
 * - `GET /v1/devtools/browser/<sessionId>` with `Upgrade: websocket` (connect) answers a
 *   response whose `webSocket` speaks plain CDP to the browser target;
 * - `GET /v1/sessions`, `/v1/limits`, `/v1/history` answer JSON about the account.
 * Here one long-lived Chromium is every "session": its browser target's id is the session id,
 * and the WebSocket is workerd's own upgrade fetch to Chromium. The engine never sends
 * `Browser.close` to it (browser.ts disconnects), since other calls share it.
 */
import type { BrowserWorker } from "@cloudflare/puppeteer";

export function localBrowserBinding(cdpUrl: string): BrowserWorker {
  const origin = cdpUrl.replace(/\/+$/, "");
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/v1/devtools/browser") {
      const version = await fetch(`${origin}/json/version`);
      if (!version.ok) return new Response(`Chromium answered ${version.status}`, { status: 502 });
      const { webSocketDebuggerUrl } = await version.json<{ webSocketDebuggerUrl: string }>();
      return Response.json({ sessionId: webSocketDebuggerUrl.split("/").pop() });
    }
    const session = /^\/v1\/devtools\/browser\/([\w-]+)$/.exec(path);
    if (session && request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      return fetch(`${origin}/devtools/browser/${session[1]}`, { headers: { Upgrade: "websocket" } });
    }
    // No session is ever free to reuse: each call acquires the one browser (a cheap look-up).
    if (path === "/v1/sessions") return Response.json({ sessions: [] });
    if (path === "/v1/history") return Response.json({ history: [] });
    if (path === "/v1/limits") {
      return Response.json({
        activeSessions: [],
        maxConcurrentSessions: 100,
        allowedBrowserAcquisitions: 100,
        timeUntilNextAllowedBrowserAcquisition: 0,
      });
    }
    return new Response(`The local browser binding does not serve ${request.method} ${path}`, { status: 404 });
  };
  return { fetch: fetcher as typeof fetch };
}
