/**
 * What the build reports read from a built Worker (report-worker-size.ts, report-engine-worker.ts).
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every file a build wrote under `dir`, but Vite's own manifest folder. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === ".vite" ? [] : filesUnder(path);
    return [path];
  });
}

/**
 * A built Worker's startup CPU: what its isolate spends evaluating the top level before the
 * first request, from `wrangler check startup` (a workerd CPU profile taken on this machine;
 * Cloudflare's CPU differs, the proportions hold). `config` is the built Worker's wrangler.json.
 */
export function startupCpuMs(config: string, profile: string): number {
  const output = execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["check", "startup", `--args=-c ${config}`, "--outfile", profile],
    { encoding: "utf8", env: { ...process.env, CI: "true" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const active = /Active: ([\d.]+) ms/.exec(output)?.[1];
  if (!active) throw new Error(`wrangler check startup printed no startup figure:\n${output}`);
  return Number(active);
}
