/**
 * Prints the size of the Worker `react-router build` left in build/server: the JavaScript and
 * WebAssembly modules wrangler uploads, raw and gzip (gzip over all of them, as wrangler
 * counts it). `npm run build` runs it after a production build (CLOUDFLARE_ENV=production), so
 * the figure is the deployed Worker's.
 *
 * For a production build it also prints the Worker's startup CPU (scripts/built-worker.ts) and
 * the source modules it goes to (scripts/startup-profile.ts), and fails when the startup path (what
 * the Worker evaluates before its first request) holds a hosted API's definition or WebAssembly:
 * each API's schemas and engines load on its first call (decision 064), and one static import
 * would quietly bring them all back into every cold start.
 *
 * A production build must not hold the local fakes (vite.config.ts leaves them out with the
 * __DEV_FAKES__ flag): the build's source maps name every module in it, and this fails when
 * one of them is a fake, so the flag cannot quietly stop working.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { filesUnder, sourcesOf, startupCpuMs, startupModules } from "./built-worker.ts";
import { formatStartupTable, startupByModule } from "./startup-profile.ts";

const SERVER_DIR = "build/server";
/** The fakes and the bench route; `workers/providers/fakes.ts`, which only loads them, may stay. */
const DEVELOPMENT_ONLY = /workers\/(providers\/(.+\/)?fake[-.]|gateway\/bench-route\.)/;
/** A hosted API's definition (`workers/hosted/<slug>/index.ts`), which brings its schemas and engines. */
const HOSTED_DEFINITION = /^workers\/hosted\/[^_/][^/]*\/index\.ts$/;

const files = filesUnder(SERVER_DIR);
const modules = files.filter((file) => /\.(m?js|wasm)$/.test(file));
if (modules.length === 0) throw new Error(`No Worker in ${SERVER_DIR}: run the build first.`);

const contents = modules.map((file) => readFileSync(file));
const raw = contents.reduce((total, content) => total + content.length, 0);
const gzip = gzipSync(Buffer.concat(contents)).length;

const { targetEnvironment } = JSON.parse(readFileSync(join(SERVER_DIR, "wrangler.json"), "utf8")) as {
  targetEnvironment?: string;
};
const environment = targetEnvironment ?? "development";
const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
console.log(`Worker (${environment}): ${kib(raw)} raw, ${kib(gzip)} gzip in ${modules.length} modules`);

if (environment === "production") {
  const sources = files
    .filter((file) => file.endsWith(".js.map"))
    .flatMap((file) => (JSON.parse(readFileSync(file, "utf8")) as { sources: string[] }).sources);
  const fakes = [...new Set(sources.filter((source) => DEVELOPMENT_ONLY.test(source)))];
  if (fakes.length > 0) {
    console.error(`The production Worker holds development-only code:\n  ${fakes.join("\n  ")}`);
    console.error("Reach it only through loadFakes() (workers/providers/fakes.ts) or behind __DEV_FAKES__.");
    process.exit(1);
  }
  console.log("No local fake or bench route in the production Worker.");
  const startupPath = startupModules(SERVER_DIR);
  const heavy = [
    ...startupPath.filter((file) => file.endsWith(".wasm")).map((file) => relative(SERVER_DIR, file)),
    ...new Set(startupPath.flatMap(sourcesOf).filter((source) => HOSTED_DEFINITION.test(source))),
  ];
  if (heavy.length > 0) {
    console.error(`The Worker's startup path holds what only a hosted API's call needs:\n  ${heavy.join("\n  ")}`);
    console.error(
      "Reach a definition through loadDefinition() (workers/hosted/definitions.ts), an engine through import().",
    );
    process.exit(1);
  }
  console.log(`No hosted API's definition and no WebAssembly in the startup path (${startupPath.length} modules).`);
  // Every cold isolate at every location pays this on a user's request (#17's goal: 50 ms).
  const profile = join("build", "startup.cpuprofile");
  const startup = startupCpuMs(join(SERVER_DIR, "wrangler.json"), profile);
  console.log(`Worker startup: ${startup} ms of CPU (wrangler check startup, this machine; goal 50 ms)`);
  console.log(formatStartupTable(startupByModule(SERVER_DIR, [profile]), 15));
}
