/**
 * Every problem `type` the API answers is a URL that opens a page saying what it means, its
 * status and what to do; the docs pages and the OpenAPI document link to them.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PROBLEM_BASE_URL, PROBLEM_TYPES, type ProblemType } from "~workers/http/problem";

const BASE = "https://portico.test";
const TYPES = Object.keys(PROBLEM_TYPES) as ProblemType[];

/** The words a person reads in the page's article: tags dropped, React's entities decoded, spaces collapsed. */
function textOf(html: string): string {
  const article = html.slice(html.indexOf("<article"), html.indexOf("</article>"));
  return article
    .replace(/<!-- -->/g, "")
    .replace(/<\/?code[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** The table's words as the page shows them: backtick spans become code, so the ticks go. */
function shown(text: string): string {
  return text.replaceAll("`", "").replace(/\s+/g, " ");
}

/** Fetches a problem type's URL from this Worker: its path, whatever host the type names. */
function openType(typeUrl: string): Promise<Response> {
  return SELF.fetch(`${BASE}${new URL(typeUrl).pathname}`);
}

describe("problem pages", () => {
  it.each(TYPES)("/problems/%s says what it means, its status and what to do", async (type) => {
    const response = await openType(PROBLEM_BASE_URL + type);
    expect(response.status).toBe(200);
    const { status, title, description, action } = PROBLEM_TYPES[type];
    const text = textOf(await response.text());
    expect(text).toContain(`${title} `);
    expect(text).toContain(`Status ${status} `);
    expect(text).toContain(PROBLEM_BASE_URL + type);
    expect(text).toContain(shown(description));
    expect(text).toContain(shown(action));
  });

  it.each(["no-such-problem", "toString", "constructor", "__proto__", "Invalid-Input"])(
    "/problems/%s is a 404, not a page",
    async (type) => {
      const response = await SELF.fetch(`${BASE}/problems/${type}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("What to do");
    },
  );

  it("/problems lists every type with a link to its page", async () => {
    const response = await SELF.fetch(`${BASE}/problems`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const type of TYPES) expect(html).toContain(`href="/problems/${type}"`);
  });

  it("the type of a real API answer opens its page", async () => {
    const answer = await SELF.fetch(`${BASE}/api/nothing/here`);
    const { type, title } = await answer.json<{ type: string; title: string }>();
    expect(type).toBe(`${PROBLEM_BASE_URL}not-found`);
    const page = await openType(type);
    expect(page.status).toBe(200);
    expect(textOf(await page.text())).toContain(title);
  });
});

describe("links to the problem pages", () => {
  it("a docs page links each error it lists, the call's own and the common ones", async () => {
    const html = await (await SELF.fetch(`${BASE}/docs/api/urlshortener`)).text();
    // The URL shortener's own 409, and two types that share the common 401 row.
    for (const type of ["conflict", "missing-api-key", "invalid-api-key", "invalid-input"]) {
      expect(html).toContain(`href="/problems/${type}"`);
    }
  });

  it("the OpenAPI Problem schema names every type URL and links the list", async () => {
    const document = await (
      await SELF.fetch(`${BASE}/openapi.json`)
    ).json<{
      components: { schemas: { Problem: { properties: { type: { enum: string[] } }; externalDocs: { url: string } } } };
    }>();
    const problem = document.components.schemas.Problem;
    expect(problem.properties.type.enum.sort()).toEqual(TYPES.map((type) => PROBLEM_BASE_URL + type).sort());
    expect(new URL(problem.externalDocs.url).pathname).toBe("/problems");
  });
});
