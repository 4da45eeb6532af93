/**
 * Vitest global setup: one Chromium for the whole run, whose DevTools address the engine
 * Worker receives as CHROMIUM_CDP_URL (vitest.config.ts), so the HTML-to-PDF tests print
 * through the same browser engine path production uses. Empty when the machine has none (the
 * browser tests then skip and the embedded engine's still run); a Chromium that is there but
 * does not start fails the run.
 */
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { CHROMIUM_PATH, launchChromium } from "../../scripts/chromium.ts";

declare module "vitest" {
  export interface ProvidedContext {
    chromiumCdpUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const chromium = await launchChromium();
  // A Chromium that is installed but does not start would skip every browser test and leave
  // the run green (as on a CI runner whose chromium broke): that fails the run instead.
  if (!chromium && existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} exists but did not start, so the browser PDF tests cannot run. Fix it, or point CHROMIUM_PATH at a working Chromium.`,
    );
  }
  project.provide("chromiumCdpUrl", chromium?.cdpUrl ?? "");
  return async () => {
    await chromium?.close();
  };
}
