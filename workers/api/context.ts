/** What the /api routers share: the session guard, and the account calls' JSON bodies. */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import type { ApiEnv } from "~workers/http/env";
import { problem, problemFromZod } from "~workers/http/problem";
import { readSession } from "~workers/platform/sessions";

export type { ApiEnv } from "~workers/http/env";

/** Lets only signed-in callers (session cookie or bearer auth_token) through. */
export const requireSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const session = await readSession(c.env.DB, c.get("config").SESSION_SECRET, c.req.raw);
  if (!session) {
    return problem(
      c,
      "unauthenticated",
      "Sign in first: send the session cookie or `Authorization: Bearer <auth_token>`.",
      {},
      {
        "WWW-Authenticate": 'Bearer realm="portico"',
      },
    );
  }
  c.set("session", session);
  await next();
};

/** The account calls' bodies are a few fields: 8 KiB is plenty. */
export const JSON_LIMIT = bodyLimit({
  maxSize: 8 * 1024,
  onError: (c) => problem(c as Context<ApiEnv>, "body-too-large", "Keep the body under 8 KiB."),
});

/** The JSON body parsed by `schema`, or the problem+json naming each field that broke a rule. */
export async function parseJson<S extends z.ZodType>(c: Context<ApiEnv>, schema: S) {
  const body: unknown = await c.req.json().catch(() => undefined);
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return { ok: true as const, data: parsed.data as z.infer<S> };
  return { ok: false as const, response: problemFromZod(c, parsed.error, { extensions: { success: 0 } }) };
}
