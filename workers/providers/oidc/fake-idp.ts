/**
 * A fake OpenID Connect identity provider for development and tests, so sign-in runs
 * offline: discovery, an authorize page, a token endpoint issuing RS256 ID tokens, and the
 * JWKS. It speaks the same protocol as Google (code flow, PKCE S256), so the real client in
 * `provider.ts` runs unchanged against it. `workers/config.ts` refuses it in production.
 *
 * Fake-only extension: `GET /authorize?...&login_hint=<email>&auto=1` (optionally with
 * `email_verified=false` and `name=<name>`) skips the form and redirects with a code at once,
 * so a test can act as the browser. No real provider offers this.
 */
import { Hono } from "hono";
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import type { CryptoKey, JWTPayload } from "jose";
import { z } from "zod";
import { sha256Hex } from "~workers/platform/ids";
import { escapeHtml, fakePageHeaders, renderFakePage } from "../fake-page";

const SIGNING_KEY_KV_KEY = "fake-idp:signing-key";
const CODE_KV_PREFIX = "fake-idp:code:";
/** KV's minimum expirationTtl; real providers keep codes for about as long. */
const CODE_TTL_SECONDS = 60;
const ID_TOKEN_TTL = "10m";
const DEFAULT_EMAIL = "dev@example.com";

const Base64UrlSchema = z.string().regex(/^[A-Za-z0-9_-]+$/);

const RsaPublicJwkSchema = z.object({ kty: z.literal("RSA"), n: Base64UrlSchema, e: Base64UrlSchema });
const RsaPrivateJwkSchema = RsaPublicJwkSchema.extend({
  d: Base64UrlSchema,
  p: Base64UrlSchema,
  q: Base64UrlSchema,
  dp: Base64UrlSchema,
  dq: Base64UrlSchema,
  qi: Base64UrlSchema,
});
const StoredSigningKeySchema = z.object({
  kid: z.string().min(1),
  publicJwk: RsaPublicJwkSchema,
  privateJwk: RsaPrivateJwkSchema,
});
type StoredSigningKey = z.infer<typeof StoredSigningKeySchema>;

interface SigningKey {
  kid: string;
  publicJwk: StoredSigningKey["publicJwk"];
  privateKey: CryptoKey;
}

/** The authorization request, checked the same way on the page (GET) and on its form (POST). */
const AuthorizationRequestSchema = z.object({
  response_type: z.literal("code"),
  client_id: z.string().min(1),
  redirect_uri: z.url({ protocol: /^https?$/ }),
  state: z.string().min(1).max(512),
  nonce: z.string().min(1).max(512),
  // RFC 7636 §4.2: base64url of a SHA-256 digest is always 43 characters.
  code_challenge: Base64UrlSchema.length(43),
  code_challenge_method: z.literal("S256"),
});
type AuthorizationRequest = z.infer<typeof AuthorizationRequestSchema>;

const NameSchema = z.string().trim().max(100);

/** What the person "signs in" as: typed in the form, or given with `auto=1`. */
const ConsentSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  name: NameSchema.default(""),
  email_verified: z.boolean(),
});

const StoredCodeSchema = z.object({
  client_id: z.string(),
  redirect_uri: z.string(),
  nonce: z.string(),
  code_challenge: z.string(),
  email: z.string(),
  name: z.string(),
  email_verified: z.boolean(),
});
type StoredCode = z.infer<typeof StoredCodeSchema>;

const TokenRequestSchema = z.object({
  grant_type: z.string(),
  code: z.string().min(1),
  redirect_uri: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  // RFC 7636 §4.1: 43 to 128 unreserved characters.
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
});

