/**
 * A fake PayPal (Orders v2) for development and tests, so checkout runs offline: the OAuth
 * token endpoint, create / read / capture an order, and a buyer approval page standing in for
 * PayPal's hosted checkout. It answers in PayPal's shapes and error codes, so the real client
 * in `client.ts` runs unchanged against it. State lives in KV so every isolate of a dev server
 * sees the same orders.
 *
 * Fake-only pieces: the approval page's "Decline card" button (the order is approved, but its
 * capture fails with INSTRUMENT_DECLINED, as a real declined card does), the `return` query
 * parameter of `/checkoutnow` (PayPal takes return URLs from the order instead), and
 * `approveFakeOrder` for tests that act as the buyer without the page.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import { escapeHtml, fakePageHeaders, renderFakePage } from "../fake-page";

const ORDER_KV_PREFIX = "fake-paypal:order:";
const REQUEST_ID_KV_PREFIX = "fake-paypal:request:";
const TOKEN_KV_PREFIX = "fake-paypal:token:";
/** PayPal's access tokens last about nine hours. */
const TOKEN_TTL_SECONDS = 32_400;
/** Long enough for any test or dev session, short enough that a dev KV store does not grow forever. */
const ORDER_TTL_SECONDS = 3 * 24 * 60 * 60;
const DEFAULT_RETURN_PATH = "/user/subscription";
const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

const OrderIdSchema = z.string().regex(/^[A-Z0-9]{1,36}$/);

const StoredOrderSchema = z.object({
  id: z.string(),
  status: z.enum(["CREATED", "APPROVED", "COMPLETED"]),
  amount: z.object({ currency_code: z.string(), value: z.string() }),
  customId: z.string().nullable(),
  description: z.string().nullable(),
  /** Set by "Decline card": the order is approved, but its capture is refused. */
  declineOnCapture: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
  capture: z.object({ id: z.string(), requestId: z.string().nullable(), createTime: z.string() }).nullable(),
});
type StoredOrder = z.infer<typeof StoredOrderSchema>;

/** What PayPal validates on create, narrowed to what the fake supports (one unit, CAPTURE). */
const CreateOrderBodySchema = z.object({
  intent: z.literal("CAPTURE"),
  purchase_units: z
    .array(
      z.object({
        amount: z.object({
          currency_code: z.string().regex(/^[A-Z]{3}$/),
          value: z.string().regex(/^\d{1,10}(\.\d{2})?$/),
        }),
        custom_id: z.string().max(127).optional(),
        description: z.string().max(127).optional(),
      }),
    )
    .length(1),
});

export type FakeApprovalChoice = "pay" | "decline";
const ApprovalChoiceSchema = z.enum(["pay", "decline"]);

