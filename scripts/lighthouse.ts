/**
 * `npm run lighthouse`: Lighthouse 13 (mobile: its default config, simulated slow 4G and 4× CPU)
 * on the home page, pricing, a docs page and the dashboard signed in, against the build served
 * locally the way Cloudflare's edge serves it. A benchmark, not a test: it exits 0 whatever the
 * scores, and non-zero only when something failed to run.
 *
 * What is served: the regular `react-router build` (the one `vite preview` serves, as the browser
 * tests and the bench use it), not the CLOUDFLARE_ENV=production build: that one carries
 * production's configuration, which the Worker refuses to run with the local development
 * settings (workers/config.ts), and it needs production's bindings. The two builds are the same
 * Vite production build of the same code, minified alike; the regular one also contains the
 * local fakes (identity provider, mail outbox, payment stand-ins), which only their own routes
 * reach: none of the measured pages loads them. LIGHTHOUSE_SKIP_BUILD=1 reuses `build/`.
 *
 * How it is served: `vite preview` on loopback over a fresh local state (the migrations applied
 * to a temporary folder, as the browser tests do), behind a small proxy that does what the edge
 * does in front of the Worker:
 * - compression: Cloudflare compresses responses of its listed content types (HTML, CSS,
 *   JavaScript, JSON, SVG, fonts, wasm…; not raster images) with Brotli when the browser accepts
 *   it, else gzip, for 2xx and 403/404 answers, and weakens a strong ETag when it does. The
 *   Worker and the assets are asked for identity encoding, as the edge receives them.
 *   (vite preview's own gzip middleware sits after the Cloudflare plugin's handler and never
 *   sees these responses.)
 * - caching headers: production adds none of its own. The Worker sets Cache-Control where it
 *   means to, and static assets get Workers Static Assets' defaults (`public, max-age=0,
 *   must-revalidate` with an ETag), which vite preview's asset serving applies too: it is the
 *   same asset Worker, run in Miniflare. A `public/_headers` file would be production's rules
 *   for assets, and vite preview applies it only behind an experimental switch; so when the
 *   build has one (`build/client/_headers`), the proxy applies that file's rules to asset
 *   responses, as production would — the same file, not a copy of its rules.
 * Left as they are: the edge speaks HTTP/2 or 3 over TLS, this HTTP/1.1 on plain http (Lighthouse
 * simulates the connections it observes, so this costs more connections and no TLS round trips:
 * small, and in opposite directions); and vite preview's own CORS middleware adds `Vary: Origin`,
 * which the edge does not and which no audit reads.
 *
 * The dashboard is measured signed in: an account is made as the browser tests make one (sign
 * up, open the confirmation link from the development outbox) and its session cookie is sent
 * with that page's requests only.
 *
 * The browser is Debian's Chromium (scripts/chromium.ts's CHROMIUM_PATH); nothing downloads a
 * browser. Each page is fetched once before it is measured, so a page's first server render
 * (module compilation in workerd) is not what Lighthouse times. Each page is measured
 * LIGHTHOUSE_RUNS times (3 by default) and the run Lighthouse calls the median is printed.
 * Reports (JSON and HTML, every run) are written to node_modules/.cache/lighthouse/<time>/.
 * Everything started here is stopped on the way out.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent, createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { pipeline } from "node:stream";
import { constants as zlib, createBrotliCompress, createGzip } from "node:zlib";
import lighthouse, { type Flags, type RunnerResult } from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { runWrangler } from "../tests/e2e/wrangler.ts";
import { CHROMIUM_PATH } from "./chromium.ts";

type Report = RunnerResult["lhr"];

const PAGES: { name: string; path: string; signedIn?: boolean }[] = [
  { name: "home", path: "/" },
  // The country is fixed as the browser tests fix it: locally no edge tells the Worker where the
  // visitor is.
  { name: "pricing", path: "/user/subscription?country=US" },
  { name: "docs", path: "/docs/api/qrcode" },
  { name: "dashboard", path: "/user/dashboard", signedIn: true },
];

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const METRICS: [id: string, label: string][] = [
  ["first-contentful-paint", "FCP"],
  ["largest-contentful-paint", "LCP"],
  ["total-blocking-time", "TBT"],
  ["cumulative-layout-shift", "CLS"],
  ["speed-index", "SI"],
];

// The same flags as the browser tests' Chromium: nothing outside loopback, no updates, no sync.
const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
  "--remote-debugging-port=0",
];

const BIN = join("node_modules", ".bin");
// Lighthouse's performance score moves by several points between runs on a busy machine (its
// simulation starts from the real, unthrottled trace); the median of three is what it advises
// for a figure worth comparing (LIGHTHOUSE_RUNS=1 for a quick look).
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3) || 1);
const CLIENT_DIR = resolve("build", "client");

// Cloudflare's list of the content types it compresses (developers.cloudflare.com/speed/
// optimization/content/compression/): raster images, audio, video and archives are not on it,
// nor is application/problem+json, so the API's error bodies go out as the edge sends them.
const COMPRESSIBLE = new Set([
  "text/html",
  "text/richtext",
  "text/plain",
  "text/css",
  "text/x-script",
  "text/x-component",
  "text/x-java-source",
  "text/x-markdown",
  "application/javascript",
  "application/x-javascript",
  "text/javascript",
  "text/js",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  "application/x-perl",
  "application/x-httpd-cgi",
  "text/xml",
  "application/xml",
  "application/rss+xml",
  "application/vnd.api+json",
  "application/x-protobuf",
  "application/json",
  "multipart/bag",
  "multipart/mixed",
  "application/xhtml+xml",
  "font/ttf",
  "font/otf",
  "font/x-woff",
  "image/svg+xml",
  "application/vnd.ms-fontobject",
  "application/ttf",
  "application/x-ttf",
  "application/otf",
  "application/x-otf",
  "application/truetype",
  "application/opentype",
  "application/x-opentype",
  "application/font-woff",
  "application/eot",
  "application/font",
  "application/font-sfnt",
  "application/wasm",
  "application/javascript-binast",
  "application/manifest+json",
  "application/ld+json",
  "application/graphql+json",
  "application/geo+json",
]);

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createNetServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited early:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`vite preview did not answer within 90 s:\n${output()}`);
}

/**
 * Ends a child started in a process group of its own, with its children (vite preview's workerd,
 * Chromium's helpers): SIGTERM, then SIGKILL if the group is still there after 5 s.
 */
