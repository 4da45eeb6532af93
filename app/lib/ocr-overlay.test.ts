import { describe, expect, it } from "vitest";
import { ocrImageSource, readOcrOverlay } from "./ocr-overlay";

const answer = {
  text: "Hello world\nSecond",
  confidence: 91.5,
  language: "eng",
  orientation: 0,
  width: 1000,
  height: 300,
  lines: [
    {
      text: "Hello world",
      confidence: 93,
      box: { x: 10, y: 20, width: 400, height: 50 },
      words: [
        { text: "Hello", confidence: 95, box: { x: 10, y: 20, width: 180, height: 50 } },
        { text: "world", confidence: 91, box: { x: 220, y: 22, width: 190, height: 48 } },
      ],
    },
    { text: "Second", confidence: 88, box: { x: 10, y: 100, width: 200, height: 40 } },
  ],
  engine: "tesseract-0.11.0",
};

describe("readOcrOverlay", () => {
  it("reads an Image to Text answer's size and its line and word boxes, in image pixels", () => {
    expect(readOcrOverlay(answer)).toEqual({
      width: 1000,
      height: 300,
      lines: [
        {
          text: "Hello world",
          confidence: 93,
          box: { x: 10, y: 20, width: 400, height: 50 },
          words: [
            { text: "Hello", box: { x: 10, y: 20, width: 180, height: 50 } },
            { text: "world", box: { x: 220, y: 22, width: 190, height: 48 } },
          ],
        },
        { text: "Second", confidence: 88, box: { x: 10, y: 100, width: 200, height: 40 }, words: [] },
      ],
    });
  });

  it("reads an answer with no text as an empty overlay", () => {
    expect(readOcrOverlay({ ...answer, text: "", lines: [] })).toEqual({ width: 1000, height: 300, lines: [] });
  });

  it("is null for other answers and for OCR answers it cannot draw", () => {
    expect(readOcrOverlay({ shortUrl: "https://example.com/s/abc" })).toBeNull();
    expect(readOcrOverlay([answer])).toBeNull();
    expect(readOcrOverlay(null)).toBeNull();
    expect(readOcrOverlay({ ...answer, width: 0 })).toBeNull();
    expect(readOcrOverlay({ ...answer, height: "300" })).toBeNull();
    expect(readOcrOverlay({ ...answer, lines: [{ text: "x", box: { x: 1, y: 2, width: -3, height: 4 } }] })).toBeNull();
    expect(readOcrOverlay({ ...answer, lines: [{ text: "x" }] })).toBeNull();
  });
});

describe("ocrImageSource", () => {
  it("prefers the uploaded file, then a data URL in the input, then an https URL", () => {
    expect(ocrImageSource({ url: "https://example.com/a.png" }, "blob:http://localhost/1")).toBe(
      "blob:http://localhost/1",
    );
    expect(ocrImageSource({ image: "data:image/png;base64,AAAA" }, null)).toBe("data:image/png;base64,AAAA");
    expect(ocrImageSource({ base64Image: "data:image/jpeg;base64,AAAA" }, null)).toBe("data:image/jpeg;base64,AAAA");
    expect(ocrImageSource({ url: "https://example.com/a.png" }, null)).toBe("https://example.com/a.png");
  });

  it("is null when the input names no image the page can show", () => {
    expect(ocrImageSource({}, null)).toBeNull();
    expect(ocrImageSource({ url: "http://example.com/a.png" }, null)).toBeNull();
    expect(ocrImageSource({ image: "data:text/html,<script>1</script>" }, null)).toBeNull();
  });
});