export function createFakePayPal(options: { baseUrl: string; kv: KVNamespace }): Hono {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const { kv } = options;
  const app = new Hono().basePath(new URL(baseUrl).pathname.replace(/\/+$/, "") || "/");

  app.post("/v1/oauth2/token", async (c) => {
    c.header("cache-control", "no-store");
    if (!hasBasicCredentials(c.req.header("authorization"))) {
      return c.json({ error: "invalid_client", error_description: "Client Authentication failed" }, 401);
    }
    const form = await c.req.parseBody();
    if (form.grant_type !== "client_credentials") {
      return c.json({ error: "unsupported_grant_type", error_description: "Grant Type is NULL" }, 400);
    }
    const accessToken = `A21AAFAKE${randomId(40)}`;
    // Kept so the order endpoints can refuse tokens they never issued, as PayPal does.
    await kv.put(`${TOKEN_KV_PREFIX}${accessToken}`, "1", { expirationTtl: TOKEN_TTL_SECONDS });
    return c.json({
      scope: "https://uri.paypal.com/services/payments/payment",
      access_token: accessToken,
      token_type: "Bearer",
      app_id: "APP-FAKE",
      expires_in: TOKEN_TTL_SECONDS,
      nonce: `${new Date().toISOString()}${randomId(8)}`,
    });
  });

  app.use("/v2/*", async (c, next) => {
    const match = /^Bearer (\S+)$/.exec(c.req.header("authorization") ?? "");
    const token = match?.[1];
    if (!token || (await kv.get(`${TOKEN_KV_PREFIX}${token}`)) === null) {
      return c.json({ error: "invalid_token", error_description: "Token signature verification failed" }, 401);
    }
    await next();
  });

  app.post("/v2/checkout/orders", async (c) => {
    const requestId = c.req.header("paypal-request-id") ?? null;
    if (requestId !== null) {
      // Two creates racing with one request id could both pass this read (KV has no
      // compare-and-set); acceptable for a development fake.
      const earlierId = await kv.get(`${REQUEST_ID_KV_PREFIX}${requestId}`);
      const earlier = earlierId === null ? null : await loadOrder(kv, earlierId);
      if (earlier) return c.json(renderOrder(earlier, baseUrl, preferMinimal(c)), 200);
    }

    const body = CreateOrderBodySchema.safeParse(await c.req.json<unknown>().catch(() => undefined));
    if (!body.success) {
      return paypalError(
        c,
        400,
        "INVALID_REQUEST",
        "Request is not well-formed, syntactically incorrect, or violates schema.",
        {
          issue: "INVALID_PARAMETER_SYNTAX",
          description: body.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
        },
      );
    }
    const [unit] = body.data.purchase_units;
    if (!unit) throw new Error("purchase_units was checked to hold exactly one unit");
    const now = new Date().toISOString();
    const order: StoredOrder = {
      id: `FAKE${randomId(17)}`,
      status: "CREATED",
      amount: unit.amount,
      customId: unit.custom_id ?? null,
      description: unit.description ?? null,
      declineOnCapture: false,
      createTime: now,
      updateTime: now,
      capture: null,
    };
    await saveOrder(kv, order);
    if (requestId !== null) {
      await kv.put(`${REQUEST_ID_KV_PREFIX}${requestId}`, order.id, { expirationTtl: ORDER_TTL_SECONDS });
    }
    return c.json(renderOrder(order, baseUrl, preferMinimal(c)), 201);
  });

  app.get("/v2/checkout/orders/:id", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return notFound(c);
    return c.json(renderOrder(order, baseUrl, false), 200);
  });

  app.post("/v2/checkout/orders/:id/capture", async (c) => {
    const order = await loadOrder(kv, c.req.param("id"));
    if (!order) return notFound(c);
    const requestId = c.req.header("paypal-request-id") ?? null;

    if (order.status === "COMPLETED") {
      // PayPal-Request-Id: a retried capture gets the earlier result, anything else is refused.
      if (requestId !== null && order.capture?.requestId === requestId) {
        return c.json(renderOrder(order, baseUrl, false), 201);
      }
      return unprocessable(
        c,
        "ORDER_ALREADY_CAPTURED",
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (order.status !== "APPROVED") {
      return unprocessable(c, "ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment.");
    }
    if (order.declineOnCapture) {
      // PayPal leaves a declined order APPROVED so the buyer can pick another funding source.
      return unprocessable(
        c,
        "INSTRUMENT_DECLINED",
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }

    const now = new Date().toISOString();
    const captured: StoredOrder = {
      ...order,
      status: "COMPLETED",
      updateTime: now,
      capture: { id: `FAKECAP${randomId(10)}`, requestId, createTime: now },
    };
    await saveOrder(kv, captured);
    return c.json(renderOrder(captured, baseUrl, false), 201);
  });

  app.get("/checkoutnow", async (c) => {
    const order = await loadOrder(kv, c.req.query("token") ?? "");
    if (!order) return c.html(renderMessagePage("This order does not exist."), 404, pageHeaders);
    if (order.status === "COMPLETED") {
      return c.html(renderMessagePage("This order has already been paid."), 422, pageHeaders);
    }
    const action = new URL(`${baseUrl}/checkoutnow`);
    action.searchParams.set("token", order.id);
    action.searchParams.set("return", safeReturnPath(c.req.query("return")));
    return c.html(renderApprovalPage(order, `${action.pathname}${action.search}`), 200, pageHeaders);
  });

  app.post("/checkoutnow", async (c) => {
    const form = await c.req.parseBody();
    const choice = ApprovalChoiceSchema.safeParse(form.choice);
    if (!choice.success) return c.html(renderMessagePage("Choose Pay now or Decline card."), 400, pageHeaders);
    const orderId = c.req.query("token") ?? "";
    const outcome = await approveOrder(kv, orderId, choice.data);
    if (outcome === "not-found") return c.html(renderMessagePage("This order does not exist."), 404, pageHeaders);
    if (outcome === "already-captured") {
      return c.html(renderMessagePage("This order has already been paid."), 422, pageHeaders);
    }
    const location = new URL(safeReturnPath(c.req.query("return")), "http://return.invalid");
    location.searchParams.set("token", orderId);
    // Relative on purpose: the browser resolves it against the app's own origin.
    return c.redirect(`${location.pathname}${location.search}${location.hash}`, 302);
  });

  return app;
}

/**
 * Test-only: acts as the buyer on the approval page. Throws when the order does not exist or
 * is already captured, since a test asking for that has a bug.
 */
export async function approveFakeOrder(kv: KVNamespace, orderId: string, choice: FakeApprovalChoice): Promise<void> {
  const outcome = await approveOrder(kv, orderId, choice);
  if (outcome !== "approved") throw new Error(`Fake PayPal cannot approve order ${orderId}: ${outcome}`);
}

/**
 * A `fetch` that answers every request under `baseUrl` from the fake, in process. Anything
 * else is refused, as an offline fake must not fall through to the network.
 */
export function createFakePayPalFetch(fake: Hono, baseUrl: string): typeof fetch {
  const prefix = `${baseUrl.replace(/\/+$/, "")}/`;
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(prefix)) {
      throw new TypeError(`The fake PayPal's fetch refuses ${request.method} ${request.url}`);
    }
    return fake.fetch(request);
  };
}

