/**
 * Starts the machine's Chromium (Debian's `chromium`, or CHROMIUM_PATH) headless with its
 * DevTools endpoint on loopback, for the engine Worker's local PDF engine: `npm run dev` and
 * the tests hand its address to the Worker as CHROMIUM_CDP_URL, so a page prints locally as
 * Browser Rendering prints it in production (workers/engines/pdf/local-browser.ts). No browser
 * on the machine is not an error: the Worker then prints with its embedded engine.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LocalChromium {
  /** `http://127.0.0.1:<port>`: its DevTools HTTP and WebSocket endpoint. */
  cdpUrl: string;
  close(): Promise<void>;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--hide-scrollbars",
  "--remote-debugging-address=127.0.0.1",
  "--remote-debugging-port=0",
  // Every request a printed page makes is intercepted by the engine and fetched through the
  // main Worker's outbound guard. What cannot be intercepted (a page's WebSocket) goes to
  // this dead proxy (or the tests' recording one) and fails, loopback included, instead of
  // reaching the developer's machine.
  "--proxy-bypass-list=<-loopback>",
  // WebRTC's UDP does not go through a proxy: with this policy it may use none but the proxy's.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** How long Chromium may take to print its DevTools address (a loaded CI runner can take many seconds). */
const START_TIMEOUT_MS = 30_000;

/** Starts Chromium, or answers null when there is none on this machine. */
export async function launchChromium(options: { proxy?: string } = {}): Promise<LocalChromium | null> {
  if (!existsSync(CHROMIUM_PATH)) return null;
  const profile = mkdtempSync(join(tmpdir(), "portico-chromium-"));
  const proxy = `--proxy-server=${options.proxy ?? "http://127.0.0.1:9"}`;
  const child = spawn(CHROMIUM_PATH, [...FLAGS, proxy, `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  // Chromium's helper processes may still write to the profile for a moment after it is
  // killed; the profile is a temporary folder, so a removal that fails is left to the OS
  // rather than failing the test run or the dev server's exit.
  const removeProfile = () => {
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {
      // left in the temporary folder
    }
  };
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    child.kill("SIGKILL");
    await exited;
    removeProfile();
  };
  // Vite and vitest exit through process.exit on Ctrl-C and SIGTERM, which fires "exit" (whose
  // handlers cannot wait: kill and remove what can be removed at once).
  process.once("exit", () => {
    child.kill("SIGKILL");
    removeProfile();
  });
  const cdpUrl = await new Promise<string | null>((resolve) => {
    let seen = "";
    const timer = setTimeout(() => resolve(null), START_TIMEOUT_MS);
    child.stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on ws:\/\/([\d.]+:\d+)\//.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}`);
      }
    });
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
  if (!cdpUrl) {
    await close();
    console.warn(`${CHROMIUM_PATH} did not start; HTML to PDF uses its embedded engine.`);
    return null;
  }
  return { cdpUrl, close };
}
