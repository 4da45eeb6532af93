/**
 * The Cashfree PG client: create and read an order, list its payment attempts and refunds. The
 * same code runs against Cashfree (sandbox or production) and against the local fake in
 * `fake.ts`; only `baseUrl` and `fetch` differ. Every provider answer, including network
 * failures and bodies we cannot read, comes back as a `CashfreeResult`, never as an exception.
 */
import { z } from "zod";
import type {
  CashfreeClient,
  CashfreeOrder,
  CashfreePayment,
  CashfreeRefund,
  CashfreeResult,
  CashfreeOrderStatus,
} from "./types";
import { describeError, readJson } from "../http";

type CashfreeFailure = Extract<CashfreeResult<never>, { ok: false }>;

/**
 * Cashfree writes rupees as JSON numbers with two decimals ("21.00"), which JSON.parse reads as
 * binary floats (170.1 is 170.09999…). Round to whole paise, but refuse a value that is not
 * within a hair of a whole paisa: that is not an amount Cashfree would send, and rounding it
 * would silently change money.
 */
const RupeesSchema = z
  .number()
  .nonnegative()
  .transform((rupees, ctx) => {
    const paise = Math.round(rupees * 100);
    if (!Number.isSafeInteger(paise) || Math.abs(rupees * 100 - paise) > 1e-6) {
      ctx.addIssue({ code: "custom", message: `${rupees} is not a whole number of paise` });
      return z.NEVER;
    }
    return paise;
  });

/** Cashfree's ids are strings in API 2023-08-01 and later, numbers before; read either. */
const CashfreeIdSchema = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);

const ORDER_STATUSES = [
  "ACTIVE",
  "PAID",
  "EXPIRED",
  "TERMINATED",
  "TERMINATION_REQUESTED",
] as const satisfies readonly CashfreeOrderStatus[];

const OrderResponseSchema = z.object({
  order_id: z.string().min(1),
  cf_order_id: CashfreeIdSchema,
  order_status: z.enum(ORDER_STATUSES),
  order_amount: RupeesSchema,
  // The interface only knows INR: an order in another currency is not one we made.
  order_currency: z.literal("INR"),
  payment_session_id: z.string().min(1).nullish(),
});

const PaymentsResponseSchema = z.array(
  z.object({
    cf_payment_id: CashfreeIdSchema,
    payment_status: z.string().min(1),
    payment_amount: RupeesSchema,
  }),
);

const RefundsResponseSchema = z.array(
  z.object({
    refund_id: z.string().min(1),
    refund_status: z.string().min(1),
    refund_amount: RupeesSchema,
  }),
);

/** Cashfree's error body: `{ message, code, type }`, e.g. code "order_already_exists". */
const ErrorResponseSchema = z.object({
  message: z.string().optional(),
  code: z.string().optional(),
  type: z.string().optional(),
});

