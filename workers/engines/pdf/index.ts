/**
 * HTML to PDF: picks the engine (Browser Rendering, a local Chromium, or the embedded pdfmake
 * engine) and prints the request with it (decision 056).
 *
 * Which engines exist is configuration: the BROWSER binding (production), CHROMIUM_CDP_URL
 * (`npm run dev` and the tests, when the machine has Chromium), and PDF_ENGINE, an operator's
 * switch to one kind. `engine: auto` takes the first; a named kind that is absent is a 503, so
 * a caller who needs full CSS never silently gets the embedded engine's simpler layout. `auto`
 * means the embedded engine only where no browser is configured: a configured browser that is
 * busy or failing answers 503 engine-unavailable (retryable, Retry-After), because silently
 * changing the layout engine would hand a caller a differently laid-out document, and running a
 * second engine after the browser's time was spent would pass the gateway's 25 s.
 */
import type { HtmlToPdfOutcome, HtmlToPdfRequest, PdfEngineName, ResourceFetcher } from "~workers/hosted/capabilities";
import type { EnginesConfig, EnginesEnv } from "../config";

/** The PDF engines this Worker has, best first. */
export function availablePdfEngines(env: EnginesEnv, config: EnginesConfig): PdfEngineName[] {
  const engines: PdfEngineName[] = [];
  if (config.PDF_ENGINE !== "embedded") {
    if (env.BROWSER) engines.push("cloudflare-browser-rendering");
    else if (config.CHROMIUM_CDP_URL) engines.push("chromium");
  }
  if (config.PDF_ENGINE !== "browser") engines.push("pdfmake");
  return engines;
}

/** The engine a request's `engine` names, among those available; undefined when absent. */
export function chooseEngine(
  wanted: HtmlToPdfRequest["engine"],
  available: readonly PdfEngineName[],
): PdfEngineName | undefined {
  if (wanted === "auto") return available[0];
  if (wanted === "embedded") return available.find((engine) => engine === "pdfmake");
  return available.find((engine) => engine !== "pdfmake");
}

export async function htmlToPdf(
  request: HtmlToPdfRequest,
  fetchResource: ResourceFetcher,
  env: EnginesEnv,
  config: EnginesConfig,
): Promise<HtmlToPdfOutcome> {
  const available = availablePdfEngines(env, config);
  const engine = chooseEngine(request.engine, available);
  if (!engine) {
    return {
      ok: false,
      problem: "engine-unavailable",
      detail:
        `No ${request.engine} PDF engine runs in this environment` +
        (available.length ? `; it has ${available.join(" and ")} (engine: auto picks the first).` : "."),
      extensions: { engine: request.engine, available: available.join(",") },
    };
  }
  if (engine === "pdfmake") return printEmbedded(request, fetchResource);

  const { printWithBrowser } = await import("./browser");
  const binding =
    engine === "cloudflare-browser-rendering" && env.BROWSER
      ? env.BROWSER
      : (await import("./local-browser")).localBrowserBinding(config.CHROMIUM_CDP_URL);
  return printWithBrowser(request, fetchResource, binding, engine);
}

async function printEmbedded(request: HtmlToPdfRequest, fetchResource: ResourceFetcher): Promise<HtmlToPdfOutcome> {
  return (await import("./embedded")).printEmbedded(request, fetchResource);
}
