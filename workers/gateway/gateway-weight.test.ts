/**
 * A call's weight through the whole gateway (decision 048): an operation that weighs its input
 * is metered on the parsed input, all of it or none, and the rate-limit headers, the refund and
 * the usage rollup all count the weight. The Meter is the real Durable Object and the key is in
 * D1; the operation is a small one made here, so the rule is tested apart from any one API.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation, json, problemResult, type Operation } from "~workers/hosted/definition";
import { loadDefinitions } from "~workers/hosted/definitions";
import type { HostedApi } from "~workers/hosted/registry";
import { assignRequestId, type ApiEnv } from "~workers/http/env";
import { FREE_PLAN_FREEMIUM_CAP, PLANS } from "~workers/platform/plans";
import { createAccountWithKey } from "../../tests/factories";
import { memoryUsage } from "../../tests/fakes/services";
import { runOperation } from "./gateway";
import { meterFor, meterPolicy, meterStanding, type MeteredAccount } from "./meter-policy";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();

const api: HostedApi = {
  slug: "weighed",
  aliases: [],
  name: "Weighed",
  group: "free",
  description: "A test API whose batch costs one call an item.",
  icon: "box",
};

const batch = defineOperation({
  id: "batch",
  method: "POST",
  path: "/batch",
  summary: "Echoes its items.",
  inputSource: "json",
  input: z.object({ items: z.array(z.string()).min(1).max(50), fail: z.boolean().optional() }),
  output: { kind: "json", schema: z.object({ items: z.array(z.string()) }), example: { items: ["a"] } },
  example: { items: ["a"] },
  weight: (input) => input.items.length,
  handler: async (input) =>
    input.fail ? problemResult("service-unavailable", "the upstream is down") : json({ items: input.items }),
});

const fixed: Operation = { ...batch, id: "fixed", weight: 3 };

async function call(operation: Operation, key: string, body: unknown, hosted: HostedApi = api) {
  const usage = memoryUsage();
  const app = new Hono<ApiEnv>()
    .use(assignRequestId)
    .post("/call", (c) => runOperation(c, hosted, operation, { services: { usage } }));
  const ctx = createExecutionContext();
  const response = await app.request(
    new Request("https://portico.test/call", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(body),
    }),
    undefined,
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { response, usage: usage.calls };
}

const FREE = PLANS.free;

async function freeAccount() {
  const account = await createAccountWithKey(env.DB);
  const metered: MeteredAccount = { userId: account.userId, planId: "free", planExpiresAt: null, bonusCalls: 0 };
  return { ...account, metered };
}

/**
 * Spends calls on the account's real Meter, five minutes ago: the bucket's debt from so large a
 * call has been repaid by now, so only the month is left to judge the next call.
 */
async function spend(metered: MeteredAccount, calls: number, group: HostedApi["group"] = "free") {
  const { policy } = meterPolicy(metered, group, Date.now() - 5 * 60_000);
  const taken = await meterFor(env, metered.userId).take(policy, undefined, calls);
  expect(taken.ok).toBe(true);
}

