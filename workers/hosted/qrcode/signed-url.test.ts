/**
 * The QR code's GET form behind a signed URL, through the whole Worker: a key signs a URL with
 * `POST /api/v1/qrcode/signed-url`, and the URL alone (no key header: an `<img src>`) gets the
 * image, counted against that key, until it expires or the key is revoked. Any change to the
 * URL is refused before its parameters are used.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "~workers/config";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { hmacUrlSigner, SIGNED_URL_MAX_LIFETIME_SECONDS } from "~workers/gateway/signed-url";
import { revokeApiKey } from "~workers/platform/api-keys";
import { callHosted, createAccountWithKey, expectProblem } from "../../../tests/factories";

const OPTIONS = {
  text: "https://portico.dev/signed",
  size: 200,
  format: "png",
  errorCorrection: "Q",
  foreground: "#1a237e",
};

async function premiumCaller() {
  return createAccountWithKey(env.DB, { planId: "premium" });
}

async function signUrl(
  key: string,
  body: Record<string, unknown> = OPTIONS,
): Promise<{ url: string; expiresAt: string }> {
  const response = await callHosted(SELF, "POST", "/api/v1/qrcode/signed-url", { key, body });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** GETs a URL the way an <img> does: no key header, nothing but the URL. */
function fetchAsImage(url: string | URL): Promise<Response> {
  return SELF.fetch(url.toString(), { redirect: "manual" });
}

async function bytesOf(response: Response): Promise<number[]> {
  return Array.from(new Uint8Array(await response.arrayBuffer()));
}

/** A URL signed here with the server's own secret, for what the signing call would not make (past or foreign times). */
async function forgeWithServerSecret(
  params: Record<string, string>,
  options: { keyId: string; expiresAt: number; path?: string },
): Promise<URL> {
  const signer = hmacUrlSigner(readConfig(env).SESSION_SECRET);
  const query = await signer.sign({
    method: "GET",
    path: options.path ?? "/api/v1/qrcode",
    params: new URLSearchParams(params),
    keyId: options.keyId,
    expiresAt: options.expiresAt,
  });
  return new URL(`https://portico.test/api/v1/qrcode?${query}`);
}

describe("qrcode signed URL: the good path", () => {
  it("renders, from the URL alone, the same bytes as the POST form, and counts the call against the key", async () => {
    const { key, keyId } = await premiumCaller();
    const { url, expiresAt } = await signUrl(key);
    const parsed = new URL(url);
    expect(parsed.pathname).toBe("/api/v1/qrcode");
    expect(parsed.searchParams.get("key_id")).toBe(keyId);
    expect(parsed.searchParams.get("text")).toBe(OPTIONS.text);
    expect(Date.parse(expiresAt)).toBe(Number(parsed.searchParams.get("expires")) * 1000);

    const viaPost = await callHosted(SELF, "POST", "/api/v1/qrcode", { key, body: OPTIONS });
    expect(viaPost.status).toBe(200);
    const first = await fetchAsImage(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("x-qr-error-correction")).toBe("Q");
    expect(await bytesOf(first)).toEqual(await bytesOf(viaPost));

    // Counted like any call: the month's remaining calls go down by one a call.
    const remaining = Number(first.headers.get("X-RateLimit-Remaining"));
    const second = await fetchAsImage(url);
    expect(second.status).toBe(200);
    expect(Number(second.headers.get("X-RateLimit-Remaining"))).toBe(remaining - 1);
    await second.arrayBuffer();
  });

  it("lets browsers keep the image until the URL expires, and no shared cache keep it at all", async () => {
    const { key } = await premiumCaller();
    const { url } = await signUrl(key, { ...OPTIONS, expiresIn: 600 });
    const response = await fetchAsImage(url);
    const cacheControl = response.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/^private, max-age=(\d+), immutable$/);
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1]);
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
    await response.arrayBuffer();
  });

  it("answers a HEAD of the URL as its GET, without the body, and counts it as a call (decision 043)", async () => {
    const { key } = await premiumCaller();
    const { url } = await signUrl(key);
    const head = await SELF.fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    // A HEAD is verified, metered and drawn as its GET: a checker's HEAD before the GET costs two calls.
    const remaining = Number(head.headers.get("X-RateLimit-Remaining"));
    expect(Number.isInteger(remaining)).toBe(true);
    const get = await fetchAsImage(url);
    expect(get.status).toBe(200);
    expect(Number(get.headers.get("X-RateLimit-Remaining"))).toBe(remaining - 1);
    await get.arrayBuffer();
  });

  it("signs the other formats too (GIF here)", async () => {
    const { key } = await premiumCaller();
    const { url } = await signUrl(key, { text: "gif please", format: "gif" });
    const response = await fetchAsImage(url);
    expect(response.headers.get("content-type")).toBe("image/gif");
    expect(new TextDecoder().decode((await response.arrayBuffer()).slice(0, 6))).toBe("GIF89a");
  });

  it("still takes a key in the header on the GET form, as every call does", async () => {
    const { key } = await premiumCaller();
    const query = new URLSearchParams(Object.entries(OPTIONS).map(([name, value]) => [name, String(value)]));
    const viaGet = await callHosted(SELF, "GET", `/api/v1/qrcode?${query}`, { key });
    const viaPost = await callHosted(SELF, "POST", "/api/v1/qrcode", { key, body: OPTIONS });
    expect(viaGet.status).toBe(200);
    expect(viaGet.headers.get("cache-control")).toBeNull();
    expect(await bytesOf(viaGet)).toEqual(await bytesOf(viaPost));
  });

  it("refuses the GET form with neither a key nor a signature", async () => {
    await expectProblem(await fetchAsImage("https://portico.test/api/v1/qrcode?text=hi"), 401, "missing-api-key");
  });
});

