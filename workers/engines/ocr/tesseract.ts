/**
 * Tesseract (tesseract-wasm's build of Tesseract 5.3.0) in this isolate: one WebAssembly
 * instance, and one engine per language with its model loaded, the two most recently used kept.
 *
 * workerd refuses to compile WebAssembly from bytes at run time, so the `.wasm` file is imported
 * as a compiled module and handed to Emscripten's factory through its `instantiateWasm` hook
 * (tesseract-wasm's own `createOCREngine` would fetch it from `import.meta.url`, which workerd
 * does not have). English's trained data is a `.bin` data module of this Worker, the other
 * languages' are read from the OCR_MODELS bucket; each is loaded on first use, so an isolate
 * only holds the models it is asked for, and gunzipped once.
 *
 * A model costs 10–30 MB of the instance's memory, which WebAssembly never gives back; two
 * languages at a time keep a mixed workload from reloading on every call without letting a
 * run of languages fill the isolate's 128 MB.
 */
import { ocrModelKey, type OcrLanguage } from "~workers/hosted/ocr-languages";
import wasm from "./assets/tesseract-core.wasm";
import { createTesseractModule, layoutFlags, OCREngine as TesseractEngine } from "./assets/tesseract";

/*
 * The generated glue's types come from tesseract-wasm's, which TypeScript cannot reach (the
 * package's `exports` has no `types` condition), so they arrive as `any`. These are the parts
 * this engine uses, as tesseract-wasm 0.11.0's ocr-engine.d.ts declares them.
 */
export interface IntRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface TextItem {
  rect: IntRect;
  /** StartOfLine / EndOfLine bits. */
  flags: number;
  /** 0–1. */
  confidence: number;
  text: string;
}

export interface OcrEngine {
  loadModel(model: Uint8Array): void;
  /** Copies `data.buffer` whole: the RGBA must be alone on its buffer. */
  loadImage(image: { width: number; height: number; data: Uint8Array }): void;
  clearImage(): void;
  /** Layout analysis only (no recognition). */
  getBoundingBoxes(unit: "line" | "word"): { rect: IntRect; flags: number }[];
  getTextBoxes(unit: "line" | "word", onProgress?: (progress: number) => void): TextItem[];
  destroy(): void;
}

export const START_OF_LINE: number = (layoutFlags as { StartOfLine: number }).StartOfLine;

/** The Tesseract inside tesseract-wasm 0.11.0 (its wasm names itself 5.3.0): the `X-Engine` value. */
export const TESSERACT_VERSION = "5.3.0";

/** How many languages' engines an isolate keeps. */
export const KEPT_ENGINES = 2;

/** A language whose model is neither in the Worker nor in its model store. */
export class ModelMissing extends Error {
  constructor(readonly language: OcrLanguage) {
    super(`no model for ${language}`);
  }
}

/**
 * A model's gzip bytes: English is inside the Worker (the default never waits on storage, and
 * works without a bucket); the other languages are objects in the OCR_MODELS bucket
 * (scripts/ocr-models.ts uploads them), since all of them would not fit one Worker.
 */
async function modelBytes(language: OcrLanguage, store: R2Bucket | undefined): Promise<ArrayBuffer> {
  if (language === "eng") return (await import("./assets/eng.traineddata.gz.bin")).default;
  const object = await store?.get(ocrModelKey(language));
  if (!object) throw new ModelMissing(language);
  return object.arrayBuffer();
}

interface Entry {
  language: OcrLanguage;
  engine: Promise<OcrEngine>;
  /** Calls holding the engine: an evicted engine is destroyed only once none does. */
  users: number;
  evicted: boolean;
}

let library: Promise<unknown> | undefined;
/** Least recently used first (a Map keeps insertion order). */
let entries = new Map<OcrLanguage, Entry>();
/** Bumped when the instance is thrown away, so an older call's release does not touch the new one. */
let generation = 0;

function loadLibrary(): Promise<unknown> {
  library ??= createTesseractModule({
    locateFile: (path) => path,
    instantiateWasm(imports, done) {
      const instance = new WebAssembly.Instance(wasm, imports);
      done(instance, wasm);
      return instance.exports;
    },
  }).catch((error: unknown) => {
    library = undefined;
    throw error;
  });
  return library;
}

async function gunzip(bytes: ArrayBuffer): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function createEngine(language: OcrLanguage, store: R2Bucket | undefined): Promise<OcrEngine> {
  const [lib, model] = await Promise.all([loadLibrary(), modelBytes(language, store).then(gunzip)]);
  const engine: OcrEngine = new TesseractEngine(lib);
  engine.loadModel(model);
  return engine;
}

function destroy(entry: Entry): void {
  entry.engine.then((engine) => engine.destroy()).catch(() => undefined);
}

/** A loaned engine: call `release()` when done with it, in a `finally`. */
export interface EngineLoan {
  engine: OcrEngine;
  release(): void;
  /** After a failure inside Tesseract (a trap, a time-out thrown through it): start afresh. */
  discard(): void;
}

/**
 * The engine for `language`, loading its model on first use. Counting the caller as a user
 * happens before the first `await`, so a concurrent call evicting this language cannot
 * destroy the engine between its loading and its use.
 */
export async function borrowEngine(language: OcrLanguage, store: R2Bucket | undefined): Promise<EngineLoan> {
  let entry = entries.get(language);
  if (entry) {
    entries.delete(language);
  } else {
    entry = { language, engine: createEngine(language, store), users: 0, evicted: false };
  }
  entries.set(language, entry);
  entry.users += 1;
  for (const [oldest, old] of entries) {
    if (entries.size <= KEPT_ENGINES) break;
    entries.delete(oldest);
    old.evicted = true;
    if (old.users === 0) destroy(old);
  }
  const held = entry;
  const heldGeneration = generation;
  const release = () => {
    held.users -= 1;
    if (held.evicted && held.users === 0 && heldGeneration === generation) destroy(held);
  };
  let engine: OcrEngine;
  try {
    engine = await held.engine;
  } catch (error) {
    // A model that failed to load is not kept: the next call tries again.
    if (entries.get(language) === held) entries.delete(language);
    release();
    throw error;
  }
  return {
    engine,
    release,
    discard() {
      // The instance's memory may be inconsistent: drop it whole, and the models with it.
      library = undefined;
      entries = new Map();
      generation += 1;
    },
  };
}
