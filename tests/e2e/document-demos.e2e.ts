/**
 * The document APIs' live demos on the built app: HTML to PDF shows the PDF in the page (the
 * preview server has no Chromium for the engine Worker, so pdfmake prints it), and Image to Text
 * shows an upload's progress and draws the boxes it read over the image.
 */
import { expect, test } from "vitest";
import { openPage, sendWithSlowUpload, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();

test("HTML to PDF shows its PDF inline; Image to Text shows the upload's progress and draws its boxes", async () => {
  const page = await browser.newPage();
  await signUpAndConfirm(page, `documents-${Date.now()}@example.com`);
  await openPage(page, "/user/apikey");
  await page.getByLabel("Key name").fill("Documents");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByTestId("new-api-key").waitFor();

  // The docs' example prints to a PDF framed in the page, from a blob URL the page's CSP allows.
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  // Every blob the page makes a URL for, by URL, so the test can read what the frame shows.
  await page.addInitScript(() => {
    const made = new Map<string, Blob>();
    (window as unknown as { madeBlobs: Map<string, Blob> }).madeBlobs = made;
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (object: Blob | MediaSource) => {
      const url = create(object);
      if (object instanceof Blob) made.set(url, object);
      return url;
    };
  });
  await openPage(page, "/html-to-pdf/live-demo");
  await page.getByRole("button", { name: "Send POST" }).click();
  await page.getByTestId("demo-status").waitFor({ timeout: 30_000 });
  expect(await page.getByTestId("demo-status").textContent()).toBe("200");
  const frame = page.getByTitle("The PDF the API answered");
  await frame.waitFor();
  const pdfUrl = await frame.getAttribute("src");
  expect(pdfUrl).toMatch(/^blob:/);
  // The frame shows a PDF only when the blob is typed as one, whatever the answer's header said.
  // The blob is read as the page made it: fetching a blob: URL is a connection the CSP refuses.
  const framed = await page.evaluate(async (url) => {
    const blob = (window as unknown as { madeBlobs: Map<string, Blob> }).madeBlobs.get(url);
    return blob ? { type: blob.type, start: await blob.slice(0, 5).text() } : null;
  }, pdfUrl!);
  expect(framed).toEqual({ type: "application/pdf", start: "%PDF-" });
  expect(blocked).toEqual([]);
  // The headers saying which engine printed it and how many pages it made are shown beside it.
  const shownHeader = (name: string) =>
    page.locator("dt", { hasText: new RegExp(`^${name}$`) }).locator("xpath=following-sibling::dd[1]");
  expect(await shownHeader("x-engine").textContent()).toMatch(/^(pdfmake|chromium|cloudflare-browser-rendering)$/);
  expect(await shownHeader("x-page-count").textContent()).toMatch(/^[1-9]\d*$/);

  // The docs' example (a data URL) is read and its lines outlined over it.
  await openPage(page, "/image-to-text/live-demo");
  await page.waitForTimeout(1_100);
  await page.getByRole("button", { name: "Send POST" }).click();
  await page.getByTestId("ocr-overlay").waitFor({ timeout: 30_000 });
  expect(await page.getByTestId("ocr-line").count()).toBeGreaterThan(0);

  // An uploaded image, sent slowly enough to watch: the progress shows, then the boxes over it.
  const png = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 900;
    canvas.height = 200;
    const context = canvas.getContext("2d")!;
    // A light grey grain under the text: a few hundred KB that compress badly, so the upload
    // has several progress steps (Chromium reports a body in 16 KB reads), and Tesseract, which
    // thresholds the page, still reads black on near-white.
    // Seeded (mulberry32), so every run reads the same image: the boxes counted below must not
    // depend on where a random grain happened to fall.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const grain = context.createImageData(canvas.width, canvas.height);
    for (let index = 0; index < grain.data.length; index += 4) {
      const level = 235 + Math.floor(random() * 21);
      grain.data.set([level, level, level, 255], index);
    }
    context.putImageData(grain, 0, 0);
    context.fillStyle = "#000";
    context.font = "56px sans-serif";
    context.fillText("Portico reads this line", 30, 120);
    return canvas.toDataURL("image/png").split(",")[1]!;
  });
  const bytes = Buffer.from(png, "base64");
  await page.getByLabel(/^Input/).fill(JSON.stringify({ language: "eng", wordBoxes: true }));
  await page.getByLabel(/^File for image/).setInputFiles({ name: "line.png", mimeType: "image/png", buffer: bytes });
  await sendWithSlowUpload(page, bytes.length);
  // The earlier answer stays on show until this one arrives: wait for the overlay over the upload.
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="ocr-overlay"] image')?.getAttribute("href")?.startsWith("blob:") === true,
    undefined,
    { timeout: 30_000 },
  );
  expect(await page.locator("pre code").textContent()).toMatch(/Portico reads this line/);
  // The line read is outlined with its four words (the grain may add a stray line; it is not counted).
  const line = page
    .getByTestId("ocr-line")
    .filter({ has: page.locator("title", { hasText: /Portico reads this line/ }) });
  expect(await line.count()).toBe(1);
  expect(await line.locator("rect").count()).toBe(1 + 4);
}, 120_000);
