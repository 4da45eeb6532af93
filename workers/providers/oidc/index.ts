/**
 * The identity provider the configuration names: Google (or any OpenID Connect issuer) over
 * the network in production, the in-Worker fake in development and tests (loaded through
 * `loadFakes()`, so a production build does not hold it).
 */
import type { Config } from "~workers/config";
import { lazyFetch } from "../fakes";
import { createOidcClient, type OidcProvider } from "./provider";

export const FAKE_IDP_PATH = "/dev/oidc";

export function oidcProviderFor(config: Config, env: Env, origin: string): OidcProvider {
  if (config.OIDC_PROVIDER === "fake") {
    const issuer = `${origin}${FAKE_IDP_PATH}`;
    return createOidcClient({
      issuer,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      fetch: lazyFetch((fakes) => fakes.fakeIdpFetch(issuer, env.CACHE)),
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
