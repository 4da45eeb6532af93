/**
 * What the build reports read from a built Worker (report-worker-size.ts, report-engine-worker.ts).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

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

/**
 * The modules a built Worker evaluates before its first request: its main module and every
 * module it imports statically, at any depth (paths under `dir`). A module reached only by
 * `import()` is left out: it loads when a request first needs it.
 */
export function startupModules(dir: string, main = "index.js"): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    if (!/\.m?js$/.test(path)) return;
    // Bundler output: every static import or re-export is a statement of its own, at a line's start.
    const code = readFileSync(path, "utf8");
    for (const [, , specifier] of code.matchAll(/^(import|export)\b[^;"'`]*?["']([^"']+)["']/gm)) {
      if (specifier?.startsWith(".")) visit(join(dirname(path), specifier));
    }
  };
  visit(join(dir, main));
  return [...seen];
}

/** The source files a built module holds, from its source map (none without one). */
export function sourcesOf(path: string): string[] {
  try {
    const map = JSON.parse(readFileSync(`${path}.map`, "utf8")) as { sources: string[] };
    return map.sources.map((source) => source.replace(/^(\.\.\/)+/, ""));
  } catch {
    return [];
  }
}
