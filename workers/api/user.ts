/**
 * `/api/user/*`: the signed-in account's own things, its referral code, its API keys and its saved
 * avatars and QR codes (`/api/user/saved/:list`, docs/decisions/047-saved-items.md).
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { createOperationContext } from "~workers/gateway/operation-context";
import { createServices } from "~workers/gateway/services";
import { toResponse } from "~workers/gateway/steps/answer";
import type { HandlerResult } from "~workers/hosted/definition";
import {
  createApiKey,
  KeyNameSchema,
  listApiKeys,
  MAX_KEYS_PER_USER,
  revokeApiKey,
  rotateApiKey,
} from "~workers/platform/api-keys";
import { EMAIL_UNVERIFIED_MESSAGE, hasVerifiedEmail } from "~workers/platform/roles";
import {
  appendSavedItem,
  checkSavedInput,
  clearSavedList,
  drawSavedItem,
  findSavedItem,
  isSavedList,
  listSavedItems,
  planAllowsList,
  SAVED_LIST_LIMIT,
  SAVED_LISTS,
  SAVED_RENDER_RULE,
  savedListNoun,
  type SavedList,
} from "~workers/platform/saved-items";
import { hitThrottle } from "~workers/platform/throttle";
import { problem, problemFromZod } from "~workers/http/problem";
import { JSON_LIMIT, parseJson, requireSession, type ApiEnv } from "./context";

export const userApi = new Hono<ApiEnv>();

userApi.get("/referral-code", requireSession, (c) => c.json({ referralCode: c.get("session").user.referralCode }));

userApi.get("/keys", requireSession, async (c) =>
  c.json({ keys: await listApiKeys(c.env.DB, c.get("session").user.id) }),
);

userApi.post("/keys", JSON_LIMIT, requireSession, async (c) => {
  const input = await parseJson(c, z.object({ name: KeyNameSchema }));
  if (!input.ok) return input.response;
  const result = await createApiKey(c.env.DB, c.get("session").user.id, input.data.name);
  if (!result.ok) {
    if (result.code === "email-unverified") return problem(c, "forbidden", EMAIL_UNVERIFIED_MESSAGE);
    return problem(c, "conflict", `An account may hold at most ${MAX_KEYS_PER_USER} active keys. Revoke one first.`);
  }
  // The only time the whole key is ever shown.
  return c.json({ key: result.key, ...result.summary }, 201);
});

userApi.delete("/keys/:id", requireSession, async (c) => {
  const revoked = await revokeApiKey(c.env.DB, gatewayNotices(c.env), c.get("session").user.id, c.req.param("id"));
  return revoked ? c.body(null, 204) : problem(c, "not-found", "No active key of yours has this id.");
});

userApi.post("/keys/:id/rotate", requireSession, async (c) => {
  const result = await rotateApiKey(c.env.DB, gatewayNotices(c.env), c.get("session").user.id, c.req.param("id"));
  if (!result.ok) {
    if (result.code === "email-unverified") return problem(c, "forbidden", EMAIL_UNVERIFIED_MESSAGE);
    return problem(c, result.code === "not-found" ? "not-found" : "conflict", "No active key of yours has this id.");
  }
  return c.json({ key: result.key, ...result.summary }, 201);
});

/**
 * The list a `/saved/:list` path names, or the 404 saying which lists there are. (`:list` is a
 * parameter so the two lists share one set of routes; it is checked before anything is read.)
 */
function savedListOf(c: Context<ApiEnv>): { ok: true; list: SavedList } | { ok: false; response: Response } {
  const name = c.req.param("list") ?? "";
  if (isSavedList(name)) return { ok: true, list: name };
  return {
    ok: false,
    response: problem(c, "not-found", `There is no saved list "${name}": the lists are ${SAVED_LISTS.join(" and ")}.`),
  };
}

/** The same door the gateway uses to reach an operation, for drawing a saved item without a key. */
function savedItemContext(c: Context<ApiEnv>) {
  const config = c.get("config");
  const waitUntil = (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise);
  const { user } = c.get("session");
  return createOperationContext({
    request: c.req.raw,
    requestId: c.get("requestId"),
    // Not a key's call: no key is named, and the Meter is never asked (decision 047).
    account: { userId: user.id, keyId: "", planId: user.planId },
    services: createServices(c.env, config, waitUntil),
    publicHosts: config.PUBLIC_HOSTS,
    signal: AbortSignal.timeout(10_000),
    waitUntil,
  });
}

