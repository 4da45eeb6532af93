/**
 * The OpenAPI document and the docs say what the gateway does: each operation's example call
 * answers with the documented success status and the documented shape, and every documented
 * example fits its schemas. (Validity against the OpenAPI 3.1 schema is checked
 * in Node, tests/e2e/openapi.e2e.ts.)
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Operation } from "~workers/hosted/definition";
import { loadDefinitions } from "~workers/hosted/definitions";
import { callHosted, createAccountWithKey } from "../factories";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();

interface OpenApiOperation {
  operationId: string;
  responses: Record<string, unknown>;
}

async function documentedOperations(): Promise<Map<string, OpenApiOperation>> {
  const document = await (
    await SELF.fetch("https://portico.test/openapi.json")
  ).json<{
    paths: Record<string, Record<string, OpenApiOperation>>;
  }>();
  const operations = new Map<string, OpenApiOperation>();
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) operations.set(operation.operationId, operation);
  }
  return operations;
}

/** Calls a path with an example input as a Premium account would: the body for POST, else the query. */
async function callWithExample(
  method: string,
  path: string,
  example: Record<string, unknown>,
  keyHeader?: string,
): Promise<Response> {
  const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
  const query =
    method === "POST" ? "" : `?${new URLSearchParams(Object.entries(example).map(([k, v]) => [k, String(v)]))}`;
  return callHosted(SELF, method, `${path}${query}`, {
    key,
    keyHeader,
    body: method === "POST" ? example : undefined,
  });
}

/** The answer has the operation's documented shape: its output schema, or one of its image types. */
async function expectDocumentedShape(operation: Operation, response: Response): Promise<void> {
  if (operation.output.kind === "json") {
    expect(operation.output.schema.safeParse(await response.json()).error?.issues ?? []).toEqual([]);
  } else {
    expect(operation.output.mimeTypes).toContain(response.headers.get("content-type")?.split(";")[0]);
    await response.arrayBuffer();
  }
}

/**
 * Operations whose only engine is a binding the tests (like `npm run dev`) do not have: they
 * answer 503 engine-unavailable naming it, never invented output (Audio to Text: Workers AI).
 */
const UNAVAILABLE_OFFLINE: Record<string, string> = { "audio-to-text.transcribeAudio": "AI" };

// Operations whose example stands alone (no stored link to read or delete first).
const SELF_CONTAINED = HOSTED_DEFINITIONS.flatMap((definition) =>
  definition.operations
    .filter((operation) => !operation.path.includes(":"))
    .filter((operation) => !(`${definition.slug}.${operation.id}` in UNAVAILABLE_OFFLINE))
    .map((operation) => ({ label: `${definition.slug}.${operation.id}`, slug: definition.slug, operation })),
);

describe("OpenAPI operations without an engine offline", () => {
  it.each(Object.entries(UNAVAILABLE_OFFLINE))("%s answers its example with 503 naming %s", async (label, binding) => {
    const [slug, id] = label.split(".");
    const operation = HOSTED_DEFINITIONS.find((definition) => definition.slug === slug)?.operations.find(
      (candidate) => candidate.id === id,
    );
    expect(operation).toBeDefined();
    if (!operation) return;
    const documented = (await documentedOperations()).get(label);
    expect(Object.keys(documented?.responses ?? {})).toContain("503");
    const response = await callWithExample(
      operation.method,
      `/api/v1/${slug}${operation.path}`,
      operation.example as Record<string, unknown>,
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ binding });
  });
});

describe("OpenAPI success statuses", () => {
  it.each(SELF_CONTAINED)(
    "$label answers its example with the documented success status",
    async ({ slug, operation }) => {
      const documented = (await documentedOperations()).get(`${slug}.${operation.id}`);
      expect(documented).toBeDefined();
      const successStatuses = Object.keys(documented?.responses ?? {}).filter((status) => status.startsWith("2"));
      expect(successStatuses).toHaveLength(1);

      const response = await callWithExample(
        operation.method,
        `/api/v1/${slug}${operation.path}`,
        operation.example as Record<string, unknown>,
      );
      expect(String(response.status)).toBe(successStatuses[0]);
      await expectDocumentedShape(operation, response);
    },
  );
});

