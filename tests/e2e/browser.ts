/** One headless Chromium (Debian's) per test file, and pages on the preview server. */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { CHROMIUM_PATH } from "../../scripts/chromium.ts";

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function baseUrl(): string {
  return inject("baseUrl");
}

/** Registers the browser for the current file; call at the top of a test file. */
export function useBrowser(): { newPage: (options?: { width?: number; height?: number }) => Promise<Page> } {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });
  return {
    async newPage({ width = 1280, height = 900 } = {}) {
      if (!browser) throw new Error("useBrowser() must be called at the top of the test file");
      const context = await browser.newContext({ viewport: { width, height }, baseURL: baseUrl() });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
      contexts.push(context);
      return context.newPage();
    },
  };
}

/** Opens a path and waits until React has taken over the server's HTML. */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // The start-up loader is in the server's HTML and leaves once the app has hydrated.
  await page.getByText("Loading Portico").waitFor({ state: "detached" });
}

/**
 * Signs up through the form, then opens the confirmation link from the development outbox
 * (/dev/mail), as a person would; ends signed in on the dashboard.
 */
export async function signUpAndConfirm(
  page: Page,
  email: string,
  { name, password = "a long enough passphrase 1" }: { name?: string; password?: string } = {},
): Promise<void> {
  await openPage(page, "/user/authenticate?mode=signup");
  if (name) await page.getByLabel("Name (optional)").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("Check your inbox").waitFor();
  await confirmEmailFromOutbox(page, email);
}

/** Opens the newest confirmation link mailed to `email` (mail leaves after the response, so it may lag). */
export async function confirmEmailFromOutbox(page: Page, email: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    await openPage(page, "/dev/mail");
    const mail = page
      .getByRole("article", { name: "Confirm your Portico email address" })
      .filter({ hasText: `To ${email} ` })
      .first();
    if ((await mail.count()) > 0) {
      await mail.getByRole("link").first().click();
      await page.waitForURL(`${baseUrl()}/user/dashboard?verified=1`);
      return;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no confirmation mail for ${email} in /dev/mail`);
}

/**
 * Sends a live demo's multipart call with the upload slowed to about four seconds, long enough
 * to see its progress, and lifts the limit once the progress shows; the answer is still to come.
 */
export async function sendWithSlowUpload(page: Page, uploadBytes: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const uploadThroughput = (bytesPerSecond: number) =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  await uploadThroughput(Math.max(1024, Math.round(uploadBytes / 4)));
  await page.waitForTimeout(1_100);
  await page.getByRole("button", { name: "Send POST" }).click();
  await page.getByText(/^Uploading… \d+%$/).waitFor({ timeout: 10_000 });
  if ((await page.locator("progress#demo-upload-progress").count()) !== 1) {
    throw new Error("The upload's progress bar did not show");
  }
  await uploadThroughput(-1);
}
