/**
 * Who may do what beyond an ordinary account (docs/product.md#roles): the admin (`ADMIN_EMAIL`) and the
 * privileged accounts (`PRIVILEGED_EMAILS`). Rights follow a *proven* address only: anyone can
 * type the admin's address into the sign-up form, so an account whose address was never
 * verified gets no rights from it. Every loader, action and API route asks these two functions.
 */
import type { Config } from "~workers/config";
import type { User } from "./users";

type Holder = Pick<User, "email" | "emailVerifiedAt">;

export function hasVerifiedEmail(user: Pick<User, "emailVerifiedAt">): boolean {
  return user.emailVerifiedAt !== null;
}

export function isAdmin(config: Pick<Config, "ADMIN_EMAIL">, user: Holder | null | undefined): boolean {
  return !!user && hasVerifiedEmail(user) && user.email === config.ADMIN_EMAIL;
}

export function isPrivileged(config: Pick<Config, "PRIVILEGED_EMAILS">, user: Holder | null | undefined): boolean {
  return !!user && hasVerifiedEmail(user) && config.PRIVILEGED_EMAILS.includes(user.email);
}

/** What an account with an unproven address is told when it tries what needs a proven one. */
export const EMAIL_UNVERIFIED_MESSAGE =
  "Confirm your email address first: open the link we mailed you, or ask for a new one on your dashboard.";
