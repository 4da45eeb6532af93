/**
 * Accounts over JSON (docs/product.md#account-calls, plus the calls programs and tests use): the pages call the same
 * domain functions through their loaders and actions.
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { accountServices } from "~workers/platform/account-services";
import { EmailSchema, LogInSchema } from "~workers/platform/accounts";
import { resendVerificationLink, verifyEmail } from "~workers/platform/email-verification";
import { CHECK_INBOX_MESSAGE, registerWithPassword, SignUpSchema } from "~workers/platform/registration";
import { EMAIL_UNVERIFIED_MESSAGE, isAdmin, isPrivileged } from "~workers/platform/roles";
import type { User } from "~workers/platform/users";
import {
  createApiKey,
  KeyNameSchema,
  listApiKeys,
  MAX_KEYS_PER_USER,
  revokeApiKey,
  rotateApiKey,
} from "~workers/platform/api-keys";
import { isSecureRequest } from "~workers/platform/cookies";
import { listPayments, TRANSACTIONS_PAGE_SIZE } from "~workers/platform/payments";
import { forgotPassword, resetPassword } from "~workers/platform/password-reset";
import { clearSessionCookieHeader, endSession, readSession } from "~workers/platform/sessions";
import { attemptPasswordLogIn, authUserFields, startSession } from "~workers/platform/sign-in";
import { requireSession, type ApiEnv } from "./context";
import { problem, problemFromZod } from "~workers/http/problem";

const JSON_LIMIT = bodyLimit({
  maxSize: 8 * 1024,
  onError: (c) => problem(c as Context<ApiEnv>, "body-too-large", "Keep the body under 8 KiB."),
});

async function parseJson<S extends z.ZodType>(c: Context<ApiEnv>, schema: S) {
  const body: unknown = await c.req.json().catch(() => undefined);
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return { ok: true as const, data: parsed.data as z.infer<S> };
  return { ok: false as const, response: problemFromZod(c, parsed.error, { extensions: { success: 0 } }) };
}

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

usersApi.post("/users/signup", JSON_LIMIT, async (c) => {
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

usersApi.post("/users/email/verify", JSON_LIMIT, async (c) => {
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

usersApi.post("/users/email/verify/resend", requireSession, async (c) => {
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

usersApi.post("/users/login", JSON_LIMIT, async (c) => {
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

usersApi.post("/users/logout", async (c) => {
  const session = await readSession(c.env.DB, c.get("config").SESSION_SECRET, c.req.raw);
  if (session) await endSession(c.env.DB, session.id);
  c.header("Set-Cookie", clearSessionCookieHeader(isSecureRequest(c.req.raw)));
  return c.json({ success: 1, message: "Logged out" });
});

usersApi.get("/users/me", requireSession, (c) => {
  const { user, createdAt, expiresAt } = c.get("session");
  return c.json({
    id: user.id,
    ...authUserFields(user, { createdAt, expiresAt }),
    name: user.name,
    plan: user.planId,
    planExpiresAt: user.planExpiresAt,
    referralCode: user.referralCode,
    emailVerified: user.emailVerifiedAt !== null,
    isAdmin: isAdmin(c.get("config"), user),
  });
});

usersApi.post("/users/password/forgot", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, z.object({ email: EmailSchema }));
  if (!input.ok) return input.response;
  const result = await forgotPassword(servicesFor(c), c.req.raw, input.data.email);
  if (!result.ok) return tooManyRequests(c, result.retryAfterSeconds);
  // The same answer, after the same work, whether or not the address has an account.
  return c.json({ success: 1, message: "If an account uses this address, a reset link is on its way." }, 202);
});

usersApi.post("/users/password/reset", JSON_LIMIT, async (c) => {
  const input = await parseJson(
    c,
    z.object({ token: z.string().min(1).max(200), password: z.string().min(1).max(1000) }),
  );
  if (!input.ok) return input.response;
  const result = await resetPassword(c.env.DB, input.data.token, input.data.password);
  if (!result.ok) {
    const message =
      result.code === "invalid-token" ? "This reset link has expired or was already used." : result.message;
    return problem(c, "invalid-input", message, { success: 0, message });
  }
  return c.json({ success: 1, message: "Password changed. Log in with the new one." });
});

usersApi.get("/user/referral-code", requireSession, (c) =>
  c.json({ referralCode: c.get("session").user.referralCode }),
);

usersApi.get("/user/keys", requireSession, async (c) =>
  c.json({ keys: await listApiKeys(c.env.DB, c.get("session").user.id) }),
);

usersApi.post("/user/keys", JSON_LIMIT, requireSession, async (c) => {
  const input = await parseJson(c, z.object({ name: KeyNameSchema }));
  if (!input.ok) return input.response;
  const result = await createApiKey(c.env.DB, c.get("session").user.id, input.data.name);
  if (!result.ok) {
    if (result.code === "email-unverified") return problem(c, "forbidden", EMAIL_UNVERIFIED_MESSAGE);
    return problem(c, "conflict", `An account may hold at most ${MAX_KEYS_PER_USER} active keys. Revoke one first.`);
  }
  // The only time the whole key is ever shown.
  return c.json({ key: result.key, ...result.summary }, 201);
});

usersApi.delete("/user/keys/:id", requireSession, async (c) => {
  const revoked = await revokeApiKey(c.env.DB, c.env.CACHE, c.env.METER, c.get("session").user.id, c.req.param("id"));
  return revoked ? c.body(null, 204) : problem(c, "not-found", "No active key of yours has this id.");
});

usersApi.post("/user/keys/:id/rotate", requireSession, async (c) => {
  const result = await rotateApiKey(c.env.DB, c.env.CACHE, c.env.METER, c.get("session").user.id, c.req.param("id"));
  if (!result.ok) {
    if (result.code === "email-unverified") return problem(c, "forbidden", EMAIL_UNVERIFIED_MESSAGE);
    return problem(c, result.code === "not-found" ? "not-found" : "conflict", "No active key of yours has this id.");
  }
  return c.json({ key: result.key, ...result.summary }, 201);
});

usersApi.get("/users/fetch-transactions", requireSession, async (c) => {
  const query = z
    .object({
      page: z.coerce.number().int().min(1).max(10_000).default(1),
      limit: z.coerce.number().int().min(1).max(50).default(TRANSACTIONS_PAGE_SIZE),
    })
    .safeParse(c.req.query());
  if (!query.success) return problem(c, "invalid-input", "page and limit must be positive whole numbers.");
  const { user } = c.get("session");
  const result = await listPayments(c.env.DB, user.id, query.data.page, query.data.limit);
  // The plan-expiry column is for the privileged accounts only (docs/product.md#privileged).
  const privileged = isPrivileged(c.get("config"), user);
  const payments = result.payments.map(({ planExpiresAt, ...payment }) =>
    privileged ? { ...payment, planExpiresAt } : payment,
  );
  return c.json({ success: true, data: { payments, totalPages: result.totalPages, page: result.page } });
});
