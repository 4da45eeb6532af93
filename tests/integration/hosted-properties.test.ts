/**
 * Random and hostile input at every operation of every hosted API, through the whole gateway:
 * the answer is always 2xx, or 4xx problem+json, never a 5xx.
 */
import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOSTED_DEFINITIONS } from "~workers/hosted/definitions";
import { callHosted, createAccountWithKey } from "../factories";

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  "http://127.0.0.1/",
  "http://169.254.169.254/latest/meta-data/",
  "file:///etc/passwd",
  "data:image/png;base64,AAAA",
  "9".repeat(400),
  "NaN",
  "-1e309",
  "\uD800",
];

const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }),
  fc.double(),
);

function inputFor(example: unknown) {
  const keys = Object.keys((example ?? {}) as Record<string, unknown>);
  const mutated = keys.length
    ? fc.record(Object.fromEntries(keys.map((key) => [key, hostileValue])), { requiredKeys: [] })
    : fc.constant({});
  return fc.oneof(mutated, fc.dictionary(fc.string({ maxLength: 12 }), hostileValue, { maxKeys: 6 }));
}

function pathFor(slug: string, path: string, input: Record<string, unknown>): string {
  return `/api/v1/${slug}${path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(input[name] ?? "x").toWellFormed()))}`;
}

describe.each(
  HOSTED_DEFINITIONS.flatMap((definition) =>
    definition.operations.map((operation) => [definition.slug, operation] as const),
  ),
)("%s", (slug, operation) => {
  it(`${operation.method} ${operation.path || "/"} answers hostile input with 2xx or a 4xx problem`, async () => {
    await fc.assert(
      fc.asyncProperty(inputFor(operation.example), async (input) => {
        // A fresh account per run, so the per-second limit never hides what the API itself says.
        const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
        const record = input as Record<string, unknown>;
        let path = pathFor(slug, operation.path, record);
        const usesQuery = operation.method !== "POST";
        if (usesQuery) {
          const query = new URLSearchParams(
            Object.entries(record).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
          );
          path += `?${query}`;
        }
        const response = await callHosted(SELF, operation.method, path, { key, body: usesQuery ? undefined : record });
        const status = response.status;
        if (status >= 400) {
          expect(response.headers.get("content-type"), `${status} for ${JSON.stringify(record)}`).toBe(
            "application/problem+json",
          );
        }
        expect(status, JSON.stringify(record)).toBeLessThan(500);
        await response.arrayBuffer();
      }),
      { numRuns: 12 },
    );
  });
});
