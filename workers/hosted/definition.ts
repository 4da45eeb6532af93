/**
 * What a hosted API's folder exports: its operations, each with a zod input schema, an output
 * description, examples and a handler. The gateway mounts them, the docs pages and OpenAPI
 * describe them, and the live demo calls them, all from these definitions.
 *
 * Each folder `workers/hosted/<slug>/index.ts` exports `definition` (found by
 * `workers/hosted/definitions.ts`); the name, group and description stay in `registry.ts`.
 */
import type { z } from "zod";
import type { PlanId } from "~workers/platform/plans";
import type { ProblemType } from "~workers/http/problem";
import type {
  DocumentEngines,
  MediaEngines,
  DomainRegistry,
  ExchangeRates,
  MailResolver,
  PostRef,
  SocialMedia,
} from "./capabilities";
import type { CityStore } from "./location/cities";
import type { OwnShortLinks } from "./urlshortener/links";

export type HttpMethod = "GET" | "POST" | "DELETE";

/** Where the input comes from: the query string, a JSON body, or a multipart form (files as `File`). */
export type InputSource = "query" | "json" | "multipart" | "json-or-multipart";

export interface CallerAccount {
  userId: string;
  keyId: string;
  planId: PlanId;
}

/**
 * What a handler may use: the call, the caller, and capabilities, never the raw bindings or
 * configuration. The gateway, the bench route and tests all build it with
 * `createOperationContext` (workers/gateway/operation-context.ts) from a `Services` object, so
 * a test hands a handler in-memory parts through the same door production uses. A new
 * capability is a member here (see workers/gateway/services.ts for how one is added).
 */
export interface OperationContext {
  request: Request;
  requestId: string;
  /** The calling account; absent for operations marked `public` (redirects). */
  account: CallerAccount;
  /** The origin the request came to (`https://portico.dev`), for building absolute URLs. */
  origin: string;
  /** The host names this site is served on (PUBLIC_HOSTS, normalised), besides `origin`'s. */
  publicHosts: readonly string[];
  /**
   * Aborted when the gateway stops waiting for the handler (its time limit). `fetchUrl` obeys
   * it already; pass it to any other outbound work, so nothing runs on after the answer.
   */
  signal: AbortSignal;
  /** Runs work after the response (usage, click counts). */
  waitUntil(promise: Promise<unknown>): void;
  /**
   * Fetches a caller-supplied URL with the SSRF guard: http(s) only, no credentials, no
   * private/loopback/link-local/metadata destinations (checked on every redirect), bounded
   * size and time. Throws `UrlInputError` with a message for the caller.
   */
  fetchUrl(
    url: string,
    options?: { maxBytes?: number; accept?: string },
  ): Promise<{ bytes: Uint8Array; contentType: string; finalUrl: string }>;
  /** The caller's own short links (URL shortener). */
  shortLinks: OwnShortLinks;
  /** The cities table (location). */
  cities: CityStore;
  /** Where a domain's mail goes, over DNS-over-HTTPS with a KV cache (email-exist). */
  mail: MailResolver;
  /** Domain registrations from the registries, RDAP or port 43 (WHOIS Lookup). */
  registry: DomainRegistry;
  /** The ECB's reference rates (currency-converter). */
  rates: ExchangeRates;
  /** Posts' media on the social platforms, read by one extractor each (youtube-instagram-video-downloader). */
  social: SocialMedia;
  /**
   * The document engines (HTML to PDF, Image to Text, Resume Parser) in the engine Worker;
   * absent where its binding is, and the handler answers engine-unavailable.
   */
  documents?: DocumentEngines;
  /**
   * Text to Audio, Audio to Text and Remove Background's engines: Workers AI and Cloudflare
   * Images where bound, else the engine Worker's embedded ones; each absent where neither is.
   */
  media: MediaEngines;
  /**
   * A URL making one GET of `path` (an operation with `acceptsSignedUrl`) with `params`, on the
   * caller's own key, for `expiresInSeconds` (decision 043). Whoever holds the URL can make
   * that call, counted against the caller, until it expires or the key is revoked.
   */
  signUrl(request: {
    path: string;
    params: URLSearchParams;
    expiresInSeconds: number;
  }): Promise<{ url: string; expiresAt: number }>;
  /**
   * A URL on our host that streams `upstreamUrl` through the Worker, Range requests included,
   * for media a platform binds to the address that asked for it (decision 052). It names that
   * one URL, its type and the download's file name, and expires in minutes; whoever holds it
   * may fetch it without a key until then. `source` (the post and the rendition's formatId)
   * lets the tunnel ask the platform again when the URL is refused from its address.
   */
  tunnelUrl(
    upstreamUrl: string,
    media: { mimeType: string; filename: string; source?: { ref: PostRef; formatId: string } },
  ): Promise<string>;
}

/** A handler's answer. Binary bodies become `{ data, mimeType, size }` when the caller asks `?as=json`. */
export type HandlerResult =
  | { kind: "json"; body: unknown; status?: number; headers?: Record<string, string> }
  | { kind: "binary"; body: Uint8Array | string; contentType: string; headers?: Record<string, string> }
  | { kind: "redirect"; location: string; status: 301 | 302 }
  | {
      kind: "problem";
      type: ProblemType;
      detail: string;
      extensions?: Record<string, unknown>;
      /** Headers of the problem's own (`Retry-After` on an upstream's 429). */
      headers?: Record<string, string>;
    };

