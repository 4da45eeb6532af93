/**
 * Starts the built app for the browser tests: applies the real migrations to a new local
 * state folder, then serves `build/` with `vite preview` on a free port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { runWrangler } from "./wrangler";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    stateDir: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited early:\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`vite preview did not answer within 60 s:\n${output()}`);
}

export default async function setup(project: TestProject) {
  const stateDir = mkdtempSync(join(tmpdir(), "portico-e2e-"));
  await runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir]);

  const port = await freePort();
  let output = "";
  const child = spawn(
    join("node_modules", ".bin", "vite"),
    ["preview", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    {
      env: { ...process.env, PORTICO_STATE_DIR: stateDir, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForServer(`${baseUrl}/api/admin/sidemenus/`, child, () => output);
  project.provide("baseUrl", baseUrl);
  project.provide("stateDir", stateDir);

  return () => {
    // The preview server runs workerd as a child: end the whole process group.
    if (child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
}
