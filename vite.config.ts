import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// Browser tests run the built app on a state folder of their own, so a developer's local
// data and the tests never meet.
const stateDir = process.env.PORTICO_STATE_DIR;

// The local fakes (identity provider, PayPal, Cashfree, the bench route) are built into every
// build but production's: with the flag false the bundler drops the code only they reach, so
// the deployed Worker does not hold them at all (workers/providers/fakes.ts).
const fakes = process.env.CLOUDFLARE_ENV !== "production";

export default defineConfig({
  server: { port: Number(process.env.PORT ?? 5173), strictPort: true },
  preview: { port: Number(process.env.PORT ?? 4173), strictPort: true },
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // The payment-webhook Worker runs beside the app, on the same local D1 and KV.
      auxiliaryWorkers: [{ configPath: "./workers/webhooks/wrangler.toml" }],
      persistState: stateDir ? { path: stateDir } : true,
      ...(stateDir ? { inspectorPort: false as const } : {}),
    }),
    tailwindcss(),
    reactRouter(),
  ],
  resolve: { tsconfigPaths: true },
  define: { __DEV_FAKES__: JSON.stringify(fakes) },
});
