/**
 * Writes the Location API's flag images into public/flags/, which the build copies to the static
 * assets Cloudflare serves without running the Worker (docs/decisions/045-country-facts-from-cldr-and-flag-assets.md):
 *
 *   public/flags/svg/<cca2>.svg   flag-icons' 4x3 SVG, byte for byte
 *   public/flags/w320/<cca2>.png  that SVG rendered 320 px wide (240 high) by resvg, like flagcdn's w320
 *   public/flags/LICENSE          flag-icons' MIT licence, which must travel with the copies
 *
 * One file per world-countries country (250, Kosovo's xk included); alpha-2 lower case, as
 * flag-icons and flagcdn name them. The output is committed; run this again after updating
 * flag-icons (`npm run build:flags`). `--check` writes nothing and fails when a file is missing or
 * differs from what this script would write, so a stale copy is caught.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import countries from "world-countries";

const SOURCE = "node_modules/flag-icons/flags/4x3";
const OUT = "public/flags";
const PNG_WIDTH = 320;

const check = process.argv.includes("--check");
const started = performance.now();
await initWasm(readFileSync("node_modules/@resvg/resvg-wasm/index_bg.wasm"));

const outputs = new Map<string, Uint8Array>();
outputs.set(join(OUT, "LICENSE"), readFileSync("node_modules/flag-icons/LICENSE"));
for (const { cca2 } of countries) {
  const code = cca2.toLowerCase();
  const svg = readFileSync(join(SOURCE, `${code}.svg`));
  outputs.set(join(OUT, "svg", `${code}.svg`), svg);
  // No flag-icons flag has <text> or external images, so no font or resource is needed.
  const png = new Resvg(svg, { fitTo: { mode: "width", value: PNG_WIDTH } }).render().asPng();
  outputs.set(join(OUT, `w${PNG_WIDTH}`, `${code}.png`), png);
}

const stale: string[] = [];
let bytes = 0;
for (const [path, content] of outputs) {
  bytes += content.length;
  const same = existsSync(path) && Buffer.compare(readFileSync(path), content) === 0;
  if (same) continue;
  if (check) {
    stale.push(path);
    continue;
  }
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (stale.length > 0) {
  console.error(`${stale.length} flag files are missing or stale (first: ${stale[0]}); run npm run build:flags.`);
  process.exit(1);
}
console.log(`flags: ${outputs.size} files, ${(bytes / 1024).toFixed(0)} KiB, ${seconds} s${check ? " (checked)" : ""}`);