/** Reserves one drawing on the account's saved-items throttle, or the 429 that says when to retry. */
async function takeSavedDrawing(c: Context<ApiEnv>): Promise<Response | null> {
  const taken = await hitThrottle(c.env.DB, SAVED_RENDER_RULE, c.get("session").user.id);
  if (taken.ok) return null;
  return problem(
    c,
    "too-many-requests",
    `Saved items are drawn at most ${SAVED_RENDER_RULE.limit} times a minute. Try again in ${taken.retryAfterSeconds} s.`,
    {},
    { "Retry-After": String(taken.retryAfterSeconds) },
  );
}

function renderProblem(c: Context<ApiEnv>, result: HandlerResult & { kind: "problem" }): Response {
  return problem(c, result.type, result.detail, result.extensions);
}

const SaveBodySchema = z.object({
  operation: z.string().max(64).optional(),
  input: z.record(z.string(), z.unknown(), {
    error: "input must be a JSON object: the call's body or query parameters",
  }),
});

userApi.get("/saved/:list", requireSession, async (c) => {
  const named = savedListOf(c);
  if (!named.ok) return named.response;
  const items = await listSavedItems(c.env.DB, c.get("session").user.id, named.list);
  return c.json({ list: named.list, limit: SAVED_LIST_LIMIT, items });
});

// The body's cap (SAVED_BODY_MAX_BYTES) and its refusal are applied by the request boundary
// (workers/http/boundary.ts), which reads every /api body before a route runs.
userApi.post("/saved/:list", requireSession, async (c) => {
  const named = savedListOf(c);
  if (!named.ok) return named.response;
  const { list } = named;
  const { user } = c.get("session");
  if (!hasVerifiedEmail(user)) return problem(c, "forbidden", EMAIL_UNVERIFIED_MESSAGE);
  const body = await parseJson(c, SaveBodySchema);
  if (!body.ok) return body.response;
  const checked = await checkSavedInput(list, body.data.operation, body.data.input);
  if (!checked.ok) {
    if (checked.code === "unknown-operation") {
      return fieldProblem(c, "operation", `operation is one of ${checked.allowed.join(", ")}.`);
    }
    // The API's own words, keyed by its own field names: what a call with this input is told.
    return problemFromZod(c, checked.error, { fieldInDetail: true });
  }
  const plan = planAllowsList(user, list);
  if (!plan.ok) return problem(c, "plan-required", plan.detail, { plans: plan.plans });
  // One real drawing before keeping it, so whatever the handler refuses (a text too long for
  // the size, equal colours) is refused now and a saved item always draws again.
  const throttled = await takeSavedDrawing(c);
  if (throttled) return throttled;
  const drawn = await checked.operation.handler(checked.parsed, savedItemContext(c));
  if (drawn.kind === "problem") return renderProblem(c, drawn);
  const saved = await appendSavedItem(c.env.DB, user.id, list, checked.operation.id, checked.input);
  if (!saved.ok) {
    return problem(
      c,
      "conflict",
      `Your saved ${savedListNoun(list)}s list is full (${SAVED_LIST_LIMIT}). Delete the list to start a new one.`,
      { limit: SAVED_LIST_LIMIT },
    );
  }
  return c.json({ item: saved.item }, 201);
});

userApi.delete("/saved/:list", requireSession, async (c) => {
  const named = savedListOf(c);
  if (!named.ok) return named.response;
  await clearSavedList(c.env.DB, c.get("session").user.id, named.list);
  return c.body(null, 204);
});

userApi.get("/saved/:list/:id/image", requireSession, async (c) => {
  const named = savedListOf(c);
  if (!named.ok) return named.response;
  const item = await findSavedItem(c.env.DB, c.get("session").user.id, named.list, c.req.param("id"));
  if (!item) return problem(c, "not-found", `No saved ${savedListNoun(named.list)} of yours has this id.`);
  const throttled = await takeSavedDrawing(c);
  if (throttled) return throttled;
  const drawn = await drawSavedItem(item, savedItemContext(c));
  const headers: Record<string, string> = {
    // An item never changes once saved, and it is this account's alone.
    "cache-control": "private, max-age=86400",
  };
  if (c.req.query("download") !== undefined && drawn.kind === "binary") {
    const extension = (drawn.contentType.split("/")[1] ?? "bin").replace("svg+xml", "svg");
    const noun = named.list === "avatars" ? "avatar" : "qrcode";
    headers["content-disposition"] = `attachment; filename="${noun}-${item.position}.${extension}"`;
  }
  return toResponse({}, drawn, headers, {
    asJson: false,
    render: (refusal) => problem(c, refusal.type, refusal.detail, refusal.extensions),
  });
});

/** An invalid-input problem for one field of the save body itself (not of the API's input). */
function fieldProblem(c: Context<ApiEnv>, field: string, message: string): Response {
  return problem(c, "invalid-input", `${field}: ${message}`, { errors: { [field]: message } });
}
