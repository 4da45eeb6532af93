/**
 * Settling a payment on what its provider says: the one path the capture call, the webhooks,
 * the status page and the reconciliation cron all end in, so telling the gateway of a plan
 * change happens here and only here.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { resolveApiKey } from "~workers/gateway/api-key-auth";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { createAccountWithKey } from "../../tests/factories";
import { recordingNotices } from "../../tests/fakes/services";
import { apiKeyCacheName } from "./api-keys";
import { createId, sha256Hex } from "./ids";
import { addUtcMonths } from "./plans";
import { findPayment, settlePayment, type PaymentRow } from "./settlement";

async function openPayment(userId: string, planId: "standard" | "premium" = "standard"): Promise<PaymentRow> {
  const id = createId("pay");
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO payments (id, user_id, provider, provider_order_id, plan_id, amount_minor, currency, status, created_at, updated_at)
     VALUES (?, ?, 'paypal', ?, ?, 900, 'USD', 'pending', ?, ?)`,
  )
    .bind(id, userId, `ORDER-${id}`, planId, now, now)
    .run();
  const payment = await findPayment(env.DB, id);
  if (!payment) throw new Error("payment not written");
  return payment;
}

describe("settlePayment", () => {
  it("activates a paid plan once, and tells the gateway the new plan version", async () => {
    const { userId } = await createAccountWithKey(env.DB);
    const payment = await openPayment(userId);
    const notices = recordingNotices();
    const now = Date.UTC(2026, 10, 20, 12);
    const settled = await settlePayment(env.DB, notices, payment, { kind: "paid" }, now);
    expect(settled).toMatchObject({
      status: "paid",
      planChanged: true,
      planId: "standard",
      planExpiresAt: addUtcMonths(now, 1),
      planVersion: 1,
    });
    expect(notices.planVersions).toEqual([{ userId, version: 1 }]);
    // Settling the same verdict again moves nothing and tells nobody.
    const again = await settlePayment(env.DB, notices, payment, { kind: "paid" }, now + 1000);
    expect(again).toMatchObject({ status: "paid", planChanged: false });
    expect(notices.planVersions).toHaveLength(1);
  });

  it("ends the plan on a refund and tells the gateway, which drops the cached keys", async () => {
    const { userId, key } = await createAccountWithKey(env.DB);
    const payment = await openPayment(userId, "premium");
    const notices = gatewayNotices(env);
    await settlePayment(env.DB, notices, payment, { kind: "paid" }, Date.now());
    // A call now caches the Premium record.
    expect((await resolveApiKey(env, key))?.planId).toBe("premium");
    const cacheName = apiKeyCacheName(await sha256Hex(key));
    expect(await env.CACHE.get(cacheName)).not.toBeNull();
    const refunded = await settlePayment(env.DB, notices, payment, { kind: "refunded" }, Date.now());
    expect(refunded).toMatchObject({ status: "refunded", planChanged: true, planId: "free", planExpiresAt: null });
    expect(await env.CACHE.get(cacheName)).toBeNull();
    expect((await resolveApiKey(env, key))?.planId).toBe("free");
  });

  it.each([
    [{ kind: "pending" } as const],
    [{ kind: "failed", detail: "declined" } as const],
    [{ kind: "mismatch", detail: "paid 1 cent" } as const],
  ])("moves no plan and tells nobody on %j", async (verdict) => {
    const { userId } = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    const settled = await settlePayment(env.DB, notices, await openPayment(userId), verdict, Date.now());
    expect(settled.planChanged).toBe(false);
    expect(settled.planId).toBe("free");
    expect(notices.planVersions).toEqual([]);
  });

  it("gives a payment's plan only to the account that paid", async () => {
    const buyer = await createAccountWithKey(env.DB);
    const bystander = await createAccountWithKey(env.DB);
    const notices = recordingNotices();
    await settlePayment(env.DB, notices, await openPayment(buyer.userId), { kind: "paid" }, Date.now());
    expect(notices.planVersions.map((notice) => notice.userId)).toEqual([buyer.userId]);
    expect((await resolveApiKey(env, bystander.key))?.planId).toBe("free");
  });
});
