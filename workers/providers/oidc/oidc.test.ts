import { env } from "cloudflare:test";
import { base64url, generateKeyPair, SignJWT } from "jose";
import type { JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { createFakeIdp, createFakeIdpFetch, signIdTokenForTest } from "./fake-idp";
import { createOidcClient, PENDING_SIGN_IN_TTL_MS } from "./provider";
import type { OidcProvider, PendingSignIn } from "./provider";

const ISSUER = "https://portico.test/dev/oidc";
const REDIRECT_URI = "https://portico.test/auth/callback/google";
const CLIENT_ID = "portico-test";
const CLIENT_SECRET = "test-secret";

function randomEmail(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

/**
 * A fresh fake and client per test: the fake keeps its signing key in memory once read from
 * KV, and KV may be reset between tests, so nothing is shared across tests.
 */
function setup(options: { clientId?: string; fetch?: (idpFetch: typeof fetch) => typeof fetch } = {}) {
  const fakeIdp = createFakeIdp({ issuer: ISSUER, kv: env.CACHE });
  const idpFetch = createFakeIdpFetch(fakeIdp, ISSUER);
  const client = createOidcClient({
    issuer: ISSUER,
    clientId: options.clientId ?? CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    fetch: options.fetch ? options.fetch(idpFetch) : idpFetch,
  });
  return { fakeIdp, idpFetch, client };
}

/** Acts as the browser: follows the authorize URL with the fake's `auto=1` and reads the redirect. */
async function authorize(idpFetch: typeof fetch, authorizationUrl: string, extra: Record<string, string> = {}) {
  const url = new URL(authorizationUrl);
  url.searchParams.set("auto", "1");
  for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
  const response = await idpFetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  return { code: location.searchParams.get("code") ?? "", state: location.searchParams.get("state") ?? "" };
}

async function signIn(client: OidcProvider, idpFetch: typeof fetch, email: string, extra: Record<string, string> = {}) {
  const { authorizationUrl, pending } = await client.beginSignIn({ redirectUri: REDIRECT_URI, loginHint: email });
  const { code, state } = await authorize(idpFetch, authorizationUrl, extra);
  return {
    code,
    state,
    pending,
    result: await client.finishSignIn({ code, state, pending, redirectUri: REDIRECT_URI }),
  };
}

/**
 * A client whose token endpoint answers with the ID token `forge` makes, while discovery and
 * the JWKS still come from the fake: how a hostile or broken provider is simulated.
 */
async function finishWithForgedIdToken(forge: (pending: PendingSignIn) => Promise<string>) {
  let pendingForForge: PendingSignIn | undefined;
  const { client } = setup({
    fetch: (viaFake) => async (input, init) => {
      const request = new Request(input, init);
      if (request.method === "POST" && request.url === `${ISSUER}/token` && pendingForForge) {
        const idToken = await forge(pendingForForge);
        return Response.json({ access_token: "forged", token_type: "Bearer", expires_in: 3600, id_token: idToken });
      }
      return viaFake(request);
    },
  });
  const { pending } = await client.beginSignIn({ redirectUri: REDIRECT_URI });
  pendingForForge = pending;
  return client.finishSignIn({ code: "any-code", state: pending.state, pending, redirectUri: REDIRECT_URI });
}

function validClaims(pending: PendingSignIn, overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: ISSUER,
    aud: CLIENT_ID,
    sub: "fake-forged-subject",
    email: "forged@example.com",
    email_verified: true,
    nonce: pending.nonce,
    ...overrides,
  };
}

async function sha256Base64Url(value: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))));
}

