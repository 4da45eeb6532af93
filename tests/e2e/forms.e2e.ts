import { expect, test } from "vitest";
import { inject } from "vitest";
import { openPage, useBrowser } from "./browser";
import { queryD1 } from "./wrangler";

const browser = useBrowser();

test("the bug report form shows each rule's message, then sends and stores the report", async () => {
  const page = await browser.newPage();
  await openPage(page, "/");
  const form = page.getByRole("region", { name: "Report a Bug" });
  const send = form.getByRole("button", { name: "Send report" });

  await send.click();
  await form.getByText("Email is required").waitFor();
  await form.getByText("Message is required").waitFor();

  await form.getByLabel("Email").fill("not-an-address");
  await send.click();
  await form.getByText("Enter a valid email address").waitFor();
  expect(await form.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");

  const email = `e2e-${Date.now()}@example.com`;
  await form.getByLabel("Name").fill("Grace");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Message").fill("The docs search could match descriptions too.");
  await send.click();
  await page.getByText("We will get back to you soon").waitFor();
  // The form resets after success.
  expect(await form.getByLabel("Email").inputValue()).toBe("");

  const rows = await queryD1<{ username: string; message: string }>(
    inject("stateDir"),
    `SELECT username, message FROM contact_messages WHERE email = '${email}'`,
  );
  expect(rows).toEqual([{ username: "Grace", message: "The docs search could match descriptions too." }]);
});

test("the newsletter box says when it worked, and when it did not", async () => {
  const page = await browser.newPage();
  await openPage(page, "/");
  const box = page.getByRole("region", { name: "New APIs, first" });
  const input = box.getByLabel("Email address");
  const email = `news-${Date.now()}@example.com`;

  await input.fill(email);
  await box.getByRole("button", { name: "Subscribe" }).click();
  await box.getByText("Subscription successful! Thank you for subscribing to our newsletter").waitFor();
  expect(await input.inputValue()).toBe("");

  // Double opt-in: asking again answers the same (it tells nobody who subscribes), and the
  // subscription counts once the link mailed to the address is opened.
  await input.fill(email);
  await box.getByRole("button", { name: "Subscribe" }).click();
  await box.getByText("Subscription successful! Thank you for subscribing to our newsletter").waitFor();
  const mail = page
    .getByRole("article", { name: "Confirm your Portico newsletter subscription" })
    .filter({ hasText: email })
    .first();
  for (let attempt = 0; attempt < 20 && (await mail.count()) === 0; attempt++) await openPage(page, "/dev/mail");
  await mail.getByRole("link").first().click();
  await page.getByRole("heading", { name: "You are subscribed" }).waitFor();

  await openPage(page, "/");
  await input.fill("no-at-sign");
  await box.getByRole("button", { name: "Subscribe" }).click();
  await box.getByText("Please try again with a different email id").waitFor();
});
