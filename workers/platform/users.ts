/** The users table: one row type, one mapper, named columns. */
import type { PlanId } from "./plans";

export interface User {
  id: string;
  email: string;
  name: string;
  avatarUrl: string | null;
  hasPassword: boolean;
  oidcLinked: boolean;
  sessionVersion: number;
  referralCode: string;
  planId: PlanId;
  planExpiresAt: number | null;
  /** When the account proved it reads its address (link opened, or the identity provider said so); null until then. */
  emailVerifiedAt: number | null;
  createdAt: number;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  avatar_url: string | null;
  password_hash: string | null;
  oidc_subject: string | null;
  session_version: number;
  referral_code: string;
  plan_id: string;
  plan_expires_at: number | null;
  email_verified_at: number | null;
  created_at: number;
}

export const USER_COLUMNS =
  "id, email, name, avatar_url, password_hash, oidc_subject, session_version, referral_code, plan_id, plan_expires_at, email_verified_at, created_at";

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    avatarUrl: row.avatar_url,
    hasPassword: row.password_hash !== null,
    oidcLinked: row.oidc_subject !== null,
    sessionVersion: row.session_version,
    referralCode: row.referral_code,
    planId: (["free", "standard", "premium"].includes(row.plan_id) ? row.plan_id : "free") as PlanId,
    planExpiresAt: row.plan_expires_at,
    emailVerifiedAt: row.email_verified_at,
    createdAt: row.created_at,
  };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserRowByEmail(db: D1Database, email: string): Promise<UserRow | null> {
  return db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`).bind(normaliseEmail(email)).first<UserRow>();
}

export async function findUserById(db: D1Database, id: string): Promise<User | null> {
  const row = await db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).bind(id).first<UserRow>();
  return row ? toUser(row) : null;
}

/** The name to show: the user's name, else the part of the email before the @. */
export function displayName(user: Pick<User, "name" | "email">): string {
  return user.name || user.email.split("@")[0] || user.email;
}
