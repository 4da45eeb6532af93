/**
 * The PayPal Orders v2 client: OAuth client-credentials token, create, capture and read an
 * order, and PayPal's webhook signature check. The same code runs against PayPal (sandbox or
 * live) and against the local fake in `fake.ts`; only `baseUrl` and `fetch` differ. Every
 * provider answer, including network failures and bodies we cannot read, comes back as a
 * `PayPalResult`, never as an exception.
 */
import { z } from "zod";
import type { PayPalAmount, PayPalClient, PayPalOrder, PayPalResult } from "./types";
import { describeError, readJson } from "../http";

/** Renew a token this long before PayPal says it expires, so no call races its expiry. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;

type PayPalFailure = Extract<PayPalResult<never>, { ok: false }>;
type TokenResult = { ok: true; accessToken: string } | PayPalFailure;

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

// Module memory, keyed by base URL and client id: one isolate serves many requests, and a
// token per request would hit PayPal's token endpoint on every checkout. Pending fetches are
// shared too, so concurrent calls on a cold isolate ask for one token, not several.
const tokenCache = new Map<string, CachedToken>();
const pendingTokens = new Map<string, Promise<TokenResult>>();

const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().nonnegative(),
});

/**
 * PayPal writes USD values with two decimals, but the API accepts and may echo "9" or "9.5";
 * normalise without floating point so callers can compare amounts as strings.
 */
const AmountSchema = z
  .object({
    // The interface only knows USD: an order in another currency is not one we made.
    currency_code: z.literal("USD"),
    value: z.string().regex(/^\d+(\.\d{1,2})?$/),
  })
  .transform(({ value }): PayPalAmount => {
    const [whole = "0", fraction = ""] = value.split(".");
    return { currency: "USD", value: `${whole}.${fraction.padEnd(2, "0")}` };
  });

const CaptureSchema = z.object({
  id: z.string().min(1),
  status: z.string().min(1),
  amount: AmountSchema,
  custom_id: z.string().optional(),
});

const OrderResponseSchema = z.object({
  id: z.string().min(1),
  status: z.string().min(1),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).optional(),
  purchase_units: z
    .array(
      z.object({
        custom_id: z.string().optional(),
        amount: AmountSchema.optional(),
        payments: z.object({ captures: z.array(CaptureSchema).optional() }).optional(),
      }),
    )
    .optional(),
});

const VerifyWebhookResponseSchema = z.object({ verification_status: z.enum(["SUCCESS", "FAILURE"]) });

/** The headers PayPal signs a webhook with, and the verify API's names for them. */
const WEBHOOK_HEADER_FIELDS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

const CaptureOrderSchema = z.object({
  supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().min(1) }) }),
});

