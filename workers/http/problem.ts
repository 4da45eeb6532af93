/**
 * RFC 9457 problem details: the one error shape of the JSON API. The list of types is
 * closed; each maps to one HTTP status. Callers that read an older shape (a `message` or
 * `success` member) get it as an extension member beside the standard ones.
 */
import type { Context } from "hono";
import { firstErrorPerField, type FieldIssue } from "~/lib/field-errors";
import { SITE } from "~/lib/site";
import type { ApiEnv } from "./env";

export interface ProblemTypeInfo {
  status: number;
  title: string;
  /** What the problem means, for its page at /problems/<type>. */
  description: string;
  /** What the caller can do about it. */
  action: string;
  /**
   * A call answered with this problem never counts against the month, even after reaching the
   * network (decision 051): an upstream failed to give what was asked, so the caller got
   * nothing (workers/gateway/steps/answer.ts reads it).
   */
  uncounted?: true;
}

export const PROBLEM_TYPES = {
  "invalid-input": {
    status: 422,
    title: "Invalid input",
    description:
      "The request was read, but a value broke a rule: a field is missing, has the wrong type, is out of range or is not one of the allowed values. `errors` names each such field (nested ones by a dotted path, a failure of the whole body under `body` or `input`) with the first rule it broke, and `detail` repeats the first of them.",
    action:
      "Correct the fields named in `errors` and send the request again. Each API's docs page lists its fields and their rules. A call refused for its input before the API ran does not count against your month.",
  },
  "malformed-body": {
    status: 400,
    title: "Malformed request body",
    description:
      "The body could not be read in the form the call takes: JSON that does not parse or is not an object, a multipart body that is damaged, or a body of a type the call does not accept.",
    action:
      "Send JSON with `content-type: application/json`, or `multipart/form-data` where the docs say the call takes a file, and check the body is complete.",
  },
  "body-too-large": {
    status: 413,
    title: "Request body too large",
    description:
      "The body is larger than this call accepts. Portico refuses it before reading it whole, so nothing in it was looked at.",
    action:
      "Send a smaller body: `detail` says the limit. For an image or a document, shrink it first, or pass a URL where the call takes one.",
  },
  unauthenticated: {
    status: 401,
    title: "Not signed in",
    description:
      "This call acts for an account, and the request carried no valid session: no cookie, no `Authorization: Bearer <auth_token>`, or a session that has ended.",
    action:
      "Log in (`POST /api/users/login`, or the site's login page) and send the session cookie or the `auth_token` it answers.",
  },
  "missing-api-key": {
    status: 401,
    title: "API key missing",
    description: "Hosted APIs need an API key, and the request carried none.",
    action:
      "Send your key in the `x-api-key` header, or as `Authorization: Bearer <key>`. Create a key on your API Key page after signing up.",
  },
  "invalid-api-key": {
    status: 401,
    title: "API key not recognised",
    description:
      "The request carried an API key that is not one of Portico's keys: mistyped, cut short, or from another service.",
    action:
      "Copy the key again from your API Key page. A key is shown whole only once, when it is created; if it is lost, create a new one.",
  },
  "revoked-api-key": {
    status: 403,
    title: "API key revoked",
    description:
      "The key was revoked (by its owner, by a rotation, or when the account was deleted) and is refused from the next call on.",
    action: "Use another active key of your account, or create a new one on your API Key page.",
  },
  "invalid-signed-url": {
    status: 401,
    title: "Signed URL not valid",
    description:
      "The call came with a signed URL (`key_id`, `expires`, `signature`) that Portico did not make this way: a parameter was changed, added or removed after signing, the URL was signed for another call, or this call does not take signed URLs. Nothing in the URL was used.",
    action:
      "Ask for a new signed URL with the options you want (for QR codes, `POST /api/v1/qrcode/signed-url`) and use it as it comes back, or send your key in the `x-api-key` header.",
  },
  "expired-signed-url": {
    status: 401,
    title: "Signed URL expired",
    description: "The signed URL was genuine, but its lifetime (`expires`) has passed. `detail` says when it ended.",
    action: "Ask for a new signed URL; one lives up to seven days.",
  },
  "invalid-tunnel-url": {
    status: 404,
    title: "Tunnel URL not valid",
    description:
      "A media URL of the Social Media Videos Downloader (`…/tunnel/<token>`) that Portico did not issue this way: its token was changed, cut short or copied wrongly, a query string was added, or it names a host the tunnel never fetches. A tunnel URL is its own credential, so one that is not ours names nothing here.",
    action: "Use the media URL exactly as the API answered it, or call the API again for a fresh one.",
  },
  "expired-tunnel-url": {
    status: 410,
    title: "Tunnel URL expired",
    description:
      "A media URL of the Social Media Videos Downloader is usable for fifteen minutes from the call that answered it. A download started in time runs to its end; a request started later (a resumed download, a player seeking) is refused. `detail` says when it ended.",
    action: "Call the API again for a fresh media URL and start the download from it.",
  },
  "range-not-satisfiable": {
    status: 416,
    title: "Range not satisfiable",
    description:
      "The request's `Range` starts at or beyond the end of the file. `Content-Range: bytes */<size>` gives the file's size.",
    action: "Ask for a range within the file's size, or leave `Range` out to get the whole file.",
  },
  "plan-required": {
    status: 403,
    title: "Not included in your plan",
    description: "The API you called is not included in your account's plan. `detail` names the plans that include it.",
    action: "Upgrade on the pricing page; the new plan applies to the next call. Free APIs are included in every plan.",
  },
  "invalid-credentials": {
    status: 401,
    title: "Wrong email or password",
    description:
      "The email and password do not match an account. The answer is the same whether the address has no account or the password is wrong, so it tells nobody who has one.",
    action:
      "Check both and try again, or ask for a reset link with 'Forgot password'. Repeated failures are throttled for a while.",
  },
  "invalid-signature": {
    status: 401,
    title: "Webhook signature not valid",
    description:
      "A payment provider's webhook arrived without a signature Portico could verify, so its content was not trusted or acted on.",
    action:
      "Nothing, if you are not the payment provider. A provider retries with its real signature; check the webhook secret configured for this environment.",
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    description:
      "You are known, but this action is not yours to take: it needs the admin account, an address you have confirmed, a payment in your own country's currency, or a request made from Portico's own pages. `detail` says which.",
    action:
      "Do what `detail` asks: confirm your address from the link we mailed, reload the pricing page, or make the request from the site itself.",
  },
  "not-found": {
    status: 404,
    title: "Not found",
    description:
      "Nothing is at this path, or the thing it names (a key, a link, a payment) does not exist or is not yours.",
    action:
      "Check the path and the id against the docs, or list your own things first (for example `GET /api/user/keys`).",
  },
  conflict: {
    status: 409,
    title: "Conflict",
    description:
      "The request clashes with what exists: a short-link alias that is taken, the most keys an account may hold, or an address that is confirmed already.",
    action: "Choose another value, or change what exists first (revoke a key, delete a link), then send it again.",
  },
  "method-not-allowed": {
    status: 405,
    title: "Method not allowed",
    description: "The API exists but has no call with this method at this path.",
    action: "Check the method and path on the API's docs page.",
  },
  "too-many-requests": {
    status: 429,
    title: "Too many requests",
    description:
      "Too many attempts from your address or for your account in a short time (logins, sign-ups, reset links, reports, image generations). The limit protects accounts and mailboxes.",
    action: "Wait the number of seconds in the `Retry-After` header, then try again.",
  },
  "rate-limited": {
    status: 429,
    title: "Per-second limit reached",
    description:
      "Your plan allows a number of calls per second, and this call went over it. It did not count against your month.",
    action:
      "Wait the seconds in `Retry-After`, and keep your rate under the limit the `RateLimit-Policy` header states; spread bursts, or upgrade for a larger limit.",
  },
  "monthly-quota-exceeded": {
    status: 429,
    title: "Monthly quota used up",
    description:
      "This period's calls are used up: the plan's monthly calls (and any referral bonus), or on the Free plan its calls to freemium APIs. The `limit` member says which.",
    action: "Wait for the period to renew (`Retry-After` says when), or upgrade your plan on the pricing page.",
  },
  "domain-not-registered": {
    status: 404,
    title: "Domain not registered",
    description:
      "The registry that holds the domain's top-level domain answered that no such name is registered: it is free to register, reserved, or was deleted. `registry` names the server that answered.",
    action:
      "Check the spelling and that you gave the registered name (example.co.uk, not www.example.co.uk). A name registered in the last minutes can take a while to show; answers are kept an hour.",
  },
  "unsupported-url": {
    status: 422,
    title: "Not a post URL we read",
    description:
      "The `url` is not a post on one of the platforms the API reads (YouTube, Instagram, Facebook, X, LinkedIn, Pinterest), or it is one of their links that names no post (a profile, a channel, a playlist). Look-alike hosts, links with a user name or a port, and other schemes than http and https are refused too. `detail` says which.",
    action:
      "Copy the post's link from the platform's Share button and send it as it is; tracking parameters do not matter. A refused URL does not count against your month.",
  },
  "content-private": {
    status: 403,
    title: "The post is private",
    description:
      "The post exists, but the platform shows it only to its audience (a private account, friends only, a closed group), so there is nothing we may read.",
    action: "Only public posts can be read. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "content-unavailable": {
    status: 404,
    title: "The post is not there",
    description:
      "The platform says the post does not exist: it was deleted, or never existed, or its author removed the media.",
    action:
      "Check the link opens in a private browser window. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "content-region-locked": {
    status: 451,
    title: "The post is blocked in our region",
    description:
      "The platform blocks the post in the country we asked it from (a rights holder's or a government's restriction), so it cannot be read from here.",
    action:
      "Nothing on the call will change this; the post may be readable again later. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "login-required": {
    status: 403,
    title: "The platform asks for a login",
    description:
      "The platform shows this post only to a signed-in user, or asked us to prove we are not a bot (age-restricted videos, login walls). We do not sign in to platforms on anyone's behalf.",
    action:
      "Only posts the platform shows to anyone can be read. Retry later if the post is usually public: walls come and go. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "upstream-rate-limited": {
    status: 429,
    title: "The platform is limiting us",
    description:
      "The platform throttled our requests, so the post could not be read now. This is the platform's limit, not your plan's: your own limits are untouched.",
    action:
      "Wait the seconds in `Retry-After`, then try again. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "upstream-blocked": {
    status: 503,
    title: "The platform refuses us",
    description:
      "The platform refused our servers' addresses outright (datacenter addresses are often blocked), or could not be reached. `retryable` is false: retrying at once will meet the same wall.",
    action:
      "Try again much later; quote the `requestId` to support if it persists. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "extractor-outdated": {
    status: 502,
    title: "The platform changed its pages",
    description:
      "The platform answered, but no longer in the shape our reader understands, so it needs an update. Each such failure is logged with the platform and a hash of the URL, so it is fixed fast.",
    action: "Try again later. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "drm-protected": {
    status: 422,
    title: "The media is DRM-protected",
    description:
      "The post's media is encrypted with a digital rights management scheme (Widevine, PlayReady, FairPlay): films, paid channels, some music. It is refused, not worked around.",
    action:
      "Only media the platform serves unencrypted can be downloaded. A call answered with this problem does not count against your month.",
    uncounted: true,
  },
  "upstream-failed": {
    status: 502,
    title: "The upstream service failed",
    description:
      "A service Portico called on your behalf (a website you named, a payment provider, a data feed) failed or answered something unusable.",
    action:
      "Retry later. If it is a URL you gave, check it works from a browser. Quote the `requestId` if it persists.",
  },
  "unsupported-media-type": {
    status: 415,
    title: "Unsupported file type",
    description:
      "The file's bytes are not in a format this API reads. The type is read from the bytes themselves, never from the file's name or the `Content-Type` it was sent with. `detail` names the formats the API takes.",
    action: "Send a file in one of the formats `detail` names (convert it first if needed).",
  },
  "unreadable-document": {
    status: 422,
    title: "Document cannot be read",
    description:
      "The file is of a type this API reads, but its content cannot be used: it is damaged or cut short (`reason: malformed` or `truncated`), protected by a password (`encrypted`), or larger inside than its size suggests, such as a PDF with too many pages or an image whose header claims more pixels than any real one holds (`too-large`). Audio may also hold no sound to read (`no-audio`) or last longer than one call transcribes (`too-long`).",
    action:
      "Open the file in its own application to check it is whole, remove the password, or split it into smaller files, then send it again.",
  },
  "engine-failed": {
    status: 502,
    title: "The engine failed",
    description:
      "The engine behind this API (an image, PDF or speech model) could not produce an answer for this input.",
    action: "Retry, or try a simpler input. Quote the `requestId` to support if the same input keeps failing.",
  },
  "engine-unavailable": {
    status: 503,
    title: "Engine unavailable here",
    description:
      "This API needs an engine or binding (a model, a browser, a dataset) that this environment does not have, so it answers nothing rather than a made-up result.",
    action: "Call the API on portico.dev, where its engine runs. `detail` names what is missing.",
  },
  "service-unavailable": {
    status: 503,
    title: "Service unavailable",
    description:
      "Something on Portico's side failed or is changing (for example your plan, mid-purchase), so the call was not carried out.",
    action:
      "Retry in a moment (`Retry-After`, when present, says when). Quote the `requestId` to support if it persists.",
  },
} as const satisfies Record<string, ProblemTypeInfo>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/**
 * `type` is an absolute URL on the public site, not one relative to the serving origin (RFC 9457
 * allows both): clients compare types as strings, so a type must be the same on every host that
 * answers it (production, a preview, localhost, the webhook Worker's own host), and each one
 * opens a page saying what it means and what to do (app/routes/problems/route.tsx).
 */