describe("documented examples", () => {
  it.each(
    HOSTED_DEFINITIONS.flatMap((definition) =>
      definition.operations.map((operation) => ({ label: `${definition.slug}.${operation.id}`, operation })),
    ),
  )("$label: the example input and answer fit the schemas", ({ operation }) => {
    expect(operation.input.safeParse(operation.example).error?.issues ?? []).toEqual([]);
    if (operation.output.kind === "json") {
      expect(operation.output.schema.safeParse(operation.output.example).error?.issues ?? []).toEqual([]);
    }
  });
});

describe("older paths", () => {
  const LEGACY = HOSTED_DEFINITIONS.flatMap((definition) =>
    (definition.legacyRoutes ?? []).map((legacy) => ({
      label: `${legacy.method} ${legacy.path}`,
      slug: definition.slug,
      legacy,
      operation: definition.operations.find((operation) => operation.id === legacy.operationId),
    })),
  );

  it.each(LEGACY)(
    "$label is documented as a deprecated form of its call, and answers its example",
    async ({ slug, legacy, operation }) => {
      expect(operation).toBeDefined();
      if (!operation) return;
      const documented = (await documentedOperations()).get(`${slug}.${operation.id}.legacy`) as
        (OpenApiOperation & { deprecated?: boolean; security?: Record<string, unknown>[] }) | undefined;
      expect(documented?.deprecated).toBe(true);
      expect(documented?.security).toContainEqual({ LegacyKey: [] });
      const successStatuses = Object.keys(documented?.responses ?? {}).filter((status) => status.startsWith("2"));
      expect(successStatuses).toEqual([String(operation.successStatus ?? 200)]);

      // The older example as an older client sends it: the key in X-Avatar-Key.
      const example = (legacy.input?.example ?? operation.example) as Record<string, unknown>;
      const response = await callWithExample(legacy.method, legacy.path, example, "x-avatar-key");
      expect(String(response.status)).toBe(successStatuses[0]);
      // A path that answers its older clients in their own shape is held to that shape.
      if (legacy.answer) expect(legacy.answer.schema.safeParse(await response.json()).error?.issues ?? []).toEqual([]);
      else await expectDocumentedShape(operation, response);
    },
  );

  it.each(LEGACY)("$label is named on its API's docs page", async ({ slug, legacy }) => {
    const html = await (await SELF.fetch(`https://portico.test/docs/api/${slug}`)).text();
    expect(html).toContain(`${legacy.method} ${legacy.path}`);
    expect(html).toContain("X-Avatar-Key");
  });
});

describe("the media tunnel", () => {
  it("is documented as GET and HEAD of …/tunnel/{token}, with no key and the statuses it answers", async () => {
    const document = await (await SELF.fetch("https://portico.test/openapi.json")).json<{
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    }>();
    const path = document.paths["/api/v1/youtube-instagram-video-downloader/tunnel/{token}"];
    expect(Object.keys(path ?? {}).toSorted()).toEqual(["get", "head"]);
    for (const method of ["get", "head"]) {
      expect(path?.[method]?.security, method).toEqual([]);
      expect(Object.keys(path?.[method]?.responses ?? {}).toSorted(), method).toEqual(
        ["200", "206", "403", "404", "410", "416", "502"],
      );
    }
    // A status it documents is one it answers: a token that is not ours.
    const refused = await SELF.fetch("https://portico.test/api/v1/youtube-instagram-video-downloader/tunnel/not-ours");
    expect(Object.keys(path?.get?.responses ?? {})).toContain(String(refused.status));
  });
});

describe("documented problems", () => {
  it("the video downloader documents each of its platform failures under its own status", async () => {
    const documented = (await documentedOperations()).get("youtube-instagram-video-downloader.downloadMedia");
    const statuses = Object.keys(documented?.responses ?? {});
    // unsupported-url and drm-protected 422, private and login walls 403, gone 404, region 451,
    // the platform's throttle 429, blocked 503, outdated reader 502.
    for (const status of ["422", "403", "404", "451", "429", "503", "502"]) expect(statuses, status).toContain(status);
    const described = (status: string) => JSON.stringify(documented?.responses[status]);
    expect(described("451")).toContain("blocks the post");
    expect(described("403")).toContain("signed-in user");
  });
});
