import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import { preactAliases } from "./app/lib/react-shim/aliases.ts";
import { launchChromium } from "./scripts/chromium.ts";

// Browser tests run the built app on a state folder of their own, so a developer's local
// data and the tests never meet.
const stateDir = process.env.PORTICO_STATE_DIR;

// The local fakes (identity provider, PayPal, Cashfree, the bench route) are built into every
// build but production's: with the flag false the bundler drops the code only they reach, so
// the deployed Worker does not hold them at all (workers/providers/fakes.ts).
const fakes = process.env.CLOUDFLARE_ENV !== "production";

/**
 * Fails the build (and the dev server's page) when server code would reach the browser: no
 * module under workers/ may be part of the client bundle. A route module may import workers/
 * in its loader and action, which React Router strips from the client build with their
 * imports; what a component needs lives in app/lib/ (README, Layout).
 */
function serverCodeStaysOnServer(): Plugin {
  const workers = path.resolve("workers") + path.sep;
  const leaks = new Set<string>();
  return {
    name: "portico:server-code-stays-on-server",
    // Before the other resolvers: the first plugin to resolve an import ends the hook.
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    async resolveId(source, importer, options) {
      // Reported where the boundary is crossed: an app/ module importing workers/.
      if (!importer || importer.startsWith(workers)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved?.id.startsWith(workers)) return resolved;
      const leak = `${path.relative(".", importer)} imports ${path.relative(".", resolved.id)}`;
      if (this.environment.mode === "dev") this.error(`Server code would reach the browser: ${leak}`);
      leaks.add(leak);
      return resolved;
    },
    buildEnd() {
      if (leaks.size === 0) return;
      this.error(
        `Server code would reach the browser:\n  ${[...leaks].join("\n  ")}\n` +
          "Move what a component needs to app/lib/ (which imports nothing from workers/), or use it only in a loader or action.",
      );
    },
  };
}

export default defineConfig(async ({ command, isPreview }) => ({
  server: { port: Number(process.env.PORT ?? 5173), strictPort: true },
  preview: { port: Number(process.env.PORT ?? 4173), strictPort: true },
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // The payment-webhook Worker runs beside the app, on the same local D1 and KV.
      // The engine Worker (HTML to PDF, OCR, résumés) too; `vite dev` gives it the machine's
      // Chromium, if any, so a page prints as Browser Rendering prints it in production.
      auxiliaryWorkers: [
        { configPath: "./workers/webhooks/wrangler.toml" },
        { configPath: "./workers/engines/wrangler.toml", config: { vars: await engineVars(command, isPreview) } },
      ],
      persistState: stateDir ? { path: stateDir } : true,
      ...(stateDir ? { inspectorPort: false as const } : {}),
    }),
    tailwindcss(),
    reactRouter(),
    serverCodeStaysOnServer(),
  ],
  // `react` is Preact (app/lib/react-shim/aliases.ts).
  resolve: { tsconfigPaths: true, alias: preactAliases },
  define: { __DEV_FAKES__: JSON.stringify(fakes) },
}));

/**
 * The engine Worker's local browser: started for `vite dev` only. A build or `vite preview`
 * (the browser tests, the bench) keeps the configured value, empty unless changed.
 */
async function engineVars(command: "build" | "serve", isPreview: boolean | undefined): Promise<Record<string, string>> {
  if (command !== "serve" || isPreview || process.env.VITEST) return {};
  const chromium = await launchChromium();
  return chromium ? { CHROMIUM_CDP_URL: chromium.cdpUrl } : {};
}