describe("OIDC sign-in against the fake identity provider", () => {
  it("signs in end to end and returns a verified identity with a stable subject", async () => {
    const { client, idpFetch } = setup();
    const email = randomEmail("ada");
    const first = await signIn(client, idpFetch, email, { name: "Ada Lovelace" });
    expect(first.result).toEqual({
      ok: true,
      identity: {
        issuer: ISSUER,
        subject: expect.stringMatching(/^fake-[0-9a-f]{20}$/),
        email,
        emailVerified: true,
        name: "Ada Lovelace",
      },
    });

    const again = await signIn(client, idpFetch, email);
    const other = await signIn(client, idpFetch, randomEmail("grace"));
    if (!first.result.ok || !again.result.ok || !other.result.ok) throw new Error("sign-in failed");
    expect(again.result.identity.subject).toBe(first.result.identity.subject);
    expect(other.result.identity.subject).not.toBe(first.result.identity.subject);
  });

  it("builds an authorize URL with scope, state, nonce and an S256 challenge of the verifier", async () => {
    const { client } = setup();
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: "hint@example.com",
    });
    const url = new URL(authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      scope: "openid profile email",
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await sha256Base64Url(pending.codeVerifier),
      code_challenge_method: "S256",
      login_hint: "hint@example.com",
    });
    for (const value of [pending.state, pending.nonce, pending.codeVerifier]) {
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(new Set([pending.state, pending.nonce, pending.codeVerifier]).size).toBe(3);
    expect(Math.abs(pending.createdAt - Date.now())).toBeLessThan(5_000);

    const second = await client.beginSignIn({ redirectUri: REDIRECT_URI });
    expect(second.pending.state).not.toBe(pending.state);
    expect(new URL(second.authorizationUrl).searchParams.has("login_hint")).toBe(false);
  });

  it("reports email_verified=false as an unverified email", async () => {
    const { client, idpFetch } = setup();
    const { result } = await signIn(client, idpFetch, randomEmail("unverified"), { email_verified: "false" });
    expect(result).toMatchObject({ ok: true, identity: { emailVerified: false } });
  });

  it("refuses a callback whose state differs, before spending the code", async () => {
    const { client, idpFetch } = setup();
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: randomEmail("csrf"),
    });
    const { code, state } = await authorize(idpFetch, authorizationUrl);
    const forged = await client.finishSignIn({ code, state: `${state}x`, pending, redirectUri: REDIRECT_URI });
    expect(forged).toEqual({ ok: false, code: "state-mismatch" });
    const other = await client.beginSignIn({ redirectUri: REDIRECT_URI });
    expect(await client.finishSignIn({ code, state: other.pending.state, pending, redirectUri: REDIRECT_URI })).toEqual(
      { ok: false, code: "state-mismatch" },
    );
    // The code is still good: the state check ran before the exchange.
    expect(await client.finishSignIn({ code, state, pending, redirectUri: REDIRECT_URI })).toMatchObject({ ok: true });
  });

  it("refuses a pending sign-in older than ten minutes and accepts one just inside", async () => {
    const { client, idpFetch } = setup();
    const email = randomEmail("slow");
    const stale = await client.beginSignIn({ redirectUri: REDIRECT_URI, loginHint: email });
    const staleCode = await authorize(idpFetch, stale.authorizationUrl);
    expect(
      await client.finishSignIn({
        ...staleCode,
        pending: stale.pending,
        redirectUri: REDIRECT_URI,
        now: stale.pending.createdAt + PENDING_SIGN_IN_TTL_MS + 1,
      }),
    ).toEqual({ ok: false, code: "expired" });

    const fresh = await client.beginSignIn({ redirectUri: REDIRECT_URI, loginHint: email });
    const freshCode = await authorize(idpFetch, fresh.authorizationUrl);
    expect(
      await client.finishSignIn({
        ...freshCode,
        pending: fresh.pending,
        redirectUri: REDIRECT_URI,
        now: fresh.pending.createdAt + PENDING_SIGN_IN_TTL_MS - 1_000,
      }),
    ).toMatchObject({ ok: true });
  });

  it("refuses a code presented a second time", async () => {
    const { client, idpFetch } = setup();
    const { code, state, pending, result } = await signIn(client, idpFetch, randomEmail("replay"));
    expect(result).toMatchObject({ ok: true });
    expect(await client.finishSignIn({ code, state, pending, redirectUri: REDIRECT_URI })).toEqual({
      ok: false,
      code: "token-exchange-failed",
    });
  });

  it("refuses a code exchanged with another code_verifier", async () => {
    const { client, idpFetch } = setup();
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: randomEmail("pkce"),
    });
    const { code, state } = await authorize(idpFetch, authorizationUrl);
    const other = await client.beginSignIn({ redirectUri: REDIRECT_URI });
    const tampered = { ...pending, codeVerifier: other.pending.codeVerifier };
    expect(await client.finishSignIn({ code, state, pending: tampered, redirectUri: REDIRECT_URI })).toEqual({
      ok: false,
      code: "token-exchange-failed",
    });
  });

  it("refuses a code exchanged for another redirect_uri", async () => {
    const { client, idpFetch } = setup();
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: randomEmail("redirect"),
    });
    const { code, state } = await authorize(idpFetch, authorizationUrl);
    expect(
      await client.finishSignIn({ code, state, pending, redirectUri: "https://evil.test/auth/callback/google" }),
    ).toEqual({ ok: false, code: "token-exchange-failed" });
  });

  it("refuses an ID token whose nonce is not the pending one", async () => {
    const { client, idpFetch } = setup();
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: randomEmail("nonce"),
    });
    const { code, state } = await authorize(idpFetch, authorizationUrl);
    const other = await client.beginSignIn({ redirectUri: REDIRECT_URI });
    const tampered = { ...pending, nonce: other.pending.nonce };
    expect(await client.finishSignIn({ code, state, pending: tampered, redirectUri: REDIRECT_URI })).toEqual({
      ok: false,
      code: "nonce-mismatch",
    });
  });

  it("refuses to exchange a code issued to another client", async () => {
    const { client, idpFetch } = setup();
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: randomEmail("client"),
    });
    const { code, state } = await authorize(idpFetch, authorizationUrl);
    const { client: otherClient } = setup({ clientId: "another-client" });
    expect(await otherClient.finishSignIn({ code, state, pending, redirectUri: REDIRECT_URI })).toEqual({
      ok: false,
      code: "token-exchange-failed",
    });
  });

  it("fails the exchange, without throwing, when the token endpoint cannot be reached", async () => {
    const { client } = setup({
      fetch: (viaFake) => async (input, init) => {
        const request = new Request(input, init);
        if (request.url === `${ISSUER}/token`) throw new TypeError("Network connection lost.");
        return viaFake(request);
      },
    });
    const { pending } = await client.beginSignIn({ redirectUri: REDIRECT_URI });
    expect(await client.finishSignIn({ code: "c", state: pending.state, pending, redirectUri: REDIRECT_URI })).toEqual({
      ok: false,
      code: "token-exchange-failed",
    });
  });
});

