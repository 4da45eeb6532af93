/**
 * Signing up, logging in (password or identity provider), and managing an account. Expected
 * failures are values; nothing here knows about HTTP.
 */
import { z } from "zod";
import { deleteAiImages } from "./ai-images";
import type { GatewayNotices } from "./gateway-notices";
import { createId } from "./ids";
import type { OidcIdentity } from "~workers/providers/oidc/provider";
import {
  checkPasswordStrength,
  DUMMY_PASSWORD_HASH,
  hashPassword,
  PASSWORD_MESSAGES,
  verifyPassword,
} from "./passwords";
import {
  findUserById,
  findUserRowByEmail,
  normaliseEmail,
  toUser,
  USER_COLUMNS,
  type User,
  type UserRow,
} from "./users";

export const EmailSchema = z
  .string({ error: "Email is required" })
  .trim()
  .toLowerCase()
  .min(1, "Email is required")
  .max(254, "Email must be at most 254 characters")
  .pipe(z.email("Enter a valid email address"));

export const NameSchema = z.string().trim().max(80, "Name must be at most 80 characters");

export const LogInSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000),
});

/** Referral codes avoid look-alike characters (0/O, 1/I/L) so they survive being read aloud. */
const REFERRAL_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

export function createReferralCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((byte) => REFERRAL_ALPHABET[byte % REFERRAL_ALPHABET.length]).join("");
}

