/**
 * The docs and pricing pages pass axe-core, the rules engine Lighthouse's accessibility
 * category runs, at a phone's width and a desktop's (issue #17). The pricing page is
 * /user/subscription, where the navigation bar's 'Pricing' leads.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { openPage, useBrowser } from "./browser";

const browser = useBrowser();
// Evaluated through the DevTools protocol rather than added as a <script>: the pages' CSP
// (nonce-only script-src) rightly refuses an injected inline script.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

// WCAG 2.0/2.1 A and AA plus axe's best practices: the rules Lighthouse scores against.
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

type Violation = { id: string; impact: string | null; nodes: { target: unknown[] }[] };

const PAGES = [
  "/docs",
  "/docs/api/qrcode",
  "/docs/api/youtube-instagram-video-downloader",
  "/user/subscription?country=US",
];

test.each(PAGES.flatMap((path) => [375, 1280].map((width) => [path, width] as const)))(
  "%s has no axe-core violations at %i px",
  async (path, width) => {
    const page = await browser.newPage({ width, height: 800 });
    await openPage(page, path);
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async (values) => {
      const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<{ violations: Violation[] }> } })
        .axe;
      const results = await axe.run(document, { runOnly: { type: "tag", values } });
      return results.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.map((n) => n.target) }));
    }, TAGS);
    const report = violations.map(
      ({ id, impact, nodes }) => `${id} (${impact}): ${nodes.map((target) => JSON.stringify(target)).join(", ")}`,
    );
    // Joined so the failure prints every violation in full.
    expect(report.join("\n")).toBe("");
  },
);

test("the sample-language tabs are one tab stop and the arrow keys move between them", async () => {
  const page = await browser.newPage();
  await openPage(page, "/docs/api/qrcode");
  const tabs = page.getByRole("tablist", { name: "Sample language" }).first();
  const panel = page.getByRole("tabpanel").first();
  expect(await tabs.getByRole("tab").allTextContents()).toEqual(["curl", "JavaScript", "Python"]);
  const curl = tabs.getByRole("tab", { name: "curl" });
  expect(await curl.getAttribute("tabindex")).toBe("0");
  expect(await tabs.getByRole("tab", { name: "Python" }).getAttribute("tabindex")).toBe("-1");
  await curl.focus();
  await page.keyboard.press("ArrowRight");
  const javascript = tabs.getByRole("tab", { name: "JavaScript" });
  expect(await javascript.getAttribute("aria-selected")).toBe("true");
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("JavaScript");
  expect(await panel.textContent()).toContain("fetch(");
  // Left from the first tab wraps to the last.
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  expect(await tabs.getByRole("tab", { name: "Python" }).getAttribute("aria-selected")).toBe("true");
  expect(await curl.getAttribute("aria-selected")).toBe("false");
});
