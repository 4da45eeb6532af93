import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recordingAccountServices, tokenInMail } from "../../tests/fakes/account-services";
import { randomEmail } from "../../tests/factories";
import { sha256Hex } from "./ids";
import {
  confirmNewsletterSubscription,
  NEWSLETTER_MAILS_PER_EMAIL,
  NewsletterEmailSchema,
  requestNewsletterSubscription,
} from "./newsletter";

function subscription(email: string) {
  return env.DB.prepare(`SELECT confirm_token_hash, confirmed_at FROM newsletter_subscriptions WHERE email = ?`)
    .bind(email)
    .first<{ confirm_token_hash: string | null; confirmed_at: number | null }>();
}

describe("NewsletterEmailSchema", () => {
  it("normalises the address and refuses what is not one", () => {
    expect(NewsletterEmailSchema.parse("  Ada@Example.COM ")).toBe("ada@example.com");
    for (const bad of ["", "ada", "ada@", "@example.com", `${"a".repeat(250)}@example.com`]) {
      expect(NewsletterEmailSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe("requestNewsletterSubscription", () => {
  it("subscribes nothing until the mailed link is opened, which confirms once", async () => {
    const { services, sent, settle } = recordingAccountServices();
    const email = randomEmail("news");
    expect(await requestNewsletterSubscription(services, email)).toEqual({ ok: true });
    await settle();
    expect(sent.map((mail) => mail.to)).toEqual([email]);
    const token = tokenInMail(sent[0], "newsletter/confirm");
    // Only the token's hash is kept; the mail's link is the only copy of the token.
    expect(await subscription(email)).toEqual({ confirm_token_hash: await sha256Hex(token), confirmed_at: null });

    expect(await confirmNewsletterSubscription(env.DB, token, 1_000)).toBe(true);
    expect((await subscription(email))?.confirmed_at).toBe(1_000);
    // Opening the link again confirms nothing new: the first time stands.
    expect(await confirmNewsletterSubscription(env.DB, token, 2_000)).toBe(true);
    expect((await subscription(email))?.confirmed_at).toBe(1_000);
  });

  it("gives a pending address a fresh link, and the older link stops working", async () => {
    const { services, sent, settle } = recordingAccountServices();
    const email = randomEmail("again");
    await requestNewsletterSubscription(services, email);
    await requestNewsletterSubscription(services, email);
    await settle();
    const [first, second] = sent.map((mail) => tokenInMail(mail, "newsletter/confirm"));
    expect(first).not.toBe(second);
    expect(await confirmNewsletterSubscription(env.DB, first!)).toBe(false);
    expect(await confirmNewsletterSubscription(env.DB, second!)).toBe(true);
  });

  it("mails a confirmed address nothing more, and keeps its confirmation", async () => {
    const { services, sent, settle } = recordingAccountServices();
    const email = randomEmail("confirmed");
    await requestNewsletterSubscription(services, email);
    await settle();
    await confirmNewsletterSubscription(env.DB, tokenInMail(sent[0], "newsletter/confirm"), 5_000);
    const before = await subscription(email);

    // The same answer as for a new address, so it tells nobody who subscribes.
    expect(await requestNewsletterSubscription(services, email)).toEqual({ ok: true });
    await settle();
    expect(sent).toHaveLength(1);
    expect(await subscription(email)).toEqual(before);
  });

  it("sends one address at most the hourly number of confirmation mails, whoever asks", async () => {
    const { services, sent, settle } = recordingAccountServices();
    const email = randomEmail("flood");
    const now = Date.now();
    const results = [];
    for (let i = 0; i <= NEWSLETTER_MAILS_PER_EMAIL.limit; i++) {
      results.push(await requestNewsletterSubscription(services, email, now));
    }
    await settle();
    expect(results.slice(0, -1).every((result) => result.ok)).toBe(true);
    expect(results.at(-1)).toEqual({ ok: false, code: "throttled", retryAfterSeconds: expect.any(Number) });
    expect(sent).toHaveLength(NEWSLETTER_MAILS_PER_EMAIL.limit);
  });

  it("confirms nothing for a token it never issued", async () => {
    expect(await confirmNewsletterSubscription(env.DB, "not-a-token")).toBe(false);
    expect(await confirmNewsletterSubscription(env.DB, "")).toBe(false);
  });

  it("puts the link in the HTML mail escaped", async () => {
    const { services, sent, settle } = recordingAccountServices('https://portico.test/"><script>x</script>');
    await requestNewsletterSubscription(services, randomEmail("html"));
    await settle();
    expect(sent[0]?.html).not.toContain("<script>");
    expect(sent[0]?.html).toContain("&quot;&gt;&lt;script&gt;");
  });
});
