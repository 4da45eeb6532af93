/**
 * `/api/auth/oidc/*` (Continue with Google; the fake identity provider in tests) through the
 * Worker. The provider's side (PKCE, ID token checks) is tested in
 * workers/providers/oidc/oidc.test.ts and a whole sign-in in tests/integration/
 * sign-in-pages.test.ts; here: the pending sign-in cookie's shape, and callbacks that must not
 * sign anyone in — a forged cookie, a spent code, a provider's refusal.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cookieFrom, randomEmail } from "../../tests/factories";

const BASE = "https://portico.test";
const FAILED = "/user/authenticate?error=failed";

function get(path: string, cookie?: string): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
}

/** Starts a sign-in and has the fake provider approve it: the callback path and the pending cookie. */
async function approvedCallback(email = randomEmail("oidc")): Promise<{ callback: string; pending: string }> {
  const start = await get("/api/auth/oidc/start");
  const pending = cookieFrom(start);
  const authorize = new URL(start.headers.get("location") ?? "");
  authorize.searchParams.set("auto", "1");
  authorize.searchParams.set("login_hint", email);
  const approved = await get(authorize.pathname + authorize.search);
  const callback = new URL(approved.headers.get("location") ?? "");
  expect(callback.pathname).toBe("/api/auth/oidc/callback");
  return { callback: callback.pathname + callback.search, pending };
}

/** The callback answered: no session started, the pending cookie cleared, and the sign-in page told. */
function expectRefused(response: Response): void {
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe(FAILED);
  const cookies = response.headers.getSetCookie();
  expect(cookies.some((cookie) => cookie.startsWith("portico_session="))).toBe(false);
  expect(cookies).toContainEqual(expect.stringMatching(/^portico_oidc=; Path=\/api\/auth\/oidc; Max-Age=0/));
}

describe("GET /api/auth/oidc/start", () => {
  it("keeps the pending sign-in in a signed, httpOnly cookie for ten minutes, scoped to the callback's path", async () => {
    const start = await get(`/api/auth/oidc/start?ref=${"R".repeat(40)}`);
    expect(start.status).toBe(302);
    const setCookie = start.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(
      /^portico_oidc=[^;]+; Path=\/api\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
    );

    const [payload, signature] = decodeURIComponent(cookieFrom(start).slice("portico_oidc=".length)).split(".");
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = JSON.parse(atob(payload ?? "")) as { pending: { state: string; codeVerifier: string }; ref: string };
    const authorize = new URL(start.headers.get("location") ?? "");
    expect(authorize.searchParams.get("state")).toBe(stored.pending.state);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${BASE}/api/auth/oidc/callback`);
    // The verifier stays with us: only its challenge goes to the provider.
    expect(authorize.search).not.toContain(stored.pending.codeVerifier);
    // A referral code rides along, cut to its longest length.
    expect(stored.ref).toBe("R".repeat(32));
  });
});

describe("GET /api/auth/oidc/callback", () => {
  it("signs in once with an approved code, and refuses the same code again", async () => {
    const { callback, pending } = await approvedCallback();
    const first = await get(callback, pending);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/user/dashboard");
    expect(first.headers.getSetCookie().some((cookie) => cookie.startsWith("portico_session="))).toBe(true);
    expectRefused(await get(callback, pending));
  });

  it("refuses a pending cookie whose signature is not ours", async () => {
    const { callback, pending } = await approvedCallback();
    const [name, value] = pending.split("=") as [string, string];
    const decoded = decodeURIComponent(value);
    // A character inside the signature: the last one of a base64 HMAC holds padding bits, and
    // changing only those ('A' to 'B') leaves the same bytes, a signature that still verifies.
    const at = decoded.length - 5;
    const tampered = decoded.slice(0, at) + (decoded[at] === "A" ? "B" : "A") + decoded.slice(at + 1);
    expectRefused(await get(callback, `${name}=${encodeURIComponent(tampered)}`));
  });

  it("refuses a pending cookie from another sign-in", async () => {
    const mine = await approvedCallback();
    const theirs = await approvedCallback();
    expectRefused(await get(mine.callback, theirs.pending));
  });

  it("refuses the provider's refusal (no code)", async () => {
    const start = await get("/api/auth/oidc/start");
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
    expectRefused(await get(`/api/auth/oidc/callback?error=access_denied&state=${state}`, cookieFrom(start)));
  });
});