const ErrorResponseSchema = z.object({
  name: z.string().optional(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z.array(z.object({ issue: z.string(), description: z.string().optional() })).optional(),
});

export function createPayPalClient(options: {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
}): PayPalClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const { clientId, clientSecret } = options;
  // A bare function, never `options.fetch(...)`: workerd throws "Illegal invocation" when the
  // global fetch is called as a method of another object.
  const doFetch = options.fetch;
  const cacheKey = `${baseUrl}\n${clientId}`;

  async function fetchToken(): Promise<TokenResult> {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}/v1/oauth2/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: new URLSearchParams({ grant_type: "client_credentials" }),
      });
    } catch (error) {
      return unavailable(`token request failed: ${describeError(error)}`);
    }
    const payload = await readJson(response);
    // Any token failure (bad credentials included) is "unavailable" to callers: there is
    // nothing a buyer can do about it, and the detail carries what an operator needs.
    if (!response.ok) return unavailable(`token request answered ${response.status}${errorSummary(payload)}`);
    const parsed = TokenResponseSchema.safeParse(payload);
    if (!parsed.success) return unavailable("token answer was not understood");
    const accessToken = parsed.data.access_token;
    tokenCache.set(cacheKey, {
      accessToken,
      expiresAt: Date.now() + parsed.data.expires_in * 1000 - TOKEN_REFRESH_MARGIN_MS,
    });
    return { ok: true, accessToken };
  }

  function getAccessToken(): Promise<TokenResult> {
    const cached = tokenCache.get(cacheKey);
    if (cached && cached.expiresAt > Date.now()) return Promise.resolve({ ok: true, accessToken: cached.accessToken });
    const pending = pendingTokens.get(cacheKey);
    if (pending) return pending;
    const request = fetchToken().finally(() => pendingTokens.delete(cacheKey));
    pendingTokens.set(cacheKey, request);
    return request;
  }

  /** One authenticated call; `read` turns a 2xx body into the value, or undefined when it cannot. */
  async function call<T>(
    method: "GET" | "POST",
    path: string,
    extraHeaders: Record<string, string>,
    body: unknown,
    read: (payload: unknown) => T | undefined,
    what: string,
    isRetry = false,
  ): Promise<PayPalResult<T>> {
    const token = await getAccessToken();
    if (!token.ok) return token;

    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token.accessToken}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...extraHeaders,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      return unavailable(`${method} ${path} failed: ${describeError(error)}`);
    }

    // A token can be revoked before its expiry (credentials rotated, PayPal-side reset):
    // forget it and try once with a fresh one. Only once, so bad credentials cannot loop.
    if (response.status === 401 && !isRetry) {
      await response.body?.cancel();
      if (tokenCache.get(cacheKey)?.accessToken === token.accessToken) tokenCache.delete(cacheKey);
      return call(method, path, extraHeaders, body, read, what, true);
    }

    const payload = await readJson(response);
    if (response.ok) {
      const value = read(payload);
      if (value === undefined)
        return unavailable(`${method} ${path} answered ${response.status} with ${what} we could not read`);
      return { ok: true, value };
    }
    return mapError(response.status, payload, `${method} ${path}`);
  }

  function callOrders(
    method: "GET" | "POST",
    path: string,
    extraHeaders: Record<string, string>,
    body: unknown,
  ): Promise<PayPalResult<PayPalOrder>> {
    return call(method, path, extraHeaders, body, readOrder, "an order");
  }

  return {
    createOrder({ paymentId, amount, description }) {
      return callOrders(
        "POST",
        "/v2/checkout/orders",
        // PayPal-Request-Id makes a retried create return the first order instead of a second
        // one; our payment id is exactly the identity of "this purchase attempt".
        // return=representation: the default minimal answer carries no amount or custom_id.
        { "paypal-request-id": paymentId, prefer: "return=representation" },
        {
          intent: "CAPTURE",
          purchase_units: [
            { amount: { currency_code: amount.currency, value: amount.value }, custom_id: paymentId, description },
          ],
        },
      );
    },
    captureOrder({ orderId, requestId }) {
      return callOrders(
        "POST",
        `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
        { "paypal-request-id": requestId, prefer: "return=representation" },
        {},
      );
    },
    getOrder(orderId) {
      return callOrders("GET", `/v2/checkout/orders/${encodeURIComponent(orderId)}`, {}, undefined);
    },
    orderIdOfCapture(captureId) {
      return call(
        "GET",
        `/v2/payments/captures/${encodeURIComponent(captureId)}`,
        {},
        undefined,
        (payload) => CaptureOrderSchema.safeParse(payload).data?.supplementary_data.related_ids.order_id,
        "a capture",
      );
    },
    async verifyWebhookSignature({ headers, webhookId, rawBody }) {
      const fields: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADER_FIELDS)) {
        const value = headers.get(header);
        // Not something PayPal sent: nothing to ask PayPal about.
        if (!value) return { ok: true, value: false };
        fields[field] = value;
      }
      let event: unknown;
      try {
        event = JSON.parse(rawBody);
      } catch {
        return { ok: true, value: false };
      }
      // PayPal is handed the parsed event, not the bytes we received, so a body whose JSON does
      // not survive a parse and re-serialise (spacing, "9.0" numbers) may answer FAILURE.
      return call(
        "POST",
        "/v1/notifications/verify-webhook-signature",
        {},
        { ...fields, webhook_id: webhookId, webhook_event: event },
        (payload) => {
          const parsed = VerifyWebhookResponseSchema.safeParse(payload);
          return parsed.success ? parsed.data.verification_status === "SUCCESS" : undefined;
        },
        "a verification status",
      );
    },
  };
}

function readOrder(payload: unknown): PayPalOrder | undefined {
  const parsed = OrderResponseSchema.safeParse(payload);
  return parsed.success ? toOrder(parsed.data) : undefined;
}

function toOrder(order: z.infer<typeof OrderResponseSchema>): PayPalOrder {
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  // "payer-action" replaces "approve" when the order is created with a payment_source.
  const approve = order.links?.find((link) => link.rel === "approve" || link.rel === "payer-action");
  return {
    id: order.id,
    status: order.status,
    customId: unit?.custom_id ?? capture?.custom_id ?? null,
    amount: unit?.amount ?? null,
    capture: capture ? { id: capture.id, status: capture.status, amount: capture.amount } : null,
    approveUrl: approve?.href ?? null,
  };
}

function mapError(status: number, payload: unknown, what: string): PayPalFailure {
  const parsed = ErrorResponseSchema.safeParse(payload);
  const issue = parsed.success ? parsed.data.details?.[0]?.issue : undefined;
  const detail = `${what} answered ${status}${errorSummary(payload)}`;
  if (status === 422 && issue === "INSTRUMENT_DECLINED") return { ok: false, code: "instrument-declined", detail };
  if (status === 422 && issue === "ORDER_ALREADY_CAPTURED") return { ok: false, code: "already-captured", detail };
  if (status === 404) return { ok: false, code: "not-found", detail };
  return unavailable(detail);
}

function errorSummary(payload: unknown): string {
  const parsed = ErrorResponseSchema.safeParse(payload);
  if (!parsed.success) return "";
  const { name, details, debug_id: debugId } = parsed.data;
  const parts = [details?.[0]?.issue ?? name, debugId ? `debug_id ${debugId}` : undefined].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

function unavailable(detail: string): PayPalFailure {
  return { ok: false, code: "unavailable", detail };
}
