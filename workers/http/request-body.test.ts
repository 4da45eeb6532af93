import { describe, expect, it } from "vitest";
import { bufferBody, discardBody, DISCARD_READ_LIMIT, guardUnreadBody } from "./request-body";

const LIMIT = 1024;
const CHUNK = 256;
const HUGE = 8 * DISCARD_READ_LIMIT;

/** A body offered in pieces, counting how much was pulled and whether it was cancelled. */
function counted(total: number, chunk = CHUNK) {
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= total) return controller.close();
        const size = Math.min(chunk, total - counter.pulled);
        counter.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x62));
      },
      cancel() {
        counter.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("https://portico.test/user/settings", { method: "POST", body, headers });
}

describe("bufferBody", () => {
  it("hands on a copy over the whole body, with its length declared", async () => {
    const { stream } = counted(LIMIT);
    const result = await bufferBody(post(stream, { "content-type": "text/plain", "x-kept": "yes" }), LIMIT);
    if (!result.ok) throw new Error("refused a body at the limit");
    expect(result.request.method).toBe("POST");
    expect(result.request.url).toBe("https://portico.test/user/settings");
    expect(result.request.headers.get("x-kept")).toBe("yes");
    expect(result.request.headers.get("content-length")).toBe(String(LIMIT));
    expect(await result.request.text()).toBe("b".repeat(LIMIT));
  });

  it("refuses a body one byte over the limit", async () => {
    expect((await bufferBody(post("x".repeat(LIMIT + 1)), LIMIT)).ok).toBe(false);
  });

  it("refuses a streamed body over the limit, reads a small excess away and cuts a large one", async () => {
    const small = counted(100 * LIMIT);
    expect((await bufferBody(post(small.stream), LIMIT)).ok).toBe(false);
    expect(small.counter.pulled).toBe(100 * LIMIT);
    expect(small.counter.cancelled).toBe(false);

    const large = counted(HUGE, 64 * 1024);
    expect((await bufferBody(post(large.stream), LIMIT)).ok).toBe(false);
    expect(large.counter.pulled).toBeLessThanOrEqual(DISCARD_READ_LIMIT + 64 * 1024);
    expect(large.counter.cancelled).toBe(true);
  });

  it("refuses a declared Content-Length over the limit; one past the discard limit is not read at all", async () => {
    const { stream, counter } = counted(HUGE);
    const result = await bufferBody(post(stream, { "content-length": String(HUGE) }), LIMIT);
    expect(result.ok).toBe(false);
    expect(counter.pulled).toBe(0);
    expect(counter.cancelled).toBe(true);
  });

  it("does not trust a Content-Length that understates the body", async () => {
    const { stream } = counted(10 * LIMIT);
    expect((await bufferBody(post(stream, { "content-length": "10" }), LIMIT)).ok).toBe(false);
  });

  it("keeps what Cloudflare tells of the request (request.cf: the country the pricing reads)", async () => {
    const request = new Request("https://portico.test/api/payments/x", {
      method: "POST",
      body: "{}",
      cf: { country: "IN" },
    });
    const buffered = await bufferBody(request, LIMIT);
    expect(buffered.ok && buffered.request.cf?.country).toBe("IN");
    const guarded = guardUnreadBody(
      new Request("https://portico.test/api/v1/x", { method: "POST", body: "{}", cf: { country: "IN" } }),
    );
    expect(guarded.request.cf?.country).toBe("IN");
  });

  it("passes a request without a body as it is", async () => {
    const request = new Request("https://portico.test/");
    const result = await bufferBody(request, LIMIT);
    expect(result.ok && result.request).toBe(request);
  });
});

describe("discardBody", () => {
  it("reads an unread body to its end rather than cancelling it", async () => {
    const { stream, counter } = counted(10 * LIMIT);
    await discardBody(post(stream));
    expect(counter.pulled).toBe(10 * LIMIT);
    expect(counter.cancelled).toBe(false);
  });

  it("cancels a body declared larger than the discard limit, unread", async () => {
    const { stream, counter } = counted(HUGE);
    await discardBody(post(stream, { "content-length": String(HUGE) }));
    expect(counter.pulled).toBe(0);
    expect(counter.cancelled).toBe(true);
  });

  it("leaves a body already read alone", async () => {
    const read = post("done");
    await read.text();
    await expect(discardBody(read)).resolves.toBeUndefined();
  });
});

describe("guardUnreadBody", () => {
  it("passes the body through to a router that reads it", async () => {
    const { stream, counter } = counted(3 * LIMIT);
    const guarded = guardUnreadBody(post(stream, { "content-length": String(3 * LIMIT) }));
    expect(guarded.request.headers.get("content-length")).toBe(String(3 * LIMIT));
    expect(await guarded.request.text()).toBe("b".repeat(3 * LIMIT));
    await guarded.settle();
    expect(counter.cancelled).toBe(false);
  });

  it("reads the rest away when the router cancels the body", async () => {
    const { stream, counter } = counted(10 * LIMIT);
    const guarded = guardUnreadBody(post(stream));
    const reader = guarded.request.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(counter.pulled).toBe(10 * LIMIT);
    expect(counter.cancelled).toBe(false);
  });

  it("reads away, once the answer is ready, a body the router never touched", async () => {
    const { stream, counter } = counted(10 * LIMIT);
    const guarded = guardUnreadBody(post(stream));
    expect(counter.pulled).toBe(0);
    await guarded.settle();
    expect(counter.pulled).toBe(10 * LIMIT);
    expect(counter.cancelled).toBe(false);
  });

  it("cancels, unread, an untouched body declared larger than the discard limit", async () => {
    const { stream, counter } = counted(HUGE);
    const guarded = guardUnreadBody(post(stream, { "content-length": String(HUGE) }));
    await guarded.settle();
    expect(counter.pulled).toBe(0);
    expect(counter.cancelled).toBe(true);
  });
});
