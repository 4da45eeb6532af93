/**
 * Newsletter sign-ups, double opt-in: asking subscribes nothing until the confirmation link
 * mailed to the address is opened, so nobody can sign a stranger up. The answer is the same
 * for a new, a pending and a confirmed address (the client of docs/product.md#public-calls reads
 * `is_exist: true` as "accepted"), and the mail goes out after the response.
 */
import { z } from "zod";
import type { AccountServices } from "./account-services";
import { escapeHtml } from "./html";
import { createId, sha256Hex } from "./ids";
import { toBase64Url } from "./signing";
import { hitThrottle, type ThrottleRule } from "./throttle";

export const NewsletterEmailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** Confirmation mails to one address. */
export const NEWSLETTER_MAILS_PER_EMAIL: ThrottleRule = {
  name: "newsletter-email",
  limit: 3,
  windowMs: 60 * 60 * 1000,
};

export type SubscribeResult = { ok: true } | { ok: false; code: "throttled"; retryAfterSeconds: number };

export async function requestNewsletterSubscription(
  services: AccountServices,
  email: string,
  now: number = Date.now(),
): Promise<SubscribeResult> {
  const throttle = await hitThrottle(services.db, NEWSLETTER_MAILS_PER_EMAIL, email, now);
  if (!throttle.ok) return { ok: false, code: "throttled", retryAfterSeconds: throttle.retryAfterSeconds };
  services.defer(sendConfirmation(services, email, now));
  return { ok: true };
}

async function sendConfirmation(services: AccountServices, email: string, now: number): Promise<void> {
  const { db, mail, origin } = services;
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  // A new address, or a pending one with a fresh link; a confirmed one is left as it is.
  const pending = await db
    .prepare(
      `INSERT INTO newsletter_subscriptions (id, email, created_at, confirm_token_hash) VALUES (?, ?, ?, ?)
       ON CONFLICT (email) DO UPDATE SET confirm_token_hash = excluded.confirm_token_hash WHERE confirmed_at IS NULL
       RETURNING id`,
    )
    .bind(createId("sub"), email, now, await sha256Hex(token))
    .first<{ id: string }>();
  if (!pending) return;
  const link = `${origin}/newsletter/confirm/${token}`;
  await mail.send({
    to: email,
    subject: "Confirm your Portico newsletter subscription",
    text: `Open this link to receive the Portico newsletter: ${link}\n\nIf you did not ask for it, ignore this email and you will hear nothing more.`,
    html: `<p><a href="${escapeHtml(link)}">Confirm your subscription</a> to the Portico newsletter.</p><p>If you did not ask for it, ignore this email and you will hear nothing more.</p>`,
  });
}

/** Opens a confirmation link: true when it confirmed a subscription (or had already). */
export async function confirmNewsletterSubscription(
  db: D1Database,
  token: string,
  now: number = Date.now(),
): Promise<boolean> {
  const row = await db
    .prepare(
      `UPDATE newsletter_subscriptions SET confirmed_at = COALESCE(confirmed_at, ?) WHERE confirm_token_hash = ?
       RETURNING id`,
    )
    .bind(now, await sha256Hex(token))
    .first<{ id: string }>();
  return row !== null;
}
