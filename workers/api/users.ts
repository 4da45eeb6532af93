/**
 * `/api/users/*`: accounts over JSON (docs/product.md#account-calls, plus the calls programs and tests use): the pages call the same
 * domain functions through their loaders and actions.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { accountServices } from "~workers/platform/account-services";
import { EmailSchema, LogInSchema } from "~workers/platform/accounts";
import { resendVerificationLink, verifyEmail } from "~workers/platform/email-verification";
import { CHECK_INBOX_MESSAGE, registerWithPassword, SignUpSchema } from "~workers/platform/registration";
import { isAdmin, isPrivileged } from "~workers/platform/roles";
import type { User } from "~workers/platform/users";
import { isSecureRequest } from "~workers/platform/cookies";
import { cachedCountryOf } from "~workers/platform/country";
import { listPayments, TRANSACTIONS_PAGE_SIZE } from "~workers/platform/payments";
import { effectivePlan } from "~workers/platform/plans";
import { forgotPassword, resetPassword } from "~workers/platform/password-reset";
import { clearSessionCookieHeader, endSession, readSession } from "~workers/platform/sessions";
import { attemptPasswordLogIn, authUserFields, startSession } from "~workers/platform/sign-in";
import { JSON_LIMIT, parseJson, requireSession, type ApiEnv } from "./context";
import { problem, problemFromZod } from "~workers/http/problem";

function servicesFor(c: Context<ApiEnv>) {
  return accountServices(c.get("config"), c.env, c.req.raw, (promise) => c.executionCtx.waitUntil(promise));
}

function tooManyRequests(c: Context<ApiEnv>, retryAfterSeconds: number) {
  const message = "Too many requests. Try again later.";
  return problem(c, "too-many-requests", message, { success: 0, message }, { "Retry-After": String(retryAfterSeconds) });
}

/** Starts a session for a user who has just proved who they are: cookie for browsers, token for programs. */
async function signedIn(c: Context<ApiEnv>, user: User, message: string) {
  const started = await startSession(c.env.DB, c.get("config").SESSION_SECRET, c.req.raw, user);
  c.header("Set-Cookie", started.setCookie);
  return c.json({
    success: 1,
    message,
    ...started.authUser,
    auth_token: started.authToken,
    referralCode: user.referralCode,
  });
}

export const usersApi = new Hono<ApiEnv>();

usersApi.post("/signup", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, SignUpSchema);
  if (!input.ok) return input.response;
  const result = await registerWithPassword(servicesFor(c), c.req.raw, input.data);
  if (!result.ok) {
    if (result.code === "throttled") return tooManyRequests(c, result.retryAfterSeconds);
    return problem(c, "invalid-input", result.message, {
      success: 0,
      message: result.message,
      errors: { password: result.message },
    });
  }
  // The same answer whether or not the address already had an account; nobody is signed in
  // until the link in the mail is opened (POST /api/users/email/verify).
  return c.json({ success: 1, message: CHECK_INBOX_MESSAGE, email: result.email }, 202);
});

usersApi.post("/email/verify", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, z.object({ token: z.string().min(1).max(200) }));
  if (!input.ok) return input.response;
  const result = await verifyEmail(c.env.DB, input.data.token);
  if (!result.ok) {
    const message =
      result.code === "already-verified"
        ? "This link was used already and the address is confirmed. Log in."
        : "This link has expired or was already used. Log in and ask for a new one.";
    return problem(c, "invalid-input", message, { success: 0, message, code: result.code });
  }
  return signedIn(c, result.user, "Email confirmed");
});

usersApi.post("/email/verify/resend", requireSession, async (c) => {
  const result = await resendVerificationLink(
    c.env.DB,
    servicesFor(c).mail,
    c.get("session").user,
    new URL(c.req.url).origin,
  );
  if (result.ok) return c.json({ success: 1, message: "A new link is on its way." }, 202);
  if (result.code === "throttled") return tooManyRequests(c, result.retryAfterSeconds);
  return problem(c, "conflict", "This address is confirmed already.", { success: 0 });
});

