/**
 * Signing up with a password. The answer never tells whether the address already has an
 * account: a new address gets a verification link, a taken one a note to its owner, and both
 * callers hear "check your inbox". Both paths hash the password and mail after the response,
 * so they take the same time too. Nobody is signed in until the link is opened.
 */
import { z } from "zod";
import type { AccountServices } from "./account-services";
import { createPasswordAccount, EmailSchema, NameSchema } from "./accounts";
import { sendVerificationLink } from "./email-verification";
import { escapeHtml } from "./html";
import { checkPasswordStrength, hashPassword, PASSWORD_MESSAGES } from "./passwords";
import { clientAddress, hitThrottle, type ThrottleRule } from "./throttle";
import { findUserRowByEmail, normaliseEmail } from "./users";

const HOUR = 60 * 60 * 1000;
/** Sign-ups from one client (an IPv4 address or an IPv6 /64). */
export const SIGNUPS_PER_ADDRESS: ThrottleRule = { name: "signup-address", limit: 20, windowMs: HOUR };
/** Sign-up mails to one address, so nobody can fill a stranger's inbox through the form. */
export const SIGNUPS_PER_EMAIL: ThrottleRule = { name: "signup-email", limit: 3, windowMs: HOUR };

export const SignUpSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  name: NameSchema.default(""),
  referralCode: z.string().trim().max(32).optional(),
});
export type SignUpInput = z.infer<typeof SignUpSchema>;

export type RegisterResult =
  | { ok: true; email: string }
  | { ok: false; code: "weak-password"; message: string }
  | { ok: false; code: "throttled"; retryAfterSeconds: number };

export const CHECK_INBOX_MESSAGE =
  "Check your inbox: we sent a link to confirm the address. Open it to finish signing up.";

export async function registerWithPassword(
  services: AccountServices,
  request: Request,
  input: SignUpInput,
  now: number = Date.now(),
): Promise<RegisterResult> {
  const { db } = services;
  // The password rules say nothing about the address, so they may answer straight away.
  const weak = checkPasswordStrength(input.password);
  if (weak) return { ok: false, code: "weak-password", message: PASSWORD_MESSAGES[weak] };
  const email = normaliseEmail(input.email);
  const [byAddress, byEmail] = await Promise.all([
    hitThrottle(db, SIGNUPS_PER_ADDRESS, clientAddress(request), now),
    hitThrottle(db, SIGNUPS_PER_EMAIL, email, now),
  ]);
  for (const throttle of [byAddress, byEmail]) {
    if (!throttle.ok) return { ok: false, code: "throttled", retryAfterSeconds: throttle.retryAfterSeconds };
  }
  // Hashed on both paths before answering: the expensive step costs the same either way.
  const passwordHash = await hashPassword(input.password);
  services.defer(finishRegistration(services, { ...input, email, passwordHash }, now));
  return { ok: true, email };
}

async function finishRegistration(
  services: AccountServices,
  input: { email: string; name: string; passwordHash: string; referralCode?: string },
  now: number,
): Promise<void> {
  const { db, mail, origin } = services;
  const created = await createPasswordAccount(db, input, now);
  if (created.ok) {
    await sendVerificationLink(db, mail, created.user, origin, now);
    return;
  }
  const owner = await findUserRowByEmail(db, input.email);
  if (!owner) return;
  const login = `${origin}/user/authenticate`;
  const reset = `${origin}/user/authenticate?mode=forgot`;
  await mail.send({
    to: owner.email,
    subject: "Someone tried to sign up with your address",
    text: `Someone tried to create a Portico account with this address, which already has one.\n\nIf it was you, log in:\n${login}\n\nOr reset your password:\n${reset}\n\nIf it was not you, there is nothing to do: your account is unchanged.`,
    html: `<p>Someone tried to create a Portico account with this address, which already has one.</p><p>If it was you, <a href="${escapeHtml(login)}">log in</a> or <a href="${escapeHtml(reset)}">reset your password</a>.</p><p>If it was not you, there is nothing to do: your account is unchanged.</p>`,
  });
}
