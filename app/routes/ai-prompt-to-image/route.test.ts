/**
 * The admin's prompt-to-image page as the server renders it (spec §2, decision 063): the prompt
 * box, 'Anime' and 'AI Human', the plans' limits and 'Goto Pricing Page'; offline, the server's
 * engine-unavailable sentence with both buttons off and described by it; with an engine, the
 * buttons on and the admin's earlier images listed newest first, each downloadable.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "~workers/app";
import { aiImageEngineFor, aiImageUsage, type AiImageBindings } from "~workers/platform/ai-images";
import { randomClientAddress, sessionCookieFor, signUpVerified } from "../../../tests/factories";
import { fakeImageModel, fluxAnswer, jpegOf } from "../../../tests/fakes/workers-ai-images";

const BASE = "https://portico.test";
const PAGE = "/ai/prompt-to-image";

function pageRequest(cookie?: string): Request<unknown, IncomingRequestCfProperties> {
  return new Request(`${BASE}${PAGE}`, {
    headers: cookie ? { cookie, "cf-connecting-ip": randomClientAddress() } : {},
    redirect: "manual",
  }) as Request<unknown, IncomingRequestCfProperties>;
}

/** The page from the Worker called with `bindings` added to the tests' environment. */
async function pageWith(bindings: Record<string, unknown>, cookie: string): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(pageRequest(cookie), { ...env, ...bindings } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

interface Found {
  tag: string;
  attributes: Record<string, string>;
  text: string;
}

/** Every element matching `selector`, with its attributes and the text inside it. */
async function elements(html: string, selector: string): Promise<Found[]> {
  const found: Found[] = [];
  await new HTMLRewriter()
    .on(selector, {
      element(element) {
        found.push({
          tag: element.tagName,
          attributes: Object.fromEntries(element.attributes as unknown as Iterable<[string, string]>),
          text: "",
        });
      },
      text(chunk) {
        const last = found.at(-1);
        if (last) last.text += chunk.text;
      },
    })
    // Words in neighbouring elements are apart on the screen: keep them apart in the text.
    .on(`${selector} *`, {
      element() {
        const last = found.at(-1);
        if (last) last.text += " ";
      },
    })
    .transform(new Response(html))
    .text();
  return found;
}

const decoded = (text: string) =>
  text
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

describe(PAGE, () => {
  it("sends a signed-in account that is not the admin to /", async () => {
    const { cookie } = await signUpVerified(SELF);
    const response = await SELF.fetch(pageRequest(cookie));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
  });

  it("offline: says why in the server's words, and both buttons are off and described by it", async () => {
    const cookie = await sessionCookieFor(SELF, env.ADMIN_EMAIL);
    const response = await SELF.fetch(pageRequest(cookie));
    expect(response.status).toBe(200);
    const html = await response.text();

    const engine = aiImageEngineFor(env as Env & AiImageBindings);
    if (engine.available) throw new Error("the tests' environment was expected to have no AI binding");
    const [status] = await elements(html, "#engine-status");
    expect(decoded(status!.text)).toBe(`${engine.message} The Anime and AI Human buttons are off until it has one.`);

    const buttons = (await elements(html, "button")).filter((button) =>
      ["Anime", "AI Human"].includes(decoded(button.text)),
    );
    expect(buttons.map((button) => decoded(button.text))).toEqual(["Anime", "AI Human"]);
    for (const button of buttons) {
      expect(button.attributes).toHaveProperty("disabled");
      expect(button.attributes["aria-describedby"]).toBe("engine-status");
    }

    // The rest of the page as the spec draws it.
    expect((await elements(html, "textarea#prompt")).length).toBe(1);
    const plans = (await elements(html, "aside li")).map((item) => decoded(item.text));
    expect(plans).toEqual([
      "free: 30 a month, 1 a day. Standard queue",
      "standard: 90 a month, 3 a day. Priority over Free",
      "premium: 150 a month, 5 a day. Highest priority",
    ]);
    const [pricing] = (await elements(html, "aside a")).filter((link) => decoded(link.text) === "Goto Pricing Page");
    expect(pricing?.attributes.href).toBe("/user/subscription");
  });

  it("with an engine: the buttons are on, and earlier images are listed newest first with download links", async () => {
    const cookie = await sessionCookieFor(SELF, env.ADMIN_EMAIL);
    const admin = await env.DB.prepare(`SELECT id FROM users WHERE email = ?`)
      .bind(env.ADMIN_EMAIL)
      .first<{ id: string }>();
    const bucket = (env as Env & { AI_IMAGES: R2Bucket }).AI_IMAGES;
    // Two pictures kept as the API keeps them (workers/api/ai.test.ts makes them through it).
    const older = `${String(9_999_999_999_999 - Date.UTC(2030, 0, 2, 8)).padStart(13, "0")}-00000000000000a1`;
    const newer = `${String(9_999_999_999_999 - Date.UTC(2030, 0, 3, 9)).padStart(13, "0")}-00000000000000b2`;
    for (const [id, prompt, style, at] of [
      [older, "an old harbour <at> night", "anime", Date.UTC(2030, 0, 2, 8)],
      [newer, "a baker smiling", "human", Date.UTC(2030, 0, 3, 9)],
    ] as const) {
      await bucket.put(`users/${admin!.id}/${id}`, jpegOf([9, 9, 9]), {
        httpMetadata: { contentType: "image/jpeg" },
        customMetadata: { prompt, style, createdAt: String(at) },
      });
    }

    const response = await pageWith({ AI: fakeImageModel(fluxAnswer()) }, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await elements(html, "#engine-status")).toEqual([]);
    const buttons = (await elements(html, "button")).filter((button) =>
      ["Anime", "AI Human"].includes(decoded(button.text)),
    );
    expect(buttons).toHaveLength(2);
    for (const button of buttons) expect(button.attributes).not.toHaveProperty("disabled");

    const items = (await elements(html, 'ul[aria-label="Your images"] > li')).map((item) => decoded(item.text));
    const ours = items.filter((text) => text.includes("a baker smiling") || text.includes("an old harbour"));
    expect(ours).toEqual([
      "a baker smiling AI Human · 3 Jan 2030, 09:00 UTC Download portico-human-2030-01-03-a-baker-smiling.jpg",
      "an old harbour <at> night Anime · 2 Jan 2030, 08:00 UTC Download portico-anime-2030-01-02-an-old-harbour-at-night.jpg",
    ]);
    const links = (await elements(html, 'ul[aria-label="Your images"] a[download]')).map((link) => link.attributes);
    expect(links).toContainEqual({
      href: `/api/ai/images/${newer}?download=1`,
      download: "portico-human-2030-01-03-a-baker-smiling.jpg",
      class: expect.any(String),
    });
    await bucket.delete([`users/${admin!.id}/${older}`, `users/${admin!.id}/${newer}`]);
  });

  it("says how much of the plan's day and month the admin has used", async () => {
    const cookie = await sessionCookieFor(SELF, env.ADMIN_EMAIL);
    const admin = await env.DB.prepare(`SELECT id, plan_id, plan_expires_at FROM users WHERE email = ?`)
      .bind(env.ADMIN_EMAIL)
      .first<{ id: string; plan_id: "free" | "standard" | "premium"; plan_expires_at: number | null }>();
    const plan = { planId: admin!.plan_id, planExpiresAt: admin!.plan_expires_at };
    await env.DB.prepare(`DELETE FROM ai_image_generations WHERE user_id = ?`).bind(admin!.id).run();
    await env.DB.prepare(`INSERT INTO ai_image_generations (id, user_id, created_at) VALUES (?, ?, ?)`)
      .bind(`usage-${crypto.randomUUID()}`, admin!.id, Date.now())
      .run();
    const usage = await aiImageUsage(env.DB, admin!.id, plan);
    expect(usage).toMatchObject({ today: 1, thisMonth: 1 });

    const html = await (await SELF.fetch(pageRequest(cookie))).text();
    const [line] = await elements(html, '[data-testid="ai-image-usage"]');
    expect(decoded(line!.text)).toBe(
      `${usage.planId} plan: 1 of ${usage.perDay} today, 1 of ${usage.perMonth} this month.`,
    );
    await env.DB.prepare(`DELETE FROM ai_image_generations WHERE user_id = ?`).bind(admin!.id).run();
  });
});
