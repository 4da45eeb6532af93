import { readFile } from "node:fs/promises";
import { expect, test } from "vitest";
import { openPage, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();

test("make an avatar in the live demo, save it, find it on the dashboard, download and copy it, delete the list", async () => {
  const page = await browser.newPage();
  const email = `saved-${Date.now()}@example.com`;
  await signUpAndConfirm(page, email);

  await openPage(page, "/user/apikey");
  await page.getByLabel("Key name").fill("Saved items");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByTestId("new-api-key").waitFor();

  // The demo draws the avatar; 'Save' keeps the call that drew it.
  await openPage(page, "/avatar/live-demo");
  const saved = page.getByRole("region", { name: "Saved avatars" });
  await saved.getByText("Nothing saved yet").waitFor();
  const input = { seed: "saved-in-the-browser", style: "shapes", size: 96, format: "svg" };
  await page.getByLabel(/^Input/).fill(JSON.stringify(input));
  await page.getByRole("button", { name: "Send POST" }).click();
  await page.getByTestId("demo-status").waitFor();
  expect(await page.getByTestId("demo-status").textContent()).toBe("200");
  await page.getByRole("button", { name: "Save this avatar" }).click();
  await page.getByRole("status").filter({ hasText: "Saved to your avatars (1 of 100)." }).waitFor();
  await saved.getByRole("listitem", { name: "avatar 1" }).waitFor();

  // The dashboard reads the same list from the server, with the inputs and the drawn image.
  await openPage(page, "/user/dashboard");
  const onDashboard = page.getByRole("region", { name: "Saved avatars" });
  const item = onDashboard.getByRole("listitem", { name: "avatar 1" });
  await item.getByText("saved-in-the-browser").waitFor();
  expect(await onDashboard.getByTestId("saved-avatars-count").textContent()).toBe("1 of 100");
  // Each list is its own: nothing went into the QR codes.
  await page.getByRole("region", { name: "Saved QR codes" }).getByText("Nothing saved yet").waitFor();
  const picture = item.getByRole("img", { name: "Saved avatar 1" });
  await page.waitForFunction(
    () => (document.querySelector('img[alt="Saved avatar 1"]') as HTMLImageElement | null)?.complete === true,
  );
  expect(await picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  // Download gives the avatar itself; Copy request gives the call that makes it, without a key.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    item.getByRole("link", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("avatar-1.svg");
  const file = await readFile((await download.path()) ?? "", "utf8");
  expect(file).toContain("<svg");
  await item.getByRole("button", { name: "Copy request" }).click();
  await item.getByRole("button", { name: "Copied" }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("curl -X POST");
  expect(copied).toContain("/api/v1/avatar");
  expect(copied).toContain("x-api-key: YOUR_API_KEY");
  expect(copied).toContain(JSON.stringify(input));

  // Delete asks first; Cancel keeps the list, Yes empties it, and it stays empty after a reload.
  await onDashboard.getByRole("button", { name: "Delete list" }).click();
  await onDashboard.getByText("Delete all 1 saved avatar? This cannot be undone.").waitFor();
  await onDashboard.getByRole("button", { name: "Cancel" }).click();
  expect(await item.isVisible()).toBe(true);
  await onDashboard.getByRole("button", { name: "Delete list" }).click();
  await onDashboard.getByRole("button", { name: "Yes, delete" }).click();
  await onDashboard.getByText("Nothing saved yet").waitFor();
  await openPage(page, "/user/dashboard");
  await page.getByRole("region", { name: "Saved avatars" }).getByText("Nothing saved yet").waitFor();
  expect(await page.getByRole("region", { name: "Saved avatars" }).getByRole("listitem").count()).toBe(0);
}, 90_000);
