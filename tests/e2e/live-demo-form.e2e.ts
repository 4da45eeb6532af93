/**
 * The live demo's form, built from the call's schema, on a phone-width screen: choosing an enum
 * and typing text rewrite the JSON beside it, JSON typed there fills the form, JSON that does not
 * parse leaves the form as it was, and the call sent is the one the form shows. A file chosen in
 * the form's picker is uploaded with its progress shown.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { openPage, sendWithSlowUpload, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();
// Evaluated through the DevTools protocol: the pages' CSP refuses an injected inline script.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's findings (WCAG 2.1 A/AA and best practices, as Lighthouse runs them) in the demo's form and JSON. */
async function formViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Element,
            options: unknown,
          ) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document.querySelector("main form") ?? document.body, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return violations.map(({ id, nodes }) => `${id}: ${JSON.stringify(nodes.map((node) => node.target))}`);
  });
}

test("a call built in the form at 360 px: the JSON follows both ways, and a picked file uploads with progress", async () => {
  const page = await browser.newPage({ width: 360, height: 780 });
  await signUpAndConfirm(page, `demo-form-${Date.now()}@example.com`);
  await openPage(page, "/user/apikey");
  await page.getByLabel("Key name").fill("Form");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByTestId("new-api-key").waitFor();

  await openPage(page, "/colorconvert/live-demo");
  await page.getByLabel("Call").selectOption("colorScheme");
  const json = page.getByLabel(/^Input/);
  const readJson = async () => JSON.parse(await json.inputValue()) as unknown;
  // The form starts from the docs' example.
  await page.waitForFunction(() => (document.getElementById("demo-field-hex") as HTMLInputElement | null)?.value);
  const mode = page.getByRole("combobox", { name: /^mode\b/ });
  const hex = page.getByRole("textbox", { name: /^hex\b/ });
  const count = page.getByRole("spinbutton", { name: /^count\b/ });
  expect(await hex.inputValue()).toBe("#3366cc");
  expect(await mode.inputValue()).toBe('"complementary"');
  expect(await formViolations(page)).toEqual([]);
  // Its description is what a screen reader hears with it.
  const described = await count.getAttribute("aria-describedby");
  expect(await page.locator(`#${described}`).textContent()).toMatch(/range 1–/);

  // Form to JSON: an enum by its select, text and a number (sent as a number, not text).
  await mode.selectOption({ label: "triad" });
  await hex.fill("#ff0000");
  await count.fill("3");
  expect(await readJson()).toEqual({ hex: "#ff0000", mode: "triad", count: 3 });
  // Emptied, an optional field leaves the JSON.
  await count.fill("");
  expect(await readJson()).toEqual({ hex: "#ff0000", mode: "triad" });

  // JSON to form.
  await json.fill(JSON.stringify({ hex: "#00ff00", mode: "quad", count: 4 }));
  expect(await hex.inputValue()).toBe("#00ff00");
  expect(await mode.inputValue()).toBe('"quad"');
  expect(await count.inputValue()).toBe("4");

  // JSON that does not parse is named beside the editor; the form keeps its values and waits.
  await json.fill('{"hex": "#0000ff", "mode": ');
  await page.getByText(/^The JSON does not parse: /).waitFor();
  expect(await json.getAttribute("aria-invalid")).toBe("true");
  expect(await hex.inputValue()).toBe("#00ff00");
  expect(await hex.isDisabled()).toBe(true);
  await page.getByRole("button", { name: "Write the JSON again from the form" }).click();
  expect(await readJson()).toEqual({ hex: "#00ff00", mode: "quad", count: 4 });
  expect(await hex.isDisabled()).toBe(false);

  // What the form shows is what is sent (a GET: the query).
  await mode.selectOption({ label: "triad" });
  await hex.fill("#ff0000");
  await count.fill("");
  await page.waitForTimeout(1_100);
  await page.getByRole("button", { name: "Send GET" }).click();
  await page.getByTestId("demo-status").waitFor({ timeout: 30_000 });
  expect(await page.getByTestId("demo-status").textContent()).toBe("200");
  const answer = JSON.parse((await page.locator("pre code").textContent()) ?? "") as {
    mode: string;
    colors: { hex: string }[];
  };
  expect(answer.mode).toBe("triad");
  expect(answer.colors.map((color) => color.hex)).toEqual(["#ff0000", "#00ff00", "#0000ff"]);
  // Nothing on the page is wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // A file API: the image picked in the form replaces the example's data URL, its upload shows progress.
  await openPage(page, "/image-processing/live-demo");
  const png = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 600;
    canvas.height = 300;
    const context = canvas.getContext("2d")!;
    // Grain that compresses badly: a few hundred KB, so the upload takes several progress steps.
    let seed = 0x5eed;
    const grain = context.createImageData(canvas.width, canvas.height);
    for (let index = 0; index < grain.data.length; index += 4) {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      const level = (seed >>> 16) & 0xff;
      grain.data.set([level, 255 - level, (level * 7) & 0xff, 255], index);
    }
    context.putImageData(grain, 0, 0);
    return canvas.toDataURL("image/png").split(",")[1]!;
  });
  const bytes = Buffer.from(png, "base64");
  expect(bytes.length).toBeGreaterThan(200_000);
  const picker = page.getByLabel(/^File for image/);
  await picker.setInputFiles({ name: "grain.png", mimeType: "image/png", buffer: bytes });
  const pickerHelp = await picker.getAttribute("aria-describedby");
  expect(await page.locator(`#${pickerHelp}`).textContent()).toMatch(
    /multipart with grain\.png, in place of the JSON's value/,
  );
  await page.getByRole("combobox", { name: /^format\b/ }).selectOption({ label: "webp" });
  expect(await readJson()).toMatchObject({ format: "webp" });
  expect(await formViolations(page)).toEqual([]);
  // The list of operations is a JSON field of its own.
  expect(JSON.parse(await page.getByRole("textbox", { name: /^operations\b/ }).inputValue())).toHaveLength(3);

  await sendWithSlowUpload(page, bytes.length);
  await page.getByTestId("demo-status").waitFor({ timeout: 30_000 });
  expect(await page.getByTestId("demo-status").textContent()).toBe("200");
  const contentType = page.locator("dt", { hasText: /^content-type$/ }).locator("xpath=following-sibling::dd[1]");
  expect(await contentType.textContent()).toBe("image/webp");
  // The answer is the picked image turned and shrunk to 8×8, as the example's operations ask.
  const size = await page.getByAltText("The API's answer").evaluate(async (image: HTMLImageElement) => {
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
  });
  expect(size).toEqual([8, 8]);

  // The other controls a schema gives: checkboxes, lists of choices, lines of text, JSON fields.
  for (const [path, call] of [
    ["/html-to-pdf/live-demo", null],
    ["/audio-to-text/live-demo", null],
    ["/email-exist/live-demo", "checkEmailBatch"],
  ] as const) {
    await openPage(page, path);
    if (call) await page.getByLabel("Call").selectOption(call);
    if (call === "checkEmailBatch") {
      // A list of addresses is one a line, and the JSON keeps it a list.
      const emails = page.getByRole("textbox", { name: /^emails\b/ });
      const lines = (await emails.inputValue()).split("\n");
      expect(lines.length).toBeGreaterThan(1);
      await emails.fill([...lines, "new@example.com"].join("\n"));
      expect(await readJson()).toEqual({ emails: [...lines, "new@example.com"] });
    }
    expect(await formViolations(page), path).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
  }
}, 120_000);
