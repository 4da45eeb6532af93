/**
 * Reading an Image to Text answer for the live demo's overlay: the boxes of its lines and words,
 * in the uploaded image's pixels. The shape mirrors the API's `OcrResult` (the answer's
 * `width`, `height` and `lines[].box`, `lines[].words[].box`); it is restated here because the
 * client bundle never imports workers/. Anything else (another API's JSON, an OCR answer cut
 * short) reads as null, and the demo shows the JSON alone.
 */

export interface OverlayBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OverlayLine {
  text: string;
  confidence: number;
  box: OverlayBox;
  words: { text: string; box: OverlayBox }[];
}

export interface OcrOverlay {
  /** The image's size in pixels: the SVG's coordinate system, so it scales with the picture. */
  width: number;
  height: number;
  lines: OverlayLine[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value);

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

function readBox(value: unknown): OverlayBox | null {
  if (!isRecord(value)) return null;
  const { x, y, width, height } = value;
  if (!finite(x) || !finite(y) || !finite(width) || !finite(height) || width < 0 || height < 0) return null;
  return { x, y, width, height };
}

/** The overlay an answer describes, or null when it is not an OCR answer with a positive size. */
export function readOcrOverlay(answer: unknown): OcrOverlay | null {
  if (!isRecord(answer) || !Array.isArray(answer.lines)) return null;
  const { width, height } = answer;
  if (!finite(width) || !finite(height) || width <= 0 || height <= 0) return null;
  const lines: OverlayLine[] = [];
  for (const line of answer.lines) {
    if (!isRecord(line)) return null;
    const box = readBox(line.box);
    if (!box) return null;
    const words = Array.isArray(line.words)
      ? line.words.flatMap((word) => {
          const wordBox = isRecord(word) ? readBox(word.box) : null;
          return wordBox && isRecord(word) ? [{ text: String(word.text ?? ""), box: wordBox }] : [];
        })
      : [];
    lines.push({
      text: String(line.text ?? ""),
      confidence: finite(line.confidence) ? line.confidence : 0,
      box,
      words,
    });
  }
  return { width, height, lines };
}

/**
 * What the demo shows under the overlay: the image the call read, as the page can display it.
 * An uploaded file's object URL first, then a data URL or an https URL from the JSON input
 * (`image`, `base64Image`, `url`, as the API reads them); null when there is none.
 */
export function ocrImageSource(input: Record<string, unknown>, uploadedUrl: string | null): string | null {
  if (uploadedUrl) return uploadedUrl;
  for (const field of ["image", "base64Image"]) {
    const value = input[field];
    if (typeof value === "string" && /^data:image\//i.test(value)) return value;
  }
  const url = input.url;
  if (typeof url === "string" && /^https:\/\//i.test(url)) return url;
  return null;
}