async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid) return;
  const pid = child.pid;
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-pid, name);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  if (!signal("SIGTERM")) return;
  for (let waited = 0; waited < 5_000; waited += 100) {
    await new Promise((done) => setTimeout(done, 100));
    if (!signal(0)) return;
  }
  signal("SIGKILL");
}

// ---- `_headers`: production's rules for static assets, when the build has them ----------------

interface HeaderRule {
  pattern: RegExp;
  set: [name: string, value: string][];
  unset: string[];
}

/**
 * Reads a Cloudflare `_headers` file (developers.cloudflare.com/workers/static-assets/headers/):
 * a path pattern on its own line (`*` matches anything, `:name` one segment), then indented
 * `Name: value` lines, or `! Name` to remove a header. Rules for absolute URLs name production's
 * hosts, which loopback never is: they are skipped.
 */
function readHeaderRules(file: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  let current: HeaderRule | null = null;
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      const path = line.trim();
      current = null;
      if (!path.startsWith("/")) continue;
      const source = path
        .split(/(\*|:[A-Za-z]\w*)/)
        .map((part) =>
          part === "*" ? ".*" : part.startsWith(":") ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
        )
        .join("");
      current = { pattern: new RegExp(`^${source}$`), set: [], unset: [] };
      rules.push(current);
      continue;
    }
    if (!current) continue;
    const text = line.trim();
    if (text.startsWith("!")) {
      current.unset.push(text.slice(1).trim().toLowerCase());
      continue;
    }
    const colon = text.indexOf(":");
    if (colon > 0) current.set.push([text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim()]);
  }
  return rules;
}

/** Whether a path is a file of the built assets (what the asset Worker, not the app, answers). */
function isAsset(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const file = resolve(CLIENT_DIR, `.${decoded}`);
  if (!file.startsWith(CLIENT_DIR + sep)) return false;
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Production's `_headers` applied to one asset response: values of several matching rules join with commas. */
function applyHeaderRules(rules: HeaderRule[], pathname: string, headers: IncomingHttpHeaders): void {
  const added = new Map<string, string[]>();
  for (const rule of rules) {
    if (!rule.pattern.test(pathname)) continue;
    for (const name of rule.unset) delete headers[name];
    for (const [name, value] of rule.set) added.set(name, [...(added.get(name) ?? []), value]);
  }
  for (const [name, values] of added) headers[name] = values.join(", ");
}

// ---- the edge in front of vite preview ----------------------------------------------------

function compressible(headers: IncomingHttpHeaders): boolean {
  const type = String(headers["content-type"] ?? "")
    .split(";")[0]
    ?.trim()
    .toLowerCase();
  return type !== undefined && COMPRESSIBLE.has(type);
}

/** br when the client accepts it (and did not refuse it with q=0), else gzip, else none. */
function chosenEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  if ((accepted.get("br") ?? 0) > 0) return "br";
  if ((accepted.get("gzip") ?? 0) > 0) return "gzip";
  return null;
}

