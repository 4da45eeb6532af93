/**
 * The paths and shapes that clients of the product the specification describes already call
 * (`X-Avatar-Key`, `POST /api/qrcode` with qr-code-styling options, `GET
 * /api/country/phone-codes`, `POST /api/polyline`), through the whole Worker: they must work by
 * changing only the host, and every error body they get must carry the `message` they read.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePng, decodeQrPng, pixelAt, readPngSize } from "~workers/hosted/_render/image-test-helpers";
import { renderSvgToPng } from "~workers/hosted/_render/svg-to-png";
import { callHosted, createAccountWithKey } from "../factories";

const QR_TEXT = "https://portico.dev/docs/api/qrcode?from=legacy-client";
const GOOGLE_POINTS = [
  [38.5, -120.2],
  [40.7, -120.95],
  [43.252, -126.453],
];
const GOOGLE_POLYLINE = "_p~iF~ps|U_ulLnnqC_mqNvxq`@";

/** A call as an older client makes it: the key in `X-Avatar-Key`. */
function callLegacy(key: string | undefined, method: string, path: string, body?: unknown) {
  return callHosted(SELF, method, path, { key, keyHeader: "x-avatar-key", body });
}

/** A problem+json body that also carries the `message` member older clients read. */
async function legacyProblem(response: Response) {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<{
    type: string;
    detail: string;
    message: string;
    errors?: Record<string, string>;
  }>();
  expect(body.message).toBe(body.detail);
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

async function pngLogo(): Promise<string> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#e11d48"/></svg>';
  const bytes = await renderSvgToPng(svg);
  return `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
}

/** Pixels from the image's corner to the first dark pixel on the diagonal: the finder pattern's corner. */
function finderCorner(image: ReturnType<typeof decodePng>): number {
  let offset = 0;
  while (offset < image.width && (pixelAt(image, offset, offset)[0] ?? 255) >= 128) offset += 1;
  return offset;
}

describe("legacy POST /api/qrcode", () => {
  it("answers the image bytes for qr-code-styling options, named colours and an `image` logo included", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const response = await callLegacy(key, "POST", "/api/qrcode", {
      text: QR_TEXT,
      width: 360,
      height: 360,
      qrOptions: { errorCorrectionLevel: "Q" },
      imageOptions: { margin: 4 },
      dotsOptions: { color: "darkblue", type: "square" },
      backgroundOptions: { color: "white" },
      image: await pngLogo(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    // A logo needs level H to restore the modules it hides, whatever was asked.
    expect(response.headers.get("x-qr-error-correction")).toBe("H");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("49999");
    const png = new Uint8Array(await response.arrayBuffer());
    expect(readPngSize(png)).toEqual({ width: 360, height: 360 });
    expect(decodeQrPng(png)).toBe(QR_TEXT);
    const image = decodePng(png);
    expect(pixelAt(image, 0, 0)).toEqual([255, 255, 255, 255]);
    const corner = finderCorner(image);
    expect(pixelAt(image, corner + 2, corner + 2)).toEqual([0x00, 0x00, 0x8b, 255]);
    expect(pixelAt(image, 180, 180)).toEqual([0xe1, 0x1d, 0x48, 255]);
  });

  it("takes the logo as `logo`, rgb()/hsl() colours, the height alone, and a format", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "standard" });
    const png = await callLegacy(key, "POST", "/api/qrcode", {
      text: QR_TEXT,
      height: 300,
      dotsOptions: { color: "rgb(0 100 0)", type: "extra-rounded" },
      backgroundOptions: { color: "hsl(60, 100%, 90%)" },
      logo: await pngLogo(),
    });
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect(readPngSize(bytes)).toEqual({ width: 300, height: 300 });
    expect(decodeQrPng(bytes)).toBe(QR_TEXT);
    expect(pixelAt(decodePng(bytes), 0, 0)).toEqual([0xff, 0xff, 0xcc, 255]);

    const svg = await callLegacy(key, "POST", "/api/qrcode", {
      text: QR_TEXT,
      width: 300,
      dotsOptions: { color: "black" },
      format: "svg",
    });
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    const markup = await svg.text();
    expect(markup).toMatch(/^<svg /);
    expect(markup).toContain('fill="#000000"');
  });

  it("answers input it cannot draw with 422, a message and the field at fault", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const colour = await callLegacy(key, "POST", "/api/qrcode", {
      text: QR_TEXT,
      dotsOptions: { color: "not-a-colour" },
    });
    expect(colour.status).toBe(422);
    expect((await legacyProblem(colour)).errors).toHaveProperty("foreground");

    const sameColours = await callLegacy(key, "POST", "/api/qrcode", {
      text: QR_TEXT,
      dotsOptions: { color: "white" },
      backgroundOptions: { color: "#fff" },
    });
    expect(sameColours.status).toBe(422);
    expect((await legacyProblem(sameColours)).message).toMatch(/must differ/);

    const noText = await callLegacy(key, "POST", "/api/qrcode", { width: 300 });
    expect(noText.status).toBe(422);
    expect((await legacyProblem(noText)).errors).toHaveProperty("text");

    const logo = await callLegacy(key, "POST", "/api/qrcode", { text: QR_TEXT, image: "https://example.com/logo.png" });
    expect(logo.status).toBe(422);
    expect((await legacyProblem(logo)).message).toMatch(/data: URL/);
  });

  it("answers the plan, key and body problems with a message too", async () => {
    const free = await createAccountWithKey(env.DB);
    const wrongPlan = await callLegacy(free.key, "POST", "/api/qrcode", { text: QR_TEXT });
    expect(wrongPlan.status).toBe(403);
    expect((await legacyProblem(wrongPlan)).type).toMatch(/plan-required$/);

    const noKey = await callLegacy(undefined, "POST", "/api/qrcode", { text: QR_TEXT });
    expect(noKey.status).toBe(401);
    expect((await legacyProblem(noKey)).type).toMatch(/missing-api-key$/);

    const unknownKey = await callLegacy("pk_live_notarealkeyatall1234567890", "POST", "/api/qrcode", { text: QR_TEXT });
    expect(unknownKey.status).toBe(401);
    await legacyProblem(unknownKey);

    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const malformed = await callHosted(SELF, "POST", "/api/qrcode", {
      key,
      keyHeader: "x-avatar-key",
      rawBody: '{"text": "unterminated',
      contentType: "application/json",
    });
    expect(malformed.status).toBe(400);
    await legacyProblem(malformed);
  });
});

describe("legacy GET /api/country/phone-codes", () => {
  it("answers { data: [{ name, code, callingCode }] } for every country", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callLegacy(key, "GET", "/api/country/phone-codes");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const { data } = await response.json<{ data: { name: string; code: string; callingCode: string }[] }>();
    expect(data.length).toBeGreaterThan(200);
    for (const row of data) {
      expect(row).toEqual(
        expect.objectContaining({
          name: expect.any(String),
          code: expect.stringMatching(/^[A-Z]{2}$/),
          callingCode: expect.stringMatching(/^\+\d+(-\d+)?$/),
        }),
      );
    }
    expect(data.find((row) => row.code === "IN")).toMatchObject({ name: "India", callingCode: "+91" });
    expect(data.find((row) => row.code === "GB")).toMatchObject({ callingCode: "+44" });
  });

  it("filters by the same query as the new path", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callLegacy(key, "GET", "/api/country/phone-codes?country=gb");
    expect(response.status).toBe(200);
    const { data } = await response.json<{ data: { code: string }[] }>();
    expect(data.map((row) => row.code)).toEqual(["GB"]);
  });

  it("answers an oversized filter and a missing key with a message", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const tooLong = await callLegacy(key, "GET", `/api/country/phone-codes?country=${"a".repeat(81)}`);
    expect(tooLong.status).toBe(422);
    expect((await legacyProblem(tooLong)).errors).toHaveProperty("country");
    const noKey = await callLegacy(undefined, "GET", "/api/country/phone-codes");
    expect(noKey.status).toBe(401);
    await legacyProblem(noKey);
  });
});

describe("legacy POST /api/polyline", () => {
  it("encodes and decodes Google's test vector as { success: 1, data }", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const encoded = await callLegacy(key, "POST", "/api/polyline", { input: GOOGLE_POINTS, type: "encode" });
    expect(encoded.status).toBe(200);
    expect(await encoded.json()).toEqual({ success: 1, data: GOOGLE_POLYLINE });
    const decoded = await callLegacy(key, "POST", "/api/polyline", { input: GOOGLE_POLYLINE, type: "decode" });
    expect(await decoded.json()).toEqual({ success: 1, data: GOOGLE_POINTS });
  });

  it("keeps to precision 5, the only one the older shape knew, even when a precision is sent", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await callLegacy(key, "POST", "/api/polyline", {
      input: [[52.520008, 13.404954]],
      type: "encode",
      precision: 6,
    });
    const { data } = await response.json<{ data: string }>();
    const back = await callLegacy(key, "POST", "/api/polyline", { input: data, type: "decode" });
    expect(await back.json()).toEqual({ success: 1, data: [[52.52001, 13.40495]] });
  });

  it("answers a truncated polyline and a wrong shape with 422 and a message", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const truncated = await callLegacy(key, "POST", "/api/polyline", {
      input: GOOGLE_POLYLINE.slice(0, -1),
      type: "decode",
    });
    expect(truncated.status).toBe(422);
    expect((await legacyProblem(truncated)).message).toMatch(/truncated/);
    const mismatched = await callLegacy(key, "POST", "/api/polyline", { input: GOOGLE_POLYLINE, type: "encode" });
    expect(mismatched.status).toBe(422);
    expect((await legacyProblem(mismatched)).errors).toHaveProperty("input");
  });
});
