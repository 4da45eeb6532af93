/**
 * `/api/auth/*`: 'Continue with Google': the authorization-code flow with PKCE. The state, nonce and code
 * verifier wait in a signed, httpOnly cookie for ten minutes, scoped to the callback's path.
 */
import { Hono } from "hono";
import { z } from "zod";
import { signInWithOidc } from "~workers/platform/accounts";
import { isSecureRequest, readCookie, serializeCookie } from "~workers/platform/cookies";
import { startSession } from "~workers/platform/sign-in";
import { signValue, unsignValue } from "~workers/platform/signing";
import { oidcProviderFor } from "~workers/providers/oidc";
import { PENDING_SIGN_IN_TTL_MS, PendingSignInSchema } from "~workers/providers/oidc/provider";
import type { ApiEnv } from "./context";

const PENDING_COOKIE = "portico_oidc";
const COOKIE_PATH = "/api/auth/oidc";

const PendingCookieSchema = z.object({ pending: PendingSignInSchema, ref: z.string().max(32).optional() });

function callbackUrl(request: Request): string {
  return `${new URL(request.url).origin}${COOKIE_PATH}/callback`;
}

function failed(code: string) {
  return `/user/authenticate?error=${encodeURIComponent(code)}`;
}

export const authApi = new Hono<ApiEnv>();

authApi.get("/oidc/start", async (c) => {
  const config = c.get("config");
  const provider = oidcProviderFor(config, c.env, new URL(c.req.url).origin);
  const ref = c.req.query("ref")?.slice(0, 32) || undefined;
  const { authorizationUrl, pending } = await provider.beginSignIn({ redirectUri: callbackUrl(c.req.raw) });
  const cookie = await signValue(btoa(JSON.stringify({ pending, ref })), config.SESSION_SECRET);
  c.header(
    "Set-Cookie",
    serializeCookie(PENDING_COOKIE, cookie, {
      maxAgeSeconds: PENDING_SIGN_IN_TTL_MS / 1000,
      secure: isSecureRequest(c.req.raw),
      path: COOKIE_PATH,
    }),
  );
  return c.redirect(authorizationUrl, 302);
});

authApi.get("/oidc/callback", async (c) => {
  const config = c.get("config");
  const secure = isSecureRequest(c.req.raw);
  // The pending sign-in is single use whatever happens next.
  c.header("Set-Cookie", serializeCookie(PENDING_COOKIE, "", { maxAgeSeconds: 0, secure, path: COOKIE_PATH }));
  const raw = readCookie(c.req.raw, PENDING_COOKIE);
  const value = raw ? await unsignValue(raw, config.SESSION_SECRET) : null;
  const stored = value ? PendingCookieSchema.safeParse(JSON.parse(atob(value))) : null;
  const code = c.req.query("code");
  const state = c.req.query("state");
  if (!stored?.success || !code || !state) return c.redirect(failed("failed"), 302);

  const provider = oidcProviderFor(config, c.env, new URL(c.req.url).origin);
  const finished = await provider.finishSignIn({
    code,
    state,
    pending: stored.data.pending,
    redirectUri: callbackUrl(c.req.raw),
  });
  if (!finished.ok) {
    console.warn(`[${c.get("requestId")}] OIDC sign-in failed: ${finished.code}`);
    return c.redirect(failed("failed"), 302);
  }
  const result = await signInWithOidc(c.env.DB, finished.identity, stored.data.ref);
  if (!result.ok) return c.redirect(failed(result.code), 302);
  const started = await startSession(c.env.DB, config.SESSION_SECRET, c.req.raw, result.user);
  c.header("Set-Cookie", started.setCookie, { append: true });
  return c.redirect("/user/dashboard", 302);
});
