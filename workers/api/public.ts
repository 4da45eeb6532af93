/**
 * `/api/contact` and `/api/subscribe/newsletter`: the home page's bug-report form and newsletter box
 * (docs/product.md#public-calls). Each handler parses, calls one domain function and shapes the answer
 * the way the site's client reads it: a failure is problem+json like every /api error, with
 * the members that client reads (`success` and `message`, or `is_exist`) as extensions.
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ContactMessageSchema, saveContactMessage } from "~workers/platform/contact";
import { accountServices } from "~workers/platform/account-services";
import { NewsletterEmailSchema, requestNewsletterSubscription } from "~workers/platform/newsletter";
import { clientAddress, hitThrottle, type ThrottleRule } from "~workers/platform/throttle";
import { problem, problemFromZod } from "~workers/http/problem";
import type { ApiEnv } from "./context";

const TEN_MINUTES = 10 * 60 * 1000;
export const CONTACT_THROTTLE: ThrottleRule = { name: "contact", limit: 5, windowMs: TEN_MINUTES };
export const NEWSLETTER_THROTTLE: ThrottleRule = { name: "newsletter", limit: 10, windowMs: TEN_MINUTES };
/** A bug report is at most 5,000 characters of message; 16 KiB leaves room for the rest. */
export const CONTACT_BODY_LIMIT = 16 * 1024;

function retryAfter(seconds: number): Record<string, string> {
  return { "Retry-After": String(seconds) };
}

function newsletterThrottled(c: Context<ApiEnv>, retryAfterSeconds: number): Response {
  const message = "Too many attempts. Please try again later.";
  return problem(c, "too-many-requests", message, { is_exist: false }, retryAfter(retryAfterSeconds));
}

export const publicApi = new Hono<ApiEnv>();

publicApi.post(
  "/contact",
  bodyLimit({
    maxSize: CONTACT_BODY_LIMIT,
    onError: (c) => problem(c as Context<ApiEnv>, "body-too-large", "The message is too long.", { success: 0 }),
  }),
  async (c) => {
    const throttle = await hitThrottle(c.env.DB, CONTACT_THROTTLE, clientAddress(c.req.raw));
    if (!throttle.ok) {
      const message = "Too many reports from your address. Please try again later.";
      return problem(c, "too-many-requests", message, { success: 0 }, retryAfter(throttle.retryAfterSeconds));
    }
    const body: unknown = await c.req.json().catch(() => undefined);
    const parsed = ContactMessageSchema.safeParse(body ?? {});
    // One message per field, the first rule it broke, as the form shows it beside the field.
    if (!parsed.success) return problemFromZod(c, parsed.error, { extensions: { success: 0 } });
    await saveContactMessage(c.env.DB, parsed.data);
    return c.json({ success: 1, message: "Thanks for the report! We will get back to you soon." });
  },
);

publicApi.get("/subscribe/newsletter", async (c) => {
  const throttle = await hitThrottle(c.env.DB, NEWSLETTER_THROTTLE, clientAddress(c.req.raw));
  if (!throttle.ok) return newsletterThrottled(c, throttle.retryAfterSeconds);
  const parsed = NewsletterEmailSchema.safeParse(c.req.query("email") ?? "");
  if (!parsed.success) {
    const message = "That does not look like an email address.";
    return problem(c, "invalid-input", message, { is_exist: false, errors: { email: message } });
  }
  const services = accountServices(c.get("config"), c.env, c.req.raw, (promise) => c.executionCtx.waitUntil(promise));
  const result = await requestNewsletterSubscription(services, parsed.data);
  if (!result.ok) return newsletterThrottled(c, result.retryAfterSeconds);
  // Double opt-in: the same answer for a new, a pending and a confirmed address, so it tells
  // nobody who subscribes; `is_exist: true` means the request was accepted (docs/product.md#public-calls).
  return c.json({ is_exist: true, message: "Check your inbox: open the link we sent to confirm the subscription." });
});