async function approveOrder(
  kv: KVNamespace,
  orderId: string,
  choice: FakeApprovalChoice,
): Promise<"approved" | "not-found" | "already-captured"> {
  const order = await loadOrder(kv, orderId);
  if (!order) return "not-found";
  if (order.status === "COMPLETED") return "already-captured";
  // Approving again (after a decline) replaces the choice, like picking another card.
  await saveOrder(kv, {
    ...order,
    status: "APPROVED",
    declineOnCapture: choice === "decline",
    updateTime: new Date().toISOString(),
  });
  return "approved";
}

async function loadOrder(kv: KVNamespace, id: string): Promise<StoredOrder | null> {
  // Checked before use as a key: a path segment must not reach other KV entries.
  if (!OrderIdSchema.safeParse(id).success) return null;
  const stored = StoredOrderSchema.safeParse(await kv.get(`${ORDER_KV_PREFIX}${id}`, "json"));
  return stored.success ? stored.data : null;
}

async function saveOrder(kv: KVNamespace, order: StoredOrder): Promise<void> {
  await kv.put(`${ORDER_KV_PREFIX}${order.id}`, JSON.stringify(order), { expirationTtl: ORDER_TTL_SECONDS });
}

/** The order as PayPal answers it: the full representation, or the minimal one on create. */
function renderOrder(order: StoredOrder, baseUrl: string, minimal: boolean): Record<string, unknown> {
  const self = `${baseUrl}/v2/checkout/orders/${order.id}`;
  const links = [
    { href: self, rel: "self", method: "GET" },
    ...(order.status === "CREATED"
      ? [{ href: `${baseUrl}/checkoutnow?token=${order.id}`, rel: "approve", method: "GET" }]
      : []),
    ...(order.status === "APPROVED" ? [{ href: `${self}/capture`, rel: "capture", method: "POST" }] : []),
  ];
  if (minimal) return { id: order.id, status: order.status, links };

  const capture = order.capture
    ? {
        id: order.capture.id,
        status: "COMPLETED",
        amount: order.amount,
        final_capture: true,
        ...(order.customId === null ? {} : { custom_id: order.customId }),
        create_time: order.capture.createTime,
        update_time: order.capture.createTime,
      }
    : null;
  return {
    id: order.id,
    intent: "CAPTURE",
    status: order.status,
    purchase_units: [
      {
        reference_id: "default",
        amount: order.amount,
        ...(order.customId === null ? {} : { custom_id: order.customId }),
        ...(order.description === null ? {} : { description: order.description }),
        ...(capture ? { payments: { captures: [capture] } } : {}),
      },
    ],
    create_time: order.createTime,
    update_time: order.updateTime,
    links,
  };
}