function startEdgeProxy(upstreamPort: number, port: number, headerRules: HeaderRule[]): Promise<Server> {
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    // The edge asks the Worker for identity encoding and compresses on its way out.
    delete headers["accept-encoding"];
    const upstream = httpRequest(
      { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers, agent },
      (answer) => {
        const status = answer.statusCode ?? 502;
        const out: IncomingHttpHeaders = { ...answer.headers };
        const pathname = new URL(req.url ?? "/", "http://edge").pathname;
        if (headerRules.length > 0 && isAsset(pathname)) applyHeaderRules(headerRules, pathname, out);
        const encoding = chosenEncoding(req.headers["accept-encoding"]);
        const compress =
          encoding !== null &&
          req.method !== "HEAD" &&
          ((status >= 200 && status < 300 && status !== 204) || status === 403 || status === 404) &&
          !out["content-encoding"] &&
          compressible(out);
        if (!compress) {
          res.writeHead(status, out);
          pipeline(answer, res, () => {});
          return;
        }
        delete out["content-length"];
        out["content-encoding"] = encoding;
        out.vary = out.vary ? `${out.vary}, Accept-Encoding` : "Accept-Encoding";
        const etag = out.etag;
        if (typeof etag === "string" && !etag.startsWith("W/")) out.etag = `W/${etag}`;
        res.writeHead(status, out);
        // Flushed chunk by chunk: a streamed page reaches the browser as it is rendered, as it
        // does through the edge. Brotli at quality 4 and gzip at 6 approximate on-the-fly edge
        // compression; a few percent either way does not move a score.
        const encoder =
          encoding === "br"
            ? createBrotliCompress({
                flush: zlib.BROTLI_OPERATION_FLUSH,
                params: { [zlib.BROTLI_PARAM_QUALITY]: 4 },
              })
            : createGzip({ level: 6, flush: zlib.Z_SYNC_FLUSH });
        pipeline(answer, encoder, res, () => {});
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`edge proxy: ${error.message}`);
    });
    pipeline(req, upstream, () => {});
  });
  server.on("close", () => agent.destroy());
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done(server));
  });
}

// ---- the signed-in account ----------------------------------------------------------------

/**
 * Signs up through the platform API and opens the confirmation link mailed to the development
 * outbox (/dev/mail), as tests/e2e/browser.ts's signUpAndConfirm does through the pages; answers
 * the session cookie (`name=value`) the confirmation signs in with.
 */
async function signedInCookie(base: string): Promise<string> {
  const email = `lighthouse-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const json = { "content-type": "application/json" };
  const signup = await fetch(`${base}/api/users/signup`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password: "a long enough passphrase 1", name: "Lighthouse" }),
  });
  if (signup.status !== 202) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  // Mail leaves after the response: the outbox may lag a little.
  for (let attempt = 0; attempt < 40; attempt++) {
    const outbox = await (await fetch(`${base}/dev/mail`)).text();
    // The server-rendered page: one <article> per mail, its address and links in the text.
    const token = outbox
      .split("<article")
      .filter((article) => article.includes(email))
      .map((article) => /\/verify-email\/([A-Za-z0-9_-]+)/.exec(article)?.[1])
      .find(Boolean);
    if (token) {
      const verified = await fetch(`${base}/api/users/email/verify`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ token }),
      });
      const cookie = verified.headers.getSetCookie().find((value) => value.startsWith("portico_session="));
      if (verified.status !== 200 || !cookie) {
        throw new Error(`confirming the address answered ${verified.status}: ${await verified.text()}`);
      }
      return cookie.split(";")[0] ?? "";
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`no confirmation mail for ${email} in /dev/mail`);
}

// ---- Chromium -----------------------------------------------------------------------------

async function launchBrowser(profile: string): Promise<{ child: ChildProcess; port: number }> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  }
  // A process group of its own, so its helper processes end with it.
  const child = spawn(CHROMIUM_PATH, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  const port = await new Promise<number>((done, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error(`Chromium did not start within 30 s:\n${seen}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`Chromium exited (${code}) before it listened:\n${seen}`));
    });
  });
  return { child, port };
}

// ---- the report ---------------------------------------------------------------------------

function score(report: Report, category: string): string {
  const value = report.categories[category]?.score;
  return value === null || value === undefined ? "  -" : String(Math.round(value * 100)).padStart(3);
}

