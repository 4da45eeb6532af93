/**
 * The identity provider the configuration names: Google (or any OpenID Connect issuer) over
 * the network in production, the in-Worker fake in development and tests.
 */
import type { Config } from "~workers/config";
import { createFakeIdp, createFakeIdpFetch } from "./fake-idp";
import { createOidcClient, type OidcProvider } from "./provider";

export const FAKE_IDP_PATH = "/dev/oidc";

export function oidcProviderFor(config: Config, env: Env, origin: string): OidcProvider {
  if (config.OIDC_PROVIDER === "fake") {
    const issuer = `${origin}${FAKE_IDP_PATH}`;
    const fake = createFakeIdp({ issuer, kv: env.CACHE });
    return createOidcClient({
      issuer,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      fetch: createFakeIdpFetch(fake, issuer),
    });
  }
  // The global fetch itself (not a wrapper): the key-set cache is keyed by the function.
  return createOidcClient({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    fetch,
  });
}

/** Serves the fake provider's endpoints, only when the configuration chose it. */
export function serveFakeIdp(config: Config, env: Env, request: Request): Promise<Response> | null {
  if (config.OIDC_PROVIDER !== "fake") return null;
  const url = new URL(request.url);
  if (url.pathname !== FAKE_IDP_PATH && !url.pathname.startsWith(`${FAKE_IDP_PATH}/`)) return null;
  return Promise.resolve(createFakeIdp({ issuer: `${url.origin}${FAKE_IDP_PATH}`, kv: env.CACHE }).fetch(request));
}