export function createCashfreeClient(options: {
  /** Up to and including `/pg`: https://sandbox.cashfree.com/pg or https://api.cashfree.com/pg. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The `x-api-version` header, e.g. "2025-01-01". */
  apiVersion: string;
  fetch: typeof fetch;
}): CashfreeClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const { clientId, clientSecret, apiVersion } = options;
  // A bare function, never `options.fetch(...)`: workerd throws "Illegal invocation" when the
  // global fetch is called as a method of another object.
  const doFetch = options.fetch;

  type Answer = { ok: true; status: number; payload: unknown } | CashfreeFailure;

  /** One call; a network failure becomes "unavailable", any HTTP answer is handed back. */
  async function call(
    method: "GET" | "POST",
    path: string,
    extraHeaders: Record<string, string> = {},
    body?: unknown,
  ): Promise<Answer> {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: {
          "x-client-id": clientId,
          "x-client-secret": clientSecret,
          "x-api-version": apiVersion,
          accept: "application/json",
          "content-type": "application/json",
          ...extraHeaders,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      return unavailable(`${method} ${path} failed: ${describeError(error)}`);
    }
    return { ok: true, status: response.status, payload: await readJson(response) };
  }

  /** A call whose 2xx answer must match `schema`; anything else is a failure value. */
  async function callFor<S extends z.ZodType>(
    schema: S,
    method: "GET" | "POST",
    path: string,
    extraHeaders?: Record<string, string>,
    body?: unknown,
  ): Promise<CashfreeResult<z.output<S>>> {
    const answer = await call(method, path, extraHeaders, body);
    if (!answer.ok) return answer;
    if (answer.status < 200 || answer.status > 299) return mapError(answer.status, answer.payload, `${method} ${path}`);
    const parsed = schema.safeParse(answer.payload);
    if (!parsed.success)
      return unavailable(`${method} ${path} answered ${answer.status} with a body we could not read`);
    return { ok: true, value: parsed.data };
  }

  async function getOrder(orderId: string): Promise<CashfreeResult<CashfreeOrder>> {
    const result = await callFor(OrderResponseSchema, "GET", orderPath(orderId));
    return result.ok ? { ok: true, value: toOrder(result.value) } : result;
  }

  return {
    async createOrder({ orderId, amountMinor, customer, returnUrl, notifyUrl, note }) {
      if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
        return { ok: false, code: "invalid-request", detail: `amountMinor ${amountMinor} is not a positive integer` };
      }
      const path = "/orders";
      const answer = await call(
        "POST",
        path,
        // Our order id is exactly the identity of "this purchase attempt": a retried create
        // carries the same key.
        { "x-idempotency-key": orderId },
        {
          order_id: orderId,
          // Paise to rupees: amountMinor / 100 is exact to two decimals for any safe integer.
          order_amount: amountMinor / 100,
          order_currency: "INR",
          customer_details: {
            customer_id: customer.id,
            customer_email: customer.email,
            customer_name: customer.name,
            customer_phone: customer.phone,
          },
          order_meta: { return_url: returnUrl, notify_url: notifyUrl },
          order_note: note,
        },
      );
      if (!answer.ok) return answer;

      // A retry after a create whose answer was lost meets "order_already_exists": the order is
      // there, so read it. The same id with another amount is a bug on our side, never reused.
      if (answer.status === 409 && errorCode(answer.payload) === "order_already_exists") {
        const existing = await getOrder(orderId);
        if (existing.ok && existing.value.amountMinor !== amountMinor) {
          return {
            ok: false,
            code: "invalid-request",
            detail: `order ${orderId} already exists for ${existing.value.amountMinor} paise, not ${amountMinor}`,
          };
        }
        return existing;
      }
      if (answer.status < 200 || answer.status > 299) return mapError(answer.status, answer.payload, `POST ${path}`);
      const parsed = OrderResponseSchema.safeParse(answer.payload);
      if (!parsed.success) return unavailable(`POST ${path} answered ${answer.status} with a body we could not read`);
      return { ok: true, value: toOrder(parsed.data) };
    },
    getOrder,
    async getPayments(orderId) {
      const result = await callFor(PaymentsResponseSchema, "GET", `${orderPath(orderId)}/payments`);
      if (!result.ok) return result;
      return {
        ok: true,
        value: result.value.map((payment): CashfreePayment => ({
          cfPaymentId: payment.cf_payment_id,
          status: payment.payment_status,
          amountMinor: payment.payment_amount,
        })),
      };
    },
    async getRefunds(orderId) {
      const result = await callFor(RefundsResponseSchema, "GET", `${orderPath(orderId)}/refunds`);
      if (!result.ok) return result;
      return {
        ok: true,
        value: result.value.map((refund): CashfreeRefund => ({
          refundId: refund.refund_id,
          status: refund.refund_status,
          amountMinor: refund.refund_amount,
        })),
      };
    },
  };
}

function orderPath(orderId: string): string {
  return `/orders/${encodeURIComponent(orderId)}`;
}

function toOrder(order: z.output<typeof OrderResponseSchema>): CashfreeOrder {
  return {
    orderId: order.order_id,
    cfOrderId: order.cf_order_id,
    status: order.order_status,
    amountMinor: order.order_amount,
    currency: order.order_currency,
    // Cashfree keeps returning the session after payment; it is only usable while ACTIVE.
    paymentSessionId: order.order_status === "ACTIVE" ? (order.payment_session_id ?? null) : null,
  };
}

function mapError(status: number, payload: unknown, what: string): CashfreeFailure {
  const detail = `${what} answered ${status}${errorSummary(payload)}`;
  if (status === 404) return { ok: false, code: "not-found", detail };
  if (status === 400 || status === 422) return { ok: false, code: "invalid-request", detail };
  // 401 (bad credentials), 409, 429 and 5xx: nothing a buyer can change; the detail tells an operator.
  return unavailable(detail);
}

function errorCode(payload: unknown): string | undefined {
  const parsed = ErrorResponseSchema.safeParse(payload);
  return parsed.success ? parsed.data.code : undefined;
}

function errorSummary(payload: unknown): string {
  const parsed = ErrorResponseSchema.safeParse(payload);
  if (!parsed.success) return "";
  const parts = [parsed.data.code, parsed.data.message].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(": ")})` : "";
}

function unavailable(detail: string): CashfreeFailure {
  return { ok: false, code: "unavailable", detail };
}
