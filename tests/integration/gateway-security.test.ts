/**
 * The gateway's refusals, at every operation of every hosted API (taken from the registry, so a
 * new API is covered the day it is added): no key, an unknown key, a revoked key, a plan that
 * does not include the API, bodies over the operation's limit and bodies that do not parse.
 * Each refusal is problem+json, and none of them costs the caller a call.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_BODY_BYTES } from "~workers/gateway/gateway";
import type { Operation } from "~workers/hosted/definition";
import { loadDefinitions } from "~workers/hosted/definitions";
import { findHostedApi, type HostedApi } from "~workers/hosted/registry";
import { generateApiKey } from "~workers/platform/api-keys";
import { PLANS } from "~workers/platform/plans";
import { callHosted, createAccountWithKey } from "../factories";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();

const OPERATIONS = HOSTED_DEFINITIONS.flatMap((definition) => {
  const api = findHostedApi(definition.slug) as HostedApi;
  return definition.operations.map((operation) => ({ label: `${api.slug} ${operation.id}`, api, operation }));
});

/** The operation's path with its example's values in the `:params`. */
function pathOf(api: HostedApi, operation: Operation): string {
  const example = (operation.example ?? {}) as Record<string, unknown>;
  const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(String(example[name] ?? "x")),
  );
  return `/api/v1/${api.slug}${path}`;
}

function call(api: HostedApi, operation: Operation, key?: string): Promise<Response> {
  const takesBody = operation.method === "POST";
  return callHosted(SELF, operation.method, pathOf(api, operation), {
    key,
    body: takesBody ? operation.example : undefined,
  });
}

async function expectProblem(response: Response, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<{ type: string; status: number; message: string; requestId: string }>();
  expect(body.type).toBe(`https://portico.dev/problems/${type}`);
  expect(body.status).toBe(status);
  expect(body.message).toEqual(expect.any(String));
  expect(body.requestId).toEqual(expect.any(String));
  return body;
}

/** A fresh account's monthly quota, as the headers should still show it after a refusal. */
function expectNothingCounted(response: Response, planId: "free" | "standard" | "premium") {
  expect(response.headers.get("x-ratelimit-remaining")).toBe(String(PLANS[planId].monthlyQuota));
  expect(response.headers.get("ratelimit")).toMatch(new RegExp(`"monthly";r=${PLANS[planId].monthlyQuota};t=\\d+$`));
}

describe.each(OPERATIONS)("$label", ({ api, operation }) => {
  it("answers no key with 401 and WWW-Authenticate", async () => {
    const response = await call(api, operation);
    await expectProblem(response, 401, "missing-api-key");
    expect(response.headers.get("www-authenticate")).toMatch(/^ApiKey realm="portico"/);
  });

  it("answers a key that is not ours with 401 and WWW-Authenticate", async () => {
    const response = await call(api, operation, generateApiKey());
    await expectProblem(response, 401, "invalid-api-key");
    expect(response.headers.get("www-authenticate")).toMatch(/error="invalid_key"/);
  });

  it("answers a revoked key with 403, counting nothing", async () => {
    const { key, keyId } = await createAccountWithKey(env.DB, { planId: "premium" });
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), keyId).run();
    const response = await call(api, operation, key);
    await expectProblem(response, 403, "revoked-api-key");
    expectNothingCounted(response, "premium");
  });

  if (api.group === "premium") {
    it("refuses the Free plan with 403 plan-required, naming the plans that include it", async () => {
      const { key } = await createAccountWithKey(env.DB, { planId: "free" });
      const response = await call(api, operation, key);
      const body = (await expectProblem(response, 403, "plan-required")) as unknown as { plans: string[] };
      expect(body.plans).toEqual(["standard", "premium"]);
      expectNothingCounted(response, "free");
    });
  }

  if (operation.method === "POST") {
    const limit = operation.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

    it(`answers a body over its ${limit} bytes with 413, counting nothing`, async () => {
      const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
      const oversized = JSON.stringify({ padding: "x".repeat(limit) });
      const response = await callHosted(SELF, "POST", pathOf(api, operation), {
        key,
        rawBody: oversized,
        contentType: "application/json",
      });
      await expectProblem(response, 413, "body-too-large");
      expectNothingCounted(response, "premium");
    });

    it("answers a body that is not JSON with 400, counting nothing", async () => {
      const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
      const response = await callHosted(SELF, "POST", pathOf(api, operation), {
        key,
        rawBody: '{"unterminated": ',
        contentType: "application/json",
      });
      await expectProblem(response, 400, "malformed-body");
      expectNothingCounted(response, "premium");
    });
  }
});

describe("gateway: refusals and counts", () => {
  it("counts the next good call from where the refused one left the headers", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "standard" });
    const refused = await callHosted(SELF, "GET", "/api/v1/colorconvert?hex=not-a-colour", { key });
    expect(refused.status).toBe(422);
    expectNothingCounted(refused, "standard");
    const counted = await callHosted(SELF, "GET", "/api/v1/colorconvert?hex=%23336699", { key });
    expect(counted.status).toBe(200);
    expect(counted.headers.get("x-ratelimit-remaining")).toBe(String(PLANS.standard.monthlyQuota - 1));
  });
});
