/**
 * OpenID Connect sign-in: the authorization-code flow with PKCE (S256), behind a small
 * interface so the Worker talks to Google in production and to the fake identity provider
 * (`fake-idp.ts`) in development and tests. Every outbound call goes through the `fetch` the
 * caller hands in, and a provider's bad answer is a failure code, never an exception.
 */
import { base64url, createRemoteJWKSet, customFetch, errors, jwtVerify } from "jose";
import type { JWTPayload, RemoteJWKSet } from "jose";
import { z } from "zod";

/** What the caller keeps between the redirect out and the callback (a short-lived signed cookie). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  createdAt: number;
}

/** Parses the pending sign-in read back from the caller's cookie. */
export const PendingSignInSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43).max(128),
  createdAt: z.number().int().nonnegative(),
}) satisfies z.ZodType<PendingSignIn>;

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name?: string;
  picture?: string;
}

export type FinishSignInResult =
  | { ok: true; identity: OidcIdentity }
  | {
      ok: false;
      code:
        | "state-mismatch"
        | "expired"
        | "token-exchange-failed"
        | "invalid-id-token"
        | "nonce-mismatch"
        | "email-missing";
    };

export interface OidcProvider {
  beginSignIn(input: { redirectUri: string; loginHint?: string }): Promise<{
    authorizationUrl: string;
    pending: PendingSignIn;
  }>;
  finishSignIn(input: {
    code: string;
    state: string;
    pending: PendingSignIn;
    redirectUri: string;
    now?: number;
  }): Promise<FinishSignInResult>;
}

export const PENDING_SIGN_IN_TTL_MS = 10 * 60 * 1000;

/** Google's discovery names its issuer with the scheme, yet its ID tokens carry either form. */
const GOOGLE_ISSUER = "https://accounts.google.com";
const GOOGLE_ISSUERS = [GOOGLE_ISSUER, "accounts.google.com"];

const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Slack for the provider's clock and ours when checking `exp`, `iat` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 60;
/**
 * Both Google and the fake sign ID tokens with RS256. Pinning the algorithm closes the door on
 * algorithm-confusion tricks whatever key types the JWKS happens to publish.
 */
const ID_TOKEN_ALGORITHMS = ["RS256"];

const DiscoverySchema = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});
type Discovery = z.infer<typeof DiscoverySchema>;

const TokenResponseSchema = z.object({
  id_token: z.string().min(1),
  token_type: z.string().optional(),
});

