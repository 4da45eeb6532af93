/**
 * The Social Media Videos Downloader's live demo against the recorded platforms (issue #14:
 * "the live demo works end to end with them"): the built app answers the pinned YouTube post,
 * and the media link it answers, a tunnel URL on the site itself, downloads from the browser.
 */
import { expect, inject, test } from "vitest";
import { baseUrl, openPage, signUpAndConfirm, useBrowser } from "./browser";
import { queryD1 } from "./wrangler";

const browser = useBrowser();

const SLUG = "youtube-instagram-video-downloader";
const PINNED_YOUTUBE = "https://www.youtube.com/watch?v=aqz-KE-bpKQ";
const DAY_MS = 24 * 60 * 60 * 1000;

interface Answer {
  platform: string;
  title: string;
  media: { url: string; type: string; sizeBytes?: number }[];
}

/**
 * Puts the account on Premium as the admin's grant does (workers/platform/admin.ts), in SQL:
 * signing up the admin address here would take it from accounts.e2e.ts, which signs it up
 * itself. It runs before the key's first call, so no gateway cache holds the Free record.
 */
async function grantPremium(email: string): Promise<void> {
  const now = Date.now();
  await queryD1(
    inject("stateDir"),
    `UPDATE users SET plan_id = 'premium', plan_expires_at = ${now + 30 * DAY_MS}, plan_version = plan_version + 1,
       updated_at = ${now} WHERE email = '${email}'`,
  );
  const [row] = await queryD1<{ plan_id: string }>(
    inject("stateDir"),
    `SELECT plan_id FROM users WHERE email = '${email}'`,
  );
  expect(row?.plan_id).toBe("premium");
}

test("the live demo answers the pinned YouTube post from the recorded fakes, and its tunnel link downloads a range", async () => {
  const page = await browser.newPage();
  const email = `videos-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await signUpAndConfirm(page, email);

  await openPage(page, "/user/apikey");
  await page.getByLabel("Key name").fill("Videos");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent()) ?? "";
  expect(key).toMatch(/^pk_live_/);
  await grantPremium(email);

  await openPage(page, `/${SLUG}/live-demo`);
  expect(await page.getByLabel("API key").inputValue()).toBe(key);
  // The demo's own example is the pinned post the fakes record.
  expect(JSON.parse(await page.getByLabel(/^Input/).inputValue())).toMatchObject({ url: PINNED_YOUTUBE });
  await page.getByRole("button", { name: "Send POST" }).click();
  await page.getByTestId("demo-status").waitFor();
  const shown = (await page.locator("pre code").textContent()) ?? "";
  expect(await page.getByTestId("demo-status").textContent(), shown).toBe("200");

  const answer = JSON.parse(shown) as Answer;
  expect(answer.platform).toBe("youtube");
  expect(answer.title).toBe("Big Buck Bunny 60fps 4K - Official Blender Foundation Short Film");
  // YouTube's media work only from the address that asked: every link is our tunnel, on this site.
  for (const media of answer.media) {
    const url = new URL(media.url);
    expect(url.origin, media.url).toBe(new URL(baseUrl()).origin);
    expect(url.pathname, media.url).toMatch(new RegExp(`^/api/v1/${SLUG}/tunnel/[^/]+$`));
  }

  // The best file's first 100 bytes, fetched as a download manager or a <video> would.
  const [best] = answer.media;
  if (!best) throw new Error(`the answer has no media: ${shown}`);
  // The fakes fetch googlevideo in chunks as the live YouTube does, so these are the chunked
  // answers; the browser reads Content-Length from the connection's framing, which a chunked
  // transfer encoding would leave without one (review 14b), unlike a test inside the Worker.
  const download = await page.evaluate(async (url) => {
    const response = await fetch(url, { headers: { Range: "bytes=0-99" } });
    return {
      status: response.status,
      bytes: (await response.arrayBuffer()).byteLength,
      disposition: response.headers.get("content-disposition"),
      range: response.headers.get("content-range"),
      length: response.headers.get("content-length"),
    };
  }, best.url);
  expect(download.status).toBe(206);
  expect(download.bytes).toBe(100);
  expect(download.length).toBe("100");
  expect(download.disposition).toMatch(/^attachment;/);
  expect(download.range).toBe(`bytes 0-99/${best.sizeBytes ?? "*"}`);

  // The whole file: a download manager shows its size (and a player its duration) from the
  // Content-Length before the first byte.
  if (best.sizeBytes === undefined) throw new Error(`the best media has no size: ${shown}`);
  const whole = await page.evaluate(async (url) => {
    const response = await fetch(url);
    return {
      status: response.status,
      bytes: (await response.arrayBuffer()).byteLength,
      length: response.headers.get("content-length"),
    };
  }, best.url);
  expect(whole).toEqual({ status: 200, bytes: best.sizeBytes, length: String(best.sizeBytes) });

  // The clients of the earlier product find their path on the docs page.
  await openPage(page, `/docs/api/${SLUG}`);
  await page.getByRole("heading", { name: "Older path: POST /api/download/videos" }).waitFor();
});
