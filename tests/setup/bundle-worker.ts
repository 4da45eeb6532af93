/**
 * Bundles a second Worker's source for the workerd tests with esbuild, as wrangler would: one
 * ES module for workerd, with the local fakes built in (vite.config.ts builds them outside
 * production) and Node's modules left to workerd's nodejs_compat, by either name.
 */
import { build, type Plugin } from "esbuild";
import { builtinModules } from "node:module";
import path from "node:path";

export async function bundleWorker(options: { entry: string; outfile: string; plugins?: Plugin[] }): Promise<void> {
  await build({
    entryPoints: [path.resolve(options.entry)],
    outfile: options.outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    // @cloudflare/puppeteer imports bare `path` and `fs/promises`.
    external: ["cloudflare:*", "node:*", ...builtinModules, ...builtinModules.map((name) => `${name}/*`)],
    plugins: options.plugins ?? [],
    tsconfig: "tsconfig.json",
    define: { __DEV_FAKES__: "true" },
    logLevel: "warning",
  });
}