function metric(report: Report, id: string): string {
  const audit = report.audits[id];
  return audit?.displayValue ? String(audit.displayValue) : "-";
}

/** What keeps a category from 100: its weighted audits under full marks, with the points each costs. */
function costs(report: Report, category: string): string[] {
  const group = report.categories[category];
  if (!group || group.score === null || group.score >= 1) return [];
  const total = group.auditRefs.reduce((sum, ref) => sum + ref.weight, 0);
  const lines = group.auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => ({ ref, audit: report.audits[ref.id] }))
    .filter(({ audit }) => audit && audit.score !== null && audit.score < 1)
    .map(({ ref, audit }) => ({
      points: total > 0 ? (100 * ref.weight * (1 - (audit?.score ?? 0))) / total : 0,
      text: `${audit?.title}${audit?.displayValue ? ` — ${audit.displayValue}` : ""}`,
    }))
    .sort((a, b) => b.points - a.points)
    .map(({ points, text }) => `      −${points.toFixed(1).padStart(4)}  ${text}`);
  if (category !== "performance") return lines;
  // Performance's points are its metrics; the insights and diagnostics below say why the metrics
  // are what they are, largest estimated saving first.
  const saving = (id: string) => {
    const savings = report.audits[id]?.metricSavings ?? {};
    return (savings.LCP ?? 0) + (savings.FCP ?? 0) + (savings.TBT ?? 0) + (savings.CLS ?? 0) * 1000;
  };
  const reasons = group.auditRefs
    // The unweighted metrics (Time to Interactive, Max Potential FID) restate the weighted ones.
    .filter((ref) => ref.weight === 0 && ref.group !== "metrics" && ref.group !== "hidden")
    .map((ref) => report.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1)
    .sort((a, b) => saving(b?.id ?? "") - saving(a?.id ?? ""))
    .map((audit) => `        ·  ${audit?.title}${audit?.displayValue ? ` — ${audit.displayValue}` : ""}`);
  return [...lines, ...(reasons.length ? ["      why:", ...reasons] : [])];
}

