/**
 * An older path through the whole gateway (keys in D1, the real Meter): its adapter reshapes the
 * input and may refuse older fields by name, `select` picks another of the API's operations by
 * the body, `answer.json` reshapes the operation's JSON answer for the older clients (seeing
 * their body as it came), and `answer.problemMembers` go into every problem on that path, the
 * refusals before the handler included. The API is a small one made here, so the rule is tested
 * apart from any one API.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation, json, problemResult, type LegacyRoute, type Operation } from "~workers/hosted/definition";
import type { HostedApi } from "~workers/hosted/registry";
import { assignRequestId, type ApiEnv } from "~workers/http/env";
import { createAccountWithKey } from "../../tests/factories";
import { runOperation } from "./gateway";

const api: HostedApi = {
  slug: "older",
  aliases: [],
  name: "Older",
  group: "free",
  description: "A test API with an older path.",
  icon: "box",
};

const shout = defineOperation({
  id: "shout",
  method: "POST",
  path: "",
  summary: "Upper-cases its text.",
  inputSource: "json",
  input: z.strictObject({ text: z.string().min(1, "Give some text.") }),
  output: { kind: "json", schema: z.object({ loud: z.string() }), example: { loud: "A" } },
  example: { text: "a" },
  handler: async (input) =>
    input.text === "fail"
      ? problemResult("upstream-failed", "the upstream is down")
      : json({ loud: input.text.toUpperCase() }),
});

const count = defineOperation({
  id: "count",
  method: "POST",
  path: "/count",
  summary: "Counts its text's characters.",
  inputSource: "json",
  input: z.strictObject({ text: z.string() }),
  output: { kind: "json", schema: z.object({ length: z.int() }), example: { length: 1 } },
  example: { text: "a" },
  handler: async (input) => json({ length: input.text.length }),
});

const OlderSchema = z.looseObject({ words: z.string({ error: "Give the words." }), mode: z.enum(["shout", "count"]) });

const route: LegacyRoute = {
  method: "POST",
  path: "/api/older",
  operationId: "shout",
  select: (raw) => (raw.mode === "count" ? "count" : undefined),
  adapt: (raw) => ({ text: OlderSchema.parse(raw).words }),
  answer: {
    json: (body, call) => ({ ok: 1, op: call.operationId, echo: call.raw.echo ?? null, result: body }),
    problemMembers: { ok: 0 },
    schema: z.object({ ok: z.literal(1) }),
    example: { ok: 1 },
  },
};

async function call(
  key: string | undefined,
  body: unknown,
  options: { route?: LegacyRoute; operation?: Operation } = {},
) {
  const legacy = { route: options.route ?? route, operations: [shout, count] };
  const app = new Hono<ApiEnv>()
    .use(assignRequestId)
    .post("/api/older", (c) => runOperation(c, api, options.operation ?? shout, { legacy }));
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers["x-avatar-key"] = key;
  const response = await app.request(
    new Request("https://portico.test/api/older", { method: "POST", headers, body: JSON.stringify(body) }),
    undefined,
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

describe("an older path through the gateway", () => {
  it("answers the operation's JSON reshaped for the older clients, with their body as it came", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await call(key, { words: "hi", mode: "shout", echo: "x" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-remaining")).not.toBeNull();
    expect(await response.json()).toEqual({ ok: 1, op: "shout", echo: "x", result: { loud: "HI" } });
  });

  it("serves the operation `select` names for the body, through that operation's schema and handler", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await call(key, { words: "four", mode: "count" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: 1, op: "count", echo: null, result: { length: 4 } });
  });

  it("names the older field an adapter refuses, as a schema would", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await call(key, { mode: "whisper" });
    expect(response.status).toBe(422);
    const body = await response.json<{ type: string; errors: Record<string, string>; ok: number; message: string }>();
    expect(body.type).toBe("https://portico.dev/problems/invalid-input");
    expect(body.errors).toEqual({ words: "Give the words.", mode: expect.stringMatching(/shout|count/) });
    expect(body.ok).toBe(0);
    expect(body.message).toMatch(/^words: Give the words\.$/);
  });

  it("puts the route's members into every problem: the handler's, the schema's and the key's", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const failed = await call(key, { words: "fail", mode: "shout" });
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ ok: 0, message: "the upstream is down", status: 502 });

    const empty = await call(key, { words: "", mode: "shout" });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ ok: 0, errors: { text: "Give some text." } });

    const noKey = await call(undefined, { words: "hi", mode: "shout" });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get("content-type")).toBe("application/problem+json");
    expect(await noKey.json()).toMatchObject({ ok: 0, type: "https://portico.dev/problems/missing-api-key" });
  });

  it("leaves answers and problems as the operation writes them on a route without `answer`", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const plain: LegacyRoute = {
      method: "POST",
      path: "/api/older",
      operationId: "shout",
      adapt: (raw) => ({ text: raw.words }),
    };
    const response = await call(key, { words: "hi" }, { route: plain });
    expect(await response.json()).toEqual({ loud: "HI" });
    const failed = await call(key, { words: "fail" }, { route: plain });
    expect(await failed.json()).not.toHaveProperty("ok");
  });
});