describe("qrcode signed URL: refusals, each a problem", () => {
  it.each([
    ["text", "https://evil.example/"],
    ["size", "2000"],
    ["format", "svg"],
    ["errorCorrection", "L"],
    ["foreground", "#000000"],
    ["expires", String(Math.floor(Date.now() / 1000) + 7200)],
  ])("a changed %s is refused as an invalid signature, not served", async (name, value) => {
    const { key } = await premiumCaller();
    const url = new URL((await signUrl(key)).url);
    url.searchParams.set(name, value);
    const response = await fetchAsImage(url);
    const body = await expectProblem(response, 401, "invalid-signed-url");
    expect(String(body.detail)).toMatch(/signature/i);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("an added parameter, a removed one and a changed signature are refused", async () => {
    const { key } = await premiumCaller();
    const { url } = await signUrl(key);
    const added = new URL(url);
    added.searchParams.set("margin", "0");
    await expectProblem(await fetchAsImage(added), 401, "invalid-signed-url");
    const removed = new URL(url);
    removed.searchParams.delete("foreground");
    await expectProblem(await fetchAsImage(removed), 401, "invalid-signed-url");
    const resigned = new URL(url);
    const signature = resigned.searchParams.get("signature") ?? "";
    resigned.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
    await expectProblem(await fetchAsImage(resigned), 401, "invalid-signed-url");
  });

  it("another account's key id in a URL is refused: the signature covers it", async () => {
    const { key } = await premiumCaller();
    const other = await premiumCaller();
    const url = new URL((await signUrl(key)).url);
    url.searchParams.set("key_id", other.keyId);
    await expectProblem(await fetchAsImage(url), 401, "invalid-signed-url");
  });

  it("a key id that is not ours, under a valid signature, is an unknown key", async () => {
    const url = await forgeWithServerSecret(
      { text: "x" },
      { keyId: "key_doesnotexist", expiresAt: Math.floor(Date.now() / 1000) + 60 },
    );
    await expectProblem(await fetchAsImage(url), 401, "invalid-api-key");
  });

  it("an expired URL is refused as expired", async () => {
    const { keyId } = await premiumCaller();
    const url = await forgeWithServerSecret({ text: "old" }, { keyId, expiresAt: Math.floor(Date.now() / 1000) - 5 });
    const body = await expectProblem(await fetchAsImage(url), 401, "expired-signed-url");
    expect(String(body.detail)).toMatch(/expired/i);
  });

  it("a URL of a revoked key is refused from the next call on, as a header key is", async () => {
    const { key, keyId, userId } = await premiumCaller();
    const { url } = await signUrl(key);
    expect((await fetchAsImage(url)).status).toBe(200);
    expect(await revokeApiKey(env.DB, gatewayNotices(env), userId, keyId)).toBe(true);
    await expectProblem(await fetchAsImage(url), 403, "revoked-api-key");
  });

  it("a URL signed for one call is refused on another", async () => {
    const { key, keyId } = await premiumCaller();
    const signed = new URL((await signUrl(key)).url);
    // Its parameters moved onto a call that takes no signed URLs.
    const moved = new URL("https://portico.test/api/v1/colorconvert?hex=%23336699");
    for (const name of ["key_id", "expires", "signature"])
      moved.searchParams.set(name, signed.searchParams.get(name) ?? "");
    const body = await expectProblem(await fetchAsImage(moved), 401, "invalid-signed-url");
    expect(String(body.detail)).toMatch(/does not take signed URLs/);
    // A signature made for another path, presented on the QR code's.
    const forOther = await forgeWithServerSecret(
      { text: "x" },
      { keyId, expiresAt: Math.floor(Date.now() / 1000) + 60, path: "/api/v1/colorconvert" },
    );
    await expectProblem(await fetchAsImage(forOther), 401, "invalid-signed-url");
  });
});

describe("qrcode signed URL: the signing call", () => {
  it("refuses a lifetime beyond the maximum, and options the image call would refuse", async () => {
    const { key } = await premiumCaller();
    const tooLong = await callHosted(SELF, "POST", "/api/v1/qrcode/signed-url", {
      key,
      body: { ...OPTIONS, expiresIn: SIGNED_URL_MAX_LIFETIME_SECONDS + 1 },
    });
    await expectProblem(tooLong, 422, "invalid-input");
    const badSize = await callHosted(SELF, "POST", "/api/v1/qrcode/signed-url", { key, body: { text: "x", size: 5 } });
    await expectProblem(badSize, 422, "invalid-input");
  });

  it("needs a key like any call", async () => {
    await expectProblem(
      await callHosted(SELF, "POST", "/api/v1/qrcode/signed-url", { body: OPTIONS }),
      401,
      "missing-api-key",
    );
  });
});
