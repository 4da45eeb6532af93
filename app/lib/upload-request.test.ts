import { afterEach, describe, expect, it } from "vitest";
import { parseResponseHeaders, progressLabel, sendWithProgress, withDeadline } from "./upload-request";

/**
 * The browser's XMLHttpRequest as far as sendWithProgress uses it (workerd has none): it sends
 * nothing and never answers, so only an abort ends the request, as with a server that hangs.
 */
class HangingRequest extends EventTarget {
  static last: HangingRequest | undefined;
  upload = new EventTarget();
  responseType = "";
  sent = false;
  aborted = false;
  constructor() {
    super();
    HangingRequest.last = this;
  }
  open(): void {}
  setRequestHeader(): void {}
  send(): void {
    this.sent = true;
  }
  abort(): void {
    this.aborted = true;
    this.dispatchEvent(new Event("abort"));
  }
}

describe("sendWithProgress", () => {
  const real = (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;
  afterEach(() => {
    (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = real;
  });

  it("stops the upload when its signal aborts, rejecting with the signal's reason", async () => {
    (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = HangingRequest;
    const controller = new AbortController();
    const answer = sendWithProgress(
      "/api/html-to-pdf",
      { method: "POST", headers: {}, body: "x", signal: controller.signal },
      () => {},
    );
    expect(HangingRequest.last?.sent).toBe(true);
    controller.abort(new DOMException("left the page", "AbortError"));
    await expect(answer).rejects.toMatchObject({ name: "AbortError", message: "left the page" });
    expect(HangingRequest.last?.aborted).toBe(true);
  });

  it("sends nothing when the signal has already aborted", async () => {
    (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = HangingRequest;
    HangingRequest.last = undefined;
    const answer = sendWithProgress(
      "/api/x",
      { method: "POST", headers: {}, body: "x", signal: AbortSignal.abort() },
      () => {},
    );
    await expect(answer).rejects.toMatchObject({ name: "AbortError" });
    expect(HangingRequest.last).toBeUndefined();
  });
});

describe("withDeadline", () => {
  it("aborts with a TimeoutError that says how long it waited", async () => {
    const { signal } = withDeadline(undefined, 20);
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
    expect(signal.reason).toMatchObject({ name: "TimeoutError", message: expect.stringContaining("0 seconds") });
  });

  it("aborts when the page it belongs to is left, with that reason", () => {
    const page = new AbortController();
    const { signal, clear } = withDeadline(page.signal, 60_000);
    page.abort(new DOMException("unmounted", "AbortError"));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: "AbortError", message: "unmounted" });
    clear();
  });

  it("stops its clock once cleared", async () => {
    const { signal, clear } = withDeadline(undefined, 20);
    clear();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(signal.aborted).toBe(false);
  });
});

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
