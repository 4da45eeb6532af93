import { expect, test } from "vitest";
import { baseUrl, openPage, useBrowser } from "./browser";

const browser = useBrowser();

test.each([
  [375, 1],
  [800, 2],
  [1280, 3],
])(
  "the services carousel shows the right number of cards at %i px and its arrows stop at the ends",
  async (width, perView) => {
    const page = await browser.newPage({ width });
    await openPage(page, "/");
    const carousel = page.locator('[aria-roledescription="carousel"]');
    const inView = carousel.locator('[aria-roledescription="slide"][data-in-view="true"]');
    await expect.poll(() => inView.count()).toBe(perView);

    const previous = carousel.getByRole("button", { name: "Previous services" });
    const next = carousel.getByRole("button", { name: "Next services" });
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(false);
    const slides = await carousel.locator('[aria-roledescription="slide"]').count();
    for (let step = 0; step < slides - perView; step++) await next.click();
    expect(await next.isDisabled()).toBe(true);
    expect(await previous.isDisabled()).toBe(false);
    // The last card is in view, and the first is not.
    expect(await inView.last().getAttribute("aria-label")).toContain(`${slides} of ${slides}`);
    expect(await inView.count()).toBe(perView);
  },
);

test("a swipe longer than 10 px moves the carousel; a shorter one does not", async () => {
  const page = await browser.newPage({ width: 375 });
  await openPage(page, "/");
  const track = page.getByTestId("carousel-track");
  const first = page.locator('[aria-roledescription="slide"][data-in-view="true"]');
  await track.scrollIntoViewIfNeeded();
  const box = await track.boundingBox();
  if (!box) throw new Error("no carousel track");
  const y = box.y + 100;
  const swipe = async (dx: number) => {
    await page.mouse.move(box.x + 200, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 200 + dx, y, { steps: 4 });
    await page.mouse.up();
  };
  await swipe(-8);
  expect(await first.getAttribute("aria-label")).toMatch(/^1 of/);
  await swipe(-40);
  await expect.poll(() => first.getAttribute("aria-label")).toMatch(/^2 of/);
});

test("the navigation bar shows four entries, then 'More API's' with the rest", async () => {
  const page = await browser.newPage({ width: 1280 });
  await openPage(page, "/docs/api/qrcode");
  const nav = page.getByRole("navigation", { name: "Main" });
  const barLinks = nav.locator("#main-menu > ul > li > a");
  expect(await barLinks.allTextContents()).toEqual(["Home", "Avatars", "URL Shortener", "Color Converter", "Pricing"]);
  const more = nav.getByRole("button", { name: "More API's" });
  expect(await more.getAttribute("aria-expanded")).toBe("false");
  // Keyboard: ArrowDown opens the list and focuses its first entry.
  await more.focus();
  await page.keyboard.press("ArrowDown");
  expect(await more.getAttribute("aria-expanded")).toBe("true");
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Location");
  // The current page's entry is marked, in the dropdown.
  expect(await nav.getByRole("link", { name: "QR Code Generator" }).getAttribute("aria-current")).toBe("page");
  await page.keyboard.press("Escape");
  expect(await more.getAttribute("aria-expanded")).toBe("false");
  expect(await page.title()).toBe("QR Code Generator API — Portico");
});

test("search filters after the debounce, ignores Home, and clears on empty input", async () => {
  const page = await browser.newPage();
  await openPage(page, "/");
  const box = page.getByRole("combobox", { name: "Search APIs" });
  const results = page.getByRole("list", { name: "Matching APIs" });
  await box.fill("IMAGE");
  // Nothing shows before the 332 ms debounce has passed.
  expect(await results.isVisible()).toBe(false);
  await results.waitFor({ state: "visible" });
  const names = await results.getByRole("link").allTextContents();
  expect(names).toEqual(["Image Filters", "Image Color Picker", "Merge Images", "Image to Text", "Image to Base64"]);
  await box.fill("home");
  await page.waitForTimeout(500);
  expect(await results.isVisible()).toBe(false);
  await box.fill("qr");
  await results.waitFor({ state: "visible" });
  await box.fill("");
  expect(await results.isVisible()).toBe(false);
});

test("the colour mode survives a reload", async () => {
  const page = await browser.newPage();
  await openPage(page, "/");
  const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
  expect(await isDark()).toBe(false);
  await page.getByRole("button", { name: "Switch to dark mode" }).first().click();
  expect(await isDark()).toBe(true);
  await page.reload();
  await page.getByText("Loading Portico").waitFor({ state: "detached" });
  expect(await isDark()).toBe(true);
  await page.getByRole("button", { name: "Switch to light mode" }).first().click();
  await page.reload();
  expect(await isDark()).toBe(false);
});

test("an unknown path shows the not-found page with status 404", async () => {
  const page = await browser.newPage();
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await page.getByText("Loading Portico").waitFor({ state: "detached" });
  await page.getByRole("heading", { name: "Looks like you're lost" }).waitFor();
  expect(await page.getByText("The page you are looking for is not available!").isVisible()).toBe(true);
  await page.getByRole("button", { name: "Go to Home" }).click();
  await page.waitForURL(`${baseUrl()}/`);
});

test("the footer copies the support address and says so", async () => {
  const page = await browser.newPage();
  await openPage(page, "/");
  await page.getByRole("button", { name: /Copy support address/ }).click();
  await page.getByText("Contact email copied successfully").waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^support@/);
  await page.getByText("Copied!").waitFor();
  await page.getByText("Copied!").waitFor({ state: "detached", timeout: 3_000 });
});

test("Refer & Earn opens a popup that says the feature is coming for a visitor", async () => {
  const page = await browser.newPage();
  await openPage(page, "/");
  await page.getByRole("button", { name: "Refer & Earn" }).click();
  const dialog = page.getByRole("dialog", { name: "Refer & Earn" });
  await dialog.getByText("FEATURE COMING SOON").waitFor();
  await page.keyboard.press("Escape");
  expect(await dialog.isVisible()).toBe(false);
});
