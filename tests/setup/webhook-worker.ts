/**
 * The webhook Worker for the workerd tests: bundled from its source with esbuild (as wrangler
 * does) and run as a second Worker beside the app under test, with the bindings of its own
 * wrangler.toml. Both Workers name the same D1 and KV ids, so Miniflare gives them the same
 * storage, as in production; the app reaches it through its WEBHOOKS service binding.
 */
import path from "node:path";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";

const CONFIG_PATH = "workers/webhooks/wrangler.toml";

/**
 * The Worker under test runs as the vitest plugin's runner (`vitest-plugin-runner-<project
 * name>`, and this config names no project), not under its configured name "portico", and the
 * plugin repoints only the tested Worker's own bindings. The webhook Worker's binding to the
 * app's Meter class is pointed at the runner here, so both Workers reach the same Meters.
 */
const APP_UNDER_TEST = "vitest-plugin-runner-";

import type { cloudflareTest } from "@cloudflare/vitest-plugin";
import { bundleWorker } from "./bundle-worker.ts";

/** One entry of the pool's `miniflare.workers`, as the vitest plugin types it. */
type PoolOptions = Exclude<NonNullable<Parameters<typeof cloudflareTest>[0]>, (...args: never[]) => unknown>;
type AuxiliaryWorker = NonNullable<NonNullable<PoolOptions["miniflare"]>["workers"]>[number];

export async function webhookWorkerOptions(): Promise<AuxiliaryWorker> {
  const config = unstable_readConfig({ config: CONFIG_PATH });
  // Module rules describe unbundled sources; the script below is one bundled module.
  const { modulesRules: _unbundled, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions;
  const scriptPath = path.resolve("node_modules/.cache/portico-webhooks/index.js");
  await bundleWorker({ entry: "workers/webhooks/index.ts", outfile: scriptPath });
  // wrangler and the vitest plugin each bundle a Miniflare; their option types differ only in
  // options this Worker does not use.
  const durableObjects = Object.fromEntries(
    Object.entries(workerOptions.durableObjects ?? {}).map(([binding, designator]) => [
      binding,
      typeof designator === "object" && designator.scriptName === "portico"
        ? { ...designator, scriptName: APP_UNDER_TEST }
        : designator,
    ]),
  );
  return {
    ...(workerOptions as AuxiliaryWorker),
    durableObjects: durableObjects as AuxiliaryWorker["durableObjects"],
    name: config.name,
    // Module names are relative to the root, and workerd refuses "..": root the bundle's folder.
    rootPath: path.dirname(scriptPath),
    modules: true,
    scriptPath,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
  };
}
