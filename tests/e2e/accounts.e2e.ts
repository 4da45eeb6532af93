import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { baseUrl, confirmEmailFromOutbox, openPage, signUpAndConfirm, useBrowser } from "./browser";

const browser = useBrowser();
const PASSWORD = "a long enough passphrase 1";

function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function signUp(page: Page, email: string): Promise<void> {
  await signUpAndConfirm(page, email, { name: "Edsger", password: PASSWORD });
}

async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await openPage(page, "/user/authenticate");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL(`${baseUrl()}/user/dashboard`);
}

test("sign up, see the dashboard, create and copy a key, sign out, log in again", async () => {
  const page = await browser.newPage();
  const email = uniqueEmail("journey");
  await signUp(page, email);
  await page.getByRole("heading", { name: "Edsger" }).waitFor();
  expect(await page.getByText(email).first().isVisible()).toBe(true);
  await page.getByRole("progressbar", { name: "Calls used this month" }).waitFor();
  // The app writes auth_user once it has hydrated, which can come after the server's HTML shows.
  await page.waitForFunction(() => localStorage.getItem("auth_user") !== null);
  const authUser = await page.evaluate(() => JSON.parse(localStorage.getItem("auth_user") ?? "null"));
  expect(authUser).toMatchObject({
    username: "Edsger",
    email,
    tokenCreatedAt: expect.any(Number),
    expiresIn: expect.any(Number),
  });

  await page.getByRole("link", { name: "API Key" }).click();
  await page.getByLabel("Key name").fill("Laptop");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent()) ?? "";
  expect(key).toMatch(/^pk_live_\w{40,}$/);
  await page.getByRole("button", { name: "Copy key" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  expect(await page.evaluate(() => localStorage.getItem("portico_api_key"))).toBe(key);
  // After a reload only the prefix is left.
  await page.reload();
  await page.getByRole("cell", { name: /pk_live_/ }).waitFor();
  expect(await page.content()).not.toContain(key);

  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.waitForURL(`${baseUrl()}/`);
  await page.getByText("Loading Portico").waitFor({ state: "detached" });
  expect(await page.evaluate(() => localStorage.getItem("auth_user"))).toBeNull();
  // The key the docs and live demos were filling in leaves with the reader.
  expect(await page.evaluate(() => localStorage.getItem("portico_api_key"))).toBeNull();
  await page.getByRole("link", { name: "Sign Up / Login" }).waitFor();

  await logIn(page, email);
  await openPage(page, "/");
  await page.getByRole("link", { name: "Goto Dashboard" }).waitFor();
});

test("a wrong password says so beside the form and keeps the email", async () => {
  const page = await browser.newPage();
  const email = uniqueEmail("wrong");
  await signUp(page, email);
  await page.context().clearCookies();
  await openPage(page, "/user/authenticate");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the right one at all");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.getByText("Wrong email or password.").waitFor();
  expect(await page.getByLabel("Email").inputValue()).toBe(email);
});

test("reset a forgotten password through the development outbox", async () => {
  const page = await browser.newPage();
  const email = uniqueEmail("reset");
  await signUp(page, email);
  await page.context().clearCookies();

  await openPage(page, "/user/authenticate");
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await page.getByText("a reset link is on its way").waitFor();

  // The mail leaves after the answer: reload the outbox until it is there.
  const mail = page.getByRole("article", { name: "Reset your Portico password" }).filter({ hasText: email }).first();
  for (let attempt = 0; attempt < 20 && (await mail.count()) === 0; attempt++) {
    await openPage(page, "/dev/mail");
  }
  await mail.getByRole("link").click();
  await page.waitForURL(/\/change\/password\//);
  await page.getByText("Loading Portico").waitFor({ state: "detached" });
  const resetUrl = page.url();
  const newPassword = "my fresh passphrase 2";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Set password" }).click();
  await page.getByText("Password changed. Log in with the new one.").waitFor();
  await logIn(page, email, newPassword);

  // The link works once.
  await openPage(page, new URL(resetUrl).pathname);
  await page.getByRole("heading", { name: "This link no longer works" }).waitFor();
});

test("continue with the identity provider (the local fake) signs in", async () => {
  const page = await browser.newPage();
  const email = uniqueEmail("oidc");
  await openPage(page, "/user/authenticate");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.waitForURL(/\/dev\/oidc\/authorize/);
  await page.getByLabel(/email/i).first().fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${baseUrl()}/user/dashboard`);
  await page.getByText(email).first().waitFor();
});

test("each guard sends the wrong visitor home", async () => {
  const page = await browser.newPage();
  for (const path of ["/user/dashboard", "/user/apikey", "/user/settings", "/user/transactions", "/benchmarking"]) {
    await page.goto(path);
    expect(new URL(page.url()).pathname, path).toBe("/");
  }
  await signUp(page, uniqueEmail("guard"));
  for (const path of ["/user/authenticate", "/user-api-calls", "/ai/prompt-to-image", "/benchmarking"]) {
    await page.goto(path);
    expect(new URL(page.url()).pathname, path).toBe("/");
  }
  await openPage(page, "/user/transactions");
  await page.getByText("No payments found.").waitFor();
  expect(await page.getByText("Page 1 of 1").isVisible()).toBe(true);
  expect(await page.getByRole("button", { name: "Previous" }).isDisabled()).toBe(true);
  expect(await page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
});

test("the sidebar collapses and opens again", async () => {
  const page = await browser.newPage();
  await signUp(page, uniqueEmail("sidebar"));
  const toggle = page.getByRole("button", { name: "Collapse the account menu" });
  expect(await toggle.getAttribute("aria-expanded")).toBe("true");
  await toggle.click();
  const expand = page.getByRole("button", { name: "Expand the account menu" });
  expect(await expand.getAttribute("aria-expanded")).toBe("false");
  expect(await page.getByRole("link", { name: "Settings" }).textContent()).toBe("");
  await expand.click();
  expect(await page.getByRole("link", { name: "Settings" }).textContent()).toBe("Settings");
});

test("the admin address gives its rights only once it is confirmed", async () => {
  // Anyone may type the admin's address into the sign-up form: until the link mailed to that
  // address is opened, the account is an ordinary one.
  const page = await browser.newPage();
  const admin = "admin@portico.local";
  await openPage(page, "/user/authenticate?mode=signup");
  await page.getByLabel("Email").fill(admin);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("Check your inbox").waitFor();
  await openPage(page, "/user/authenticate?mode=login");
  await page.getByLabel("Email").fill(admin);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL(`${baseUrl()}/user/dashboard`);
  await page.getByRole("heading", { name: "Confirm your email address" }).waitFor();
  for (const path of ["/user-api-calls", "/benchmarking", "/ai/prompt-to-image"]) {
    await page.goto(path);
    expect(new URL(page.url()).pathname, path).toBe("/");
  }

  await confirmEmailFromOutbox(page, admin);
  await openPage(page, "/user-api-calls");
  expect(new URL(page.url()).pathname).toBe("/user-api-calls");
});
