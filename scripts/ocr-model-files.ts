/**
 * Where the OCR models are on disk: `@tesseract.js-data/<code>`'s `4.0.0_best_int` model (the
 * LSTM model tesseract-wasm runs), as gzip. Shared by scripts/engine-assets.ts (which bundles
 * English) and scripts/ocr-models.ts (which uploads the rest).
 */
import { readFileSync } from "node:fs";
import type { OcrLanguage } from "../workers/hosted/ocr-languages.ts";

export const modelFile = (language: OcrLanguage | string): string =>
  `node_modules/@tesseract.js-data/${language}/4.0.0_best_int/${language}.traineddata.gz`;

/** The codes of the `@tesseract.js-data/*` packages package.json depends on. */
export function installedModels(): string[] {
  const { dependencies } = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
  const scope = "@tesseract.js-data/";
  return Object.keys(dependencies)
    .filter((name) => name.startsWith(scope))
    .map((name) => name.slice(scope.length));
}
