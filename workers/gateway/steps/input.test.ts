import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { InputSource } from "~workers/hosted/definition";
import { DEFAULT_MAX_BODY_BYTES, readValidInput } from "./input";

const Schema = z.object({
  text: z.string().min(1, "Give some text"),
  size: z.coerce.number().int().min(10).max(100).default(50),
  nested: z.object({ colour: z.string().regex(/^#[0-9a-f]{6}$/i, "a hex colour") }).optional(),
});

const operation = (inputSource: InputSource, maxBodyBytes?: number) => ({ input: Schema, inputSource, maxBodyBytes });

function post(body: BodyInit) {
  return new Request("https://portico.test/api/v1/test", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
}

describe("gateway step: read and validate input", () => {
  it("parses a query string with the operation's schema, path parameters winning", async () => {
    const request = new Request("https://portico.test/api/v1/test?text=hello&size=20&as=json");
    const result = await readValidInput(request, operation("query"), { text: "from-path" });
    // `as` is the gateway's own parameter and never reaches the API.
    expect(result).toEqual({ ok: true, input: { text: "from-path", size: 20 } });
  });

  it("parses a JSON body, filling the schema's defaults", async () => {
    const result = await readValidInput(post(JSON.stringify({ text: "hi" })), operation("json"), {});
    expect(result).toEqual({ ok: true, input: { text: "hi", size: 50 } });
  });

  it("refuses a body over the operation's own limit as too large", async () => {
    const body = JSON.stringify({ text: "x".repeat(200) });
    const result = await readValidInput(post(body), operation("json", 100), {});
    expect(result).toEqual({
      ok: false,
      refusal: { type: "body-too-large", detail: "Keep the request body under 100 bytes." },
    });
  });

  it("holds a body to 64 KiB unless the operation says otherwise", async () => {
    const body = JSON.stringify({ text: "x".repeat(DEFAULT_MAX_BODY_BYTES) });
    expect(await readValidInput(post(body), operation("json"), {})).toMatchObject({
      ok: false,
      refusal: { type: "body-too-large" },
    });
  });

  it.each([
    ["not JSON", "{text:", "The body is not valid JSON."],
    ["a JSON array", "[1, 2]", "The JSON body must be an object."],
  ])("answers a body that is %s as malformed", async (_label, body, detail) => {
    expect(await readValidInput(post(body), operation("json"), {})).toEqual({
      ok: false,
      refusal: { type: "malformed-body", detail },
    });
  });

  it("names the first field that broke a rule, and lists every field's first message", async () => {
    const result = await readValidInput(
      post(JSON.stringify({ text: "", size: 5, nested: { colour: "red" } })),
      operation("json"),
      {},
    );
    expect(result).toEqual({
      ok: false,
      refusal: {
        type: "invalid-input",
        detail: "text: Give some text",
        extensions: {
          errors: {
            text: "Give some text",
            size: expect.stringMatching(/10/),
            "nested.colour": "a hex colour",
          },
        },
      },
    });
  });

  it("reshapes an older client's input before the schema reads it", async () => {
    const adapt = (raw: Record<string, unknown>) => ({ text: raw.data, size: raw.width });
    const result = await readValidInput(
      post(JSON.stringify({ data: "legacy", width: 30 })),
      operation("json"),
      {},
      adapt,
    );
    expect(result).toEqual({ ok: true, input: { text: "legacy", size: 30 } });
  });

  it("answers input an older client's adapter cannot read as invalid, not as our failure", async () => {
    const adapt = (raw: Record<string, unknown>) => ({ text: (raw.data as { deep: string }).deep });
    const result = await readValidInput(post(JSON.stringify({ other: 1 })), operation("json"), {}, adapt);
    expect(result).toEqual({
      ok: false,
      refusal: { type: "invalid-input", detail: "The request does not have the expected shape." },
    });
  });
});
