/**
 * How the Worker reaches its local fakes (the identity provider, PayPal, Cashfree): only
 * through `loadFakes()`, whose `import()` sits behind the build-time flag
 * `__DEV_FAKES__`. A production build (CLOUDFLARE_ENV=production, see
 * vite.config.ts) sets it false, so the bundler drops the fakes' module and everything only it
 * imports: production does not refuse the fakes at run time alone, it does not hold them.
 */
import type * as FakeProviders from "./fake-providers";

export type { FakeProviders };

const NOT_BUILT =
  "This build leaves the local fakes out (CLOUDFLARE_ENV=production): configure the real providers.";

/** The fakes' module, loaded on first use; a build without them refuses here. */
export function loadFakes(): Promise<typeof FakeProviders> {
  return __DEV_FAKES__ ? import("./fake-providers") : Promise.reject(new Error(NOT_BUILT));
}

/**
 * A `fetch` that makes the real one on its first call: a client can be built synchronously
 * around a fake whose module is loaded only when the client first talks to it.
 */
export function lazyFetch(make: (fakes: typeof FakeProviders) => typeof fetch): typeof fetch {
  let made: Promise<typeof fetch> | undefined;
  return async (input, init) => (await (made ??= loadFakes().then(make)))(input, init);
}
