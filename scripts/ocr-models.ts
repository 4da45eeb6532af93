/**
 * Fills the engine Worker's OCR_MODELS bucket with every OCR language's model but the bundled
 * English one (decision 059), from the installed `@tesseract.js-data/*` packages:
 *
 *   node scripts/ocr-models.ts --local    Miniflare's R2 under .wrangler/state/v3, the state
 *                                         `npm run dev` uses (predev runs this)
 *   node scripts/ocr-models.ts --remote   the production bucket, through wrangler (deploy runs
 *                                         this before deploying the engine Worker)
 *
 * Each object carries its file's SHA-256, and only missing or changed models are written, so a
 * second run costs a few reads. Remotely the hashes are kept in one manifest object, read and
 * written last, so a deploy compares them with one download instead of 99.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { getPlatformProxy } from "wrangler";
import {
  BUNDLED_OCR_LANGUAGES,
  OCR_LANGUAGES,
  ocrModelKey,
  type OcrLanguage,
} from "../workers/hosted/ocr-languages.ts";
import { modelFile } from "./ocr-model-files.ts";

const CONFIG = "workers/engines/wrangler.toml";
const BUCKET = "portico-ocr-models";
const MANIFEST_KEY = "tesseract/manifest.json";

interface Model {
  language: OcrLanguage;
  key: string;
  file: string;
  sha256: string;
}

function storedModels(): Model[] {
  const bundled: readonly OcrLanguage[] = BUNDLED_OCR_LANGUAGES;
  return OCR_LANGUAGES.filter((language) => !bundled.includes(language)).map((language) => {
    const file = modelFile(language);
    return {
      language,
      key: ocrModelKey(language),
      file,
      sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
    };
  });
}

async function fillLocal(models: Model[]): Promise<number> {
  // The same persistence root the Vite plugin gives `npm run dev` (<root>/.wrangler/state/v3).
  const proxy = await getPlatformProxy<{ OCR_MODELS: R2Bucket }>({
    configPath: CONFIG,
    persist: { path: ".wrangler/state/v3" },
  });
  try {
    let written = 0;
    for (const model of models) {
      const stored = await proxy.env.OCR_MODELS.head(model.key);
      if (stored?.customMetadata?.sha256 === model.sha256) continue;
      await proxy.env.OCR_MODELS.put(model.key, readFileSync(model.file), {
        httpMetadata: { contentType: "application/gzip" },
        customMetadata: { sha256: model.sha256 },
      });
      written += 1;
    }
    return written;
  } finally {
    await proxy.dispose();
  }
}

function wrangler(args: string[]): string {
  return execFileSync("npx", ["wrangler", ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

function fillRemote(models: Model[]): number {
  const env = ["--remote", "--env", "production", "--config", CONFIG];
  let manifest: Record<string, string> = {};
  try {
    manifest = JSON.parse(wrangler(["r2", "object", "get", `${BUCKET}/${MANIFEST_KEY}`, "--pipe", ...env])) as Record<
      string,
      string
    >;
  } catch {
    // No manifest yet (a new bucket): every model is uploaded.
  }
  let written = 0;
  for (const model of models) {
    if (manifest[model.key] === model.sha256) continue;
    wrangler([
      "r2",
      "object",
      "put",
      `${BUCKET}/${model.key}`,
      "--file",
      model.file,
      "--content-type",
      "application/gzip",
      ...env,
    ]);
    manifest[model.key] = model.sha256;
    written += 1;
  }
  if (written > 0) {
    const manifestFile = "node_modules/.cache/ocr-models-manifest.json";
    mkdirSync(dirname(manifestFile), { recursive: true });
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    wrangler([
      "r2",
      "object",
      "put",
      `${BUCKET}/${MANIFEST_KEY}`,
      "--file",
      manifestFile,
      "--content-type",
      "application/json",
      ...env,
    ]);
  }
  return written;
}

const target = process.argv[2];
if (target !== "--local" && target !== "--remote") {
  console.error("usage: node scripts/ocr-models.ts --local | --remote");
  process.exit(2);
}
const models = storedModels();
const started = performance.now();
const written = target === "--local" ? await fillLocal(models) : fillRemote(models);
console.log(
  `OCR models: ${written} of ${models.length} written to ${target === "--local" ? "the local" : "the production"} ${BUCKET} bucket (${Math.round(performance.now() - started)} ms)`,
);