export function createFakeIdp(options: { issuer: string; kv: KVNamespace }): Hono {
  const issuer = options.issuer.replace(/\/+$/, "");
  const { kv } = options;
  // Held for the life of this instance; KV stays the source of truth across isolates.
  let signingKey: SigningKey | undefined;
  const getSigningKey = async () => (signingKey ??= await loadOrCreateSigningKey(kv));

  const app = new Hono().basePath(new URL(issuer).pathname.replace(/\/+$/, "") || "/");

  app.get("/.well-known/openid-configuration", (c) =>
    c.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "profile", "email"],
      grant_types_supported: ["authorization_code"],
      token_endpoint_auth_methods_supported: ["client_secret_post"],
      claims_supported: ["iss", "aud", "sub", "iat", "exp", "nonce", "email", "email_verified", "name"],
    }),
  );

  app.get("/authorize", async (c) => {
    const query = c.req.query();
    const request = AuthorizationRequestSchema.safeParse(query);
    // Like a real provider, a bad request is shown here and never redirected: the
    // redirect_uri itself may be what is wrong.
    if (!request.success) return c.html(renderErrorPage(request.error.issues), 400, pageHeaders);

    if (query.auto === "1") {
      const consent = ConsentSchema.safeParse({
        email: query.login_hint,
        name: query.name,
        email_verified: query.email_verified !== "false",
      });
      if (!consent.success) return c.html(renderErrorPage(consent.error.issues), 400, pageHeaders);
      return c.redirect(await issueCode(kv, request.data, consent.data), 302);
    }

    return c.html(
      renderConsentPage(request.data, query.login_hint?.trim() || DEFAULT_EMAIL, `${issuer}/authorize`),
      200,
      pageHeaders,
    );
  });

  app.post("/authorize", async (c) => {
    const form = await c.req.parseBody();
    const fields = Object.fromEntries(
      Object.entries(form).flatMap(([key, value]) => (typeof value === "string" ? [[key, value]] : [])),
    );
    const request = AuthorizationRequestSchema.safeParse(fields);
    if (!request.success) return c.html(renderErrorPage(request.error.issues), 400, pageHeaders);
    // An unchecked checkbox is simply absent from the form body.
    const consent = ConsentSchema.safeParse({
      email: fields.email,
      name: fields.name,
      email_verified: fields.email_verified === "on",
    });
    if (!consent.success) return c.html(renderErrorPage(consent.error.issues), 400, pageHeaders);
    return c.redirect(await issueCode(kv, request.data, consent.data), 302);
  });

  app.post("/token", async (c) => {
    // RFC 6749 §5.1: token answers must never be cached.
    c.header("cache-control", "no-store");
    const form = await c.req.parseBody();
    const parsed = TokenRequestSchema.safeParse(form);
    if (!parsed.success) return c.json({ error: "invalid_request" }, 400);
    const request = parsed.data;
    if (request.grant_type !== "authorization_code") return c.json({ error: "unsupported_grant_type" }, 400);

    const key = `${CODE_KV_PREFIX}${request.code}`;
    const stored = StoredCodeSchema.safeParse(await kv.get(key, "json"));
    // Delete before any check: a code is spent by its first presentation, right or wrong.
    // KV has no compare-and-delete, so two requests racing within milliseconds could both
    // read it; acceptable for a development fake.
    await kv.delete(key);
    if (!stored.success) return c.json({ error: "invalid_grant" }, 400);
    const code = stored.data;
    const verifierChallenge = await sha256Base64Url(request.code_verifier);
    if (
      code.client_id !== request.client_id ||
      code.redirect_uri !== request.redirect_uri ||
      code.code_challenge !== verifierChallenge
    ) {
      return c.json({ error: "invalid_grant" }, 400);
    }

    const idToken = await signIdToken(await getSigningKey(), {
      iss: issuer,
      aud: code.client_id,
      sub: await subjectFor(code.email),
      email: code.email,
      email_verified: code.email_verified,
      nonce: code.nonce,
      ...(code.name ? { name: code.name } : {}),
    });
    return c.json({
      access_token: base64url.encode(crypto.getRandomValues(new Uint8Array(32))),
      token_type: "Bearer",
      expires_in: 3600,
      id_token: idToken,
    });
  });

  app.get("/jwks", async (c) => {
    const { kid, publicJwk } = await getSigningKey();
    return c.json({ keys: [{ ...publicJwk, kid, alg: "RS256", use: "sig" }] });
  });

  return app;
}

/**
 * Test-only: signs arbitrary claims with the fake's own key (the one its JWKS serves), so a
 * test can hand the client an ID token for another audience or issuer, or one already
 * expired. Adds `iat` and a 10-minute `exp` unless the claims carry their own.
 */
export async function signIdTokenForTest(kv: KVNamespace, claims: JWTPayload): Promise<string> {
  return signIdToken(await loadOrCreateSigningKey(kv), claims);
}

/**
 * A `fetch` that answers every request under `issuer` from the fake, in process: the client
 * never leaves the isolate. Anything else is refused, as an offline fake must not fall
 * through to the network.
 */
export function createFakeIdpFetch(fakeIdp: Hono, issuer: string): typeof fetch {
  const prefix = `${issuer.replace(/\/+$/, "")}/`;
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(prefix)) {
      throw new TypeError(`The fake identity provider's fetch refuses ${request.method} ${request.url}`);
    }
    return fakeIdp.fetch(request);
  };
}

