import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { baseUrl, openPage, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();

async function signUp(page: Page, email = `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`) {
  await signUpAndConfirm(page, email);
}

test("buy Standard through the local fake PayPal: the dashboard and the history show it", async () => {
  const page = await browser.newPage();
  await signUp(page);

  await openPage(page, "/user/subscription?country=US");
  const standard = page.getByRole("article", { name: "Standard" });
  await standard.getByRole("button", { name: "Buy Now" }).click();
  const modal = page.getByRole("dialog", { name: "Secure Payment with PayPal" });
  await modal.waitFor();
  // The PayPal buttons come from @paypal/paypal-js loading the fake SDK; approval opens a popup.
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    modal.getByRole("button", { name: "PayPal" }).click(),
  ]);
  await popup.waitForLoadState();
  expect(await popup.content()).toContain("9.00");
  await popup.getByRole("button", { name: "Pay now" }).click();

  await page.waitForURL(`${baseUrl()}/user/dashboard`);
  await page.getByRole("heading", { name: "Plan: Standard" }).waitFor();
  await page.getByText("Payment received: your Standard plan is active.").waitFor();

  await openPage(page, "/user/transactions");
  const row = page.getByRole("row", { name: /PayPal/ });
  await row.waitFor();
  expect(await row.textContent()).toContain("$9.00");
  expect(await row.textContent()).toMatch(/paid/i);
});

test("buy Premium through the local fake Cashfree in rupees: status page, dashboard and history", async () => {
  const page = await browser.newPage();
  await signUp(page);

  await openPage(page, "/user/subscription?country=IN");
  const premium = page.getByRole("article", { name: "Premium" });
  expect(await premium.textContent()).toContain("₹46");
  await premium.getByRole("button", { name: "Buy Now" }).click();
  const modal = page.getByRole("dialog", { name: "Secure Payment with Cashfree" });
  await modal.getByLabel("Mobile number").fill("12345");
  await modal.getByRole("button", { name: "Continue to payment" }).click();
  await modal.getByText("Enter a valid 10-digit Indian mobile number").waitFor();
  await modal.getByLabel("Mobile number").fill("98765 43210");
  await modal.getByRole("button", { name: "Continue to payment" }).click();

  // cashfree-js checks out in the same window: the fake's hosted checkout page.
  await page.waitForURL(/\/dev\/cashfree\/checkout/);
  await page.getByRole("button", { name: /Pay ₹46/ }).click();

  await page.waitForURL(/\/status\/payment\/pay_/);
  const status = page.getByTestId("payment-status");
  await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === "paid");
  expect(await status.textContent()).toBe("paid");
  await page.getByRole("heading", { name: "Payment received" }).waitFor();

  await openPage(page, "/user/dashboard");
  await page.getByRole("heading", { name: "Plan: Premium" }).waitFor();
  await openPage(page, "/user/transactions");
  const row = page.getByRole("row", { name: /Cashfree/ });
  await row.waitFor();
  expect(await row.textContent()).toContain("₹46.00");
  expect(await row.textContent()).toMatch(/paid/i);
});

test("the Easy Pay drawer is open for a privileged account and renders the hosted button after its spinner", async () => {
  const page = await browser.newPage();
  await signUp(page, "vip@portico.local");
  await openPage(page, "/user/transactions");
  const drawer = page.getByRole("dialog", { name: "Easy Pay" });
  await drawer.waitFor();
  await page.getByTestId("easy-pay-loading").waitFor();
  await drawer.locator("[data-hosted-button-id='FAKE-EASY-PAY']").waitFor({ timeout: 10_000 });
  await page.getByRole("button", { name: "Close Easy Pay" }).click();
  await drawer.waitFor({ state: "hidden" });
  expect(await page.getByRole("columnheader", { name: "Plan Expiry Date" }).count()).toBe(1);
});
