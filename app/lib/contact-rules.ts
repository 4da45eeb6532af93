/**
 * The bug-report form's rules (docs/product.md#contact-rules), shared by the form and the server so the two can
 * never disagree on a message. Kept free of zod so the home page's bundle stays small;
 * the server wraps the same rules in its zod schema.
 */
export const CONTACT_LIMITS = { username: 100, email: 254, message: 5000 } as const;

/** "A simple text@text pattern": something, an @, something, with no spaces. */
export const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+$/;

export const CONTACT_ERRORS = {
  emailRequired: "Email is required",
  emailInvalid: "Enter a valid email address",
  messageRequired: "Message is required",
  usernameTooLong: `Name must be at most ${CONTACT_LIMITS.username} characters`,
  emailTooLong: `Email must be at most ${CONTACT_LIMITS.email} characters`,
  messageTooLong: `Message must be at most ${CONTACT_LIMITS.message} characters`,
} as const;

export interface ContactInput {
  username: string;
  email: string;
  message: string;
}

export type ContactErrors = Partial<Record<keyof ContactInput, string>>;

export function checkContact(input: ContactInput): ContactErrors {
  const errors: ContactErrors = {};
  const email = input.email.trim();
  const message = input.message.trim();
  if (input.username.trim().length > CONTACT_LIMITS.username) errors.username = CONTACT_ERRORS.usernameTooLong;
  if (!email) errors.email = CONTACT_ERRORS.emailRequired;
  else if (!SIMPLE_EMAIL.test(email)) errors.email = CONTACT_ERRORS.emailInvalid;
  else if (email.length > CONTACT_LIMITS.email) errors.email = CONTACT_ERRORS.emailTooLong;
  if (!message) errors.message = CONTACT_ERRORS.messageRequired;
  else if (message.length > CONTACT_LIMITS.message) errors.message = CONTACT_ERRORS.messageTooLong;
  return errors;
}
