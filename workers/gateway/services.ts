/**
 * The infrastructure the gateway and the hosted APIs use, each piece behind a small interface,
 * gathered in one `Services` object built once per request from the environment
 * (`createServices`). Tests build the same object from in-memory parts
 * (tests/fakes/services.ts), so a step or a handler is tested without the piece it does not
 * exercise, and nothing chooses real or fake by `if (test)`.
 *
 * Handlers never see `Services` or the environment: `createOperationContext` hands each one the
 * capabilities of `HostedServices` it may use, scoped to the caller where the data is an
 * account's own (short links).
 *
 * Adding a service for a new API (an FX feed, RDAP, a social platform, Workers AI, a headless
 * browser): declare its interface in workers/hosted/capabilities.ts, where the APIs' side
 * owns it and the provider implementing it imports it, add it to `HostedServices`
 * (optional when the binding it needs may be absent, so the handler answers 503
 * engine-unavailable rather than inventing output), build the real one in `createServices` from
 * `env`/`config`, give tests an in-memory one in tests/fakes/services.ts, and expose it in
 * `createOperationContext`. A service that reaches the network on a caller's behalf goes
 * through `trackNetwork`, so the call counts (decision 013).
 */
import type { Config } from "~workers/config";
import type {
  DocumentEngines,
  DomainRegistry,
  ExchangeRates,
  MailResolver,
  MediaEngines,
  SocialMedia,
} from "~workers/hosted/capabilities";
import { d1Cities, type CityStore } from "~workers/hosted/location/cities";
import { foregroundSegmenterFor } from "~workers/hosted/removebg/segmenters";
import { mailResolverFor } from "~workers/providers/dns";
import { ecbFeedFor } from "~workers/providers/ecb";
import { ecbExchangeRates } from "~workers/providers/ecb/exchange-rates";
import { d1ShortLinks, type ShortLinkStore } from "~workers/hosted/urlshortener/links";
import { domainRegistryFor } from "~workers/providers/rdap";
import { socialMediaFor, type SocialConfig } from "~workers/providers/social";
import { speechEngineFor } from "~workers/hosted/text-to-speech/engine";
import { transcriptionEngineFor } from "~workers/providers/workers-ai/transcription";
import { hmacTunnelTokens, type TunnelTokens } from "./tunnel";
import { apiKeyStore, type KeyStore } from "./api-key-auth";
import type { CallerRecord, MeterPolicy, Refund, Standing, TakeResult } from "./meter";
import { meterFor } from "./meter-policy";
import { hmacUrlSigner, type UrlSigner } from "./signed-url";
import { createDohResolver, type AddressResolver } from "./url-guard";
import { recordCall, type CallRecord } from "./usage-recorder";

/** One account's Meter (meter.ts): the call counter that is also the authority on stale records. */
export interface AccountMeter {
  peek(policy: MeterPolicy, caller?: CallerRecord): Promise<Standing>;
  /** Counts a call of `weight` calls (1 unless given), all or nothing (decision 048). */
  take(policy: MeterPolicy, caller?: CallerRecord, weight?: number): Promise<TakeResult>;
  refund(refund: Refund): Promise<void>;
}

export interface Meters {
  of(userId: string): AccountMeter;
}

/** Where each answered call is recorded, after the response (the dashboard's and benchmarks' rollups). */
export interface UsageSink {
  record(call: CallRecord): void;
}

/** What handlers may use, through their OperationContext. */
export interface HostedServices {
  /** Name lookups for caller-supplied URLs, which the SSRF guard judges before any fetch. */
  dns: AddressResolver;
  /** The network itself, reached only through the guard (`fetchUrl`); tests give a fake one. */
  upstream: typeof fetch;
  shortLinks: ShortLinkStore;
  cities: CityStore;
  /** Where a domain's mail goes (Email Exists): DoH at DNS_RESOLVER_URL or the fake, over KV. */
  mail: MailResolver;
  /** The ECB's reference rates (Currency Converter), with the feed that fills an empty store. */
  rates: ExchangeRates;
  /** Signs and verifies signed URLs (signed-url.ts), with a key derived from SESSION_SECRET. */
  urlSigner: UrlSigner;
  /** Mints and opens the downloader's media-tunnel tokens, with a key derived from SESSION_SECRET. */
  tunnels: TunnelTokens;
  /** Domain registrations over RDAP and port 43 (WHOIS Lookup), the registries real or recorded. */
  registry: DomainRegistry;
  /** Posts on the social platforms (Social Media Videos Downloader), real or recorded, over KV. */
  social: SocialMedia;
  /**
   * The engine Worker (HTML to PDF, Image to Text, Resume Parser) over the ENGINES service
   * binding's RPC; absent where the binding is, and those APIs answer 503 engine-unavailable.
   */
  documents?: DocumentEngines;
  /** Text to Audio, Audio to Text and Remove Background's engines (`mediaEnginesFor`). */
  media: MediaEngines;
}

export interface Services extends HostedServices {
  keys: KeyStore;
  meters: Meters;
  usage: UsageSink;
}

