/**
 * Random and hostile form posts at every page action, signed in where the page needs it: the
 * answer is always the page's own (2xx, a redirect, or a 4xx with its message), never a 5xx.
 * The hosted APIs and their legacy paths have the same property in hosted-properties.test.ts.
 */
import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSession, SESSION_COOKIE, sessionCookieValue } from "~workers/platform/sessions";
import { createAccountWithKey, multipartOf, randomClientAddress, sessionCookieFor } from "../factories";

const BASE = "https://portico.test";
const RUNS_PER_ACTION = 25;

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  "a".repeat(5_000),
  "\uD800",
  "http://127.0.0.1/",
  "admin@portico.local",
  "premium",
  "-1",
  "1e309",
];

const fieldValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...HOSTILE_STRINGS));

type Who = "anyone" | "user" | "admin";

const ACTIONS: { path: string; who: Who; intents: string[]; fields: string[] }[] = [
  { path: "/user/authenticate", who: "anyone", intents: ["signup", "login", "forgot"], fields: ["email", "password", "name", "referralCode"] },
  { path: "/change/password/not-a-real-token", who: "anyone", intents: [], fields: ["password", "confirm"] },
  { path: "/user/settings", who: "user", intents: ["profile", "password", "sign-out-everywhere", "delete"], fields: ["name", "avatarUrl", "currentPassword", "newPassword", "confirmation"] },
  { path: "/user/apikey", who: "user", intents: ["create", "rotate", "revoke"], fields: ["name", "keyId"] },
  { path: "/user/verify-email", who: "user", intents: [], fields: [] },
  { path: "/user-api-calls", who: "admin", intents: [], fields: ["userId", "planId", "days"] },
];

/** A signed-in, verified account of its own for each run, made straight in D1 (sign-up has tests of its own). */
async function freshUserCookie(): Promise<string> {
  const { userId } = await createAccountWithKey(env.DB);
  const session = await createSession(env.DB, { id: userId, sessionVersion: 1 });
  const value = await sessionCookieValue(session, { id: userId, sessionVersion: 1 }, String(env.SESSION_SECRET));
  return `${SESSION_COOKIE}=${encodeURIComponent(value)}`;
}

/** One of: a well-formed urlencoded form, a multipart form, or bytes that claim to be a form and are not. */
const bodyShape = fc.constantFrom("urlencoded", "multipart", "garbage-multipart", "garbage-urlencoded");

function encodeBody(shape: string, fields: Record<string, string>, garbage: Uint8Array) {
  const wellFormed = Object.entries(fields).map(([name, value]): [string, string] => [
    name.toWellFormed(),
    value.toWellFormed(),
  ]);
  switch (shape) {
    case "multipart": {
      // Written by hand: FormData refuses some hostile names (one ending in a backslash).
      const { rawBody, contentType } = multipartOf(Object.fromEntries(wellFormed));
      return { body: rawBody as BodyInit, contentType };
    }
    case "garbage-multipart":
      return { body: garbage as BodyInit, contentType: "multipart/form-data; boundary=----not-there" };
    case "garbage-urlencoded":
      return { body: garbage as BodyInit, contentType: "application/x-www-form-urlencoded" };
    default:
      return {
        body: new URLSearchParams(wellFormed).toString(),
        contentType: "application/x-www-form-urlencoded",
      };
  }
}

describe.each(ACTIONS)("page action $path", ({ path, who, intents, fields }) => {
  it("answers hostile form posts with the page's own answer, never a 5xx", async () => {
    const adminCookie = who === "admin" ? await sessionCookieFor(SELF, env.ADMIN_EMAIL) : undefined;
    await fc.assert(
      fc.asyncProperty(
        fc.record(Object.fromEntries(fields.map((name) => [name, fieldValue])), { requiredKeys: [] }),
        fc.oneof(fc.constantFrom(...intents, "unknown"), fieldValue),
        fc.dictionary(fc.string({ maxLength: 10 }), fieldValue, { maxKeys: 3 }),
        bodyShape,
        fc.uint8Array({ maxLength: 256 }),
        async (known, intent, extra, shape, garbage) => {
          const cookie = who === "user" ? await freshUserCookie() : adminCookie;
          const fields = { ...extra, ...(known as Record<string, string>), intent };
          const { body, contentType } = encodeBody(shape, fields, garbage);
          const headers: Record<string, string> = { origin: BASE, "cf-connecting-ip": randomClientAddress() };
          if (cookie) headers.cookie = cookie;
          if (contentType) headers["content-type"] = contentType;
          const response = await SELF.fetch(`${BASE}${path}`, { method: "POST", headers, body, redirect: "manual" });
          expect(response.status, `${shape} ${JSON.stringify(fields)}`).toBeLessThan(500);
          await response.arrayBuffer();
        },
      ),
      { numRuns: RUNS_PER_ACTION },
    );
  });
});
