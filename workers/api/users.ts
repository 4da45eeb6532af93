/**
 * Accounts over JSON (spec §7 plus the calls programs and tests use): the pages call the same
 * domain functions through their loaders and actions.
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { EmailSchema, LogInSchema, logIn, SignUpSchema, signUp } from "~workers/platform/accounts";
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
import { requestPasswordReset, resetPassword } from "~workers/platform/password-reset";
import { clearSessionCookieHeader, endSession, readSession } from "~workers/platform/sessions";
import { authUserFields, loginRetryAfter, recordLoginFailure, startSession } from "~workers/platform/sign-in";
import { clientAddress, hitThrottle } from "~workers/platform/throttle";
import { createMailProvider } from "~workers/providers/mail";
import { requireSession, type ApiEnv } from "./context";
import { problem } from "./problem";

const JSON_LIMIT = bodyLimit({
  maxSize: 8 * 1024,
  onError: (c) => problem(c as Context<ApiEnv>, "body-too-large", "Keep the body under 8 KiB."),
});

async function parseJson<S extends z.ZodType>(c: Context<ApiEnv>, schema: S) {
  const body: unknown = await c.req.json().catch(() => undefined);
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return { ok: true as const, data: parsed.data as z.infer<S> };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.join(".") || "body"] ??= issue.message;
  const response = problem(c, "invalid-input", Object.values(errors)[0] ?? "Invalid input", {
    success: 0,
    message: Object.values(errors)[0],
    errors,
  });
  return { ok: false as const, response };
}

export const usersApi = new Hono<ApiEnv>();

usersApi.post("/users/signup", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, SignUpSchema);
  if (!input.ok) return input.response;
  const result = await signUp(c.env.DB, input.data);
  if (!result.ok) {
    if (result.code === "email-taken") {
      return problem(c, "conflict", "An account with this email exists. Log in instead.", {
        success: 0,
        message: "An account with this email exists. Log in instead.",
        errors: { email: "An account with this email exists. Log in instead." },
      });
    }
    return problem(c, "invalid-input", result.message, {
      success: 0,
      message: result.message,
      errors: { password: result.message },
    });
  }
  const started = await startSession(c.env.DB, c.get("config").SESSION_SECRET, c.req.raw, result.user);
  c.header("Set-Cookie", started.setCookie);
  return c.json(
    {
      success: 1,
      message: "Welcome to Portico",
      ...started.authUser,
      auth_token: started.authToken,
      referralCode: result.user.referralCode,
    },
    201,
  );
});

usersApi.post("/users/login", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, LogInSchema);
  if (!input.ok) return input.response;
  const { email, password } = input.data;
  const wait = await loginRetryAfter(c.env.DB, email, c.req.raw);
  if (wait !== null) {
    return problem(
      c,
      "too-many-requests",
      "Too many failed logins. Try again later.",
      { success: 0, message: "Too many failed logins. Try again later." },
      {
        "Retry-After": String(wait),
      },
    );
  }
  const user = await logIn(c.env.DB, email, password);
  if (!user) {
    await recordLoginFailure(c.env.DB, email, c.req.raw);
    // The same words whether the email has no account or the password is wrong.
    return problem(c, "invalid-credentials", "Wrong email or password.", {
      success: 0,
      message: "Wrong email or password.",
    });
  }
  const started = await startSession(c.env.DB, c.get("config").SESSION_SECRET, c.req.raw, user);
  c.header("Set-Cookie", started.setCookie);
  return c.json({
    success: 1,
    message: "Logged in",
    ...started.authUser,
    auth_token: started.authToken,
    referralCode: user.referralCode,
  });
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
    isAdmin: user.email === c.get("config").ADMIN_EMAIL,
  });
});

usersApi.post("/users/password/forgot", JSON_LIMIT, async (c) => {
  const input = await parseJson(c, z.object({ email: EmailSchema }));
  if (!input.ok) return input.response;
  const throttle = await hitThrottle(
    c.env.DB,
    { name: "password-forgot", limit: 5, windowMs: 15 * 60 * 1000 },
    clientAddress(c.req.raw),
  );
  if (!throttle.ok) {
    c.header("Retry-After", String(throttle.retryAfterSeconds));
    return problem(c, "too-many-requests", "Too many requests. Try again later.");
  }
  const mail = createMailProvider(c.get("config"), c.env);
  await requestPasswordReset(c.env.DB, mail, input.data.email, new URL(c.req.url).origin);
  // The same answer whether or not the address has an account.
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
  if (!result.ok)
    return problem(c, "conflict", `An account may hold at most ${MAX_KEYS_PER_USER} active keys. Revoke one first.`);
  // The only time the whole key is ever shown.
  return c.json({ key: result.key, ...result.summary }, 201);
});

usersApi.delete("/user/keys/:id", requireSession, async (c) => {
  const revoked = await revokeApiKey(c.env.DB, c.env.CACHE, c.get("session").user.id, c.req.param("id"));
  return revoked ? c.body(null, 204) : problem(c, "not-found", "No active key of yours has this id.");
});

usersApi.post("/user/keys/:id/rotate", requireSession, async (c) => {
  const result = await rotateApiKey(c.env.DB, c.env.CACHE, c.get("session").user.id, c.req.param("id"));
  if (!result.ok)
    return problem(c, result.code === "not-found" ? "not-found" : "conflict", "No active key of yours has this id.");
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
  // The plan-expiry column is for the privileged accounts only (spec §2).
  const privileged = c.get("config").PRIVILEGED_EMAILS.includes(user.email);
  const payments = result.payments.map(({ planExpiresAt, ...payment }) =>
    privileged ? { ...payment, planExpiresAt } : payment,
  );
  return c.json({ success: true, data: { payments, totalPages: result.totalPages, page: result.page } });
});
