/**
 * Image to Text: Tesseract (WebAssembly) over trained data shipped in npm packages (English in
 * this Worker, the other languages in the OCR_MODELS bucket).
 *
 * The file is sniffed and decoded here rather than in the main Worker, so only its bytes (at
 * most 10 MB) cross the RPC boundary, not up to 48 MB of pixels. Calls are read one at a time
 * per isolate. Tesseract's calls are synchronous; the deadline is checked before each
 * recognition and in its progress callback, which throws once it has passed, and the instance
 * it unwound through is thrown away. In production workerd's clock advances only on I/O, so a
 * recognition already under way cannot be cut short there: the pixel limits bound it, and the
 * gateway's 25 s limit and the engine Worker's CPU limit end what they do not.
 */
import {
  documentFailure,
  type OcrBox,
  type OcrLine,
  type OcrOutcome,
  type OcrRequest,
  type OcrResult,
  type OcrWord,
} from "~workers/hosted/capabilities";
import { OCR_LANGUAGE_NAMES } from "~workers/hosted/ocr-languages";
import { decodePage, rotateClockwise, type DecodedPage, type Pixels } from "./image";
import { serialQueue } from "./serial";
import {
  borrowEngine,
  ModelMissing,
  START_OF_LINE,
  TESSERACT_VERSION,
  type EngineLoan,
  type OcrEngine,
  type TextItem,
} from "./tesseract";

export const OCR_ENGINE_NAME = `tesseract-${TESSERACT_VERSION}`;

type Turn = 0 | 90 | 180 | 270;

class DeadlinePassed extends Error {}

/** After a page this large (as read), the WebAssembly instance is dropped to give its memory back. */
const DROP_ENGINE_AFTER_PIXELS = 1_500_000;

/** A reading this confident (0–1, the words' mean) is taken as upright without trying the opposite turn. */
const TRUSTED_CONFIDENCE = 0.8;

/** Decoding and reading, one call at a time per isolate (serial.ts says why). */
const oneAtATime = serialQueue();

/** `models`: the OCR_MODELS bucket, holding every language's model but English's. */
export function imageToText(request: OcrRequest, models: R2Bucket | undefined): Promise<OcrOutcome> {
  // The deadline starts now: time spent waiting behind another call counts, as the caller waits too.
  const deadline = Date.now() + request.timeoutMs;
  return oneAtATime(() => readPage(request, models, deadline));
}

async function readPage(request: OcrRequest, models: R2Bucket | undefined, deadline: number): Promise<OcrOutcome> {
  const decoded = decodePage(request.image);
  if (!decoded.ok) return decoded;
  const page = decoded.page;
  let loan: EngineLoan;
  try {
    loan = await borrowEngine(request.language, models);
  } catch (error) {
    if (!(error instanceof ModelMissing)) throw error;
    // A deployment whose bucket was not filled (scripts/ocr-models.ts): say so, never guess with another model.
    return documentFailure(
      "engine-unavailable",
      `The ${OCR_LANGUAGE_NAMES[request.language]} model (${request.language}) is not installed here: its model store, the OCR_MODELS bucket, does not hold it. English is always available.`,
      { language: request.language },
    );
  }
  const { engine } = loan;
  const checkDeadline = () => {
    if (Date.now() >= deadline) throw new DeadlinePassed();
  };
  let turn: Turn = 0;
  let words: TextItem[];
  try {
    checkDeadline();
    if (request.detectOrientation) {
      ({ turn, words } = readUpright(engine, page.pixels, checkDeadline));
    } else {
      engine.loadImage(fresh(page.pixels));
      words = engine.getTextBoxes("word", checkDeadline);
    }
    engine.clearImage();
    // Tesseract's memory grew by ~8 bytes a pixel for this page and will not shrink: for a
    // large page, drop the instance (the garbage collector takes it whole) and let the next
    // call load its model again (~0.1–0.3 s) rather than keep 50 MB the isolate needs.
    if (page.pixels.width * page.pixels.height > DROP_ENGINE_AFTER_PIXELS) loan.discard();
  } catch (error) {
    loan.discard();
    if (error instanceof DeadlinePassed) {
      return {
        ok: false,
        problem: "engine-failed",
        detail: `Reading the image took longer than ${Math.round(request.timeoutMs / 1000)} s and was stopped. Send a smaller or cleaner image.`,
        extensions: { reason: "timeout" },
      };
    }
    throw error;
  } finally {
    loan.release();
  }
  const result = buildResult(words, page, turn, request);
  return { ok: true, result };
}

