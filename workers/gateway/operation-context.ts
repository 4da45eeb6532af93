/**
 * The one way an OperationContext is made: the gateway makes one per call, the bench route one
 * for its bare handler, and tests/hosted-context.ts one per test. What differs between them is
 * only what they pass in (real or in-memory services, a time limit's signal or none).
 */
import type { CallerAccount, OperationContext } from "~workers/hosted/definition";
import type { HostedServices } from "./services";
import { tunnelUrlFor } from "~workers/gateway/tunnel";
import { fetchGuarded } from "./url-guard";

export interface OperationContextOptions {
  request: Request;
  requestId: string;
  account: CallerAccount;
  services: HostedServices;
  /** PUBLIC_HOSTS from the configuration. */
  publicHosts: readonly string[];
  /** Aborted when the caller stops waiting for the handler; `fetchUrl` obeys it. */
  signal: AbortSignal;
  waitUntil(promise: Promise<unknown>): void;
  /** The request's own origin unless given (tests name one without building a request for it). */
  origin?: string;
}

export function createOperationContext(options: OperationContextOptions): OperationContext {
  const { services, signal } = options;
  return {
    request: options.request,
    requestId: options.requestId,
    account: options.account,
    origin: options.origin ?? new URL(options.request.url).origin,
    publicHosts: options.publicHosts,
    signal,
    waitUntil: options.waitUntil,
    fetchUrl: (url, fetchOptions) =>
      fetchGuarded(url, {
        resolver: services.dns,
        fetcher: services.upstream,
        signal,
        maxBytes: fetchOptions?.maxBytes,
        accept: fetchOptions?.accept,
      }),
    shortLinks: services.shortLinks.of(options.account.userId),
    cities: services.cities,
    mail: services.mail,
    registry: services.registry,
    rates: services.rates,
    social: services.social,
    documents: services.documents,
    media: services.media,
    signUrl: async ({ path, params, expiresInSeconds }) => {
      const origin = options.origin ?? new URL(options.request.url).origin;
      const expiresAt = Math.floor(Date.now() / 1000) + expiresInSeconds;
      const query = await services.urlSigner.sign({
        method: "GET",
        path,
        params,
        keyId: options.account.keyId,
        expiresAt,
      });
      return { url: `${origin}${path}?${query}`, expiresAt };
    },
    tunnelUrl: (upstreamUrl, media) =>
      tunnelUrlFor(
        services.tunnels,
        options.origin ?? new URL(options.request.url).origin,
        upstreamUrl,
        media,
        Date.now(),
        options.account.keyId,
      ),
  };
}
