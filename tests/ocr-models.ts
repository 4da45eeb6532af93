/**
 * Puts OCR models into the OCR_MODELS bucket the engine Worker reads (the test Worker binds
 * the same bucket: vitest.config.ts), from the loopback server of tests/setup/ocr-models.ts.
 * Each model is written once per run, whichever test file asks first.
 */
import { env } from "cloudflare:test";
import { inject } from "vitest";
import { BUNDLED_OCR_LANGUAGES, ocrModelKey, type OcrLanguage } from "~workers/hosted/ocr-languages";

const bundled: readonly OcrLanguage[] = BUNDLED_OCR_LANGUAGES;
const { OCR_MODELS: bucket } = env as typeof env & { OCR_MODELS: R2Bucket };

export async function installOcrModels(languages: readonly OcrLanguage[]): Promise<void> {
  for (const language of languages) {
    if (bundled.includes(language) || (await bucket.head(ocrModelKey(language)))) continue;
    const response = await fetch(`${inject("ocrModelsUrl")}/${language}`);
    if (!response.ok) throw new Error(`no model for ${language} from the test server (${response.status})`);
    await bucket.put(ocrModelKey(language), await response.arrayBuffer());
  }
}

/** Takes a model out again, to see a deployment whose bucket lacks it. */
export async function removeOcrModel(language: OcrLanguage): Promise<void> {
  await bucket.delete(ocrModelKey(language));
}
