/**
 * Revocations and plan changes reach the very next call, whatever the caches hold: the
 * account's Meter, which every call reaches anyway, tells the gateway when a cached key record
 * is stale. Each test warms the caches (isolate memory and KV) with a real call, makes the
 * change through the use case that makes it in the product (revoking, the admin's grant, a
 * refund settled by the webhook Worker), and judges the next call at once.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "~workers/config";
import { forgetAccountKeys } from "~workers/gateway/api-key-auth";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { grantPlan } from "~workers/platform/admin";
import { apiKeyCacheName, generateApiKey, revokeApiKey } from "~workers/platform/api-keys";
import { startCashfreeCheckout } from "~workers/platform/checkout";
import { sha256Hex } from "~workers/platform/ids";
import { payFakeCashfreeOrder, refundFakeCashfreeOrder } from "~workers/providers/cashfree/fake";
import { cashfreeFor, deliveryThrough } from "~workers/providers/payments";
import { planOf } from "../buyers";
import { callHosted, createAccountWithKey, randomSuffix } from "../factories";

function callFree(key: string) {
  return callHosted(SELF, "GET", "/api/v1/colorconvert?hex=%23336699", { key });
}

function callPremium(key: string) {
  return callHosted(SELF, "POST", "/api/v1/qrcode", { key, body: { text: "fresh" } });
}

async function problemType(response: Response): Promise<string> {
  return (await response.json<{ type: string }>()).type.replace(/^.*\/problems\//, "");
}

async function cachedCopy(key: string): Promise<string | null> {
  return env.CACHE.get(apiKeyCacheName(await sha256Hex(key)));
}

/**
 * What another location still serves after this isolate forgot the account's keys: its own KV
 * copy (KV is eventually consistent, up to a minute after a delete), or one a lookup that read
 * D1 before the change wrote back after it (for KV's five minutes).
 */
async function serveStaleCopy(userId: string, key: string, copy: string | null): Promise<void> {
  expect(copy).not.toBeNull();
  await forgetAccountKeys(env.DB, env.CACHE, userId);
  await env.CACHE.put(apiKeyCacheName(await sha256Hex(key)), copy ?? "");
}

function grant(userId: string, planId: "free" | "standard" | "premium") {
  return grantPlan(env.DB, gatewayNotices(env), {
    adminUserId: "usr_admin",
    targetUserId: userId,
    planId,
    days: 30,
    reason: "test",
  });
}

describe("gateway: a revoked key stops on the next call", () => {
  it("refuses the call right after the revoke, though this isolate's memory held the key as live", async () => {
    const { key, keyId, userId } = await createAccountWithKey(env.DB);
    expect((await callFree(key)).status).toBe(200);
    expect(await cachedCopy(key)).not.toBeNull();

    expect(await revokeApiKey(env.DB, gatewayNotices(env), userId, keyId)).toBe(true);
    const next = await callFree(key);
    expect(next.status).toBe(403);
    expect(await problemType(next)).toBe("revoked-api-key");
  });

  it("refuses a key whose live record KV still serves after the revoke, and drops that copy", async () => {
    const { key, keyId, userId } = await createAccountWithKey(env.DB);
    expect((await callFree(key)).status).toBe(200);
    const liveCopy = await cachedCopy(key);

    expect(await revokeApiKey(env.DB, gatewayNotices(env), userId, keyId)).toBe(true);
    await serveStaleCopy(userId, key, liveCopy);
    const next = await callFree(key);
    expect(next.status).toBe(403);
    expect(await problemType(next)).toBe("revoked-api-key");
    // No later call has to find it out again.
    expect(await cachedCopy(key)).toBeNull();
  });

  it("still serves the account's other keys, which its Meter has never heard of", async () => {
    const { key, keyId, userId } = await createAccountWithKey(env.DB);
    const other = generateApiKey();
    await env.DB.prepare(
      `INSERT INTO api_keys (id, user_id, name, prefix, hash, created_at) VALUES (?, ?, 'other', ?, ?, ?)`,
    )
      .bind(`key_${randomSuffix()}${randomSuffix()}`, userId, other.slice(0, 14), await sha256Hex(other), Date.now())
      .run();
    expect((await callFree(key)).status).toBe(200);
    expect(await revokeApiKey(env.DB, gatewayNotices(env), userId, keyId)).toBe(true);
    expect((await callFree(key)).status).toBe(403);
    expect((await callFree(other)).status).toBe(200);
  });
});

describe("gateway: a plan change applies to the next call", () => {
  it("refuses a premium API right after the admin moves the account to Free, from any location", async () => {
    const { key, userId } = await createAccountWithKey(env.DB, { planId: "premium" });
    expect((await callPremium(key)).status).toBe(200);
    const premiumCopy = await cachedCopy(key);

    expect((await grant(userId, "free")).ok).toBe(true);
    await serveStaleCopy(userId, key, premiumCopy);
    const next = await callPremium(key);
    expect(next.status).toBe(403);
    expect(await problemType(next)).toBe("plan-required");
    // The Free plan's limits apply too, not the cached Premium ones.
    const free = await callFree(key);
    expect(free.status).toBe(200);
    expect(free.headers.get("ratelimit-policy")).toMatch(/^"burst";q=2;w=1, "monthly";q=200;/);
  });

  it("serves a premium API right after the admin grants Premium to a Free account", async () => {
    const { key, userId } = await createAccountWithKey(env.DB, { planId: "free" });
    const refused = await callPremium(key);
    expect(refused.status).toBe(403);
    expect(await problemType(refused)).toBe("plan-required");

    expect((await grant(userId, "premium")).ok).toBe(true);
    expect((await callPremium(key)).status).toBe(200);
  });

  it("refuses a premium API right after the webhook Worker settles the provider's refund", async () => {
    const webhooks = env.WEBHOOKS;
    if (!webhooks) throw new Error("the tests need the WEBHOOKS service binding");
    const config = readConfig(env);
    const cashfree = {
      kv: env.CACHE,
      clientSecret: config.CASHFREE_CLIENT_SECRET,
      deliverWebhook: deliveryThrough(webhooks)?.deliver,
    };
    const { key, userId, email } = await createAccountWithKey(env.DB);
    const started = await startCashfreeCheckout(
      env.DB,
      cashfreeFor(config, env.CACHE, "https://portico.test"),
      { id: userId, email, name: "Buyer", emailVerifiedAt: Date.now() },
      {
        planId: "premium",
        phone: "9876543210",
        appOrigin: "https://portico.test",
        webhookBaseUrl: config.WEBHOOK_BASE_URL,
      },
    );
    if (!started.ok) throw new Error(`checkout did not start: ${started.detail}`);
    await payFakeCashfreeOrder(cashfree, started.paymentId, "pay");
    expect((await planOf(userId))?.plan_id).toBe("premium");
    expect((await callPremium(key)).status).toBe(200);

    // The webhook Worker settles the refund; this isolate's memory still holds Premium.
    await refundFakeCashfreeOrder(cashfree, started.paymentId);
    expect((await planOf(userId))?.plan_id).toBe("free");
    const next = await callPremium(key);
    expect(next.status).toBe(403);
    expect(await problemType(next)).toBe("plan-required");
  });
});
