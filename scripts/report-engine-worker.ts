/**
 * Prints the engine Worker's size and startup, after `npm run build` has written it to
 * dist/portico_engines (workers/engines; decision 055):
 *
 * - size: the modules wrangler uploads (JavaScript, WebAssembly, the OCR models), raw and gzip,
 *   and the largest of them;
 * - startup: the CPU its isolate spends evaluating the Worker's top level, from
 *   `wrangler check startup` (a local workerd profile; Cloudflare's CPU differs, the proportions
 *   hold). Each engine's own modules are imported on first use and are not in this figure: the
 *   bench reports a first call per engine.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { filesUnder, startupCpuMs } from "./built-worker.ts";

const DIR = "dist/portico_engines";
const CONFIG = join(DIR, "wrangler.json");

const modules = filesUnder(DIR).filter((file) => /\.(m?js|wasm|bin)$/.test(file));
if (modules.length === 0) throw new Error(`No engine Worker in ${DIR}: run the build first.`);
const contents = modules.map((file) => readFileSync(file));
const raw = contents.reduce((total, content) => total + content.length, 0);
const gzip = gzipSync(Buffer.concat(contents)).length;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const largest = modules
  .map((file) => ({ file: file.slice(DIR.length + 1), size: statSync(file).size }))
  .sort((a, b) => b.size - a.size)
  .slice(0, 4)
  .map(({ file, size }) => `${file} ${mib(size)}`)
  .join(", ");
console.log(`Engine Worker: ${mib(raw)} raw, ${mib(gzip)} gzip in ${modules.length} modules (largest: ${largest})`);

const startup = startupCpuMs(CONFIG, join(DIR, "..", "engines-startup.cpuprofile"));
console.log(`Engine Worker startup: ${startup} ms of CPU (wrangler check startup, this machine)`);
