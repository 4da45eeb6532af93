/** Newsletter sign-ups (spec §7: the server decides what it accepts). */
import { z } from "zod";
import { createId } from "./ids";

export const NewsletterEmailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());

export type SubscribeResult = "subscribed" | "already-subscribed";

export async function subscribeToNewsletter(
  db: D1Database,
  email: string,
  now: number = Date.now(),
): Promise<SubscribeResult> {
  const result = await db
    .prepare(
      `INSERT INTO newsletter_subscriptions (id, email, created_at) VALUES (?, ?, ?)
       ON CONFLICT (email) DO NOTHING`,
    )
    .bind(createId("sub"), email, now)
    .run();
  return result.meta.changes === 1 ? "subscribed" : "already-subscribed";
}
