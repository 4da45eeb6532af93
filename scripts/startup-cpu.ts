/**
 * A built Worker's startup CPU: what its isolate spends evaluating the top level before the
 * first request, from `wrangler check startup` (a workerd CPU profile taken on this machine;
 * Cloudflare's CPU differs, the proportions hold). `config` is the built Worker's wrangler.json.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

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
