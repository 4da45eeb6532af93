import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { checkContact, CONTACT_ERRORS, CONTACT_LIMITS, type ContactInput } from "~/lib/contact-rules";
import { firstErrorPerField } from "~/lib/field-errors";
import { randomEmail } from "../../tests/factories";
import { ContactMessageSchema, saveContactMessage } from "./contact";

/** What the server says about a report, field by field, as /api/contact answers it. */
function serverErrors(input: ContactInput): Record<string, string> {
  const parsed = ContactMessageSchema.safeParse(input);
  return parsed.success ? {} : firstErrorPerField(parsed.error.issues, "body");
}

describe("the bug report's rules", () => {
  // The form checks in the browser with contact-rules.ts and the server with its zod schema:
  // the two must say the same words about the same input (docs/decisions/007-…).
  it.each<[string, ContactInput]>([
    ["a valid report", { username: "Ada", email: "ada@example.com", message: "The sample has a typo." }],
    ["an empty one", { username: "", email: "", message: "" }],
    ["spaces only", { username: "   ", email: "   ", message: " \n " }],
    ["an address without @", { username: "", email: "ada.example.com", message: "hi" }],
    ["an address with a space", { username: "", email: "ada @example.com", message: "hi" }],
    ["an address over the limit", { username: "", email: `${"a".repeat(250)}@b.co`, message: "hi" }],
    ["a name over the limit", { username: "n".repeat(CONTACT_LIMITS.username + 1), email: "a@b", message: "hi" }],
    ["a message at the limit", { username: "", email: "a@b", message: "m".repeat(CONTACT_LIMITS.message) }],
    ["a message over the limit", { username: "", email: "a@b", message: "m".repeat(CONTACT_LIMITS.message + 1) }],
    ["a message over the limit only with its spaces", { username: "", email: "a@b", message: ` ${"m".repeat(5000)} ` }],
  ])("the form and the server agree on %s", (_label, input) => {
    expect(serverErrors(input)).toEqual(checkContact(input));
  });

  it("names each broken field with the form's words", () => {
    expect(serverErrors({ username: "", email: "", message: "" })).toEqual({
      email: CONTACT_ERRORS.emailRequired,
      message: CONTACT_ERRORS.messageRequired,
    });
  });

  it("refuses a field of the wrong type with the field's own message, not a type error", () => {
    const parsed = ContactMessageSchema.safeParse({ email: 42, message: ["a"] });
    expect(parsed.success).toBe(false);
    expect(firstErrorPerField(parsed.error?.issues ?? [])).toEqual({
      email: CONTACT_ERRORS.emailRequired,
      message: CONTACT_ERRORS.messageRequired,
    });
  });
});

describe("saveContactMessage", () => {
  it("stores the report trimmed, with an id and time of its own, and nothing the sender added", async () => {
    const email = randomEmail("report");
    const parsed = ContactMessageSchema.parse({
      email: `  ${email} `,
      message: "  The QR docs sample has a typo.  ",
      id: "msg_chosen",
      created_at: 1,
    });
    const { id } = await saveContactMessage(env.DB, parsed, 1_700_000_000_000);
    expect(id).toMatch(/^msg_/);
    expect(id).not.toBe("msg_chosen");
    const row = await env.DB.prepare(
      `SELECT id, username, email, message, created_at FROM contact_messages WHERE email = ?`,
    )
      .bind(email)
      .all();
    expect(row.results).toEqual([
      { id, username: "", email, message: "The QR docs sample has a typo.", created_at: 1_700_000_000_000 },
    ]);
  });
});
