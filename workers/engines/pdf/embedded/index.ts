/**
 * The embedded PDF engine: HTML laid out by pdfmake inside the Worker, for where no browser
 * exists. Text, headings, lists, tables, images and colours; no flex or grid.
 */
import type { HtmlToPdfOutcome, HtmlToPdfRequest, ResourceFetcher } from "~workers/hosted/capabilities";

export async function printEmbedded(
  _request: HtmlToPdfRequest,
  _fetchResource: ResourceFetcher,
): Promise<HtmlToPdfOutcome> {
  return { ok: false, problem: "engine-unavailable", detail: "The embedded PDF engine is being built (issue #15)." };
}
