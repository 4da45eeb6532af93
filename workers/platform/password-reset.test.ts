import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recordingAccountServices, requestFrom, tokenInMail } from "../../tests/fakes/account-services";
import { randomClientAddress, randomEmail, STRONG_PASSWORD } from "../../tests/factories";
import { createPasswordAccount, logIn } from "./accounts";
import { hashPassword, PASSWORD_MESSAGES } from "./passwords";
import {
  forgotPassword,
  isResetTokenUsable,
  RESET_TOKEN_TTL_MS,
  RESETS_PER_ADDRESS,
  resetPassword,
} from "./password-reset";
import { findUserById, type User } from "./users";

const NEW_PASSWORD = "a brand new passphrase 7";

async function newAccount(): Promise<User> {
  const created = await createPasswordAccount(env.DB, {
    email: randomEmail("reset"),
    name: "",
    passwordHash: await hashPassword(STRONG_PASSWORD),
  });
  if (!created.ok) throw new Error("account not created");
  return created.user;
}

/** Asks for a reset of `email` as the page or the API does, and answers the mailed token. */
async function resetTokenFor(email: string, now = Date.now()): Promise<string> {
  const { services, sent, settle } = recordingAccountServices();
  expect(await forgotPassword(services, requestFrom(randomClientAddress()), email, now)).toEqual({ ok: true });
  await settle();
  return tokenInMail(sent[0], "change/password");
}

describe("forgotPassword", () => {
  it("finds the account whatever the spelling of its address, and mails its owner a link", async () => {
    const user = await newAccount();
    const { services, sent, settle } = recordingAccountServices();
    await forgotPassword(services, requestFrom(randomClientAddress()), `  ${user.email.toUpperCase()} `);
    await settle();
    expect(sent.map((mail) => mail.to)).toEqual([user.email]);
    expect(sent[0]?.text).toMatch(/https:\/\/portico\.test\/change\/password\/[A-Za-z0-9_-]{43}/);
  });

  it("throttles one client however many addresses it asks about", async () => {
    const { services, settle } = recordingAccountServices();
    const client = requestFrom(randomClientAddress());
    const results = [];
    for (let i = 0; i <= RESETS_PER_ADDRESS.limit; i++) {
      results.push(await forgotPassword(services, client, randomEmail("target")));
    }
    await settle();
    expect(results.slice(0, -1).every((result) => result.ok)).toBe(true);
    expect(results.at(-1)).toMatchObject({ ok: false, code: "throttled" });
  });
});

describe("resetPassword", () => {
  it("sets the new password, proves the address the link reached, and ends every session", async () => {
    const user = await newAccount();
    const token = await resetTokenFor(user.email);
    expect(await isResetTokenUsable(env.DB, token)).toBe(true);
    expect(await resetPassword(env.DB, token, NEW_PASSWORD, 9_000)).toEqual({ ok: true, userId: user.id });
    expect(await logIn(env.DB, user.email, NEW_PASSWORD)).toMatchObject({ id: user.id });
    expect(await logIn(env.DB, user.email, STRONG_PASSWORD)).toBeNull();
    const after = await findUserById(env.DB, user.id);
    expect(after?.emailVerifiedAt).toBe(9_000);
    expect(after?.sessionVersion).toBe(user.sessionVersion + 1);
    expect(await isResetTokenUsable(env.DB, token)).toBe(false);
  });

  it("refuses a weak password without using up the link", async () => {
    const user = await newAccount();
    const token = await resetTokenFor(user.email);
    expect(await resetPassword(env.DB, token, "short")).toEqual({
      ok: false,
      code: "weak-password",
      message: PASSWORD_MESSAGES["too-short"],
    });
    expect(await isResetTokenUsable(env.DB, token)).toBe(true);
    expect((await resetPassword(env.DB, token, NEW_PASSWORD)).ok).toBe(true);
  });

  it("lets only one of many concurrent resets with one link through", async () => {
    const user = await newAccount();
    const token = await resetTokenFor(user.email);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => resetPassword(env.DB, token, `${NEW_PASSWORD} number ${i}`)),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });

  it("refuses a link past its 30 minutes and one it never issued", async () => {
    const user = await newAccount();
    const token = await resetTokenFor(user.email, 0);
    expect(await isResetTokenUsable(env.DB, token, RESET_TOKEN_TTL_MS)).toBe(false);
    expect(await resetPassword(env.DB, token, NEW_PASSWORD, RESET_TOKEN_TTL_MS)).toEqual({
      ok: false,
      code: "invalid-token",
    });
    expect(await resetPassword(env.DB, "not-a-token", NEW_PASSWORD)).toEqual({ ok: false, code: "invalid-token" });
    expect(await logIn(env.DB, user.email, STRONG_PASSWORD)).toMatchObject({ id: user.id });
  });
});
