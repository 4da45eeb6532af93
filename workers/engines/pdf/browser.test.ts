/**
 * The PDF engine dispatcher and the browser engine's parts: which engine a request gets, how a
 * page's requests are answered (subresources.ts), how pages are counted without a PDF reader,
 * and @cloudflare/puppeteer printing through the local Chromium binding over RPC, as the main
 * Worker calls it.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { HtmlToPdfRequest, ResourceFetcher } from "~workers/hosted/capabilities";
import { inspectPdf, pdfRequest } from "../../../tests/pdf-inspect";
import type { EnginesConfig, EnginesEnv } from "../config";
import { lengthInPixels } from "./browser";
import { availablePdfEngines, chooseEngine, htmlToPdf } from "./index";
import { countPdfPages } from "./page-count";
import { createResourceGate } from "./subresources";

const request = (overrides: Partial<HtmlToPdfRequest> = {}): HtmlToPdfRequest =>
  pdfRequest("<h1>Hello</h1><p>world</p>", { engine: "browser", ...overrides });

const refuseAll: ResourceFetcher = async (url) => ({ ok: false, detail: `${url} is not on the test's network.` });

const environment = (vars: Partial<EnginesConfig>, binding?: Fetcher) => {
  const config: EnginesConfig = { APP_ENV: "development", PDF_ENGINE: "auto", CHROMIUM_CDP_URL: "", ...vars };
  const engineEnv: EnginesEnv = { ...config, ...(binding && { BROWSER: binding }) };
  return { env: engineEnv, config };
};

describe("choosing the PDF engine", () => {
  const fakeBinding = { fetch: async () => new Response(null, { status: 500 }) } as unknown as Fetcher;

  it("lists Browser Rendering, else the local Chromium, then the embedded engine, as PDF_ENGINE allows", () => {
    const list = (vars: Partial<EnginesConfig>, binding?: Fetcher) => {
      const { env: engineEnv, config } = environment(vars, binding);
      return availablePdfEngines(engineEnv, config);
    };
    expect(list({}, fakeBinding)).toEqual(["cloudflare-browser-rendering", "pdfmake"]);
    expect(list({ CHROMIUM_CDP_URL: "http://127.0.0.1:9222" })).toEqual(["chromium", "pdfmake"]);
    expect(list({})).toEqual(["pdfmake"]);
    expect(list({ PDF_ENGINE: "embedded", CHROMIUM_CDP_URL: "http://127.0.0.1:9222" })).toEqual(["pdfmake"]);
    expect(list({ PDF_ENGINE: "browser" })).toEqual([]);
  });

  it("takes the first for auto and the named kind otherwise", () => {
    expect(chooseEngine("auto", ["chromium", "pdfmake"])).toBe("chromium");
    expect(chooseEngine("embedded", ["chromium", "pdfmake"])).toBe("pdfmake");
    expect(chooseEngine("browser", ["cloudflare-browser-rendering", "pdfmake"])).toBe("cloudflare-browser-rendering");
    expect(chooseEngine("browser", ["pdfmake"])).toBeUndefined();
  });

  it("answers engine-unavailable, naming what exists, for a kind that is absent", async () => {
    const { env: engineEnv, config } = environment({ PDF_ENGINE: "embedded" });
    const outcome = await htmlToPdf(request({ engine: "browser" }), refuseAll, engineEnv, config);
    expect(outcome).toMatchObject({
      ok: false,
      problem: "engine-unavailable",
      extensions: { engine: "browser", available: "pdfmake" },
    });
  });
});

describe("a browser that cannot be had", () => {
  // Port 9 (discard) has nothing listening: the binding's session request fails, as Browser
  // Rendering's does when the account's browsers are all in use.
  const { env: engineEnv, config } = environment({ CHROMIUM_CDP_URL: "http://127.0.0.1:9" });

  it("answers engine-unavailable, retryable, when the browser was asked for by name", async () => {
    const outcome = await htmlToPdf(request({ engine: "browser" }), refuseAll, engineEnv, config);
    expect(outcome).toMatchObject({
      ok: false,
      problem: "engine-unavailable",
      extensions: { engine: "chromium", retryable: true },
    });
  });

  it("answers engine-unavailable with a retry time under auto too, rather than changing the layout engine", async () => {
    const outcome = await htmlToPdf(request({ engine: "auto" }), refuseAll, engineEnv, config);
    expect(outcome).toMatchObject({
      ok: false,
      problem: "engine-unavailable",
      extensions: { engine: "chromium", retryable: true, retryAfter: 5 },
    });
  });
});

describe("a printed page's requests", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const serving =
    (sizes: Record<string, number>, asked: string[] = []): ResourceFetcher =>
    async (url, { maxBytes }) => {
      asked.push(url);
      const size = sizes[url];
      if (size === undefined) return { ok: false, detail: "refused" };
      if (size > maxBytes) return { ok: false, detail: "too large" };
      return { ok: true, bytes: new Uint8Array(size), contentType: "text/css", finalUrl: url };
    };

  it("leaves data: and blob: to the browser and refuses other schemes and methods without fetching", async () => {
    const asked: string[] = [];
    const gate = createResourceGate(serving({ "https://a.example/x": 10 }, asked), { deadline: Date.now() + 5_000 });
    expect(await gate.answer({ url: "data:text/plain,hi", method: "GET" })).toEqual({ kind: "native" });
    expect(await gate.answer({ url: "blob:https://a.example/1", method: "GET" })).toEqual({ kind: "native" });
    expect((await gate.answer({ url: "file:///etc/passwd", method: "GET" })).kind).toBe("abort");
    expect((await gate.answer({ url: "ws://a.example/", method: "GET" })).kind).toBe("abort");
    expect((await gate.answer({ url: "https://a.example/x", method: "POST" })).kind).toBe("abort");
    expect(asked).toEqual([]);
    expect(await gate.answer({ url: "https://a.example/x", method: "GET" })).toMatchObject({
      kind: "respond",
      status: 200,
      contentType: "text/css",
      headers: { "access-control-allow-origin": "*" },
    });
  });

  it("stops after the request budget and the byte budget", async () => {
    const sizes = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`https://a.example/${i}`, 400]));
    const asked: string[] = [];
    const gate = createResourceGate(serving(sizes, asked), {
      deadline: Date.now() + 5_000,
      limits: { maxRequests: 5, maxTotalBytes: 1_000, maxBytesEach: 500 },
    });
    const kinds = [];
    for (let i = 0; i < 8; i++) kinds.push((await gate.answer({ url: `https://a.example/${i}`, method: "GET" })).kind);
    // Two of 400 bytes fit in 1 000; the third is asked with 200 left and refused; then the
    // count of 5 requests is reached and nothing more is fetched.
    expect(kinds).toEqual(["respond", "respond", "abort", "abort", "abort", "abort", "abort", "abort"]);
    expect(asked).toHaveLength(5);
    expect(gate.stats.bytes).toBe(800);
  });

  it("answers a redirected document with a redirect, then its bytes at the final address", async () => {
    const fetcher: ResourceFetcher = async () => ({
      ok: true,
      bytes: bytes("<p>moved</p>"),
      contentType: "text/html",
      finalUrl: "https://a.example/new",
    });
    const gate = createResourceGate(fetcher, { deadline: Date.now() + 5_000 });
    expect((await gate.prefetch("https://a.example/old")).ok).toBe(true);
    expect(await gate.answer({ url: "https://a.example/old", method: "GET" })).toMatchObject({
      kind: "respond",
      status: 302,
      headers: { location: "https://a.example/new" },
    });
    expect(await gate.answer({ url: "https://a.example/new", method: "GET" })).toMatchObject({
      kind: "respond",
      status: 200,
      contentType: "text/html",
    });
  });

  it("serves a baseUrl's document at the address Chromium asks for, however the caller typed it", async () => {
    const asked: string[] = [];
    const gate = createResourceGate(serving({}, asked), { deadline: Date.now() + 5_000 });
    gate.provide("https://Docs.Example.com", bytes("<p>mine</p>"), "text/html");
    expect(await gate.answer({ url: "https://docs.example.com/", method: "GET" })).toMatchObject({
      kind: "respond",
      status: 200,
      contentType: "text/html",
    });
    gate.provide("https://docs.example.com/a/b.html#part", bytes("<p>mine</p>"), "text/html");
    expect((await gate.answer({ url: "https://docs.example.com/a/b.html", method: "GET" })).kind).toBe("respond");
    expect(asked).toEqual([]);
  });

  it("holds the byte budget when the page's requests run at once", async () => {
    const sizes = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`https://a.example/${i}`, 400]));
    const slow: ResourceFetcher = async (url, limits) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return serving(sizes)(url, limits);
    };
    const gate = createResourceGate(slow, {
      deadline: Date.now() + 5_000,
      limits: { maxRequests: 50, maxTotalBytes: 1_000, maxBytesEach: 500 },
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => gate.answer({ url: `https://a.example/${i}`, method: "GET" })),
    );
    expect(answers.filter((answer) => answer.kind === "respond").length).toBeLessThanOrEqual(2);
    expect(gate.stats.bytes).toBeLessThanOrEqual(1_000);
  });

  it("still answers every small request made at once while the budget is reserved by others", async () => {
    const sizes = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`https://a.example/${i}`, 100]));
    const slow: ResourceFetcher = async (url, limits) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return serving(sizes)(url, limits);
    };
    const gate = createResourceGate(slow, {
      deadline: Date.now() + 5_000,
      limits: { maxRequests: 50, maxTotalBytes: 1_000, maxBytesEach: 500 },
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => gate.answer({ url: `https://a.example/${i}`, method: "GET" })),
    );
    expect(answers.map((answer) => answer.kind)).toEqual(Array(10).fill("respond"));
    expect(gate.stats.bytes).toBe(1_000);
  });

  it("gives up on a resource that answers after the deadline", async () => {
    const never: ResourceFetcher = () => new Promise(() => undefined);
    const gate = createResourceGate(never, { deadline: Date.now() + 50 });
    expect((await gate.answer({ url: "https://a.example/slow", method: "GET" })).kind).toBe("abort");
  });
});

describe("lengths", () => {
  it("converts each CSS unit to CSS pixels", () => {
    expect(lengthInPixels("1in")).toBe(96);
    expect(lengthInPixels("2.54cm")).toBeCloseTo(96);
    expect(lengthInPixels("25.4mm")).toBeCloseTo(96);
    expect(lengthInPixels("72pt")).toBeCloseTo(96);
    expect(lengthInPixels("6pc")).toBe(96);
    expect(lengthInPixels("20px")).toBe(20);
    expect(lengthInPixels("0")).toBe(0);
  });
});

describe.skipIf(!inject("chromiumCdpUrl"))("the browser engine over RPC", () => {
  it("prints through @cloudflare/puppeteer on the local Chromium, and counts Chromium's pages as pdf.js does", async () => {
    const html = Array.from({ length: 90 }, (_, i) => `<p>line ${i}</p>`).join("");
    const outcome = await env.ENGINES.htmlToPdf(request({ source: { html } }), refuseAll);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.engine).toBe("chromium");
    const pdf = await inspectPdf(outcome.pdf);
    expect(pdf.pageCount).toBeGreaterThanOrEqual(3);
    expect(outcome.pageCount).toBe(pdf.pageCount);
    expect(countPdfPages(outcome.pdf)).toBe(pdf.pageCount);
    expect(pdf.text).toContain("line 89");
  });

  it("calls the fetcher it is handed over RPC for the page's requests", async () => {
    const asked: string[] = [];
    const fetcher: ResourceFetcher = async (url) => {
      asked.push(url);
      return {
        ok: true,
        bytes: new TextEncoder().encode("p::after{content:' FROM-RPC'}"),
        contentType: "text/css",
        finalUrl: url,
      };
    };
    const html = '<link rel="stylesheet" href="https://cdn.example/look.css"><p>styled</p>';
    const outcome = await env.ENGINES.htmlToPdf(request({ source: { html } }), fetcher);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(asked).toEqual(["https://cdn.example/look.css"]);
    expect((await inspectPdf(outcome.pdf)).text).toContain("FROM-RPC");
  });

  // A request that escaped the interception would go to the test Chromium's dead proxy and
  // simply fail, indistinguishable from a refusal: instead each one the page makes must have
  // been asked of the recording fetcher, the only way out the engine gives a page.
  it("asks the fetcher for every request: frames, navigations, refreshes, event streams, workers and popups", async () => {
    const asked = new Set<string>();
    const bodies: Record<string, [string, string]> = {
      "/frame.html": ['<meta http-equiv="refresh" content="0;url=/refreshed.html">', "text/html"],
      "/worker.js": ["fetch('/from-worker').catch(() => {})", "text/javascript"],
      "/shared.js": ["fetch('/from-shared-worker').catch(() => {})", "text/javascript"],
    };
    const fetcher: ResourceFetcher = async (url) => {
      asked.add(new URL(url).pathname);
      const [body, contentType] = bodies[new URL(url).pathname] ?? ["<p>ok</p>", "text/html"];
      return { ok: true, bytes: new TextEncoder().encode(body), contentType, finalUrl: url };
    };
    const html = `<p>escapes</p>
      <iframe src="/frame.html"></iframe>
      <iframe name="nav" src="about:blank"></iframe>
      <iframe id="opener" src="about:blank"></iframe>
      <a id="blank" href="/popup-click.html" target="_blank">popup</a>
      <form id="form" action="/popup-form.html" method="get" target="_blank"><input name="q" value="1"></form>
      <script>
        frames.nav.location.href = "/navigated.html";
        new EventSource("/events");
        new Worker("/worker.js");
        try { new SharedWorker("/shared.js"); } catch {}
        document.getElementById("opener").contentWindow.open("/popup-iframe.html");
        document.getElementById("blank").click();
        document.getElementById("form").submit();
      </script>`;
    const escaped = async () => (await fetch(`${inject("chromiumProxyUrl")}/seen`)).json<string[]>();
    const before = (await escaped()).length;
    const outcome = await env.ENGINES.htmlToPdf(
      request({ source: { html, baseUrl: "http://site.example/" }, waitFor: { ms: 2_000 } }),
      fetcher,
    );
    expect(outcome.ok).toBe(true);
    // Popups, and a shared worker's own requests, are refused outright: none of the page's
    // requests reached the proxy. The page is on http so that an escaped request shows whole
    // (`GET http://…`); CONNECT tunnels are Chromium's preconnects, which it opens for every
    // navigation even when the request itself is answered by the engine, and carry no request.
    expect((await escaped()).slice(before).filter((seen) => !seen.startsWith("connect "))).toEqual([]);
    const missing = [
      "/frame.html",
      "/refreshed.html",
      "/navigated.html",
      "/events",
      "/worker.js",
      "/from-worker",
    ].filter((path) => !asked.has(path));
    expect(missing, `asked: ${[...asked].join(" ")}`).toEqual([]);
  });

  it("answers engine-failed, not a hang, when the page outlasts the time limit", async () => {
    const outcome = await env.ENGINES.htmlToPdf(
      request({ source: { html: "<p>spins</p><script>while (true) {}</script>" }, timeoutMs: 1_500 }),
      refuseAll,
    );
    expect(outcome).toMatchObject({ ok: false, problem: "engine-failed", detail: expect.stringMatching(/1\.5 s/) });
  });
});
