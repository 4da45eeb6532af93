/**
 * The engine Worker as the main Worker reaches it: a second Worker over the ENGINES service
 * binding's RPC (tests/setup/engine-worker.ts), with the machine's Chromium when it has one.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, inject } from "vitest";
import { documentEngines } from "~workers/hosted/_documents/engines";
import { createTestContext } from "../../tests/hosted-context";

describe("the engine Worker", () => {
  it("answers over RPC with the PDF engines it has: the local Chromium when one runs, and the embedded one", async () => {
    const engines = await env.ENGINES.pdfEngines();
    expect(engines).toEqual(inject("chromiumCdpUrl") ? ["chromium", "pdfmake"] : ["pdfmake"]);
  });

  it("is answered as 503 engine-unavailable, naming the binding, where the main Worker has none", () => {
    const ctx = { ...createTestContext(), documents: undefined };
    const outcome = documentEngines(ctx, "HTML to PDF");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.result).toMatchObject({
      kind: "problem",
      type: "engine-unavailable",
      extensions: { binding: "ENGINES" },
    });
  });
});
