/**
 * Vitest global setup: one Chromium for the whole run, whose DevTools address the engine
 * Worker receives as CHROMIUM_CDP_URL (vitest.config.ts), so the HTML-to-PDF tests print
 * through the same browser engine path production uses. Empty when the machine has none; the
 * browser tests then skip and the embedded engine's still run.
 */
import type { TestProject } from "vitest/node";
import { launchChromium } from "../../scripts/chromium.ts";

declare module "vitest" {
  export interface ProvidedContext {
    chromiumCdpUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const chromium = await launchChromium();
  project.provide("chromiumCdpUrl", chromium?.cdpUrl ?? "");
  return async () => {
    await chromium?.close();
  };
}