export interface Operation<Input extends z.ZodType = z.ZodType> {
  /** Unique within the API, camelCase: `createAvatar`, `getLinkStats`. */
  id: string;
  method: HttpMethod;
  /** Relative to `/api/v1/<slug>`: "" for the API's main call, or "/links/:alias". Hono path syntax. */
  path: string;
  summary: string;
  /** Longer docs text: behaviour, limits, engine notes. */
  description?: string;
  inputSource: InputSource;
  /** Parses query/body merged with path params. Field errors become a 422 problem. */
  input: Input;
  output:
    | { kind: "json"; schema: z.ZodType; example: unknown }
    | { kind: "binary"; mimeTypes: string[]; description: string };
  /** A typical valid input: the docs' samples, the live demo's defaults, the property tests' seed. */
  example: z.input<Input>;
  /** Largest accepted request body; the gateway answers 413 beyond it. Default 64 KiB. */
  maxBodyBytes?: number;
  /** The status of a successful answer: 201 for an operation that creates a resource, else 200. */
  successStatus?: 200 | 201;
  /**
   * A GET operation that also accepts a signed URL instead of a key header (decision 043), so
   * it can be used where no header can be sent (`<img src>`). Other operations refuse one.
   */
  acceptsSignedUrl?: boolean;
  /** Problems this call answers beyond those every call can (docs' error lists, OpenAPI). */
  errors?: { type: ProblemType; when: string }[];
  /**
   * What one call costs against the plan's limits, in calls (decision 048): 1 unless given. A
   * number is a fixed cost; a function weighs the parsed input (a batch of n items costs n),
   * and the gateway then reads the input before the Meter counts the call, all of it or none.
   * Say what it costs in the operation's description.
   */
  weight?: number | ((input: z.output<Input>) => number);
  handler(input: z.output<Input>, ctx: OperationContext): Promise<HandlerResult>;
}

/**
 * A path an older client of the product already calls (spec-era clients send the key in
 * `X-Avatar-Key` and call e.g. `POST /api/qrcode`). The gateway serves it through the named
 * operation after `adapt` turns the old input shape into the operation's input.
 */
export interface LegacyRoute {
  method: HttpMethod;
  /** Absolute path, e.g. "/api/qrcode". */
  path: string;
  operationId: string;
  adapt(raw: Record<string, unknown>): Record<string, unknown>;
  /**
   * For an older path that served several calls: the id of the API's operation that serves this
   * body (before `adapt`), `operationId` when it answers undefined. The key, the plan and the
   * Meter judge the call as `operationId`'s, so an operation picked here must take JSON as it
   * does and cost the same.
   */
  select?(raw: Record<string, unknown>): string | undefined;
  /** How the older clients read the answers, when not as the operation writes them. */
  answer?: LegacyAnswer;
  /**
   * The older input, for the docs and OpenAPI, when it differs from the operation's own. It is
   * documentation: `adapt` and then the operation's schema are what accept or refuse a call.
   */
  input?: LegacyInput;
}

export interface LegacyAnswer {
  /**
   * The operation's JSON answer as the older clients read it; `raw` is their body as it came
   * (before `adapt`), for members that only shape the answer.
   */
  json(body: unknown, call: { operationId: string; raw: Record<string, unknown> }): unknown;
  /**
   * Members every problem answered on this path carries, beside the `message` all problems
   * repeat (`success: 0`): the older clients test them before reading anything else.
   */
  problemMembers?: Record<string, unknown>;
  /** The reshaped answer's schema and an example, for OpenAPI and the tests that hold answers to it. */
  schema: z.ZodType;
  example: unknown;
}

export interface LegacyInput {
  /** One or two sentences on the shape, in Markdown. */
  summary: string;
  /** JSON Schema (2020-12) of the body. */
  schema: Record<string, unknown>;
  example: Record<string, unknown>;
}

export interface HostedApiDefinition {
  slug: string;
  operations: Operation[];
  legacyRoutes?: LegacyRoute[];
}

/** Helps TypeScript infer each operation's input type at the definition site. */
export function defineOperation<Input extends z.ZodType>(operation: Operation<Input>): Operation {
  return operation as unknown as Operation;
}

// Declared below the hosted APIs, the gateway and the providers, which all use it; re-exported
// here because handlers throw it beside the rest of what they import from this module.
export { UrlInputError } from "~workers/net/url-input-error";

export const json = (body: unknown, status?: number, headers?: Record<string, string>): HandlerResult => ({
  kind: "json",
  body,
  status,
  headers,
});

export const binary = (
  body: Uint8Array | string,
  contentType: string,
  headers?: Record<string, string>,
): HandlerResult => ({
  kind: "binary",
  body,
  contentType,
  headers,
});

export const problemResult = (
  type: ProblemType,
  detail: string,
  extensions?: Record<string, unknown>,
  headers?: Record<string, string>,
): HandlerResult => ({
  kind: "problem",
  type,
  detail,
  extensions,
  ...(headers && { headers }),
});
