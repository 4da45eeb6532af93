/**
 * The request boundary against the built app (issue #10, points 5 and 9): a refusal that
 * leaves a body unread must not cost other requests on the same keep-alive connection their
 * answer, and the pages' Content-Security-Policy must not stop anything the pages run.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { Page } from "playwright-core";
import { expect, inject, test } from "vitest";
import { baseUrl, openPage, useBrowser } from "./browser";
import { queryD1 } from "./wrangler";

const browser = useBrowser();

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** A Free account with one API key, written to the preview server's D1 as the tests' factories do. */
async function createKey(): Promise<string> {
  const key = "pk_live_" + Array.from(randomBytes(32), (byte) => BASE58[byte % 58]).join("");
  const hash = createHash("sha256").update(key).digest("hex");
  const id = randomBytes(6).toString("hex");
  const now = Date.now();
  const columns = await queryD1<{ name: string }>(inject("stateDir"), "PRAGMA table_info(users)");
  // Accounts confirm their address where the schema has the column.
  const verified = columns.some((column) => column.name === "email_verified_at");
  await queryD1(
    inject("stateDir"),
    `INSERT INTO users (id, email, name, referral_code, plan_id, plan_expires_at, ${verified ? "email_verified_at, " : ""}created_at, updated_at)
       VALUES ('usr_ka${id}', 'keepalive-${id}@example.com', '', 'KA${id.toUpperCase()}', 'free', NULL, ${verified ? `${now}, ` : ""}${now}, ${now});
     INSERT INTO api_keys (id, user_id, name, prefix, hash, created_at)
       VALUES ('key_ka${id}', 'usr_ka${id}', 'keep-alive', '${key.slice(0, 14)}', '${hash}', ${now});`,
  );
  return key;
}

interface Answer {
  label: string;
  status: number;
  type: string;
  body: string;
}

test("240 POSTs over six keep-alive connections, refusals among them, all get the Worker's own answer", async () => {
  const key = await createKey();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const send = (label: string, path: string, body: string, headers: Record<string, string>) =>
    new Promise<Answer>((resolve) => {
      const request = http.request(
        `${baseUrl()}${path}`,
        { method: "POST", agent, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              label,
              status: response.statusCode ?? 0,
              type: response.headers["content-type"] ?? "",
              body: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      request.on("error", (error) => resolve({ label, status: 0, type: "", body: String(error) }));
      request.end(body);
    });
  const json = { "content-type": "application/json" };
  const form = { "content-type": "application/x-www-form-urlencoded" };
  // Page actions that no throttle counts: the other browser tests share this client address,
  // and failed logins from it would lock their sign-ins out.
  const profile = "intent=profile&name=Keep+Alive";
  const calls: (() => Promise<Answer>)[] = [
    // The key's per-second limit (Free: 2) is far below six connections' pace: most get 429.
    () => send("gateway", "/api/v1/numtoword", JSON.stringify({ number: 42 }), { ...json, "x-api-key": key }),
    () => send("gateway", "/api/v1/numtoword", JSON.stringify({ number: 7 }), { ...json, "x-api-key": key }),
    () => send("wrong key", "/api/v1/numtoword", JSON.stringify({ number: 7 }), { ...json, "x-api-key": `${key}x` }),
    // Over the avatar's own 4 KiB, under the entry's 64 KiB: the gateway's limit.
    () =>
      send("gateway oversize", "/api/v1/avatar", JSON.stringify({ seed: "s".repeat(20_000) }), {
        ...json,
        "x-api-key": key,
      }),
    () => send("page oversize", "/user/settings", `${profile}&padding=${"p".repeat(100 * 1024)}`, form),
    () => send("api oversize", "/api/users/login", JSON.stringify({ padding: "p".repeat(100 * 1024) }), json),
    () => send("page action", "/user/settings", profile, { ...form, origin: baseUrl() }),
    () => send("cross-site page action", "/user/settings", profile, { ...form, origin: "https://elsewhere.example" }),
  ];
  const answers = await Promise.all(Array.from({ length: 240 }, (_, i) => calls[i % calls.length]!()));
  agent.destroy();

  const tally: Record<string, number> = {};
  for (const answer of answers) {
    const name = `${answer.label} ${answer.status}`;
    tally[name] = (tally[name] ?? 0) + 1;
  }
  // Every answer is the Worker's: problem+json or JSON on /api, a page or a redirect otherwise;
  // never the preview server's own 500 (no content type, an HTML page titled "Error") for a
  // request it could not pass on.
  const foreign = answers.filter(
    (answer) =>
      answer.status === 0 ||
      answer.body.includes("<title>Error</title>") ||
      !(
        answer.type.startsWith("application/problem+json") ||
        (answer.status >= 300 && answer.status < 400) ||
        (answer.status < 500 && /^(application\/json|text\/html)/.test(answer.type))
      ),
  );
  expect(
    foreign.map((answer) => `${answer.label} ${answer.status} ${answer.type}: ${answer.body.slice(0, 120)}`),
    JSON.stringify(tally),
  ).toEqual([]);
  // The mix did what it was meant to: refusals of every kind, and calls that went through.
  const seen = (label: string, status: number) => (tally[`${label} ${status}`] ?? 0) > 0;
  expect(seen("gateway", 200) && seen("gateway", 429), JSON.stringify(tally)).toBe(true);
  expect(seen("wrong key", 401)).toBe(true);
  expect(seen("page oversize", 413) && seen("api oversize", 413)).toBe(true);
  expect(seen("cross-site page action", 403)).toBe(true);
  // Without a session the settings action sends the visitor home: the action ran, not a refusal.
  expect(answers.filter((answer) => answer.label === "page action").map((answer) => answer.status)).not.toContain(403);
}, 90_000);

/** Records every Content-Security-Policy violation a page reports, in the console or as an event. */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => {
    if (/Content Security Policy/i.test(error.message)) violations.push(error.message);
  });
  void page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  return violations;
}

test("home, pricing (US and India) and the docs run under their policy without a violation", async () => {
  const page = await browser.newPage();
  const violations = watchViolations(page);
  for (const path of [
    "/",
    "/user/subscription?country=US",
    "/user/subscription?country=IN",
    "/docs",
    "/docs/api/qrcode",
  ]) {
    const response = await page.goto(path);
    expect(response?.headers()["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-/);
    // Hydrated: the start-up loader leaves only once React has taken over the server's HTML.
    await page.getByText("Loading Portico").waitFor({ state: "detached" });
    // Chunks loaded after hydration (lazy routes, prefetches) are checked too.
    await page.waitForLoadState("networkidle");
    expect(violations, path).toEqual([]);
  }
});

test("going to pricing from another page loads it as a document, under the payment page's policy", async () => {
  const page = await browser.newPage();
  const violations = watchViolations(page);
  await openPage(page, "/docs");
  await page.evaluate(() => ((window as unknown as { before?: boolean }).before = true));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
  await page.waitForURL(`${baseUrl()}/user/subscription`);
  await page.getByText("Loading Portico").waitFor({ state: "detached" });
  // A new document: the old window's marker is gone and the navigation entry names pricing.
  expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBeUndefined();
  expect(await page.evaluate(() => performance.getEntriesByType("navigation")[0]?.name)).toBe(
    `${baseUrl()}/user/subscription`,
  );
  await page.getByTestId("price-standard").waitFor();
  // Away from pricing, navigation stays in the page.
  await page.evaluate(() => ((window as unknown as { before?: boolean }).before = true));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home", exact: true }).click();
  await page.waitForURL(`${baseUrl()}/`);
  expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true);
  expect(violations).toEqual([]);
});