export const PROBLEM_BASE_URL = `${SITE.origin}/problems/`;

/** Whether a call answered with `type` stays uncounted whatever it reached (decision 051). */
export function isUncountedProblem(type: ProblemType): boolean {
  return (PROBLEM_TYPES[type] as ProblemTypeInfo).uncounted === true;
}

export function isProblemType(value: string): value is ProblemType {
  return Object.hasOwn(PROBLEM_TYPES, value);
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
  [extension: string]: unknown;
}

export function problemBody(
  type: ProblemType,
  detail: string,
  requestId: string,
  extensions: Record<string, unknown> = {},
): ProblemBody {
  const { status, title } = PROBLEM_TYPES[type];
  // `message` repeats the detail for older clients, which read that member (RFC 9457 allows extensions).
  return { message: detail, ...extensions, type: PROBLEM_BASE_URL + type, title, status, detail, requestId };
}

export function problem(
  c: Context<ApiEnv>,
  type: ProblemType,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body = problemBody(type, detail, c.get("requestId"), extensions);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}

export interface ZodProblemOptions {
  /** The key of a failure of the whole value (not an object, say): `body` unless told. */
  root?: string;
  /** Prefix the field's name to `detail`, for callers that are programs (the hosted APIs). */
  fieldInDetail?: boolean;
}

