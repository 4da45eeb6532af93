/**
 * Vitest global setup: one Chromium for the whole run, whose DevTools address the engine
 * Worker receives as CHROMIUM_CDP_URL (vitest.config.ts), so the HTML-to-PDF tests print
 * through the same browser engine path production uses. Empty when the machine has none (the
 * browser tests then skip and the embedded engine's still run); a Chromium that is there but
 * does not start fails the run.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { CHROMIUM_PATH, launchChromium } from "../../scripts/chromium.ts";

declare module "vitest" {
  export interface ProvidedContext {
    chromiumCdpUrl: string;
    /** The recording proxy behind the test Chromium (`GET <it>/seen`: what escaped the engine). */
    chromiumProxyUrl: string;
  }
}

/**
 * The proxy the test Chromium sends whatever escapes the engine's interception to: it refuses
 * every request and records its address, so a test can tell an escape (the proxy saw it) from
 * a refusal by the engine (it did not). `GET /seen` on it answers the addresses so far.
 */
async function recordingProxy(): Promise<{ url: string; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    if (request.url === "/seen") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen));
      return;
    }
    seen.push(request.url ?? "");
    response.writeHead(502).end();
  });
  server.on("connect", (request, socket) => {
    seen.push(`connect ${request.url ?? ""}`);
    socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export default async function setup(project: TestProject) {
  const proxy = await recordingProxy();
  const chromium = await launchChromium({ proxy: proxy.url });
  // A Chromium that is installed but does not start would skip every browser test and leave
  // the run green (as on a CI runner whose chromium broke): that fails the run instead.
  if (!chromium && existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} exists but did not start, so the browser PDF tests cannot run. Fix it, or point CHROMIUM_PATH at a working Chromium.`,
    );
  }
  project.provide("chromiumCdpUrl", chromium?.cdpUrl ?? "");
  project.provide("chromiumProxyUrl", proxy.url);
  return async () => {
    await chromium?.close();
    await proxy.close();
  };
}
