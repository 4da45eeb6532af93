/**
 * Signing up, logging in (password or identity provider), and managing an account. Expected
 * failures are values; nothing here knows about HTTP.
 */
import { z } from "zod";
import { createId } from "./ids";
import type { OidcIdentity } from "~workers/providers/oidc/provider";
import {
  checkPasswordStrength,
  DUMMY_PASSWORD_HASH,
  hashPassword,
  PASSWORD_MESSAGES,
  verifyPassword,
  type PasswordProblem,
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

export const SignUpSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  name: NameSchema.default(""),
  referralCode: z.string().trim().max(32).optional(),
});
export type SignUpInput = z.infer<typeof SignUpSchema>;

export const LogInSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000),
});

export type SignUpResult =
  | { ok: true; user: User }
  | { ok: false; code: "email-taken" }
  | { ok: false; code: "weak-password"; problem: PasswordProblem; message: string };

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
  },
  referralCode: string | undefined,
  now: number,
): Promise<User | null> {
  const id = createId("usr");
  const statements = [
    db
      .prepare(
        `INSERT INTO users (id, email, name, avatar_url, password_hash, oidc_subject, referral_code, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .bind(
        id,
        fields.email,
        fields.name,
        fields.avatarUrl,
        fields.passwordHash,
        fields.oidcSubject,
        createReferralCode(),
        now,
        now,
      ),
  ];
  if (referralCode) {
    // Recorded with the user in one batch; an unknown code, or none, records nothing.
    statements.push(
      db
        .prepare(
          `INSERT INTO referrals (referred_user_id, referrer_user_id, code, created_at)
           SELECT ?, id, referral_code, ? FROM users WHERE referral_code = ? AND id <> ?`,
        )
        .bind(id, now, referralCode.toUpperCase(), id),
    );
  }
  const [inserted] = await db.batch(statements);
  if (!inserted || inserted.meta.changes !== 1) return null;
  return findUserById(db, id);
}

export async function signUp(db: D1Database, input: SignUpInput, now: number = Date.now()): Promise<SignUpResult> {
  const problem = checkPasswordStrength(input.password);
  if (problem) return { ok: false, code: "weak-password", problem, message: PASSWORD_MESSAGES[problem] };
  const email = normaliseEmail(input.email);
  if (await findUserRowByEmail(db, email)) return { ok: false, code: "email-taken" };
  const user = await insertUser(
    db,
    { email, name: input.name, passwordHash: await hashPassword(input.password), oidcSubject: null, avatarUrl: null },
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
 * Finds the account of an identity-provider sign-in, or makes one. An existing password
 * account with the same email is linked only when the provider vouches for the address;
 * otherwise anyone who can register that address at the provider could take the account.
 */
export async function signInWithOidc(
  db: D1Database,
  identity: OidcIdentity,
  referralCode: string | undefined,
  now: number = Date.now(),
): Promise<OidcSignInResult> {
  const subject = `${identity.issuer} ${identity.subject}`;
  const linked = await db
    .prepare(`SELECT ${USER_COLUMNS} FROM users WHERE oidc_subject = ?`)
    .bind(subject)
    .first<UserRow>();
  if (linked) return { ok: true, user: toUser(linked), created: false };

  const email = normaliseEmail(identity.email);
  const existing = await findUserRowByEmail(db, email);
  if (existing) {
    if (!identity.emailVerified) return { ok: false, code: "email-unverified-conflict" };
    await db
      .prepare(
        `UPDATE users SET oidc_subject = ?, avatar_url = COALESCE(avatar_url, ?), updated_at = ? WHERE id = ? AND oidc_subject IS NULL`,
      )
      .bind(subject, identity.picture ?? null, now, existing.id)
      .run();
    const user = await findUserById(db, existing.id);
    return user ? { ok: true, user, created: false } : { ok: false, code: "email-unverified-conflict" };
  }
  const user = await insertUser(
    db,
    { email, name: identity.name ?? "", passwordHash: null, oidcSubject: subject, avatarUrl: identity.picture ?? null },
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
 * Deletes the account: its keys, sessions, resets and referral rows go with it (foreign keys
 * cascade, and the statements say so explicitly as well). Payments, when they exist, stay
 * as records without personal data.
 */
export async function deleteAccount(db: D1Database, userId: string): Promise<{ keyHashes: string[] }> {
  const keys = await db.prepare(`SELECT hash FROM api_keys WHERE user_id = ?`).bind(userId).all<{ hash: string }>();
  await db.batch([
    db.prepare(`DELETE FROM api_keys WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM sessions WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM password_resets WHERE user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM referrals WHERE referred_user_id = ?`).bind(userId),
    db.prepare(`UPDATE referrals SET referrer_user_id = NULL WHERE referrer_user_id = ?`).bind(userId),
    db.prepare(`DELETE FROM users WHERE id = ?`).bind(userId),
  ]);
  return { keyHashes: keys.results.map((row) => row.hash) };
}
