/**
 * The pages render with Preact (decision 065) on the server and in the browser: the server's
 * HTML is a standards-mode document with the stylesheet in the head ahead of the module
 * scripts, and the browser takes it over without an error, then navigates without reloading
 * the document.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { baseUrl, openPage, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();

const PAGES = ["/", "/user/subscription?country=US", "/docs/api/qrcode"];

/** Every error the page logs or throws, from now on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

test("the server's HTML is a standards-mode document: doctype first, stylesheet in the head before the module scripts", async () => {
  for (const path of PAGES) {
    const html = await (await fetch(`${baseUrl()}${path}`)).text();
    expect(html.slice(0, 15).toLowerCase(), path).toBe("<!doctype html>");
    expect(html.match(/<!doctype/gi), path).toHaveLength(1);
    const head = html.slice(0, html.indexOf("</head>"));
    const stylesheet = head.search(/<link[^>]* rel="stylesheet" href="\/assets\/app-[^"]+\.css"/);
    expect(stylesheet, `${path}: the stylesheet is not in the head`).toBeGreaterThan(0);
    const firstScript = html.search(/<link rel="modulepreload"|<script type="module"/);
    expect(firstScript, path).toBeGreaterThan(stylesheet);
    expect(head, path).toMatch(/<title>[^<]+<\/title>/);
    expect(head, path).toMatch(/<meta name="description" content="[^"]+"/);
    expect(html.match(/<h1[\s>]/g), `${path}: one h1`).toHaveLength(1);
  }
});

test("home, pricing, a docs page and the dashboard hydrate without an error, and links navigate in the page", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  for (const path of PAGES) {
    await openPage(page, path);
    // In standards mode (a missing doctype would lay the page out in quirks mode).
    expect(await page.evaluate(() => document.compatMode), path).toBe("CSS1Compat");
  }

  // A click on a link after hydration is a client navigation: the document (and this mark) stay.
  // (Not to pricing: a payment page always loads as a document, for its policy; root.tsx.)
  await openPage(page, "/");
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Avatars" }).first().click();
  await page.waitForURL(/\/docs\/api\/avatar$/);
  await page.getByRole("heading", { level: 1 }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(await page.title()).toMatch(/^Avatar.* — Portico$/);

  const signedIn = await browser.newPage();
  await signUpAndConfirm(signedIn, `renderer-${Date.now()}@example.com`);
  const dashboardErrors = watchErrors(signedIn);
  await openPage(signedIn, "/user/dashboard");
  expect([...errors, ...dashboardErrors]).toEqual([]);
});
