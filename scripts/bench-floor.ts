/**
 * The platform's floor for `npm run bench`: a Worker whose fetch answers "ok" and does nothing
 * else, with the app's compatibility date and flags, served on loopback by Miniflare (the same
 * Miniflare the preview server runs the app in: one workerd, its entry worker and this Worker).
 * The bench starts it as a process group of its own, so the group's workerd CPU is the floor's
 * alone. Usage: node scripts/bench-floor.ts <port> <compatibility date> [flag,flag…]
 */
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const [port = "4322", compatibilityDate = "2026-10-01", flags = ""] = process.argv.slice(2);

const floor = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: Number(port),
    workers: [
      {
        name: "bench-floor",
        modules: true,
        script: 'export default { fetch() { return new Response("ok"); } };',
        compatibilityDate,
        compatibilityFlags: flags ? flags.split(",") : [],
      },
    ],
  }),
);
await floor.ready;
console.log(`floor Worker on http://127.0.0.1:${port}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void floor.dispose().then(() => process.exit(0)));
}
