import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs a wrangler command of the project (never a remote one: every call here is --local). */
export async function runWrangler(args: string[]): Promise<string> {
  const { stdout } = await run(join("node_modules", ".bin", "wrangler"), args, {
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    maxBuffer: 10 * 1024 * 1024,
  });
  return stdout;
}

/** Runs one SQL query against the browser tests' local D1 and returns its rows. */
export async function queryD1<T>(stateDir: string, sql: string): Promise<T[]> {
  const stdout = await runWrangler([
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    stateDir,
    "--json",
    "--command",
    sql,
  ]);
  const [result] = JSON.parse(stdout) as { results: T[] }[];
  return result?.results ?? [];
}