async function main(): Promise<void> {
  if (process.env.LIGHTHOUSE_SKIP_BUILD === "1") {
    if (!existsSync(join("build", "server", "wrangler.json"))) throw new Error("LIGHTHOUSE_SKIP_BUILD=1 but no build/");
    console.log("Reusing build/ (LIGHTHOUSE_SKIP_BUILD=1)");
  } else {
    const built = spawnSync(join(BIN, "react-router"), ["build"], { stdio: "inherit" });
    if (built.status !== 0) throw new Error(`react-router build failed (${built.status ?? built.signal})`);
  }
  const builtConfig = JSON.parse(readFileSync(join("build", "server", "wrangler.json"), "utf8")) as {
    vars?: Record<string, string>;
  };
  if (builtConfig.vars?.APP_ENV === "production") {
    // The production build refuses the local configuration: measure the regular one.
    throw new Error("build/ holds the CLOUDFLARE_ENV=production build; run without LIGHTHOUSE_SKIP_BUILD");
  }

  const headersFile = join(CLIENT_DIR, "_headers");
  const headerRules = existsSync(headersFile) ? readHeaderRules(headersFile) : [];
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const reportDir = join("node_modules", ".cache", "lighthouse", stamp);
  mkdirSync(reportDir, { recursive: true });

  const stateDir = mkdtempSync(join(tmpdir(), "portico-lighthouse-"));
  const profile = mkdtempSync(join(tmpdir(), "portico-lighthouse-chromium-"));
  let preview: ChildProcess | undefined;
  let proxy: Server | undefined;
  let browser: ChildProcess | undefined;
  try {
    await runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir]);
    const previewPort = await freePort();
    let output = "";
    preview = spawn(
      join(BIN, "vite"),
      ["preview", "--host", "127.0.0.1", "--port", String(previewPort), "--strictPort"],
      {
        env: { ...process.env, PORTICO_STATE_DIR: stateDir, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      },
    );
    preview.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    preview.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitForServer(`http://127.0.0.1:${previewPort}/api/admin/sidemenus/`, preview, () => output);

    const proxyPort = await freePort();
    proxy = await startEdgeProxy(previewPort, proxyPort, headerRules);
    const base = `http://127.0.0.1:${proxyPort}`;
    console.log(
      `Serving build/ at ${base} (vite preview on :${previewPort} behind an edge-like proxy: Brotli/gzip` +
        `${headerRules.length ? `, ${headerRules.length} rules of build/client/_headers` : ", no _headers in the build"})`,
    );

    const cookie = await signedInCookie(base);
    for (const page of PAGES) {
      // Not followed: the dashboard sends a visitor without a session to /, which must fail here.
      const warm = await fetch(`${base}${page.path}`, {
        headers: page.signedIn ? { cookie } : {},
        redirect: "manual",
      });
      await warm.arrayBuffer();
      if (warm.status !== 200) throw new Error(`${page.path} answered ${warm.status} before measuring`);
    }

    const started = await launchBrowser(profile);
    browser = started.child;
    // Every page once per round, rounds in turn, so a burst of load from elsewhere on the
    // machine spreads over the pages instead of landing on one.
    const runs = new Map<string, { report: Report; file: string }[]>(PAGES.map((page) => [page.name, []]));
    for (let round = 1; round <= RUNS; round++) {
      for (const page of PAGES) {
        console.log(`Measuring ${page.name} (${page.path}), run ${round} of ${RUNS}…`);
        const flags: Flags = {
          port: started.port,
          hostname: "127.0.0.1",
          logLevel: "error",
          output: ["json", "html"],
          // Only this page's requests carry the session: the others are measured as a visitor.
          ...(page.signedIn ? { extraHeaders: { Cookie: cookie } } : {}),
        };
        const result = await lighthouse(`${base}${page.path}`, flags);
        if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
        if (result.lhr.runtimeError) {
          throw new Error(`Lighthouse failed on ${page.path}: ${result.lhr.runtimeError.message}`);
        }
        if (result.lhr.finalDisplayedUrl !== `${base}${page.path}`) {
          throw new Error(`${page.path} ended at ${result.lhr.finalDisplayedUrl}: not the page meant to be measured`);
        }
        const [json, html] = Array.isArray(result.report) ? result.report : [result.report];
        const file = join(reportDir, `${page.name}-${round}.report.json`);
        writeFileSync(file, json ?? "");
        if (html) writeFileSync(join(reportDir, `${page.name}-${round}.report.html`), html);
        runs.get(page.name)?.push({ report: result.lhr, file });
      }
    }
    // Lighthouse's own choice of the representative run: nearest the median FCP and TTI.
    const results = PAGES.map((page) => {
      const pageRuns = runs.get(page.name) ?? [];
      const median = computeMedianRun(pageRuns.map((run) => run.report));
      const chosen = pageRuns.find((run) => run.report === median) ?? pageRuns[0];
      if (!chosen) throw new Error(`no run of ${page.path}`);
      const performance = pageRuns.map((run) => Math.round((run.report.categories.performance?.score ?? 0) * 100));
      return {
        name: page.name,
        path: page.path,
        ...chosen,
        range: [Math.min(...performance), Math.max(...performance)],
      };
    });

    const first = results[0]?.report;
    const settings = first?.configSettings;
    console.log(
      `\nLighthouse ${first?.lighthouseVersion}, ${settings?.formFactor}, ${settings?.throttlingMethod} throttling ` +
        `(${settings?.throttling.rttMs} ms RTT, ${settings?.throttling.throughputKbps} kbps, ` +
        `${settings?.throttling.cpuSlowdownMultiplier}× CPU), ` +
        `${first?.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "Chromium"}, ` +
        `benchmark index ${first?.environment.benchmarkIndex}; the median of ${RUNS} run${RUNS === 1 ? "" : "s"} per page`,
    );
    const header = METRICS.map(([, label]) => label.padEnd(8)).join(" ");
    console.log(`\n${"page".padEnd(10)} perf a11y  b-p  seo   ${header} perf over the runs`);
    for (const { name, report, range } of results) {
      const scores = CATEGORIES.map((category) => score(report, category)).join("  ");
      const metrics = METRICS.map(([id]) =>
        metric(report, id)
          .replace(/\u00a0/g, " ")
          .padEnd(8),
      ).join(" ");
      console.log(`${name.padEnd(10)} ${scores}   ${metrics} ${range[0]}–${range[1]}`);
    }
    for (const { name, path, report, file } of results) {
      console.log(`\n${name} (${path})`);
      for (const category of CATEGORIES) {
        const lines = costs(report, category);
        if (lines.length) console.log(`  ${category} ${score(report, category).trim()}:\n${lines.join("\n")}`);
      }
      for (const warning of report.runWarnings) console.log(`  warning: ${warning}`);
      console.log(`  report: ${file} (and .html; the other runs beside it)`);
    }
  } finally {
    await stopGroup(browser);
    proxy?.close();
    proxy?.closeAllConnections();
    await stopGroup(preview);
    for (const dir of [stateDir, profile]) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch {
        // Left to the temporary folder's cleaning: a benchmark does not fail over it.
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
