/**
 * `POST /api/ai/prompt-to-image` through the Worker: only the admin account may call it, its
 * input is checked before anything else is spent, and without the Workers AI binding (as in
 * these tests) it says which binding it needs instead of inventing an image.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callApi, expectProblem, sessionCookieFor, signUpUnverified, signUpVerified } from "../../tests/factories";

const PATH = "/api/ai/prompt-to-image";
const PROMPT = { input_prompts: "a lighthouse at dusk", type: "anime" };

describe("POST /api/ai/prompt-to-image", () => {
  it("needs a session", async () => {
    await expectProblem(await callApi(SELF, "POST", PATH, { body: PROMPT }), 401, "unauthenticated");
  });

  it("is the admin's only: a proven or an unproven ordinary account gets 403", async () => {
    for (const { cookie } of [await signUpVerified(SELF), await signUpUnverified(SELF)]) {
      const body = await expectProblem(await callApi(SELF, "POST", PATH, { cookie, body: PROMPT }), 403, "forbidden");
      expect(body.message).toBe("Only the admin account may generate images.");
    }
  });

  it.each([
    [{ type: "anime" }, ["input_prompts"]],
    [{ input_prompts: "hi", type: "anime" }, ["input_prompts"]],
    [{ input_prompts: "a lighthouse", type: "cartoon" }, ["type"]],
    [{}, ["input_prompts", "type"]],
  ])("names what is wrong with %j", async (body, fields) => {
    const cookie = await sessionCookieFor(SELF, env.ADMIN_EMAIL);
    const answer = await expectProblem(await callApi(SELF, "POST", PATH, { cookie, body }), 422, "invalid-input");
    expect(Object.keys(answer.errors as object).sort()).toEqual(fields);
  });

  it("says it needs the AI binding where there is none, and makes nothing up", async () => {
    const cookie = await sessionCookieFor(SELF, env.ADMIN_EMAIL);
    const body = await expectProblem(
      await callApi(SELF, "POST", PATH, { cookie, body: PROMPT }),
      503,
      "engine-unavailable",
    );
    expect(body).toMatchObject({ binding: "AI" });
    expect(body).not.toHaveProperty("image");
  });
});
