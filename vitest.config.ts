/**
 * Unit and integration tests, inside workerd through Miniflare: real D1, KV and (later)
 * Durable Objects, with the real migrations applied. Browser tests have their own config
 * (tests/e2e/vitest.config.ts) because they run in Node against the built app.
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vitest/config";
import { preactAliases } from "./app/lib/react-shim/aliases.ts";
import { engineWorkerOptions } from "./tests/setup/engine-worker.ts";
import { webhookWorkerOptions } from "./tests/setup/webhook-worker.ts";

export default defineConfig(async () => {
  const [migrations, webhookWorker] = await Promise.all([readD1Migrations("migrations"), webhookWorkerOptions()]);
  return {
    plugins: [
      // A function, so it runs after the global setup has started Chromium (tests/setup/chromium.ts).
      cloudflareTest(async ({ inject }) => ({
        main: "./workers/app.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { TEST_MIGRATIONS: migrations },
          // The engine Worker's OCR model bucket, bound here too so tests can fill it (tests/ocr-models.ts).
          r2Buckets: { OCR_MODELS: "portico-ocr-models" },
          workers: [webhookWorker, await engineWorkerOptions({ CHROMIUM_CDP_URL: inject("chromiumCdpUrl") })],
        },
      })),
      // Page requests need React Router's server build, which its plugin provides.
      tailwindcss(),
      reactRouter(),
    ],
    // Components render with Preact here too, as they ship (app/lib/react-shim/aliases.ts).
    resolve: { tsconfigPaths: true, alias: preactAliases },
    // Tests run against the local fakes (see vite.config.ts).
    define: { __DEV_FAKES__: "true" },
    test: {
      include: ["app/**/*.test.{ts,tsx}", "workers/**/*.test.ts", "tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/setup/apply-migrations.ts"],
      // One Chromium for the run: the engine Worker's local browser (HTML to PDF); and the OCR
      // models, served on loopback for the tests to put into the engine Worker's bucket.
      globalSetup: ["./tests/setup/chromium.ts", "./tests/setup/ocr-models.ts"],
      // One runner for all files. With a fresh runner per file, workerd (Nov 2026) drops the
      // pool's WebSocket with 1009 "Message is too large" once a third runner loads the app's
      // module graph, and every file after that fails. Tests make their own random data, so
      // sharing storage between files changes nothing they assert.
      isolate: false,
      // The first page request compiles the app inside the test run; later ones are fast.
      testTimeout: 60_000,
    },
  };
});
