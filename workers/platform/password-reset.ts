/**
 * Password reset by a single-use emailed link. The token is 32 random bytes; only its
 * SHA-256 is stored; it lasts 30 minutes; using it ends every session. Asking for a reset
 * answers the same, after the same work, whether or not the address has an account: the
 * look-up and the mail happen after the response.
 */
import type { MailProvider } from "~workers/providers/mail";
import type { AccountServices } from "./account-services";
import { setPassword } from "./accounts";
import { escapeHtml } from "./html";
import { sha256Hex } from "./ids";
import { checkPasswordStrength, PASSWORD_MESSAGES } from "./passwords";
import { toBase64Url } from "./signing";
import { clientAddress, hitThrottle, type ThrottleRule } from "./throttle";
import { findUserRowByEmail, normaliseEmail } from "./users";

export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
const FIFTEEN_MINUTES = 15 * 60 * 1000;
export const RESETS_PER_ADDRESS: ThrottleRule = { name: "password-forgot", limit: 5, windowMs: FIFTEEN_MINUTES };
/** Reset mails to one address, so the form cannot flood a stranger's inbox. */
export const RESETS_PER_EMAIL: ThrottleRule = { name: "password-forgot-email", limit: 3, windowMs: FIFTEEN_MINUTES };

export type ForgotPasswordResult = { ok: true } | { ok: false; code: "throttled"; retryAfterSeconds: number };

/** 'Forgot password', for the page and the API alike. */
export async function forgotPassword(
  services: AccountServices,
  request: Request,
  email: string,
  now: number = Date.now(),
): Promise<ForgotPasswordResult> {
  const target = normaliseEmail(email);
  const [byAddress, byEmail] = await Promise.all([
    hitThrottle(services.db, RESETS_PER_ADDRESS, clientAddress(request), now),
    hitThrottle(services.db, RESETS_PER_EMAIL, target, now),
  ]);
  for (const throttle of [byAddress, byEmail]) {
    if (!throttle.ok) return { ok: false, code: "throttled", retryAfterSeconds: throttle.retryAfterSeconds };
  }
  services.defer(requestPasswordReset(services.db, services.mail, target, services.origin, now));
  return { ok: true };
}

export async function requestPasswordReset(
  db: D1Database,
  mail: MailProvider,
  email: string,
  origin: string,
  now: number = Date.now(),
): Promise<void> {
  const user = await findUserRowByEmail(db, email);
  if (!user) return;
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  await db
    .prepare(`INSERT INTO password_resets (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)`)
    .bind(await sha256Hex(token), user.id, now + RESET_TOKEN_TTL_MS, now)
    .run();
  const link = `${origin}/change/password/${token}`;
  await mail.send({
    to: user.email,
    subject: "Reset your Portico password",
    text: `Someone asked to reset the password of your Portico account.\n\nSet a new one within 30 minutes: ${link}\n\nIf it was not you, ignore this email; your password stays as it is.`,
    html: `<p>Someone asked to reset the password of your Portico account.</p><p><a href="${escapeHtml(link)}">Set a new password</a> within 30 minutes.</p><p>If it was not you, ignore this email; your password stays as it is.</p>`,
  });
}

export type ResetResult =
  | { ok: true; userId: string }
  | { ok: false; code: "invalid-token" }
  | { ok: false; code: "weak-password"; message: string };

/** Whether a token can still be used (the reset page checks before showing its form). */
export async function isResetTokenUsable(db: D1Database, token: string, now: number = Date.now()): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 AS usable FROM password_resets WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`)
    .bind(await sha256Hex(token), now)
    .first();
  return row !== null;
}

export async function resetPassword(
  db: D1Database,
  token: string,
  newPassword: string,
  now: number = Date.now(),
): Promise<ResetResult> {
  const problem = checkPasswordStrength(newPassword);
  if (problem) return { ok: false, code: "weak-password", message: PASSWORD_MESSAGES[problem] };
  // Compare-and-set: only one request can mark the token used, so a link works once.
  const claimed = await db
    .prepare(
      `UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id`,
    )
    .bind(now, await sha256Hex(token), now)
    .first<{ user_id: string }>();
  if (!claimed) return { ok: false, code: "invalid-token" };
  await setPassword(db, claimed.user_id, newPassword, now);
  // The link reached the account's inbox, which proves the address as well as a verification link.
  await db
    .prepare(`UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ?`)
    .bind(now, claimed.user_id)
    .run();
  return { ok: true, userId: claimed.user_id };
}
