import { expect, test } from "vitest";
import { baseUrl, openPage, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();

test("create a key, then shorten a link and draw an avatar from the live demos, and see the limits", async () => {
  const page = await browser.newPage();
  const email = `demo-${Date.now()}@example.com`;
  await signUpAndConfirm(page, email);

  await openPage(page, "/user/apikey");
  await page.getByLabel("Key name").fill("Demo");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent()) ?? "";

  // The docs samples carry the new key, remembered by this browser.
  await openPage(page, "/docs/api/urlshortener");
  await page.getByText(`x-api-key: ${key}`).first().waitFor();

  await openPage(page, "/urlshortener/live-demo");
  expect(await page.getByLabel("API key").inputValue()).toBe(key);
  await page.getByLabel(/^Input/).fill(JSON.stringify({ url: "https://example.com/from-the-demo" }));
  await page.getByRole("button", { name: "Send POST" }).click();
  await page.getByTestId("demo-status").waitFor();
  expect(await page.getByTestId("demo-status").textContent()).toBe("201");
  await page.getByText("x-ratelimit-remaining").waitFor();
  expect(await page.getByText(/"shortUrl": "http:\/\/127\.0\.0\.1:\d+\/s\//).isVisible()).toBe(true);

  // The stats call acts on the link just made: its alias comes over from the answer.
  const created = JSON.parse((await page.locator("pre code").textContent()) ?? "{}") as { alias: string };
  await page.getByLabel("Call").selectOption("getShortLinkStats");
  expect(JSON.parse(await page.getByLabel(/^Input/).inputValue())).toEqual({ alias: created.alias });
  await page.getByText("alias comes from your last answer.").waitFor();
  // A new account is on Free, 2 calls a second: a person clicking this fast would see the 429.
  await page.waitForTimeout(1_100);
  await page.getByRole("button", { name: "Send GET" }).click();
  await page.getByText(`"alias": "${created.alias}"`).waitFor();
  expect(await page.getByTestId("demo-status").textContent()).toBe("200");

  // An image answer is drawn: the avatar demo's default input renders a picture that loaded.
  await openPage(page, "/avatar/live-demo");
  await page.waitForTimeout(1_100);
  await page.getByRole("button", { name: "Send POST" }).click();
  await page.getByTestId("demo-status").waitFor();
  expect(await page.getByTestId("demo-status").textContent()).toBe("200");
  const picture = page.getByRole("img", { name: "The API's answer" });
  await picture.waitFor();
  await page.waitForFunction(
    () => (document.querySelector('img[alt="The API\'s answer"]') as HTMLImageElement | null)?.complete === true,
  );
  expect(await picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  // The dashboard counts both shortener calls once the gateway's usage buffer has flushed
  // (about a second after a call).
  const shortenerCalls = page
    .getByRole("row", { name: /URL Shortener/ })
    .getByRole("cell")
    .first();
  const counted = async () => ((await shortenerCalls.isVisible()) ? await shortenerCalls.textContent() : null);
  for (let attempt = 0; attempt < 10 && (await counted()) !== "2"; attempt++) {
    await page.waitForTimeout(500);
    await openPage(page, "/user/dashboard");
  }
  expect(await counted()).toBe("2");
}, 90_000);
