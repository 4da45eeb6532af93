/**
 * Random and hostile input at every operation of every hosted API and every legacy path,
 * through the whole gateway, as JSON, query strings and (where an operation takes uploads)
 * multipart forms with random file bytes: the answer is always 2xx, or 4xx problem+json,
 * never a 5xx.
 */
import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InputSource } from "~workers/hosted/definition";
import { loadDefinitions } from "~workers/hosted/definitions";
import { callHosted, createAccountWithKey, multipartOf } from "../factories";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();

const RUNS_PER_OPERATION = 40;

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

function pathFor(path: string, input: Record<string, unknown>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    // As text the way a form field is (JSON for anything not a string): String() throws on an
    // object whose toString is not a function, which fast-check generates.
    encodeURIComponent(fieldText(input[name] ?? "x").toWellFormed()),
  );
}

/** A form field's text: strings as they are, anything else as JSON. */
const fieldText = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? "null"));

const takesUploads = (source: InputSource) => source === "multipart" || source === "json-or-multipart";

const CASES = HOSTED_DEFINITIONS.flatMap((definition) => [
  ...definition.operations.map((operation) => ({
    label: `${definition.slug} ${operation.method} ${operation.path || "/"}`,
    method: operation.method,
    path: `/api/v1/${definition.slug}${operation.path}`,
    example: operation.example,
    uploads: operation.method === "POST" && takesUploads(operation.inputSource),
  })),
  ...(definition.legacyRoutes ?? []).map((legacy) => ({
    label: `${definition.slug} legacy ${legacy.method} ${legacy.path}`,
    method: legacy.method,
    path: legacy.path,
    example: definition.operations.find((operation) => operation.id === legacy.operationId)?.example,
    uploads: false,
  })),
]);

describe.each(CASES)("$label", ({ method, path: template, example, uploads }) => {
  it("answers hostile input with 2xx or a 4xx problem", async () => {
    await fc.assert(
      fc.asyncProperty(
        inputFor(example),
        fc.boolean(),
        fc.uint8Array({ maxLength: 512 }),
        async (input, asForm, file) => {
          // A fresh account per run, so the per-second limit never hides what the API itself says.
          const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
          const record = input as Record<string, unknown>;
          let path = pathFor(template, record);
          const usesQuery = method !== "POST";
          if (usesQuery) {
            const query = new URLSearchParams(Object.entries(record).map(([k, v]) => [k, fieldText(v)]));
            path += `?${query}`;
          }
          const response =
            uploads && asForm
              ? await callHosted(SELF, method, path, {
                  key,
                  ...multipartOf(
                    Object.fromEntries(Object.entries(record).map(([name, value]) => [name, fieldText(value)])),
                    { name: "image", filename: "random.png", type: "image/png", bytes: file },
                  ),
                })
              : await callHosted(SELF, method, path, { key, body: usesQuery ? undefined : record });
          const status = response.status;
          if (status >= 400) {
            expect(response.headers.get("content-type"), `${status} for ${JSON.stringify(record)}`).toBe(
              "application/problem+json",
            );
          }
          expect(status, JSON.stringify(record)).toBeLessThan(500);
          await response.arrayBuffer();
        },
      ),
      {
        numRuns: RUNS_PER_OPERATION,
        examples: [
          // Found by this test: a form field named with a trailing backslash, and half a
          // surrogate pair in a QR code's text (the encoder failed where the schema should refuse).
          [{ "\\": 0 }, true, new Uint8Array()],
          [Object.fromEntries(Object.keys(example ?? {}).map((name) => [name, "\ud800"])), false, new Uint8Array()],
          // An object whose toString is not a function, in every field (and path parameter).
          [
            Object.fromEntries(Object.keys(example ?? {}).map((name) => [name, { toString: "" }])),
            false,
            new Uint8Array(),
          ],
        ],
      },
    );
  });
});
