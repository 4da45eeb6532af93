/**
 * The admin's prompt-to-image page offline (decision 063): the built app has no Workers AI
 * binding, so the page says so in the server's words from its first render, and 'Anime' and
 * 'AI Human' are disabled, described by that sentence; clicking them sends nothing.
 *
 * The admin account is shared with accounts.e2e.ts, which signs it up by password and checks it
 * has no rights until confirmed. Files run in no fixed order: when this file finds no admin it
 * signs in through the fake identity provider (no sign-up form, so no sign-up throttle spent)
 * and deletes the account afterwards, leaving the address as it found it.
 */
import { afterAll, expect, inject, test } from "vitest";
import { baseUrl, openPage, useBrowser } from "./browser";
import { queryD1 } from "./wrangler";

const browser = useBrowser();
const ADMIN = "admin@portico.local";
// accounts.e2e.ts's password for the admin, when that file made the account.
const PASSWORD = "a long enough passphrase 1";
let createdHere = false;

afterAll(async () => {
  if (createdHere) await queryD1(inject("stateDir"), `DELETE FROM users WHERE email = '${ADMIN}'`);
});

test("offline, the admin's page says why 'Anime' and 'AI Human' do nothing", async () => {
  const page = await browser.newPage();
  const existing = await queryD1<{ id: string }>(inject("stateDir"), `SELECT id FROM users WHERE email = '${ADMIN}'`);
  if (existing.length > 0) {
    await openPage(page, "/user/authenticate?mode=login");
    await page.getByLabel("Email").fill(ADMIN);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
  } else {
    createdHere = true;
    await page.goto("/api/auth/oidc/start");
    await page.getByRole("textbox", { name: "Email" }).fill(ADMIN);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  await page.waitForURL(`${baseUrl()}/user/dashboard**`);

  const requests: string[] = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await openPage(page, "/ai/prompt-to-image");
  expect(new URL(page.url()).pathname).toBe("/ai/prompt-to-image");

  const status = page.locator("#engine-status");
  expect(await status.textContent()).toContain(
    "Image generation needs the Workers AI binding (AI), which this environment does not have",
  );
  expect(await status.textContent()).toContain("The Anime and AI Human buttons are off until it has one.");
  await page.getByRole("textbox", { name: "Prompt" }).fill("a lighthouse at dusk");
  for (const name of ["Anime", "AI Human"]) {
    const button = page.getByRole("button", { name, exact: true });
    expect(await button.isDisabled(), name).toBe(true);
    expect(await button.getAttribute("aria-describedby"), name).toBe("engine-status");
    // A disabled button takes no click, even one forced past Playwright's own checks.
    await button.click({ force: true });
  }
  await page.waitForTimeout(300);
  expect(requests.filter((path) => path.startsWith("/api/ai/"))).toEqual([]);

  // The rest of the page as the spec draws it.
  expect(await page.getByText("free: 30 a month, 1 a day.").isVisible()).toBe(true);
  expect(await page.getByText("No images yet.").isVisible()).toBe(true);
  await page.getByRole("link", { name: "Goto Pricing Page" }).click();
  await page.waitForURL(`${baseUrl()}/user/subscription`);
});
