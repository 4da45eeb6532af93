import { describe, expect, it } from "vitest";
import { readInput } from "./request-input";

const URL_ = "https://portico.test/api/v1/x";

/** A JSON body streamed in 1 KiB chunks, with no Content-Length; `endless` never ends by itself. */
function streamedBody(options: { chunks?: number; endless?: boolean }) {
  const state = { pulls: 0, cancelled: false };
  const chunk = new TextEncoder().encode(`{"a":"${"x".repeat(1014)}",`);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulls += 1;
      if (!options.endless && state.pulls > (options.chunks ?? 1)) {
        controller.close();
        return;
      }
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

function post(body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request(URL_, { method: "POST", headers, body });
}

describe("readInput: the body's size cap", () => {
  it("cuts a streamed body without Content-Length at the cap (413), and stops reading it there", async () => {
    const { body, state } = streamedBody({ endless: true });
    const request = post(body);
    expect(request.headers.get("content-length")).toBeNull();
    const read = await readInput(request, "json", {}, 8 * 1024);
    expect(read).toMatchObject({ ok: false, reason: "too-large" });
    expect(state.cancelled).toBe(true);
    // Eight 1 KiB chunks fit; the ninth crosses the cap. A few more may be queued ahead, no more.
    expect(state.pulls).toBeLessThan(16);
  });

  it("reads a streamed body under the cap", async () => {
    const text = JSON.stringify({ text: "streamed" });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, 5)));
        controller.enqueue(new TextEncoder().encode(text.slice(5)));
        controller.close();
      },
    });
    const read = await readInput(post(body), "json", { id: "p" }, 1024);
    expect(read).toEqual({ ok: true, input: { text: "streamed", id: "p" } });
  });

  it("cancels, unread, a body whose Content-Length is over the cap", async () => {
    const { body, state } = streamedBody({ chunks: 4 });
    const request = post(body, { "content-type": "application/json", "content-length": String(4 * 1024 * 1024) });
    const read = await readInput(request, "json", {}, 1024);
    expect(read).toMatchObject({ ok: false, reason: "too-large" });
    expect(state.cancelled).toBe(true);
  });

  it("cancels the body of a call whose input is its query string", async () => {
    const { body, state } = streamedBody({ chunks: 4 });
    const request = new Request(`${URL_}?hex=%23336699`, { method: "POST", body });
    const read = await readInput(request, "query", {}, 1024);
    expect(read).toEqual({ ok: true, input: { hex: "#336699" } });
    expect(state.cancelled).toBe(true);
  });
});

describe("readInput: form-encoded bodies", () => {
  const FORM = { "content-type": "application/x-www-form-urlencoded" };

  it("says a form-encoded body is not read, and what to send instead, rather than that it is bad JSON", async () => {
    const read = await readInput(
      post("image_url=https%3A%2F%2Fexample.com%2Fa.png&size=auto", FORM),
      "json-or-multipart",
      {},
      1024,
    );
    expect(read).toMatchObject({ ok: false, reason: "malformed" });
    expect(!read.ok && read.detail).toMatch(/form-encoded.*JSON.*multipart\/form-data/);
  });

  it("still reads JSON sent with the form type (curl -d without a Content-Type)", async () => {
    const read = await readInput(post('{"text":"hi"}', FORM), "json-or-multipart", {}, 1024);
    expect(read).toEqual({ ok: true, input: { text: "hi" } });
  });
});