/** The real services, over this request's bindings. */
export function createServices(
  env: Env,
  config: Pick<
    Config,
    | "DNS_RESOLVER_URL"
    | "SESSION_SECRET"
    | "ECB_PROVIDER"
    | "ECB_BASE_URL"
    | "RDAP_PROVIDER"
    | "MX_PROVIDER"
    | "USAGE_FLUSH_SECONDS"
  > &
    SocialConfig,
  waitUntil: (promise: Promise<unknown>) => void,
): Services {
  const dns = createDohResolver(config.DNS_RESOLVER_URL);
  return {
    keys: apiKeyStore(env.DB, env.CACHE),
    meters: { of: (userId) => rpcMeter(meterFor(env, userId)) },
    usage: { record: (call) => recordCall(env.DB, waitUntil, call, config.USAGE_FLUSH_SECONDS * 1000) },
    dns,
    upstream: fetch,
    shortLinks: d1ShortLinks(env.DB),
    cities: d1Cities(env.DB),
    mail: mailResolverFor(config, env.CACHE),
    rates: ecbExchangeRates(env.DB, env.CACHE, ecbFeedFor(config)),
    urlSigner: hmacUrlSigner(config.SESSION_SECRET),
    tunnels: hmacTunnelTokens(config.SESSION_SECRET),
    registry: domainRegistryFor(config.RDAP_PROVIDER, env.CACHE, dns),
    social: socialMediaFor(config, env.CACHE),
    documents: env.ENGINES && rpcDocumentEngines(env.ENGINES),
    media: mediaEnginesFor(env),
  };
}

/** Bindings the media engines use in production only (no local simulation without an account). */
export interface MediaBindings {
  /** Workers AI: Aura and MeloTTS (speech), Whisper (transcription). */
  AI?: Ai;
  /** Cloudflare Images: foreground segmentation. */
  IMAGES?: ImagesBinding;
}

/**
 * The media engines this environment has: Cloudflare's models where their bindings exist
 * (production), else the engine Worker's embedded engines where they exist, else none, and
 * the API answers 503 engine-unavailable naming the binding it needs.
 */
export function mediaEnginesFor(env: Env & MediaBindings): MediaEngines {
  return {
    speech: speechEngineFor(env),
    foreground: foregroundSegmenterFor(env),
    transcription: transcriptionEngineFor(env),
  };
}

/**
 * The engine Worker's RPC stub as the capability its entrypoint implements: RPC answers come
 * back as structured-clone copies of the same outcome types, and a function passed as an
 * argument (the resource fetcher) runs here when the engine calls it.
 */
export function rpcDocumentEngines(binding: Env["ENGINES"]): DocumentEngines {
  return {
    htmlToPdf: (request, fetchResource) => binding.htmlToPdf(request, fetchResource),
    imageToText: (request) => binding.imageToText(request),
    parseResume: (request) => binding.parseResume(request),
    pdfEngines: () => binding.pdfEngines(),
  };
}

type MeterStub = ReturnType<typeof meterFor>;

/** The Durable Object's stub as an AccountMeter: RPC answers come back as plain copies of these types. */
function rpcMeter(stub: MeterStub): AccountMeter {
  return {
    peek: (policy, caller) => stub.peek(policy, caller) as Promise<Standing>,
    take: (policy, caller, weight) => stub.take(policy, caller, weight) as Promise<TakeResult>,
    refund: (refund) => stub.refund(refund),
  };
}

/**
 * The hosted services with their network wrapped, so the gateway knows whether a handler
 * looked anything up or fetched anything on the caller's behalf: such a call counts even when
 * its answer is a refusal (decision 013).
 */
export function trackNetwork(services: HostedServices): { services: HostedServices; reachedOut(): boolean } {
  let reached = false;
  const { dns, upstream, registry, social } = services;
  return {
    services: {
      ...services,
      dns: {
        resolve: (hostname, signal) => {
          reached = true;
          return dns.resolve(hostname, signal);
        },
      },
      upstream: ((input: RequestInfo | URL, init?: RequestInit) => {
        reached = true;
        return upstream(input, init);
      }) as typeof fetch,
      // A domain's mail looked up is the network reached, even when the answer was kept in KV.
      mail: {
        lookup: (domain, signal) => {
          reached = true;
          return services.mail.lookup(domain, signal);
        },
      },
      // A registry asked about a domain is the network reached, whatever it answered (a 404
      // included); a TLD no registry serves is refused without asking anyone.
      registry: {
        lookup: async (domain, signal) => {
          const outcome = await registry.lookup(domain, signal);
          if (outcome.ok || outcome.code !== "unsupported-tld") reached = true;
          return outcome;
        },
      },
      // A platform asked for a post (or a profile, or a media file) is the network reached, even
      // when the extraction was kept in KV; a URL the recogniser refused never gets here.
      social: {
        extract: (ref, signal, options) => {
          reached = true;
          return social.extract(ref, signal, options);
        },
        profile: (username, signal) => {
          reached = true;
          return social.profile(username, signal);
        },
        openMedia: (url, init) => {
          reached = true;
          return social.openMedia(url, init);
        },
        mediaChunkBytes: (url) => social.mediaChunkBytes(url),
      },
    },
    reachedOut: () => reached,
  };
}
