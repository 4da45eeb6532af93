/**
 * Proving an account's address: a single-use link mailed to it. The token is 32 random bytes,
 * only its SHA-256 is stored, and it lasts 24 hours. Opening it marks the address verified
 * (which admin and privileged rights, API keys, buying and referrals need), redeems a referral
 * code given at sign-up, and signs the opener in.
 */
import type { MailProvider } from "~workers/providers/mail";
import { redeemReferralStatement } from "./accounts";
import { escapeHtml } from "./html";
import { sha256Hex } from "./ids";
import { toBase64Url } from "./signing";
import { hitThrottle, type ThrottleRule } from "./throttle";
import { findUserById, type User } from "./users";

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Resending is per account: three links an hour is plenty for a slow inbox, and no mail cannon. */
export const VERIFICATION_RESENDS: ThrottleRule = { name: "verify-resend", limit: 3, windowMs: 60 * 60 * 1000 };

export function verificationLink(origin: string, token: string): string {
  return `${origin}/user/verify-email/${token}`;
}

/** Makes a token for the user's current address and mails its link. */
export async function sendVerificationLink(
  db: D1Database,
  mail: MailProvider,
  user: Pick<User, "id" | "email">,
  origin: string,
  now: number = Date.now(),
): Promise<void> {
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  await db
    .prepare(
      `INSERT INTO email_verifications (token_hash, user_id, email, expires_at, created_at) VALUES (?, ?, ?, ?, ?)`,
    )
    .bind(await sha256Hex(token), user.id, user.email, now + VERIFICATION_TTL_MS, now)
    .run();
  const link = verificationLink(origin, token);
  await mail.send({
    to: user.email,
    subject: "Confirm your Portico email address",
    text: `Open this link within 24 hours to confirm that this address is yours and finish setting up your Portico account:\n\n${link}\n\nIf you did not sign up for Portico, ignore this email: nothing happens without the link.`,
    html: `<p>Confirm that this address is yours to finish setting up your Portico account.</p><p><a href="${escapeHtml(link)}">Confirm my address</a> (the link works once, for 24 hours).</p><p>If you did not sign up for Portico, ignore this email: nothing happens without the link.</p>`,
  });
}

export type ResendResult =
  | { ok: true }
  | { ok: false; code: "already-verified" }
  | { ok: false; code: "throttled"; retryAfterSeconds: number };

/** The pages' and the API's "send the link again", throttled per account. */
export async function resendVerificationLink(
  db: D1Database,
  mail: MailProvider,
  user: Pick<User, "id" | "email" | "emailVerifiedAt">,
  origin: string,
  now: number = Date.now(),
): Promise<ResendResult> {
  if (user.emailVerifiedAt !== null) return { ok: false, code: "already-verified" };
  const throttle = await hitThrottle(db, VERIFICATION_RESENDS, user.id, now);
  if (!throttle.ok) return { ok: false, code: "throttled", retryAfterSeconds: throttle.retryAfterSeconds };
  await sendVerificationLink(db, mail, user, origin, now);
  return { ok: true };
}

export type VerifyEmailResult =
  | { ok: true; user: User }
  /** The link was used before and its address is proven: a mail scanner may have opened it first. */
  | { ok: false; code: "already-verified" }
  | { ok: false; code: "invalid-token" };

export async function verifyEmail(db: D1Database, token: string, now: number = Date.now()): Promise<VerifyEmailResult> {
  const tokenHash = await sha256Hex(token);
  // Compare-and-set: only one request can use a link.
  const claimed = await db
    .prepare(
      `UPDATE email_verifications SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING user_id, email`,
    )
    .bind(now, tokenHash, now)
    .first<{ user_id: string; email: string }>();
  if (!claimed) {
    const used = await db
      .prepare(
        `SELECT 1 AS proven FROM email_verifications v JOIN users u ON u.id = v.user_id
         WHERE v.token_hash = ? AND v.used_at IS NOT NULL AND u.email = v.email AND u.email_verified_at IS NOT NULL`,
      )
      .bind(tokenHash)
      .first();
    return used ? { ok: false, code: "already-verified" } : { ok: false, code: "invalid-token" };
  }
  const pending = await db
    .prepare(`SELECT pending_referral_code FROM users WHERE id = ? AND email = ?`)
    .bind(claimed.user_id, claimed.email)
    .first<{ pending_referral_code: string | null }>();
  // The address changed since the link was sent (or the account is gone): it proves nothing now.
  if (!pending) return { ok: false, code: "invalid-token" };
  const statements = [
    db
      .prepare(
        `UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?), pending_referral_code = NULL, updated_at = ?
         WHERE id = ? AND email = ?`,
      )
      .bind(now, now, claimed.user_id, claimed.email),
  ];
  if (pending.pending_referral_code) {
    statements.push(redeemReferralStatement(db, claimed.user_id, pending.pending_referral_code, now));
  }
  await db.batch(statements);
  const user = await findUserById(db, claimed.user_id);
  return user ? { ok: true, user } : { ok: false, code: "invalid-token" };
}
