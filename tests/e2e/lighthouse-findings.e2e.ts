/**
 * What Lighthouse found on the measured pages (issue #17), checked in the browser: the home
 * page's first load carries no toast library, the closed 'More API's' list adds nothing to a
 * page's HTML, a docs page's data carries its examples once, every page names a meta
 * description, and the dashboard passes axe-core (its 'Pick an API' link was told apart from the
 * text by colour alone).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { baseUrl, openPage, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();

/** The scripts the server's HTML has the browser fetch before the page hydrates. */
function preloadedScripts(html: string): string[] {
  return [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1] ?? "");
}

test("the home page's first load fetches no toast library, and a toast still shows", async () => {
  const html = await (await fetch(`${baseUrl()}/`)).text();
  const scripts = preloadedScripts(html);
  expect(scripts.length).toBeGreaterThan(3);
  for (const script of scripts) {
    const source = await (await fetch(`${baseUrl()}${script}`)).text();
    // sonner's Toaster marks its list with this attribute; nothing else in the app does.
    expect(source.includes("data-sonner-toaster"), `${script} holds sonner`).toBe(false);
  }
  const page = await browser.newPage();
  await openPage(page, "/");
  // At once after hydration: the toast must wait for sonner, not be lost.
  await page.getByRole("button", { name: /Copy support address/ }).click();
  await page.getByText("Contact email copied successfully").waitFor();
});

test("the closed 'More API's' list is not in the page's HTML, and opening it shows every entry", async () => {
  // Polyline sits in the dropdown (after the bar's first four) and nowhere else on this page.
  const html = await (await fetch(`${baseUrl()}/docs/api/qrcode`)).text();
  expect(html.includes("More API")).toBe(true);
  expect(html.includes('href="/docs/api/polyline"'), "the closed list's links are in the HTML").toBe(false);
  const page = await browser.newPage({ width: 1280 });
  await openPage(page, "/docs/api/qrcode");
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "More API's" }).click();
  await page.getByRole("link", { name: "Polyline Encode/Decode" }).waitFor();
});

test("a docs page's data carries an example once: the QR decoder's example image is there once, and once in its curl sample", async () => {
  // The three samples, and the live demo's input the page does not show, each carried it again.
  const html = await (await fetch(`${baseUrl()}/docs/api/qrcode`)).text();
  const image = /data:image\/png;base64,[A-Za-z0-9+/=]{200,}/.exec(html)?.[0];
  if (!image) throw new Error("the decoder's example image is not on the page");
  expect(html.split(image).length - 1).toBe(2);
  // The samples the page writes in the browser are the ones it was served with.
  const page = await browser.newPage();
  await openPage(page, "/docs/api/qrcode");
  const decoder = page.getByRole("article", { name: /\/api\/v1\/qrcode\/decode$/ });
  await decoder.getByRole("tab", { name: "Python" }).click();
  expect(await decoder.getByRole("tabpanel").textContent()).toContain(`json={\n      "image": "${image}"`);
});

const PUBLIC_PAGES = [
  "/",
  "/docs",
  "/docs/api/qrcode",
  "/problems",
  "/user/subscription?country=US",
  "/user/authenticate",
  "/terms-and-conditions",
  "/privacy-policy",
  "/security",
  "/this/does/not/exist",
  "/change/password/not-a-token",
  "/user/verify-email/not-a-token",
  "/newsletter/confirm/not-a-token",
  "/dev/mail",
];
const SIGNED_IN_PAGES = ["/user/dashboard", "/user/apikey", "/user/settings", "/user/transactions"];

test("every page names a meta description", async () => {
  const page = await browser.newPage();
  const description = () =>
    page.evaluate(() => document.querySelector('meta[name="description"]')?.getAttribute("content") ?? "");
  const missing: string[] = [];
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    if (!(await description())) missing.push(path);
  }
  await signUpAndConfirm(page, `meta-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`);
  for (const path of SIGNED_IN_PAGES) {
    await page.goto(path);
    if (!(await description())) missing.push(path);
  }
  expect(missing).toEqual([]);
});

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
type Violation = { id: string; nodes: { target: unknown[] }[] };

test("the dashboard of a new account has no axe-core violations", async () => {
  const page = await browser.newPage({ width: 1280, height: 800 });
  await signUpAndConfirm(page, `a11y-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`);
  await openPage(page, "/user/dashboard");
  // A new account has made no calls: the page shows 'Pick an API' in its sentence.
  await page.getByRole("link", { name: "Pick an API" }).waitFor();
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<{ violations: Violation[] }> } })
      .axe;
    const results = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return results.violations.map(({ id, nodes }) => `${id}: ${nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
  });
  expect(violations.join("\n")).toBe("");
});
