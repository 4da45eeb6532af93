/** Bug reports from the home page's 'Report a Bug' form (docs/product.md#contact-rules). */
import { z } from "zod";
import { CONTACT_ERRORS, CONTACT_LIMITS, SIMPLE_EMAIL } from "~/lib/contact-rules";
import { createId } from "./ids";

export const ContactMessageSchema = z.object({
  username: z.string().trim().max(CONTACT_LIMITS.username, CONTACT_ERRORS.usernameTooLong).default(""),
  email: z
    .string({ error: CONTACT_ERRORS.emailRequired })
    .trim()
    .min(1, CONTACT_ERRORS.emailRequired)
    .regex(SIMPLE_EMAIL, CONTACT_ERRORS.emailInvalid)
    .max(CONTACT_LIMITS.email, CONTACT_ERRORS.emailTooLong),
  message: z
    .string({ error: CONTACT_ERRORS.messageRequired })
    .trim()
    .min(1, CONTACT_ERRORS.messageRequired)
    .max(CONTACT_LIMITS.message, CONTACT_ERRORS.messageTooLong),
});
export type ContactMessageInput = z.infer<typeof ContactMessageSchema>;

export async function saveContactMessage(
  db: D1Database,
  input: ContactMessageInput,
  now: number = Date.now(),
): Promise<{ id: string }> {
  const id = createId("msg");
  await db
    .prepare(`INSERT INTO contact_messages (id, username, email, message, created_at) VALUES (?, ?, ?, ?, ?)`)
    .bind(id, input.username, input.email, input.message, now)
    .run();
  return { id };
}
