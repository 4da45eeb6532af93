/**
 * Which source modules a built Worker's startup CPU goes to: reads the CPU profile
 * `wrangler check startup` wrote and the build's source maps, and charges every sample's self
 * time to the source file its line came from (a zod schema built at import time shows as zod's
 * files; a big table as the module holding it). report-worker-size.ts prints the top of it
 * after the startup figure, so whoever moves that figure sees where it goes.
 *
 * workerd samples about once a millisecond, so one startup is some 40-80 samples: a module under
 * 2 ms may be noise, and on a busy machine the wait before the first sample lands in
 * "(program)". Give several profiles to average them:
 *
 *   node scripts/startup-profile.ts build/server a.cpuprofile b.cpuprofile c.cpuprofile
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { join, normalize, relative } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  /** Self samples per 1-based line of the script, when V8 kept them. */
  positionTicks?: { line: number; ticks: number }[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ModuleCost {
  /** A source file relative to the repository (`node_modules/zod/v4/core/schemas.js`), or a V8 pseudo-frame. */
  module: string;
  /** Self time in ms, averaged over the profiles. */
  ms: number;
}

/** A built script's source map and lines, read once. */
interface Script {
  map: SourceMap | null;
  lines: string[];
}

/**
 * Self time per source module, largest first, averaged over `profiles` (idle left out).
 * `serverDir` is where the profiled Worker was built (build/server): the profile names its
 * scripts relative to it.
 */
export function startupByModule(serverDir: string, profiles: string[]): ModuleCost[] {
  const scripts = new Map<string, Script | null>();
  const totals = new Map<string, number>();
  const charge = (module: string, ms: number) => totals.set(module, (totals.get(module) ?? 0) + ms);

  for (const file of profiles) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    // A sample's time is the gap since the one before, as wrangler counts its Active figure,
    // so the table adds up to that figure.
    const selfMs = new Map<number, number>();
    const samples = new Map<number, number>();
    profile.samples.forEach((id, index) => {
      selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
      samples.set(id, (samples.get(id) ?? 0) + 1);
    });
    for (const [id, ms] of selfMs) {
      const node = nodes.get(id);
      if (!node || ms === 0) continue;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      if (functionName === "(idle)") continue;
      if (!url) {
        charge(functionName || "(anonymous)", ms);
        continue;
      }
      const script = scriptOf(scripts, serverDir, url);
      // The lines where samples fell, where V8 kept them. A bundle's top level is one function
      // for every module scope-hoisted into it, so only a line tells its modules apart; its
      // samples without one (V8 compiling, building literals) are charged to the script's top level.
      const count = samples.get(id) ?? 1;
      const ticks = node.positionTicks ?? [];
      const lined = Math.min(
        count,
        ticks.reduce((sum, tick) => sum + tick.ticks, 0),
      );
      for (const tick of ticks) {
        const column = tick.line === lineNumber + 1 ? columnNumber : undefined;
        charge(sourceAt(script, url, tick.line - 1, column), (ms * tick.ticks) / Math.max(count, lined));
      }
      if (lined >= count) continue;
      const rest = (ms * (count - lined)) / count;
      if (lineNumber < 0) charge(`${url.replace(/^.*\//, "")} (top level, line unknown)`, rest);
      else charge(sourceAt(script, url, lineNumber, columnNumber), rest);
    }
  }
  return [...totals].map(([module, ms]) => ({ module, ms: ms / profiles.length })).sort((a, b) => b.ms - a.ms);
}

function scriptOf(scripts: Map<string, Script | null>, serverDir: string, url: string): Script | null {
  if (scripts.has(url)) return scripts.get(url) ?? null;
  // workerd names a module by its path under the Worker's directory, after a root of its own.
  const path = join(serverDir, url.replace(/^.*?\/(?=(assets\/)?[^/]+\.m?js$)/, ""));
  let script: Script | null = null;
  try {
    const lines = readFileSync(path, "utf8").split("\n");
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8")));
    } catch {
      // No map: the script is charged as itself.
    }
    script = { map, lines };
  } catch {
    // Not a file of the build (workerd's own shims).
  }
  scripts.set(url, script);
  return script;
}

/** The source file of a 0-based line (at `column`, or its first non-blank character). */
function sourceAt(script: Script | null, url: string, line: number, column?: number): string {
  const own = url.replace(/^.*\//, "");
  if (!script?.map || line < 0) return own;
  const text = script.lines[line] ?? "";
  const at = column ?? Math.max(0, text.search(/\S/));
  const entry = script.map.findEntry(line, at) as { originalSource?: string };
  if (!entry.originalSource) return own;
  // Sources are relative to the map's folder (`../../../node_modules/zod/…`); name them from the repository.
  const source = normalize(entry.originalSource.replace(/^[a-z]+:\/\//, ""));
  const repo = source.indexOf("node_modules/");
  if (repo >= 0) return source.slice(repo);
  return relative(".", join(process.cwd(), source.replace(/^(\.\.\/)+/, "")));
}

/** The table report-worker-size.ts prints: the top `count` modules, with the share of the whole. */
export function formatStartupTable(costs: ModuleCost[], count: number): string {
  const total = costs.reduce((sum, cost) => sum + cost.ms, 0);
  const rows = costs
    .slice(0, count)
    .map(
      (cost) =>
        `  ${cost.ms.toFixed(1).padStart(6)} ms ${((100 * cost.ms) / total).toFixed(0).padStart(3)}%  ${cost.module}`,
    );
  return [`Startup CPU by source module (self time, ${total.toFixed(1)} ms sampled):`, ...rows].join("\n");
}

if (import.meta.main) {
  const [serverDir = "build/server", ...profiles] = process.argv.slice(2);
  if (profiles.length === 0) profiles.push(join("build", "startup.cpuprofile"));
  console.log(formatStartupTable(startupByModule(serverDir, profiles), Number(process.env.TOP ?? 15)));
}
