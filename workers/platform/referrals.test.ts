import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { randomEmail } from "../../tests/factories";
import { createPasswordAccount, redeemReferralStatement } from "./accounts";
import { referralSummary } from "./referrals";
import type { User } from "./users";

async function newAccount(): Promise<User> {
  const created = await createPasswordAccount(env.DB, { email: randomEmail("ref"), name: "", passwordHash: "unused" });
  if (!created.ok) throw new Error("account not created");
  return created.user;
}

async function redeem(user: User, code: string): Promise<void> {
  await redeemReferralStatement(env.DB, user.id, code, Date.now()).run();
}

describe("referralSummary", () => {
  it("says whose code brought the account in, and how many it brought in itself", async () => {
    const referrer = await newAccount();
    const a = await newAccount();
    const b = await newAccount();
    await redeem(a, referrer.referralCode);
    await redeem(b, referrer.referralCode.toLowerCase());
    expect(await referralSummary(env.DB, referrer.id)).toEqual({ referredBy: null, referredCount: 2 });
    expect(await referralSummary(env.DB, a.id)).toEqual({ referredBy: referrer.referralCode, referredCount: 0 });
  });

  it("counts an account once, whatever code it tries next, and never its own code", async () => {
    const first = await newAccount();
    const second = await newAccount();
    const self = await newAccount();
    await redeem(self, first.referralCode);
    await redeem(self, second.referralCode);
    expect(await referralSummary(env.DB, self.id)).toEqual({ referredBy: first.referralCode, referredCount: 0 });
    expect((await referralSummary(env.DB, second.id)).referredCount).toBe(0);

    const loner = await newAccount();
    await redeem(loner, loner.referralCode);
    await redeem(loner, "NOSUCHCODE");
    expect(await referralSummary(env.DB, loner.id)).toEqual({ referredBy: null, referredCount: 0 });
  });

  it("knows nothing of an account that does not exist", async () => {
    expect(await referralSummary(env.DB, "usr_nobody")).toEqual({ referredBy: null, referredCount: 0 });
  });
});