describe("ID token verification", () => {
  it("fails the exchange, without throwing, when the key set cannot be fetched", async () => {
    const { client, idpFetch } = setup({
      fetch: (viaFake) => async (input, init) => {
        const request = new Request(input, init);
        if (request.url === `${ISSUER}/jwks`) return new Response("upstream error", { status: 502 });
        return viaFake(request);
      },
    });
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: randomEmail("jwks"),
    });
    const { code, state } = await authorize(idpFetch, authorizationUrl);
    expect(await client.finishSignIn({ code, state, pending, redirectUri: REDIRECT_URI })).toEqual({
      ok: false,
      code: "token-exchange-failed",
    });
  });

  it("accepts a well-formed token signed with the fake's key (the harness itself works)", async () => {
    const result = await finishWithForgedIdToken((pending) =>
      signIdTokenForTest(
        env.CACHE,
        validClaims(pending, { email_verified: "true", picture: "https://img.test/a.png" }),
      ),
    );
    expect(result).toEqual({
      ok: true,
      identity: {
        issuer: ISSUER,
        subject: "fake-forged-subject",
        email: "forged@example.com",
        // Google's string form of the flag counts as verified.
        emailVerified: true,
        picture: "https://img.test/a.png",
      },
    });
  });

  it("refuses a token for another audience", async () => {
    const result = await finishWithForgedIdToken((pending) =>
      signIdTokenForTest(env.CACHE, validClaims(pending, { aud: "another-client" })),
    );
    expect(result).toEqual({ ok: false, code: "invalid-id-token" });
  });

  it("refuses a token for several audiences whose authorized party is someone else", async () => {
    const result = await finishWithForgedIdToken((pending) =>
      signIdTokenForTest(
        env.CACHE,
        validClaims(pending, { aud: [CLIENT_ID, "another-client"], azp: "another-client" }),
      ),
    );
    expect(result).toEqual({ ok: false, code: "invalid-id-token" });
  });

  it("refuses a token from another issuer", async () => {
    const result = await finishWithForgedIdToken((pending) =>
      signIdTokenForTest(env.CACHE, validClaims(pending, { iss: "https://evil.test/dev/oidc" })),
    );
    expect(result).toEqual({ ok: false, code: "invalid-id-token" });
  });

  it("refuses an expired token beyond the clock tolerance", async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const result = await finishWithForgedIdToken((pending) =>
      signIdTokenForTest(env.CACHE, validClaims(pending, { iat: nowSeconds - 20 * 60, exp: nowSeconds - 2 * 60 })),
    );
    expect(result).toEqual({ ok: false, code: "invalid-id-token" });
  });

  it("refuses a token signed by another key under the fake's key id", async () => {
    const result = await finishWithForgedIdToken(async (pending) => {
      const genuine = await signIdTokenForTest(env.CACHE, validClaims(pending));
      const [header] = genuine.split(".");
      const { kid } = JSON.parse(new TextDecoder().decode(base64url.decode(header ?? ""))) as { kid: string };
      const attacker = await generateKeyPair("RS256");
      return new SignJWT(validClaims(pending))
        .setProtectedHeader({ alg: "RS256", kid })
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(attacker.privateKey);
    });
    expect(result).toEqual({ ok: false, code: "invalid-id-token" });
  });

  it("refuses an unsigned token", async () => {
    const result = await finishWithForgedIdToken(async (pending) => {
      const encode = (value: object) => base64url.encode(new TextEncoder().encode(JSON.stringify(value)));
      const now = Math.floor(Date.now() / 1000);
      return `${encode({ alg: "none", typ: "JWT" })}.${encode({ ...validClaims(pending), iat: now, exp: now + 600 })}.`;
    });
    expect(result).toEqual({ ok: false, code: "invalid-id-token" });
  });

  it("reports a token without an email as email-missing", async () => {
    const result = await finishWithForgedIdToken((pending) =>
      signIdTokenForTest(env.CACHE, validClaims(pending, { email: undefined })),
    );
    expect(result).toEqual({ ok: false, code: "email-missing" });
  });
});

