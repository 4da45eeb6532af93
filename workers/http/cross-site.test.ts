import { describe, expect, it } from "vitest";
import { changesState, foreignOrigin } from "./cross-site";

function request(headers: Record<string, string>, url = "https://portico.test/user/settings"): Request {
  return new Request(url, { method: "POST", headers });
}

describe("changesState", () => {
  it.each(["GET", "HEAD", "OPTIONS", "get"])("%s changes nothing", (method) => {
    expect(changesState(method)).toBe(false);
  });
  it.each(["POST", "PUT", "PATCH", "DELETE", "post"])("%s changes state", (method) => {
    expect(changesState(method)).toBe(true);
  });
});

describe("foreignOrigin", () => {
  it.each([
    [{ "sec-fetch-site": "cross-site" }, /cross-site/],
    [{ "sec-fetch-site": "same-site" }, /same-site/],
    [{ "sec-fetch-site": "same-site", origin: "https://portico.test" }, /same-site/],
    [{ "sec-fetch-site": "cross-site", origin: "https://portico.test" }, /cross-site/],
    [{ origin: "https://elsewhere.example" }, /elsewhere\.example/],
    [{ origin: "https://sub.portico.test" }, /another site/],
    [{ origin: "https://portico.test:8443" }, /another site/],
    [{ origin: "null" }, /opaque/],
    [{ origin: "not a url" }, /not a URL/],
  ])("refuses %o", (headers, reason) => {
    expect(foreignOrigin(request(headers))).toMatch(reason);
  });

  it.each<Record<string, string>>([
    {},
    { "sec-fetch-site": "same-origin", origin: "https://portico.test" },
    // A same-origin page with Referrer-Policy: no-referrer posts with an opaque Origin.
    { "sec-fetch-site": "same-origin", origin: "null" },
    { "sec-fetch-site": "none" },
    { origin: "https://portico.test" },
    // The host decides, as the issue asks: a page served over http posting to https is ours.
    { origin: "http://portico.test" },
  ])("lets %o through", (headers) => {
    expect(foreignOrigin(request(headers))).toBeNull();
  });

  it("compares with the request's own host, port included", () => {
    expect(foreignOrigin(request({ origin: "http://127.0.0.1:4173" }, "http://127.0.0.1:4173/x"))).toBeNull();
    expect(foreignOrigin(request({ origin: "http://127.0.0.1:9999" }, "http://127.0.0.1:4173/x"))).not.toBeNull();
  });
});
