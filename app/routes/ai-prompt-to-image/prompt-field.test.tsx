/**
 * The prompt box of the admin's prompt-to-image page with the server's 422 beside it (decision
 * 063): the answer the API really gives for a too-short prompt is read as the page reads it,
 * and the box is drawn as the page draws it after that answer: the message under the box, the
 * box marked invalid and described by it. Other refusals leave the box alone (the page alerts).
 */
import { env, SELF } from "cloudflare:test";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiError } from "~/lib/api-client";
import { callApi, sessionCookieFor } from "../../../tests/factories";
import { PromptField, promptErrorOf } from "./prompt-field";

const field = (error: string | null) =>
  renderToString(<PromptField value="hi" onChange={() => {}} maxLength={1000} error={error} />);

describe("the prompt box", () => {
  it("shows the server's 422 message beside the prompt, the box marked invalid and described by it", async () => {
    const cookie = await sessionCookieFor(SELF, env.ADMIN_EMAIL);
    const answer = await callApi(SELF, "POST", "/api/ai/prompt-to-image", {
      cookie,
      body: { input_prompts: "hi", type: "anime" },
    });
    expect(answer.status).toBe(422);
    const error = promptErrorOf(new ApiError(422, await answer.json()));
    expect(error).toBe("Describe the picture in a few words");

    const html = field(error);
    expect(html).toMatch(/<textarea[^>]* aria-invalid="true"[^>]* aria-describedby="prompt-error"/);
    expect(html).toContain(
      '<p id="prompt-error" class="mt-1 text-sm text-red-600 dark:text-red-400">Describe the picture in a few words</p>',
    );
    expect(html).toMatch(/<label for="prompt"[^>]*>Prompt<\/label>/);
  });

  it("leaves the box alone for any other refusal, and without one", () => {
    expect(promptErrorOf(new ApiError(422, { errors: { type: "type is 'anime' or 'human'" } }))).toBeNull();
    expect(
      promptErrorOf(new ApiError(503, { message: "Image generation needs the Workers AI binding (AI)" })),
    ).toBeNull();
    expect(promptErrorOf(new Error("offline"))).toBeNull();
    const html = field(null);
    expect(html).not.toContain("aria-invalid");
    expect(html).not.toContain("prompt-error");
  });
});