usersApi.post("/login", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, LogInSchema);
  if (!input.ok) return input.response;
  const attempt = await attemptPasswordLogIn(c.env.DB, c.req.raw, input.data);
  if (!attempt.ok) {
    if (attempt.code === "throttled") {
      const message = "Too many failed logins. Try again later.";
      return problem(c, "too-many-requests", message, { success: 0, message }, {
        "Retry-After": String(attempt.retryAfterSeconds),
      });
    }
    // The same words whether the email has no account or the password is wrong.
    return problem(c, "invalid-credentials", "Wrong email or password.", {
      success: 0,
      message: "Wrong email or password.",
    });
  }
  return signedIn(c, attempt.user, "Logged in");
});

usersApi.post("/logout", async (c) => {
  const session = await readSession(c.env.DB, c.get("config").SESSION_SECRET, c.req.raw);
  if (session) await endSession(c.env.DB, session.id);
  c.header("Set-Cookie", clearSessionCookieHeader(isSecureRequest(c.req.raw)));
  return c.json({ success: 1, message: "Logged out" });
});

usersApi.get("/me", requireSession, (c) => {
  const { user, createdAt, expiresAt } = c.get("session");
  return c.json({
    id: user.id,
    ...authUserFields(user, { createdAt, expiresAt }),
    name: user.name,
    // The plan in force: a paid plan past its end is Free, as the gateway and the dashboard say.
    plan: effectivePlan(user, Date.now()),
    planExpiresAt: user.planExpiresAt,
    referralCode: user.referralCode,
    emailVerified: user.emailVerifiedAt !== null,
    isAdmin: isAdmin(c.get("config"), user),
  });
});

usersApi.post("/password/forgot", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, z.object({ email: EmailSchema }));
  if (!input.ok) return input.response;
  const result = await forgotPassword(servicesFor(c), c.req.raw, input.data.email);
  if (!result.ok) return tooManyRequests(c, result.retryAfterSeconds);
  // The same answer, after the same work, whether or not the address has an account.
  return c.json({ success: 1, message: "If an account uses this address, a reset link is on its way." }, 202);
});

usersApi.post("/password/reset", JSON_LIMIT, async (c) => {
  const input = await parseJson(
    c,
    z.object({ token: z.string().min(1).max(200), password: z.string().min(1).max(1000) }),
  );
  if (!input.ok) return input.response;
  const result = await resetPassword(c.env.DB, input.data.token, input.data.password);
  if (!result.ok) {
    if (result.code === "invalid-token") {
      const message = "This reset link has expired or was already used.";
      return problem(c, "invalid-input", message, { success: 0, message, errors: { token: message } });
    }
    // As sign-up names it: the field the password rules are about.
    return problem(c, "invalid-input", result.message, {
      success: 0,
      message: result.message,
      errors: { password: result.message },
    });
  }
  return c.json({ success: 1, message: "Password changed. Log in with the new one." });
});

usersApi.get("/fetch-transactions", requireSession, async (c) => {
  const query = z
    .object({
      page: z.coerce.number().int().min(1).max(10_000).default(1),
      limit: z.coerce.number().int().min(1).max(50).default(TRANSACTIONS_PAGE_SIZE),
    })
    .safeParse(c.req.query());
  if (!query.success) return problemFromZod(c, query.error, { root: "query" });
  const { user } = c.get("session");
  const result = await listPayments(c.env.DB, user.id, query.data.page, query.data.limit);
  // The plan-expiry column is for the privileged accounts only (docs/product.md#privileged).
  const privileged = isPrivileged(c.get("config"), user);
  const payments = result.payments.map(({ planExpiresAt, ...payment }) =>
    privileged ? { ...payment, planExpiresAt } : payment,
  );
  return c.json({ success: true, data: { payments, totalPages: result.totalPages, page: result.page } });
});

/** The visitor's country, which picks the pricing's currency and provider; no session needed. */
usersApi.get("/fetch/user-metadata", async (c) => {
  const countryCode = await cachedCountryOf(c.req.raw, c.get("config"), c.env.CACHE);
  return c.json({ countryCode });
});
