import { describe, expect, it } from "vitest";
import { parseResponseHeaders, progressLabel } from "./upload-request";

describe("parseResponseHeaders", () => {
  it("reads getAllResponseHeaders()'s lines into Headers the demo reads like fetch's", () => {
    const headers = parseResponseHeaders(
      "content-type: application/pdf\r\nratelimit: limit=2, remaining=1, reset=1\r\nx-engine: pdfmake\r\nset-cookie-ish: a: b\r\n",
    );
    expect(headers.get("content-type")).toBe("application/pdf");
    expect(headers.get("RateLimit")).toBe("limit=2, remaining=1, reset=1");
    expect(headers.get("x-engine")).toBe("pdfmake");
    expect(headers.get("set-cookie-ish")).toBe("a: b");
  });

  it("skips lines that are not headers", () => {
    expect([...parseResponseHeaders("\r\n: nameless\r\nbad name: x\r\nok: 1")]).toEqual([["ok", "1"]]);
  });
});

describe("progressLabel", () => {
  it("gives a percentage of a known size, never above 100", () => {
    expect(progressLabel({ loaded: 512, total: 2048 })).toBe("25%");
    expect(progressLabel({ loaded: 3000, total: 2048 })).toBe("100%");
  });

  it("gives the bytes sent when the size is unknown", () => {
    expect(progressLabel({ loaded: 300 * 1024, total: null })).toBe("300 KB");
    expect(progressLabel({ loaded: 3.5 * 1024 * 1024, total: null })).toBe("3.5 MB");
  });
});
