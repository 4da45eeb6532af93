import { expect, test } from "vitest";
import { baseUrl, openPage, useBrowser } from "./browser";

const browser = useBrowser();

test("buy Standard through the local fake PayPal: the dashboard and the history show it", async () => {
  const page = await browser.newPage();
  await openPage(page, "/user/authenticate?mode=signup");
  await page.getByLabel("Email").fill(`buyer-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("a long enough passphrase 1");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${baseUrl()}/user/dashboard`);

  await openPage(page, "/user/subscription?country=US");
  const standard = page.getByRole("article", { name: "Standard" });
  await standard.getByRole("button", { name: "Buy Now" }).click();
  await page.waitForURL(/\/dev\/paypal\/checkoutnow/);
  expect(await page.content()).toContain("9.00");
  await page.getByRole("button", { name: "Pay now" }).click();

  await page.waitForURL(`${baseUrl()}/user/dashboard`);
  await page.getByRole("heading", { name: "Plan: Standard" }).waitFor();
  await page.getByText("Payment received: your standard plan is active.").waitFor();

  await openPage(page, "/user/transactions");
  const row = page.getByRole("row", { name: /PayPal/ });
  await row.waitFor();
  expect(await row.textContent()).toContain("$9.00");
  expect(await row.textContent()).toMatch(/paid/i);
});
