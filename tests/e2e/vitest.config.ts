/**
 * Browser tests: the built app served by `vite preview` (workerd with local D1) on a fresh
 * state folder, driven by playwright-core in Debian's Chromium. `npm run build` must have run.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.e2e.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    environment: "node",
    // One browser and one server on a 2-core machine: files run one after another.
    fileParallelism: false,
    // A journey signs up, makes a key and visits several pages on a shared 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