/**
 * The invalid-input problem of a failed zod parse, as data, the same everywhere: `errors` holds
 * the first message per field (app/lib/field-errors.ts), and `detail` the first of them, the
 * words a form shows beside the field. The gateway's steps, which have no Hono context, use
 * this; handlers use problemFromZod.
 */
export function invalidInputFromZod(
  error: { readonly issues: readonly FieldIssue[] },
  options: ZodProblemOptions = {},
): { type: "invalid-input"; detail: string; extensions: { errors: Record<string, string> } } {
  const root = options.root ?? "body";
  const errors = firstErrorPerField(error.issues, root);
  const [field, message] = Object.entries(errors)[0] ?? [root, "Invalid input"];
  return {
    type: "invalid-input",
    detail: options.fieldInDetail ? `${field}: ${message}` : message,
    extensions: { errors },
  };
}

/**
 * A failed zod parse answered as problem+json (see invalidInputFromZod); `message` repeats
 * `detail`, and `extensions` add members older clients read (`success: 0`).
 */
export function problemFromZod(
  c: Context<ApiEnv>,
  error: { readonly issues: readonly FieldIssue[] },
  options: ZodProblemOptions & { extensions?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Response {
  const { type, detail, extensions } = invalidInputFromZod(error, options);
  return problem(c, type, detail, { ...options.extensions, ...extensions }, options.headers);
}
