import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { randomEmail, STRONG_PASSWORD } from "../../tests/factories";
import { createPasswordAccount } from "./accounts";
import { hashPassword } from "./passwords";
import { createSession, issueAuthToken, readSession, SESSION_COOKIE, sessionCookieValue } from "./sessions";
import type { User } from "./users";

const SECRET = "a-test-session-secret-of-at-least-32-characters";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

async function newSession(): Promise<{ user: User; session: { id: string } }> {
  const created = await createPasswordAccount(env.DB, {
    email: randomEmail("session"),
    name: "",
    passwordHash: await hashPassword(STRONG_PASSWORD),
  });
  if (!created.ok) throw new Error("account not created");
  return { user: created.user, session: await createSession(env.DB, created.user) };
}

/** Every spelling of `text` with its last character replaced, and whether `accepts` took it. */
async function lastCharacterVerdicts(text: string, accepts: (spelling: string) => Promise<boolean>) {
  const verdicts = await Promise.all(
    [...BASE64URL].map(async (last) => {
      const spelling = text.slice(0, -1) + last;
      return [spelling, await accepts(spelling)] as const;
    }),
  );
  return verdicts.filter(([, ok]) => ok).map(([spelling]) => spelling);
}

describe("reading a session", () => {
  it("takes a session cookie only in its issued spelling, not the three that differ in the signature's two unused bits", async () => {
    const { user, session } = await newSession();
    const cookie = await sessionCookieValue(session, user, SECRET);
    const accepted = await lastCharacterVerdicts(cookie, async (spelling) => {
      const request = new Request("https://portico.test/", { headers: { cookie: `${SESSION_COOKIE}=${spelling}` } });
      return (await readSession(env.DB, SECRET, request))?.user.id === user.id;
    });
    expect(accepted).toEqual([cookie]);
  });

  it("takes a bearer token only in its issued spelling, not the three that differ in the signature's two unused bits", async () => {
    const { user, session } = await newSession();
    const { token } = await issueAuthToken(SECRET, session, user);
    // An HS256 JWT ends in a 43-character base64url MAC: 258 bits for 256.
    expect(token.split(".")[2]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const accepted = await lastCharacterVerdicts(token, async (spelling) => {
      const request = new Request("https://portico.test/", { headers: { authorization: `Bearer ${spelling}` } });
      return (await readSession(env.DB, SECRET, request))?.user.id === user.id;
    });
    expect(accepted).toEqual([token]);
  });
});
