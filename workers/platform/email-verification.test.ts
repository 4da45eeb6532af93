import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recordingAccountServices, tokenInMail } from "../../tests/fakes/account-services";
import { randomEmail } from "../../tests/factories";
import { createPasswordAccount } from "./accounts";
import {
  resendVerificationLink,
  sendVerificationLink,
  VERIFICATION_RESENDS,
  VERIFICATION_TTL_MS,
  verifyEmail,
} from "./email-verification";
import { sha256Hex } from "./ids";
import { findUserById, type User } from "./users";

async function newAccount(email = randomEmail("verify")): Promise<User> {
  const created = await createPasswordAccount(env.DB, { email, name: "", passwordHash: "not-used-here" });
  if (!created.ok) throw new Error("account not created");
  return created.user;
}

/** Mails a link for `user` at `now` and answers its token. */
async function linkFor(user: User, now = Date.now()): Promise<string> {
  const { services, sent } = recordingAccountServices();
  await sendVerificationLink(env.DB, services.mail, user, services.origin, now);
  return tokenInMail(sent[0], "user/verify-email");
}

describe("sendVerificationLink", () => {
  it("mails a link to the account's address and keeps only the token's hash, for 24 hours", async () => {
    const user = await newAccount();
    const { services, sent } = recordingAccountServices();
    await sendVerificationLink(env.DB, services.mail, user, services.origin, 1_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe(user.email);
    const token = tokenInMail(sent[0], "user/verify-email");
    expect(sent[0]?.text).toContain(`https://portico.test/user/verify-email/${token}`);
    const rows = await env.DB.prepare(`SELECT token_hash, email, expires_at FROM email_verifications WHERE user_id = ?`)
      .bind(user.id)
      .all();
    expect(rows.results).toEqual([
      { token_hash: await sha256Hex(token), email: user.email, expires_at: 1_000 + VERIFICATION_TTL_MS },
    ]);
  });
});

describe("verifyEmail", () => {
  it("proves the address and answers the account", async () => {
    const user = await newAccount();
    const result = await verifyEmail(env.DB, await linkFor(user), 5_000);
    expect(result).toMatchObject({ ok: true, user: { id: user.id, emailVerifiedAt: 5_000 } });
  });

  it("works once: the second opening says the address is proven already", async () => {
    const user = await newAccount();
    const token = await linkFor(user);
    expect((await verifyEmail(env.DB, token)).ok).toBe(true);
    expect(await verifyEmail(env.DB, token)).toEqual({ ok: false, code: "already-verified" });
  });

  it("lets only one of many concurrent openings through", async () => {
    const user = await newAccount();
    const token = await linkFor(user);
    const results = await Promise.all(Array.from({ length: 10 }, () => verifyEmail(env.DB, token)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });

  it("refuses a link past its 24 hours, and proves nothing", async () => {
    const user = await newAccount();
    const token = await linkFor(user, 0);
    expect(await verifyEmail(env.DB, token, VERIFICATION_TTL_MS)).toEqual({ ok: false, code: "invalid-token" });
    expect((await findUserById(env.DB, user.id))?.emailVerifiedAt).toBeNull();
  });

  it("proves nothing when the account's address changed after the link was sent", async () => {
    const user = await newAccount();
    const token = await linkFor(user);
    await env.DB.prepare(`UPDATE users SET email = ? WHERE id = ?`).bind(randomEmail("changed"), user.id).run();
    expect(await verifyEmail(env.DB, token)).toEqual({ ok: false, code: "invalid-token" });
    expect((await findUserById(env.DB, user.id))?.emailVerifiedAt).toBeNull();
  });

  it("refuses a token it never issued", async () => {
    expect(await verifyEmail(env.DB, "not-a-token")).toEqual({ ok: false, code: "invalid-token" });
  });

  it("redeems the referral code given at sign-up once the address is proven, and not before", async () => {
    const referrer = await newAccount(randomEmail("referrer"));
    const created = await createPasswordAccount(env.DB, {
      email: randomEmail("referred"),
      name: "",
      passwordHash: "not-used-here",
      referralCode: referrer.referralCode.toLowerCase(),
    });
    if (!created.ok) throw new Error("account not created");
    const referral = () =>
      env.DB.prepare(`SELECT referrer_user_id, code FROM referrals WHERE referred_user_id = ?`)
        .bind(created.user.id)
        .first();
    expect(await referral()).toBeNull();
    await verifyEmail(env.DB, await linkFor(created.user));
    expect(await referral()).toEqual({ referrer_user_id: referrer.id, code: referrer.referralCode });
  });
});

describe("resendVerificationLink", () => {
  it("sends a new link to an unproven account, up to the hourly limit", async () => {
    const user = await newAccount();
    const { services, sent } = recordingAccountServices();
    const results = [];
    for (let i = 0; i <= VERIFICATION_RESENDS.limit; i++) {
      results.push(await resendVerificationLink(env.DB, services.mail, user, services.origin));
    }
    expect(results.slice(0, -1)).toEqual(Array(VERIFICATION_RESENDS.limit).fill({ ok: true }));
    expect(results.at(-1)).toMatchObject({ ok: false, code: "throttled" });
    expect(sent).toHaveLength(VERIFICATION_RESENDS.limit);
    // Each new link works on its own.
    expect((await verifyEmail(env.DB, tokenInMail(sent.at(-1), "user/verify-email"))).ok).toBe(true);
  });

  it("sends nothing to a proven account", async () => {
    const user = await newAccount();
    await verifyEmail(env.DB, await linkFor(user));
    const proven = await findUserById(env.DB, user.id);
    const { services, sent } = recordingAccountServices();
    expect(await resendVerificationLink(env.DB, services.mail, proven!, services.origin)).toEqual({
      ok: false,
      code: "already-verified",
    });
    expect(sent).toHaveLength(0);
  });
});