async function issueCode(
  kv: KVNamespace,
  request: AuthorizationRequest,
  consent: z.infer<typeof ConsentSchema>,
): Promise<string> {
  const code = base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
  const stored: StoredCode = {
    client_id: request.client_id,
    redirect_uri: request.redirect_uri,
    nonce: request.nonce,
    code_challenge: request.code_challenge,
    email: consent.email,
    name: consent.name,
    email_verified: consent.email_verified,
  };
  await kv.put(`${CODE_KV_PREFIX}${code}`, JSON.stringify(stored), { expirationTtl: CODE_TTL_SECONDS });
  const location = new URL(request.redirect_uri);
  location.searchParams.set("code", code);
  location.searchParams.set("state", request.state);
  return location.href;
}

async function signIdToken(key: SigningKey, claims: JWTPayload): Promise<string> {
  const { iat, exp, ...rest } = claims;
  const token = new SignJWT(rest)
    .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
    .setIssuedAt(iat ?? new Date());
  token.setExpirationTime(exp ?? ID_TOKEN_TTL);
  return token.sign(key.privateKey);
}

/**
 * Every isolate of a dev server must sign with the key the JWKS of every other isolate
 * serves, so the key pair lives in KV, made the first time it is needed. Two isolates making
 * it at the same moment would each write one; reading back what KV kept makes them agree.
 */
async function loadOrCreateSigningKey(kv: KVNamespace): Promise<SigningKey> {
  const existing = StoredSigningKeySchema.safeParse(await kv.get(SIGNING_KEY_KV_KEY, "json"));
  if (existing.success) return importSigningKey(existing.data);

  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = RsaPublicJwkSchema.parse(await exportJWK(publicKey));
  const stored: StoredSigningKey = {
    kid: await calculateJwkThumbprint(publicJwk),
    publicJwk,
    privateJwk: RsaPrivateJwkSchema.parse(await exportJWK(privateKey)),
  };
  await kv.put(SIGNING_KEY_KV_KEY, JSON.stringify(stored));
  const kept = StoredSigningKeySchema.safeParse(await kv.get(SIGNING_KEY_KV_KEY, "json"));
  return importSigningKey(kept.success ? kept.data : stored);
}

async function importSigningKey(stored: StoredSigningKey): Promise<SigningKey> {
  const privateKey = await importJWK(stored.privateJwk, "RS256");
  // A JWK with key material always imports as a CryptoKey; only an `oct` key yields bytes.
  if (privateKey instanceof Uint8Array) throw new Error("The fake identity provider's key is not an RSA key");
  return { kid: stored.kid, publicJwk: stored.publicJwk, privateKey };
}

/** A stable subject per email, the way a real provider keeps one `sub` per account. */
async function subjectFor(email: string): Promise<string> {
  return `fake-${(await sha256Hex(email)).slice(0, 20)}`;
}

async function sha256Base64Url(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return base64url.encode(new Uint8Array(digest));
}

const PAGE_STYLE = `
  .client { font-size: 0.875rem; opacity: 0.8; overflow-wrap: anywhere; }
  label { display: block; margin-bottom: 1rem; font-size: 0.9rem; }
  input[type="email"], input[type="text"] { display: block; width: 100%; box-sizing: border-box; margin-top: 0.25rem; padding: 0.5rem; font: inherit; border: 1px solid color-mix(in srgb, CanvasText 35%, transparent); border-radius: 0.375rem; background: Field; color: FieldText; }
  .check { display: flex; gap: 0.5rem; align-items: center; }
  button { background: #2563eb; color: white; }
  ul { padding-left: 1.25rem; }
`;
const pageHeaders = fakePageHeaders();

function renderDocument(body: string): string {
  return renderFakePage("Fake identity provider — development only", PAGE_STYLE, body);
}

function renderConsentPage(request: AuthorizationRequest, email: string, action: string): string {
  const hidden = Object.entries(request)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  return renderDocument(`
<h1>Fake identity provider</h1>
<p class="warning">Development only — no real account is involved.</p>
<p class="client">Signing in to <strong>${escapeHtml(request.client_id)}</strong>, returning to ${escapeHtml(request.redirect_uri)}</p>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<label>Email <input type="email" name="email" required value="${escapeHtml(email)}"></label>
<label>Name <input type="text" name="name" maxlength="100" value=""></label>
<label class="check"><input type="checkbox" name="email_verified" checked> Email verified</label>
<button type="submit">Continue</button>
</form>`);
}

function renderErrorPage(issues: z.ZodError["issues"]): string {
  const items = issues
    .map(
      (issue) => `<li><code>${escapeHtml(issue.path.join(".") || "request")}</code>: ${escapeHtml(issue.message)}</li>`,
    )
    .join("");
  return renderDocument(`
<h1>Fake identity provider</h1>
<p class="warning">Development only — this sign-in request is invalid.</p>
<ul>${items}</ul>`);
}