/**
 * Reads a page that may be turned by a multiple of 90°, and says by how much it was.
 *
 * tesseract-wasm's `getOrientation()` (Leptonica's up/left test) answered 270° with full
 * confidence for pages turned 90°, 180° and 270° alike in our tests, so it is not used. Instead:
 * layout analysis (cheap, no recognition) finds the text lines, and lines taller than wide mean
 * the page lies on its side (90° or 270°), else it is upright or upside down (0° or 180°). The
 * page is then read turned the first way, and only when the words' mean confidence is under
 * TRUSTED_CONFIDENCE the other way too; the reading with the higher confidence wins (text read
 * upside down is read with low confidence). At most two recognitions.
 */
function readUpright(engine: OcrEngine, pixels: Pixels, checkDeadline: () => void): { turn: Turn; words: TextItem[] } {
  engine.loadImage(fresh(pixels));
  const lines = engine.getBoundingBoxes("line");
  const sideways = lines.filter(({ rect }) => rect.bottom - rect.top > rect.right - rect.left).length;
  const candidates: [Turn, Turn] = sideways * 2 > lines.length ? [90, 270] : [0, 180];
  let best: { turn: Turn; words: TextItem[]; confidence: number } | undefined;
  for (const turn of candidates) {
    checkDeadline();
    engine.loadImage(fresh(rotateClockwise(pixels, turn)));
    const words = engine.getTextBoxes("word", checkDeadline).filter((word) => word.text.trim() !== "");
    const confidence = words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
    if (!best || confidence > best.confidence) best = { turn, words, confidence };
    if (confidence >= TRUSTED_CONFIDENCE) break;
  }
  return best ?? { turn: 0, words: [] };
}

/** Tesseract copies `data.buffer` whole, so the RGBA must sit alone on its buffer. */
function fresh(pixels: Pixels): Pixels {
  if (pixels.data.byteOffset === 0 && pixels.data.buffer.byteLength === pixels.data.length) return pixels;
  return { ...pixels, data: pixels.data.slice() };
}

/** A box in the upright, possibly scaled-down page, in the uploaded image's pixels. */
function toImageBox(item: TextItem["rect"], page: DecodedPage, turn: Turn): OcrBox {
  const W = page.pixels.width;
  const H = page.pixels.height;
  const { left: u0, top: v0, right: u1, bottom: v1 } = item;
  let [x0, y0, x1, y1] = [u0, v0, u1, v1];
  if (turn === 90) [x0, y0, x1, y1] = [v0, H - u1, v1, H - u0];
  else if (turn === 180) [x0, y0, x1, y1] = [W - u1, H - v1, W - u0, H - v0];
  else if (turn === 270) [x0, y0, x1, y1] = [W - v1, u0, W - v0, u1];
  const clampX = (value: number) => Math.min(page.width, Math.max(0, Math.round(value / page.scale)));
  const clampY = (value: number) => Math.min(page.height, Math.max(0, Math.round(value / page.scale)));
  const left = clampX(x0);
  const top = clampY(y0);
  return { x: left, y: top, width: clampX(x1) - left, height: clampY(y1) - top };
}

function union(boxes: OcrBox[]): OcrBox {
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

const percent = (confidence: number) => Math.round(Math.min(1, Math.max(0, confidence)) * 1000) / 10;
const mean = (values: number[]) =>
  values.length === 0 ? 0 : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;

/** Words in reading order, grouped into lines by Tesseract's start-of-line flags. */
function buildResult(items: TextItem[], page: DecodedPage, turn: Turn, request: OcrRequest): OcrResult {
  const lines: OcrWord[][] = [];
  for (const item of items) {
    const text = item.text.trim();
    const startsLine = (item.flags & START_OF_LINE) !== 0 || lines.length === 0;
    if (startsLine) lines.push([]);
    if (!text) continue;
    lines[lines.length - 1]?.push({
      text,
      confidence: percent(item.confidence),
      box: toImageBox(item.rect, page, turn),
    });
  }
  const answered: OcrLine[] = lines
    .filter((words) => words.length > 0)
    .map((words) => ({
      text: words.map((word) => word.text).join(" "),
      confidence: mean(words.map((word) => word.confidence)),
      box: union(words.map((word) => word.box)),
      ...(request.wordBoxes && { words }),
    }));
  const allWords = lines.flat();
  return {
    text: answered.map((line) => line.text).join("\n"),
    confidence: mean(allWords.map((word) => word.confidence)),
    language: request.language,
    orientation: turn,
    width: page.width,
    height: page.height,
    lines: answered,
    engine: OCR_ENGINE_NAME,
  };
}