async function insertUser(
  db: D1Database,
  fields: {
    email: string;
    name: string;
    passwordHash: string | null;
    oidcSubject: string | null;
    avatarUrl: string | null;
    /** Set when an identity provider vouched for the address; null for a password sign-up. */
    emailVerifiedAt: number | null;
  },
  referralCode: string | undefined,
  now: number,
): Promise<User | null> {
  const id = createId("usr");
  const code = referralCode?.trim().toUpperCase() || null;
  // A referral is redeemed only by a proven address; until then it waits on the account.
  const redeemNow = code !== null && fields.emailVerifiedAt !== null;
  const statements = [
    db
      .prepare(
        `INSERT INTO users (id, email, name, avatar_url, password_hash, oidc_subject, referral_code, email_verified_at,
           pending_referral_code, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .bind(
        id,
        fields.email,
        fields.name,
        fields.avatarUrl,
        fields.passwordHash,
        fields.oidcSubject,
        createReferralCode(),
        fields.emailVerifiedAt,
        redeemNow ? null : code,
        now,
        now,
      ),
  ];
  if (redeemNow) statements.push(redeemReferralStatement(db, id, code, now));
  const [inserted] = await db.batch(statements);
  if (!inserted || inserted.meta.changes !== 1) return null;
  return findUserById(db, id);
}

/** Records that `userId` joined with `code`; an unknown code, or the user's own, records nothing. */
export function redeemReferralStatement(db: D1Database, userId: string, code: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO referrals (referred_user_id, referrer_user_id, code, created_at)
       SELECT ?, id, referral_code, ? FROM users WHERE referral_code = ? AND id <> ?
       ON CONFLICT DO NOTHING`,
    )
    .bind(userId, now, code.toUpperCase(), userId);
}

export type CreatePasswordAccountResult = { ok: true; user: User } | { ok: false; code: "email-taken" };

/**
 * Makes an unverified password account. Callers go through `registerWithPassword`
 * (registration.ts), which answers the same whether or not the address was taken.
 */
export async function createPasswordAccount(
  db: D1Database,
  input: { email: string; name: string; passwordHash: string; referralCode?: string },
  now: number = Date.now(),
): Promise<CreatePasswordAccountResult> {
  const email = normaliseEmail(input.email);
  if (await findUserRowByEmail(db, email)) return { ok: false, code: "email-taken" };
  const user = await insertUser(
    db,
    { email, name: input.name, passwordHash: input.passwordHash, oidcSubject: null, avatarUrl: null, emailVerifiedAt: null },
    input.referralCode,
    now,
  );
  // Lost a race with another sign-up for the same address: the UNIQUE constraint decided.
  return user ? { ok: true, user } : { ok: false, code: "email-taken" };
}

export async function logIn(db: D1Database, email: string, password: string): Promise<User | null> {
  const row = await findUserRowByEmail(db, email);
  // Hash even without an account or a password, so the answer's timing does not tell.
  const valid = await verifyPassword(password, row?.password_hash ?? DUMMY_PASSWORD_HASH);
  return row && row.password_hash && valid ? toUser(row) : null;
}

export type OidcSignInResult =
  { ok: true; user: User; created: boolean } | { ok: false; code: "email-unverified-conflict" };

/**
 * Finds the account of an identity-provider sign-in, or makes one. An existing account with the
 * same email is linked only when the provider vouches for the address; otherwise anyone who can
 * register that address at the provider could take the account.
 *
 * Linking to an account whose address was never proven ends its pre-hijack: someone may have
 * signed up with this address and a password before its owner came with Google. The owner is
 * now proven, so the password is cleared and every session of the account ends before the
 * owner signs in; whoever chose that password can no longer use it.
 */
export async function signInWithOidc(
  db: D1Database,
  identity: OidcIdentity,
  referralCode: string | undefined,
  now: number = Date.now(),
): Promise<OidcSignInResult> {
  const subject = `${identity.issuer} ${identity.subject}`;
  const email = normaliseEmail(identity.email);
  const linked = await db
    .prepare(`SELECT ${USER_COLUMNS} FROM users WHERE oidc_subject = ?`)
    .bind(subject)
    .first<UserRow>();
  if (linked) {
    if (identity.emailVerified && linked.email_verified_at === null && linked.email === email) {
      await db
        .prepare(`UPDATE users SET email_verified_at = ?, updated_at = ? WHERE id = ? AND email_verified_at IS NULL`)
        .bind(now, now, linked.id)
        .run();
      const user = await findUserById(db, linked.id);
      if (user) return { ok: true, user, created: false };
    }
    return { ok: true, user: toUser(linked), created: false };
  }

  const existing = await findUserRowByEmail(db, email);
  if (existing) {
    if (!identity.emailVerified) return { ok: false, code: "email-unverified-conflict" };
    if (existing.email_verified_at === null) {
      await db.batch([
        db
          .prepare(
            `UPDATE users SET oidc_subject = ?, avatar_url = COALESCE(avatar_url, ?), password_hash = NULL,
               email_verified_at = ?, pending_referral_code = NULL, session_version = session_version + 1, updated_at = ?
             WHERE id = ? AND oidc_subject IS NULL AND email_verified_at IS NULL`,
          )
          .bind(subject, identity.picture ?? null, now, now, existing.id),
        db.prepare(`DELETE FROM sessions WHERE user_id = ?`).bind(existing.id),
        db.prepare(`DELETE FROM password_resets WHERE user_id = ?`).bind(existing.id),
        db.prepare(`DELETE FROM email_verifications WHERE user_id = ?`).bind(existing.id),
      ]);
    } else {
      await db
        .prepare(
          `UPDATE users SET oidc_subject = ?, avatar_url = COALESCE(avatar_url, ?), updated_at = ? WHERE id = ? AND oidc_subject IS NULL`,
        )
        .bind(subject, identity.picture ?? null, now, existing.id)
        .run();
    }
    const user = await findUserById(db, existing.id);
    // Another identity linked first (a race): refuse rather than sign in as someone else's.
    return user && user.oidcLinked ? { ok: true, user, created: false } : { ok: false, code: "email-unverified-conflict" };
  }
  const user = await insertUser(
    db,
    {
      email,
      name: identity.name ?? "",
      passwordHash: null,
      oidcSubject: subject,
      avatarUrl: identity.picture ?? null,
      emailVerifiedAt: identity.emailVerified ? now : null,
    },
    referralCode,
    now,
  );
  if (!user) return { ok: false, code: "email-unverified-conflict" };
  return { ok: true, user, created: true };
}

export const ProfileSchema = z.object({
  name: NameSchema,
  avatarUrl: z
    .string()
    .trim()
    .max(500, "The avatar address must be at most 500 characters")
    .refine((value) => value === "" || /^https:\/\/\S+$/.test(value), "The avatar must be an https:// address")
    .transform((value) => value || null),
});

export async function updateProfile(
  db: D1Database,
  userId: string,
  profile: z.infer<typeof ProfileSchema>,
  now: number = Date.now(),
): Promise<void> {
  await db
    .prepare(`UPDATE users SET name = ?, avatar_url = ?, updated_at = ? WHERE id = ?`)
    .bind(profile.name, profile.avatarUrl, now, userId)
    .run();
}

export type ChangePasswordResult =
  { ok: true } | { ok: false; code: "wrong-password" } | { ok: false; code: "weak-password"; message: string };

/**
 * Sets a new password after checking the current one (an account made through an identity
 * provider has none, and may set its first). Every other session ends.
 */
export async function changePassword(
  db: D1Database,
  userId: string,
  currentPassword: string,
  newPassword: string,
  now: number = Date.now(),
): Promise<ChangePasswordResult> {
  const row = await db
    .prepare(`SELECT password_hash FROM users WHERE id = ?`)
    .bind(userId)
    .first<{ password_hash: string | null }>();
  if (!row) return { ok: false, code: "wrong-password" };
  if (row.password_hash && !(await verifyPassword(currentPassword, row.password_hash))) {
    return { ok: false, code: "wrong-password" };
  }
  const problem = checkPasswordStrength(newPassword);
  if (problem) return { ok: false, code: "weak-password", message: PASSWORD_MESSAGES[problem] };
  await setPassword(db, userId, newPassword, now);
  return { ok: true };
}

/** Stores a new password and ends every session of the account. */
export async function setPassword(
  db: D1Database,
  userId: string,
  password: string,
  now: number = Date.now(),
): Promise<void> {
  await db.batch([
    db
      .prepare(`UPDATE users SET password_hash = ?, session_version = session_version + 1, updated_at = ? WHERE id = ?`)
      .bind(await hashPassword(password), now, userId),
    db.prepare(`DELETE FROM sessions WHERE user_id = ?`).bind(userId),
  ]);
}

/**
 * Deletes the account: its keys, sessions, resets, referral rows and AI image ledger go with it
 * (foreign keys cascade, and the statements say so explicitly as well), and so do its AI images
 * in `images` (R2 has no cascade; they hold its prompts), first, so a failure there leaves an
 * account to delete again rather than pictures no one can reach. Payments, when they exist, stay
 * as records without personal data. The gateway hears of every key as revoked, so none works
 * again from any location and the caches drop their copies.
 */
export async function deleteAccount(
  db: D1Database,
  notices: GatewayNotices,
  userId: string,
  now: number = Date.now(),
  images?: R2Bucket,
): Promise<void> {
  if (images) await deleteAiImages(images, userId);
  const keys = await db
    .prepare(`SELECT id, hash FROM api_keys WHERE user_id = ?`)
    .bind(userId)
    .all<{ id: string; hash: string }>();
  await db.batch([
    db.prepare(`DELETE FROM api_keys WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM sessions WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM password_resets WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM email_verifications WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM referrals WHERE referred_user_id = ?`).bind(userId),
    db.prepare(`UPDATE referrals SET referrer_user_id = NULL WHERE referrer_user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM ai_image_generations WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM users WHERE id = ?`).bind(userId),
  ]);
  await Promise.all(keys.results.map((row) => notices.keyRevoked(userId, row, now)));
}