const IdTokenClaimsSchema = z.object({
  sub: z.string().min(1),
  aud: z.union([z.string(), z.array(z.string())]),
  azp: z.string().optional(),
  nonce: z.string().optional(),
  email: z.string().optional(),
  // Google has sent `email_verified` both as a JSON boolean and as the string "true".
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

// Module memory lives as long as the isolate: discovery documents are plain data, so one
// cache per issuer serves every request.
const discoveryCache = new Map<string, { discovery: Discovery; fetchedAt: number }>();

// jose's remote key set caches the keys and refetches once on an unknown `kid` (key rotation).
// It is kept per fetch function too, so a client built over a different transport (the fake's
// in-process router, a test double) never reuses keys fetched through another one.
const keySetCache = new WeakMap<typeof fetch, Map<string, RemoteJWKSet>>();

export function createOidcClient(options: {
  issuer: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  acceptedIssuers?: string[];
}): OidcProvider {
  const issuer = options.issuer.replace(/\/+$/, "");
  // Called without a receiver: workerd's fetch throws "Illegal invocation" when called as a
  // method of another object (`options.fetch(...)`).
  const doFetch = options.fetch;
  const acceptedIssuers = options.acceptedIssuers ?? (issuer === GOOGLE_ISSUER ? GOOGLE_ISSUERS : [issuer]);

  async function discover(): Promise<Discovery> {
    const cached = discoveryCache.get(issuer);
    if (cached && Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached.discovery;
    const response = await doFetch(`${issuer}/.well-known/openid-configuration`, {
      headers: { accept: "application/json" },
    });
    if (!response.ok) throw new Error(`OIDC discovery for ${issuer} answered ${response.status}`);
    const discovery = DiscoverySchema.parse(await response.json());
    // OpenID Connect Discovery 1.0 §4.3: the document must name the issuer it was fetched for,
    // or someone could hand us another provider's endpoints.
    if (discovery.issuer.replace(/\/+$/, "") !== issuer) {
      throw new Error(`OIDC discovery for ${issuer} names issuer ${discovery.issuer}`);
    }
    discoveryCache.set(issuer, { discovery, fetchedAt: Date.now() });
    return discovery;
  }

  function keySetFor(jwksUri: string): RemoteJWKSet {
    let byUri = keySetCache.get(doFetch);
    if (!byUri) {
      byUri = new Map();
      keySetCache.set(doFetch, byUri);
    }
    let keySet = byUri.get(jwksUri);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(jwksUri), {
        [customFetch]: (url, init) => doFetch(url, init),
      });
      byUri.set(jwksUri, keySet);
    }
    return keySet;
  }

  async function exchangeCode(discovery: Discovery, code: string, redirectUri: string, codeVerifier: string) {
    try {
      const response = await doFetch(discovery.token_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        // client_secret_post: Google accepts the client's credentials in the form body.
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          code_verifier: codeVerifier,
          client_id: options.clientId,
          client_secret: options.clientSecret,
        }),
      });
      if (!response.ok) return null;
      const parsed = TokenResponseSchema.safeParse(await response.json());
      return parsed.success ? parsed.data : null;
    } catch {
      // Network failures and non-JSON bodies are the provider's problem, reported as a value.
      return null;
    }
  }

  /**
   * Verifies the ID token's signature and registered claims. Failing to reach the provider's
   * key set is a transport failure like a failed token exchange; anything wrong with the token
   * itself is an invalid token.
   */
  async function verifyIdToken(
    discovery: Discovery,
    idToken: string,
    now: number,
  ): Promise<{ ok: true; payload: JWTPayload } | { ok: false; code: "token-exchange-failed" | "invalid-id-token" }> {
    try {
      const { payload } = await jwtVerify(idToken, keySetFor(discovery.jwks_uri), {
        issuer: acceptedIssuers,
        audience: options.clientId,
        algorithms: ID_TOKEN_ALGORITHMS,
        // A token without `exp` would never expire; every OIDC provider sets these.
        requiredClaims: ["sub", "exp", "iat"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(now),
      });
      return { ok: true, payload };
    } catch (error) {
      // jose raises its generic error only for a key-set answer that is not 200 JSON, and a
      // timeout or the fetch's own error when the key set cannot be reached at all.
      const keySetUnreachable =
        !(error instanceof errors.JOSEError) ||
        error instanceof errors.JWKSTimeout ||
        error.code === errors.JOSEError.code;
      return { ok: false, code: keySetUnreachable ? "token-exchange-failed" : "invalid-id-token" };
    }
  }

  return {
    async beginSignIn({ redirectUri, loginHint }) {
      const discovery = await discover();
      const pending: PendingSignIn = {
        state: randomToken(),
        nonce: randomToken(),
        codeVerifier: randomToken(),
        createdAt: Date.now(),
      };
      const url = new URL(discovery.authorization_endpoint);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", options.clientId);
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("scope", "openid profile email");
      url.searchParams.set("state", pending.state);
      url.searchParams.set("nonce", pending.nonce);
      url.searchParams.set("code_challenge", await codeChallengeFor(pending.codeVerifier));
      url.searchParams.set("code_challenge_method", "S256");
      if (loginHint) url.searchParams.set("login_hint", loginHint);
      return { authorizationUrl: url.href, pending };
    },

    async finishSignIn({ code, state, pending, redirectUri, now = Date.now() }) {
      // The state binds the callback to the browser that started the sign-in (login CSRF).
      if (!constantTimeEqual(state, pending.state)) return { ok: false, code: "state-mismatch" };
      const age = now - pending.createdAt;
      // A createdAt in the future is as suspect as a stale one; written so NaN fails too.
      if (!(age <= PENDING_SIGN_IN_TTL_MS && age >= -CLOCK_TOLERANCE_SECONDS * 1000)) {
        return { ok: false, code: "expired" };
      }

      let discovery: Discovery;
      try {
        discovery = await discover();
      } catch {
        return { ok: false, code: "token-exchange-failed" };
      }
      const tokens = await exchangeCode(discovery, code, redirectUri, pending.codeVerifier);
      if (!tokens) return { ok: false, code: "token-exchange-failed" };

      const verified = await verifyIdToken(discovery, tokens.id_token, now);
      if (!verified.ok) return verified;
      const claims = IdTokenClaimsSchema.safeParse(verified.payload);
      if (!claims.success) return { ok: false, code: "invalid-id-token" };
      // OIDC Core §3.1.3.7: with several audiences, the authorized party must be us.
      if (Array.isArray(claims.data.aud) && claims.data.aud.length > 1 && claims.data.azp !== options.clientId) {
        return { ok: false, code: "invalid-id-token" };
      }
      // The nonce ties the ID token to this sign-in, so a token replayed from another one fails.
      if (claims.data.nonce === undefined || !constantTimeEqual(claims.data.nonce, pending.nonce)) {
        return { ok: false, code: "nonce-mismatch" };
      }
      const email = claims.data.email?.trim();
      if (!email) return { ok: false, code: "email-missing" };

      const identity: OidcIdentity = {
        // The issuer as configured: Google's two spellings name one account space.
        issuer,
        subject: claims.data.sub,
        email,
        emailVerified: claims.data.email_verified === true || claims.data.email_verified === "true",
      };
      if (claims.data.name) identity.name = claims.data.name;
      if (claims.data.picture) identity.picture = claims.data.picture;
      return { ok: true, identity };
    },
  };
}

/** 32 random bytes, base64url: 43 characters, also a valid PKCE code verifier (RFC 7636 §4.1). */
function randomToken(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
}

/** PKCE S256: base64url(SHA-256(ASCII(code_verifier))). */
export async function codeChallengeFor(codeVerifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(codeVerifier));
  return base64url.encode(new Uint8Array(digest));
}

/** Compares two strings without an early exit, so timing does not leak a matching prefix. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let difference = left.length ^ right.length;
  for (let index = 0; index < left.length; index++) {
    difference |= (left[index] ?? 0) ^ (right[index % Math.max(right.length, 1)] ?? 0);
  }
  return difference === 0;
}
