/**
 * Vitest global setup: serves the installed OCR models on loopback (`GET <url>/<code>`, the
 * package's gzip file), so a test can put them into the engine Worker's OCR_MODELS bucket as
 * scripts/ocr-models.ts does for `npm run dev` (tests/ocr-models.ts). The tests' R2 lives in
 * memory, so the bucket starts empty in every run, which is also what lets a test see a
 * language answer engine-unavailable before its model is there.
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { OCR_LANGUAGES } from "../../workers/hosted/ocr-languages.ts";
import { modelFile } from "../../scripts/ocr-model-files.ts";

declare module "vitest" {
  export interface ProvidedContext {
    ocrModelsUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = createServer((request, response) => {
    const language = OCR_LANGUAGES.find((code) => request.url === `/${code}`);
    if (!language) {
      response.writeHead(404).end();
      return;
    }
    readFile(modelFile(language)).then(
      (bytes) => response.writeHead(200, { "content-type": "application/gzip" }).end(bytes),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("ocrModelsUrl", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