describe("gateway: a call's weight", () => {
  it("refuses a batch of 50 whole when 40 calls are left, and counts nothing", async () => {
    const account = await freeAccount();
    await spend(account.metered, FREE.monthlyQuota - 40);
    const items = Array.from({ length: 50 }, (_, i) => `item${i}`);
    const { response, usage } = await call(batch, account.key, { items });
    expect(response.status).toBe(429);
    const body = (await response.json()) as { type: string; limit: string; weight: number; detail: string };
    expect(body).toMatchObject({ limit: "monthly", weight: 50 });
    expect(body.type).toMatch(/monthly-quota-exceeded$/);
    expect(body.detail).toContain("This call counts as 50 calls and 40 are left this month");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("40");
    const standing = await meterStanding(env, account.metered, Date.now());
    expect(standing.used).toBe(FREE.monthlyQuota - 40);
    // A refusal before the handler records nothing in the rollups.
    expect(usage).toEqual([]);
    // The same 40 in one batch go through.
    const forty = await call(batch, account.key, { items: items.slice(0, 40) });
    expect(forty.response.status).toBe(200);
    expect(forty.response.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("counts a batch of 3 as 3 calls, in the headers, the Meter and the usage rollup", async () => {
    const account = await freeAccount();
    // The Free bucket holds 2: a batch of 3 needs it full and leaves it a token in debt.
    const { response, usage } = await call(batch, account.key, { items: ["a", "b", "c"] });
    expect(response.status).toBe(200);
    const { policy } = meterPolicy(account.metered, "free", Date.now());
    const window = Math.round((policy.periodEnd - policy.periodStart) / 1000);
    const reset = Number(response.headers.get("x-ratelimit-reset"));
    expect(response.headers.get("x-ratelimit-limit")).toBe(String(FREE.monthlyQuota));
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(FREE.monthlyQuota - 3));
    expect(response.headers.get("ratelimit-policy")).toBe(
      `"burst";q=${FREE.perSecond};w=1, "monthly";q=${FREE.monthlyQuota};w=${window}`,
    );
    // Two tokens a second, one owed: the next token is two intervals (1 s) away.
    expect(response.headers.get("ratelimit")).toBe(`"burst";r=0;t=1, "monthly";r=${FREE.monthlyQuota - 3};t=${reset}`);
    expect((await meterStanding(env, account.metered, Date.now())).used).toBe(3);
    expect(usage).toMatchObject([{ apiSlug: "weighed", success: true, weight: 3 }]);
  });

  it("gives a batch's whole weight back when the failure is ours", async () => {
    const account = await freeAccount();
    const { response, usage } = await call(batch, account.key, { items: ["a", "b"], fail: true });
    expect(response.status).toBe(503);
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(FREE.monthlyQuota));
    // The headers show the bucket after the refund too, as the next call will find it.
    expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"burst";r=${FREE.perSecond};t=0, `));
    const standing = await meterStanding(env, account.metered, Date.now());
    expect(standing.used).toBe(0);
    // The bucket's tokens come back too: a failed batch leaves no debt to wait out.
    expect(standing.burstRemaining).toBe(FREE.perSecond);
    expect(usage).toMatchObject([{ success: false, weight: 1 }]);
  });

  it("says how many of the Free plan's freemium calls are left when the freemium cap refuses a batch", async () => {
    const account = await freeAccount();
    await spend(account.metered, FREE_PLAN_FREEMIUM_CAP - 10, "freemium");
    const items = Array.from({ length: 20 }, (_, i) => `item${i}`);
    const { response } = await call(batch, account.key, { items }, { ...api, group: "freemium" });
    expect(response.status).toBe(429);
    const body = (await response.json()) as { limit: string; weight: number; detail: string };
    expect(body).toMatchObject({ limit: "freemium", weight: 20 });
    // The month has far more than 10 calls left; the cap is what refuses it.
    expect(body.detail).toContain("This call counts as 20 calls and 10 are left this month; none of it was counted.");
  });

  it("counts input the schema refuses as one call, given back", async () => {
    const account = await freeAccount();
    const { response } = await call(batch, account.key, { items: Array.from({ length: 51 }, () => "x") });
    expect(response.status).toBe(422);
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(FREE.monthlyQuota));
    expect((await meterStanding(env, account.metered, Date.now())).used).toBe(0);
  });

  it("takes a fixed weight without reading the input first", async () => {
    const account = await freeAccount();
    const { response } = await call(fixed, account.key, { items: ["a"] });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(FREE.monthlyQuota - 3));
  });

  it("finds every declared fixed weight a whole number of at least one, and every batch weighed", () => {
    const operations = HOSTED_DEFINITIONS.flatMap((definition) => definition.operations);
    for (const operation of operations) {
      if (typeof operation.weight === "number") {
        expect(Number.isSafeInteger(operation.weight) && operation.weight >= 1, operation.id).toBe(true);
      }
    }
    // A path ending in /batch is a batch: it must say what it costs.
    const batches = operations.filter((operation) => operation.path.endsWith("/batch"));
    expect(batches.length).toBeGreaterThan(0);
    for (const operation of batches) expect(typeof operation.weight, operation.id).toBe("function");
  });
});
