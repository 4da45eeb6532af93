/**
 * HTML to PDF: picks the engine (Browser Rendering, a local Chromium, or the embedded pdfmake
 * engine) and prints the request with it.
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

export async function htmlToPdf(
  _request: HtmlToPdfRequest,
  _fetchResource: ResourceFetcher,
  _env: EnginesEnv,
  _config: EnginesConfig,
): Promise<HtmlToPdfOutcome> {
  return { ok: false, problem: "engine-unavailable", detail: "HTML to PDF is being built (issue #15)." };
}
