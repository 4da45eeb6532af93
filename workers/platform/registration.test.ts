import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recordingAccountServices, requestFrom, tokenInMail } from "../../tests/fakes/account-services";
import { randomClientAddress, randomEmail, STRONG_PASSWORD } from "../../tests/factories";
import { logIn } from "./accounts";
import { verifyEmail } from "./email-verification";
import { PASSWORD_MESSAGES } from "./passwords";
import { registerWithPassword, SIGNUPS_PER_ADDRESS, SignUpSchema } from "./registration";
import { findUserRowByEmail } from "./users";

function signUpInput(fields: Partial<{ email: string; password: string; name: string; referralCode: string }> = {}) {
  return SignUpSchema.parse({ email: randomEmail("register"), password: STRONG_PASSWORD, ...fields });
}

describe("registerWithPassword", () => {
  it("makes an unproven account, normalised, and mails the link that proves it", async () => {
    const { services, sent, settle } = recordingAccountServices();
    const email = randomEmail("new");
    const result = await registerWithPassword(
      services,
      requestFrom(randomClientAddress()),
      signUpInput({ email: `  ${email.toUpperCase()} `, name: "  Ada  " }),
    );
    expect(result).toEqual({ ok: true, email });
    await settle();
    const row = await findUserRowByEmail(env.DB, email);
    expect(row).toMatchObject({ email, name: "Ada", email_verified_at: null, oidc_subject: null });
    expect(row?.password_hash).toMatch(/^pbkdf2/);
    expect(row?.password_hash).not.toContain(STRONG_PASSWORD);
    expect(sent.map((mail) => mail.to)).toEqual([email]);
    expect(await verifyEmail(env.DB, tokenInMail(sent[0], "user/verify-email"))).toMatchObject({
      ok: true,
      user: { email },
    });
  });

  it("changes nothing of an account that holds the address, and tells its owner instead", async () => {
    const first = recordingAccountServices();
    const email = randomEmail("owner");
    await registerWithPassword(
      first.services,
      requestFrom(randomClientAddress()),
      signUpInput({ email, name: "Owner" }),
    );
    await first.settle();
    const before = await findUserRowByEmail(env.DB, email);

    const second = recordingAccountServices();
    const attempt = await registerWithPassword(
      second.services,
      requestFrom(randomClientAddress()),
      signUpInput({ email, name: "Someone else", password: "an attacker's passphrase 1" }),
    );
    // The same answer a new address gets.
    expect(attempt).toEqual({ ok: true, email });
    await second.settle();
    expect(await findUserRowByEmail(env.DB, email)).toEqual(before);
    expect(await logIn(env.DB, email, "an attacker's passphrase 1")).toBeNull();
    // The owner hears of it, with no link that would prove the address for the newcomer.
    expect(second.sent.map((mail) => [mail.to, mail.subject])).toEqual([
      [email, "Someone tried to sign up with your address"],
    ]);
    expect(second.sent[0]?.text).not.toMatch(/verify-email/);
  });

  it("refuses a weak password before it counts against the client's sign-ups", async () => {
    const { services, sent, settle } = recordingAccountServices();
    const client = requestFrom(randomClientAddress());
    for (let i = 0; i < SIGNUPS_PER_ADDRESS.limit + 5; i++) {
      expect(await registerWithPassword(services, client, signUpInput({ password: "password" }))).toEqual({
        ok: false,
        code: "weak-password",
        message: PASSWORD_MESSAGES["too-short"],
      });
    }
    expect((await registerWithPassword(services, client, signUpInput())).ok).toBe(true);
    await settle();
    expect(sent).toHaveLength(1);
  });

  it("keeps a referral code for the moment the address is proven", async () => {
    const { services, settle } = recordingAccountServices();
    const email = randomEmail("referred");
    await registerWithPassword(
      services,
      requestFrom(randomClientAddress()),
      signUpInput({ email, referralCode: " abc234 " }),
    );
    await settle();
    const pending = await env.DB.prepare(`SELECT pending_referral_code FROM users WHERE email = ?`).bind(email).first();
    expect(pending).toEqual({ pending_referral_code: "ABC234" });
  });
});

describe("SignUpSchema", () => {
  it.each([
    [{ password: STRONG_PASSWORD }, "email", "Email is required"],
    [{ email: "not-an-address", password: STRONG_PASSWORD }, "email", "Enter a valid email address"],
    [{ email: "a@example.com" }, "password", "Password is required"],
    [
      { email: "a@example.com", password: STRONG_PASSWORD, name: "n".repeat(81) },
      "name",
      "Name must be at most 80 characters",
    ],
  ])("refuses %j naming %s", (input, field, message) => {
    const parsed = SignUpSchema.safeParse(input);
    expect(parsed.error?.issues.find((issue) => issue.path[0] === field)?.message).toBe(message);
  });
});