describe("the fake identity provider", () => {
  it("serves a discovery document naming its endpoints", async () => {
    const { idpFetch } = setup();
    const response = await idpFetch(`${ISSUER}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/jwks`,
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("keeps one signing key in KV, shared by every instance", async () => {
    const { idpFetch } = setup();
    const jwks = await (await idpFetch(`${ISSUER}/jwks`)).json<{ keys: Record<string, string>[] }>();
    expect(jwks.keys).toHaveLength(1);
    const [key] = jwks.keys;
    expect(key).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String) });
    expect(key).not.toHaveProperty("d");
    const stored = await env.CACHE.get<{ kid: string }>("fake-idp:signing-key", "json");
    expect(stored?.kid).toBe(key?.kid);

    const { idpFetch: otherIsolate } = setup();
    const again = await (await otherIsolate(`${ISSUER}/jwks`)).json<{ keys: Record<string, string>[] }>();
    expect(again.keys[0]?.n).toBe(key?.n);
  });

  it("renders the sign-in form with everything escaped, and its submission signs in", async () => {
    const { client, idpFetch } = setup();
    const hostileHint = `"><script>alert(1)</script>@example.com`;
    const { authorizationUrl, pending } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: hostileHint,
    });
    const page = await idpFetch(authorizationUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Fake identity provider — development only");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com");
    expect(html).toContain(`value="${pending.state}"`);

    // Submit the form as a browser would: hidden fields, a typed email, the checkbox unticked.
    const email = randomEmail("form");
    const form = new URLSearchParams(new URL(authorizationUrl).searchParams);
    form.delete("login_hint");
    form.delete("scope");
    form.set("email", email);
    form.set("name", "Form User");
    const submitted = await idpFetch(`${ISSUER}/authorize`, { method: "POST", body: form, redirect: "manual" });
    expect(submitted.status).toBe(302);
    const location = new URL(submitted.headers.get("location") ?? "");
    const result = await client.finishSignIn({
      code: location.searchParams.get("code") ?? "",
      state: location.searchParams.get("state") ?? "",
      pending,
      redirectUri: REDIRECT_URI,
    });
    expect(result).toMatchObject({ ok: true, identity: { email, name: "Form User", emailVerified: false } });
  });

  it("refuses an authorization request without an S256 challenge, without redirecting", async () => {
    const { client, idpFetch } = setup();
    const { authorizationUrl } = await client.beginSignIn({
      redirectUri: REDIRECT_URI,
      loginHint: randomEmail("plain"),
    });
    const url = new URL(authorizationUrl);
    url.searchParams.set("code_challenge_method", "plain");
    url.searchParams.set("auto", "1");
    const response = await idpFetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("code_challenge_method");
  });

  it("answers OAuth errors from the token endpoint", async () => {
    const { idpFetch } = setup();
    const verifier = base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
    const post = (fields: Record<string, string>) =>
      idpFetch(`${ISSUER}/token`, { method: "POST", body: new URLSearchParams(fields) });
    const base = {
      grant_type: "authorization_code",
      code: "never-issued",
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code_verifier: verifier,
    };
    const unknown = await post(base);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: "invalid_grant" });
    const { client_secret: _omitted, ...withoutSecret } = base;
    expect(await (await post(withoutSecret)).json()).toEqual({ error: "invalid_request" });
    expect(await (await post({ ...base, grant_type: "refresh_token" })).json()).toEqual({
      error: "unsupported_grant_type",
    });
  });
});

describe("the test harness", () => {
  it("cannot reach anything outside the fake's issuer", async () => {
    const { idpFetch } = setup();
    await expect(idpFetch("https://accounts.google.com/.well-known/openid-configuration")).rejects.toThrow(TypeError);
  });
});
