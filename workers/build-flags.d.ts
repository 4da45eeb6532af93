/**
 * Constants the build writes into the code (`define` in vite.config.ts, vitest.config.ts and
 * tests/setup/webhook-worker.ts).
 */

/** Whether this build holds the local fakes: false for CLOUDFLARE_ENV=production. */
declare const __DEV_FAKES__: boolean;
