import { expect, test } from "vitest";
import { openPage, useBrowser } from "./browser";

const browser = useBrowser();

test("pricing shows the plans in the visitor's currency, their APIs, and asks visitors to log in before buying", async () => {
  const page = await browser.newPage();
  await openPage(page, "/user/subscription?country=US");
  expect(await page.getByTestId("price-standard").textContent()).toBe("$9.00");
  expect(await page.getByTestId("price-premium").textContent()).toBe("$17.00");
  const buy = page.getByRole("button", { name: "Buy Now" }).first();
  expect(await buy.isDisabled()).toBe(true);
  expect(await page.locator('[title="Please login first"]').count()).toBe(2);

  await page.getByRole("button", { name: "See the Standard APIs" }).click();
  const dialog = page.getByRole("dialog", { name: "Standard APIs" });
  await dialog.getByText("QR Code Generator").waitFor();
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "See the Free APIs" }).click();
  const free = page.getByRole("dialog", { name: "Free APIs" });
  await free.getByText("HTML to PDF").waitFor();
  expect(await free.getByText("QR Code Generator").count()).toBe(0);

  await openPage(page, "/user/subscription?country=IN");
  expect(await page.getByTestId("price-standard").textContent()).toBe("₹21.00");
});
