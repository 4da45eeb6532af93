/**
 * The engine Worker for the workerd tests: bundled from its source with esbuild and run as a
 * second Worker beside the app under test, which reaches it through its ENGINES service
 * binding, as in production.
 *
 * WebAssembly and data modules (`*.wasm`, `*.bin`) are copied beside the bundle and listed as
 * modules of their own, as wrangler uploads them: workerd compiles a `.wasm` module when the
 * Worker loads, and refuses to compile bytes at run time. (The vitest plugin takes modules
 * only as a list; module rules would describe unbundled sources.)
 */
import type { Plugin } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import type { cloudflareTest } from "@cloudflare/vitest-plugin";
import { bundleWorker } from "./bundle-worker.ts";

const CONFIG_PATH = "workers/engines/wrangler.toml";
// One folder per vitest process: two runs at once (two terminals) must not delete each other's bundle.
const OUT_DIR = path.resolve(`node_modules/.cache/portico-engines/${process.pid}`);

type PoolOptions = Exclude<NonNullable<Parameters<typeof cloudflareTest>[0]>, (...args: never[]) => unknown>;
type AuxiliaryWorker = NonNullable<NonNullable<PoolOptions["miniflare"]>["workers"]>[number];

/** Copies each imported `.wasm`/`.bin` beside the bundle and leaves the import to workerd. */
function binaryModules(copied: Map<string, "CompiledWasm" | "Data">): Plugin {
  return {
    name: "portico-binary-modules",
    setup(builder) {
      builder.onResolve({ filter: /\.(wasm|bin)(\?module)?$/ }, (args) => {
        const specifier = args.path.replace(/\?module$/, "");
        // A package's file (`@jsquash/webp/codec/enc/webp_enc_simd.wasm`) is found as Node finds it.
        const source = /^\.{0,2}\//.test(specifier)
          ? path.resolve(args.resolveDir, specifier)
          : createRequire(path.join(args.resolveDir, "index.js")).resolve(specifier);
        const name = path.basename(source);
        if (!copied.has(name)) {
          copyFileSync(source, path.join(OUT_DIR, name));
          copied.set(name, name.endsWith(".wasm") ? "CompiledWasm" : "Data");
        }
        return { path: `./${name}`, external: true };
      });
    },
  };
}

/** The engine Worker's options; `vars` override its wrangler.toml's (CHROMIUM_CDP_URL). */
export async function engineWorkerOptions(vars: Record<string, string>): Promise<AuxiliaryWorker> {
  const config = unstable_readConfig({ config: CONFIG_PATH });
  const { modulesRules: _unbundled, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions;
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  process.once("exit", () => rmSync(OUT_DIR, { recursive: true, force: true }));
  const scriptPath = path.join(OUT_DIR, "index.js");
  const copied = new Map<string, "CompiledWasm" | "Data">();
  await bundleWorker({ entry: "workers/engines/index.ts", outfile: scriptPath, plugins: [binaryModules(copied)] });
  return {
    ...(workerOptions as AuxiliaryWorker),
    name: config.name,
    rootPath: OUT_DIR,
    modules: [
      { type: "ESModule", path: scriptPath },
      ...[...copied].map(([name, type]) => ({ type, path: path.join(OUT_DIR, name) })),
    ],
    bindings: { ...(workerOptions.bindings as Record<string, unknown>), ...vars } as AuxiliaryWorker["bindings"],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
  };
}
