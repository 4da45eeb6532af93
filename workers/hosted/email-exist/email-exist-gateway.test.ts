/**
 * Email Exists through the whole Worker (SELF: keys in D1, the real Meter, the configuration's
 * fake resolver): its plan group, its limits, and the batch counted one call per address.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { meterFor, meterPolicy, meterStanding, type MeteredAccount } from "~workers/gateway/meter-policy";
import { revokeApiKey } from "~workers/platform/api-keys";
import { PLANS } from "~workers/platform/plans";
import { callHosted, createAccountWithKey, expectProblem } from "../../../tests/factories";
import { definition } from "./index";

async function account(planId: "free" | "standard" | "premium") {
  const created = await createAccountWithKey(env.DB, { planId });
  const row = await env.DB.prepare("SELECT plan_expires_at FROM users WHERE id = ?")
    .bind(created.userId)
    .first<{ plan_expires_at: number | null }>();
  const metered: MeteredAccount = {
    userId: created.userId,
    planId,
    planExpiresAt: row?.plan_expires_at ?? null,
    bonusCalls: 0,
  };
  return { ...created, metered };
}

const used = async (metered: MeteredAccount) => (await meterStanding(env, metered, Date.now())).used;

describe("email-exist through the gateway", () => {
  it("is premium: the Free plan is refused and nothing is counted", async () => {
    const free = await account("free");
    const response = await callHosted(SELF, "POST", "/api/v1/email-exist", {
      key: free.key,
      body: { email: "jane@gmail.com" },
    });
    await expectProblem(response, 403, "plan-required");
    expect(await used(free.metered)).toBe(0);
  });

  it("answers Standard by POST and by GET, one call each", async () => {
    const standard = await account("standard");
    const posted = await callHosted(SELF, "POST", "/api/v1/email-exist", {
      key: standard.key,
      body: { email: "jane@gmail.com" },
    });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toMatchObject({ status: "valid", smtp: "unchecked" });
    const got = await callHosted(
      SELF,
      "GET",
      `/api/v1/email-exist?email=${encodeURIComponent("jane+news@gmail.com")}`,
      {
        key: standard.key,
      },
    );
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ normalized: "jane+news@gmail.com", status: "valid" });
    expect(got.headers.get("x-ratelimit-remaining")).toBe(String(PLANS.standard.monthlyQuota - 2));
    expect(await used(standard.metered)).toBe(2);
  });

  it("counts a batch as one call per address, in its headers and in the Meter", async () => {
    const premium = await account("premium");
    const emails = ["a@gmail.com", "b@acme.dev", "c@example.com"];
    const response = await callHosted(SELF, "POST", "/api/v1/email-exist/batch", {
      key: premium.key,
      body: { emails },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { count: number }).count).toBe(3);
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(PLANS.premium.monthlyQuota - 3));
    expect(response.headers.get("ratelimit")).toMatch(/^"burst";r=5;t=0, "monthly";r=49997;t=\d+$/);
    expect(await used(premium.metered)).toBe(3);
  });

  it("refuses a batch of 50 whole when 40 calls are left, and counts nothing", async () => {
    const standard = await account("standard");
    // Spent two hours ago, in this period: the bucket's debt from so large a take is repaid by now.
    const { policy } = meterPolicy(standard.metered, "premium", Date.now() - 2 * 60 * 60 * 1000);
    const spent = await meterFor(env, standard.userId).take(policy, undefined, PLANS.standard.monthlyQuota - 40);
    expect(spent.ok).toBe(true);
    const emails = Array.from({ length: 50 }, (_, i) => `user${i}@gmail.com`);
    const response = await callHosted(SELF, "POST", "/api/v1/email-exist/batch", {
      key: standard.key,
      body: { emails },
    });
    const problem = await expectProblem(response, 429, "monthly-quota-exceeded");
    expect(problem).toMatchObject({ limit: "monthly", weight: 50 });
    expect(response.headers.get("x-ratelimit-remaining")).toBe("40");
    expect(await used(standard.metered)).toBe(PLANS.standard.monthlyQuota - 40);
    // Forty addresses fit exactly.
    const forty = await callHosted(SELF, "POST", "/api/v1/email-exist/batch", {
      key: standard.key,
      body: { emails: emails.slice(0, 40) },
    });
    expect(forty.status).toBe(200);
    expect(forty.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await used(standard.metered)).toBe(PLANS.standard.monthlyQuota);
  });

  it("refuses a batch over 50 or empty with 422, and counts nothing", async () => {
    const premium = await account("premium");
    for (const emails of [Array(51).fill("a@gmail.com"), []]) {
      const response = await callHosted(SELF, "POST", "/api/v1/email-exist/batch", {
        key: premium.key,
        body: { emails },
      });
      await expectProblem(response, 422, "invalid-input");
    }
    expect(await used(premium.metered)).toBe(0);
  });

  it("gives the call back when the resolver fails (502 naming it)", async () => {
    const premium = await account("premium");
    const response = await callHosted(SELF, "POST", "/api/v1/email-exist", {
      key: premium.key,
      body: { email: "x@resolver-down.test" },
    });
    const problem = await expectProblem(response, 502, "upstream-failed");
    expect(problem).toMatchObject({ upstream: "dns.fake.invalid" });
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(PLANS.premium.monthlyQuota));
    expect(await used(premium.metered)).toBe(0);
  });

  it("gives a whole batch back when the resolver is down for it (502), leaving the bucket no debt", async () => {
    const standard = await account("standard");
    // Ten addresses against Standard's five a second: counted, they would leave the bucket in debt.
    const emails = Array.from({ length: 10 }, (_, i) => `user${i}@resolver-down.test`);
    const response = await callHosted(SELF, "POST", "/api/v1/email-exist/batch", {
      key: standard.key,
      body: { emails },
    });
    const problem = await expectProblem(response, 502, "upstream-failed");
    expect(problem).toMatchObject({ upstream: "dns.fake.invalid" });
    expect(response.headers.get("x-ratelimit-remaining")).toBe(String(PLANS.standard.monthlyQuota));
    expect(await used(standard.metered)).toBe(0);
    // The next call goes through at once: the refund gave the bucket its tokens back.
    const next = await callHosted(SELF, "POST", "/api/v1/email-exist", {
      key: standard.key,
      body: { email: "jane@gmail.com" },
    });
    expect(next.status).toBe(200);
  });

  it("refuses a revoked key from the next call on, on every operation, and counts nothing", async () => {
    const premium = await account("premium");
    const single = { email: "jane@gmail.com" };
    expect((await callHosted(SELF, "POST", "/api/v1/email-exist", { key: premium.key, body: single })).status).toBe(
      200,
    );
    expect(await revokeApiKey(env.DB, gatewayNotices(env), premium.userId, premium.keyId)).toBe(true);
    for (const [method, path, body] of [
      ["POST", "/api/v1/email-exist", single],
      ["GET", "/api/v1/email-exist?email=jane%40gmail.com", undefined],
      ["POST", "/api/v1/email-exist/batch", { emails: ["a@gmail.com", "b@gmail.com"] }],
    ] as const) {
      await expectProblem(await callHosted(SELF, method, path, { key: premium.key, body }), 403, "revoked-api-key");
    }
    expect(await used(premium.metered)).toBe(1);
  });

  it("refuses a missing key and a malformed body", async () => {
    await expectProblem(
      await callHosted(SELF, "POST", "/api/v1/email-exist", { body: { email: "a@gmail.com" } }),
      401,
      "missing-api-key",
    );
    const premium = await account("premium");
    await expectProblem(
      await callHosted(SELF, "POST", "/api/v1/email-exist/batch", {
        key: premium.key,
        rawBody: "{not json",
        contentType: "application/json",
      }),
      400,
      "malformed-body",
    );
  });
});

describe("email-exist docs and live demo", () => {
  it("has a docs page with the comparison's links, the SMTP caveat and its errors", async () => {
    const response = await SELF.fetch("https://portico.test/docs/api/email-exist");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('href="https://github.com/reacherhq/check-if-email-exists"');
    expect(html).toContain('href="https://www.abstractapi.com/api/email-verification-validation-api"');
    expect(html).toContain("/api/v1/email-exist/batch");
    expect(html).toContain("upstream-failed");
    expect(html).toContain("unchecked");
    expect(html).not.toContain("not served in this environment");
  });

  it("renders a live demo whose every example answers 200 through the gateway with the fake resolver", async () => {
    const demo = await SELF.fetch("https://portico.test/email-exist/live-demo");
    expect(demo.status).toBe(200);
    const html = await demo.text();
    expect(html).toContain("Email Exists live demo");
    // What the demo sends: each operation's example, with the caller's own key.
    const premium = await account("premium");
    for (const operation of definition.operations) {
      expect(html).toContain(operation.summary);
      const example = operation.example as Record<string, unknown>;
      const path = `/api/v1/email-exist${operation.path}`;
      const response =
        operation.method === "GET"
          ? await callHosted(SELF, "GET", `${path}?${new URLSearchParams(example as Record<string, string>)}`, {
              key: premium.key,
            })
          : await callHosted(SELF, "POST", path, { key: premium.key, body: example });
      expect(response.status, operation.id).toBe(200);
      await response.arrayBuffer();
    }
  });
});