/** PayPal answers create with only id, status and links unless asked for the representation. */
function preferMinimal(c: Context): boolean {
  return !/\breturn=representation\b/.test(c.req.header("prefer") ?? "");
}

function paypalError(
  c: Context,
  status: 400 | 404 | 422,
  name: string,
  message: string,
  detail: { issue: string; description: string },
): Response {
  return c.json({ name, message, debug_id: randomId(13).toLowerCase(), details: [detail], links: [] }, status);
}

function unprocessable(c: Context, issue: string, description: string): Response {
  return paypalError(
    c,
    422,
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
    { issue, description },
  );
}

function notFound(c: Context): Response {
  return paypalError(c, 404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", {
    issue: "INVALID_RESOURCE_ID",
    description: "Specified resource ID does not exist. Please check the resource ID and try again.",
  });
}

function hasBasicCredentials(header: string | undefined): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? "");
  if (!match?.[1]) return false;
  try {
    const [clientId, ...secret] = atob(match[1]).split(":");
    return Boolean(clientId) && secret.join(":").length > 0;
  } catch {
    return false;
  }
}

/**
 * Only a path on the app's own origin: "/x" but not "//evil.com" or "/\evil.com", which
 * browsers read as another host. Anything else falls back to the default, never an open redirect.
 */
function safeReturnPath(value: string | undefined): string {
  if (!value || !/^\/(?![/\\])/.test(value) || /[\\\u0000-\u001f\u007f]/.test(value)) return DEFAULT_RETURN_PATH;
  const resolved = new URL(value, "http://return.invalid");
  return resolved.origin === "http://return.invalid" ? value : DEFAULT_RETURN_PATH;
}

/** Uppercase alphanumerics, without modulo bias. */
function randomId(length: number): string {
  let id = "";
  while (id.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      // 252 is the largest multiple of 36 below 256: higher bytes would favour early letters.
      if (byte < 252 && id.length < length) id += ID_ALPHABET[byte % 36];
    }
  }
  return id;
}

const PAGE_STYLE = `
  .amount { font-size: 2rem; font-weight: 700; margin: 0; }
  .description { overflow-wrap: anywhere; }
  .order { font-size: 0.8rem; opacity: 0.7; }
  .actions { display: grid; gap: 0.5rem; margin-top: 1.5rem; }
  .pay { background: #ffc439; color: #111; }
  .decline { background: transparent; color: inherit; border: 1px solid color-mix(in srgb, CanvasText 35%, transparent); }
`;
const pageHeaders = fakePageHeaders("form-action 'self'");

function renderDocument(body: string): string {
  return renderFakePage("Fake PayPal — development only", PAGE_STYLE, body);
}

function renderApprovalPage(order: StoredOrder, action: string): string {
  return renderDocument(`
<h1>Fake PayPal — development only</h1>
<p class="warning">No real money moves and no real account is involved.</p>
<p class="amount">${escapeHtml(order.amount.value)} ${escapeHtml(order.amount.currency_code)}</p>
<p class="description">${escapeHtml(order.description ?? "")}</p>
<p class="order">Order ${escapeHtml(order.id)}</p>
<form method="post" action="${escapeHtml(action)}" class="actions">
<button type="submit" name="choice" value="pay" class="pay">Pay now</button>
<button type="submit" name="choice" value="decline" class="decline">Decline card</button>
</form>`);
}

function renderMessagePage(message: string): string {
  return renderDocument(`
<h1>Fake PayPal — development only</h1>
<p>${escapeHtml(message)}</p>`);
}
