/** `/openapi.json`: an OpenAPI 3.1 document of every hosted API, from the same schemas the gateway parses. */
import type { LegacyRoute, Operation } from "./definition";
import { loadDefinitions } from "./definitions";
import { openApiPath, parameterRows, pathParams, toJsonSchema, type JsonSchema } from "./describe";
import { findHostedApi } from "./registry";
import { PROBLEM_BASE_URL, PROBLEM_TYPES } from "~workers/http/problem";
import { PLAN_GROUP_LABELS } from "~workers/platform/plans";
import { TUNNEL_LIFETIME_SECONDS, TUNNEL_PATH } from "~workers/gateway/tunnel";

const ERROR_RESPONSES: Record<string, string> = {
  "400": "The body could not be read (malformed JSON or multipart).",
  "401": "No API key, or one that is not ours.",
  "403": "The key was revoked, or the API is not in your plan.",
  "413": "The body is larger than this call accepts.",
  "422": "The input broke a rule; `errors` names each field.",
  "429": "A per-second or monthly limit was reached; see Retry-After.",
  "502": "The engine failed on this input.",
  "503": "The engine is not available in this environment.",
};

const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description: "Remaining calls in the burst and monthly windows (IETF draft)",
    schema: { type: "string" },
  },
  "RateLimit-Policy": { description: "The burst and monthly policies (IETF draft)", schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Calls this month", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Calls left this month", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the month resets", schema: { type: "integer" } },
};

function operationObject(slug: string, operation: Operation): JsonSchema {
  const api = findHostedApi(slug);
  const inputSchema = toJsonSchema(operation.input, "input");
  const inPath = pathParams(operation.path);
  const rows = parameterRows(operation);
  const parameters = rows
    .filter((row) => row.location !== "body")
    .map((row) => ({
      name: row.name,
      in: row.location,
      required: row.location === "path" ? true : row.required,
      description: row.description || undefined,
      schema: ((inputSchema.properties ?? {}) as Record<string, JsonSchema>)[row.name] ?? {},
    }));
  if (operation.output.kind === "binary") {
    parameters.push({
      name: "as",
      in: "query",
      required: false,
      description: "`json` answers `{ data, mimeType, size }` with the bytes in base64 instead of the bytes.",
      schema: { type: "string", enum: ["json"] },
    });
  }
  const hasBody = rows.some((row) => row.location === "body");
  const bodySchema: JsonSchema = { ...inputSchema };
  if (inPath.length && bodySchema.properties) {
    bodySchema.properties = Object.fromEntries(
      Object.entries(bodySchema.properties as Record<string, JsonSchema>).filter(([name]) => !inPath.includes(name)),
    );
    bodySchema.required = ((bodySchema.required as string[] | undefined) ?? []).filter(
      (name) => !inPath.includes(name),
    );
  }
  const content: Record<string, JsonSchema> = {};
  if (operation.inputSource === "json" || operation.inputSource === "json-or-multipart") {
    content["application/json"] = { schema: bodySchema, example: operation.example };
  }
  if (operation.inputSource === "multipart" || operation.inputSource === "json-or-multipart") {
    content["multipart/form-data"] = { schema: bodySchema };
  }
  const success =
    operation.output.kind === "json"
      ? {
          "application/json": {
            schema: toJsonSchema(operation.output.schema, "output"),
            example: operation.output.example,
          },
        }
      : {
          ...Object.fromEntries(
            operation.output.mimeTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
          ),
          "application/json": { schema: { $ref: "#/components/schemas/Base64File" } },
        };
  // This call's own problems join the common ones; a status both have lists both reasons.
  const errorResponses = { ...ERROR_RESPONSES };
  for (const error of operation.errors ?? []) {
    const status = String(PROBLEM_TYPES[error.type].status);
    errorResponses[status] = errorResponses[status] ? `${errorResponses[status]} Or: ${error.when}` : error.when;
  }
  return {
    operationId: `${slug}.${operation.id}`,
    summary: operation.summary,
    description: [operation.description, api ? `Plan group: ${PLAN_GROUP_LABELS[api.group]}.` : ""]
      .filter(Boolean)
      .join("\n\n"),
    tags: [api?.name ?? slug],
    parameters,
    ...(hasBody && Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    responses: {
      [String(operation.successStatus ?? 200)]: {
        description: operation.output.kind === "json" ? "The result" : operation.output.description,
        headers: RATE_LIMIT_HEADERS,
        content: success,
      },
      ...Object.fromEntries(
        Object.entries(errorResponses).map(([status, description]) => [
          status,
          {
            description,
            content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
          },
        ]),
      ),
    },
  };
}

/**
 * An older path as a deprecated operation: the same call and answers, the older input where
 * it differs, and the older key header among the ways to authenticate.
 */
function legacyOperationObject(slug: string, operation: Operation, legacy: LegacyRoute): JsonSchema {
  const current = operationObject(slug, operation);
  return {
    ...current,
    operationId: `${slug}.${operation.id}.legacy`,
    summary: `${operation.summary} (older path)`,
    description: `Serves \`${operation.method} ${openApiPath(slug, operation.path)}\` for clients written for the earlier product, which send the key in \`X-Avatar-Key\`. New code should call that path.`,
    deprecated: true,
    security: [{ ApiKey: [] }, { Bearer: [] }, { LegacyKey: [] }],
    ...(legacy.answer
      ? {
          responses: {
            ...(current.responses as Record<string, JsonSchema>),
            "200": {
              description: "The result, as the earlier product's clients read it",
              headers: RATE_LIMIT_HEADERS,
              content: {
                "application/json": {
                  schema: toJsonSchema(legacy.answer.schema, "output"),
                  example: legacy.answer.example,
                },
              },
            },
          },
        }
      : {}),
    ...(legacy.input
      ? {
          requestBody: {
            required: true,
            description: legacy.input.summary,
            content: { "application/json": { schema: legacy.input.schema, example: legacy.input.example } },
          },
        }
      : {}),
  };
}

/**
 * The Social Media Videos Downloader's media tunnel (decision 052): not an operation of the
 * registry (no key, not counted, bytes rather than JSON), so described here, GET and HEAD alike,
 * with the statuses a downloader meets.
 */
function tunnelOperation(method: "get" | "head"): JsonSchema {
  const problem = (description: string) => ({
    description,
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  });
  const file = method === "get" ? { content: { "*/*": { schema: { type: "string", format: "binary" } } } } : {};
  return {
    operationId: `youtube-instagram-video-downloader.tunnel.${method}`,
    summary:
      method === "get" ? "A tunnelled media file, streamed with Range support" : "A tunnelled media file's headers",
    description:
      `The \`url\` of a media the downloader answered where the platform's own link works only from our address. The token in the path is the credential: no API key is sent, and fetching it does not count a call. It names one file and opens for ${TUNNEL_LIFETIME_SECONDS / 60} minutes after the call that answered it, a Range request included. ` +
      "The answer is always an attachment with the media's type, `Content-Length`, and `Content-Range` for a range.",
    tags: ["Social Media Videos Downloader"],
    security: [],
    parameters: [
      {
        name: "token",
        in: "path",
        required: true,
        description: "As the API answered it, unchanged.",
        schema: { type: "string" },
      },
      {
        name: "Range",
        in: "header",
        required: false,
        description: "One range, `bytes=a-b`, `bytes=a-` or `bytes=-n`; anything else answers the whole file.",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": { description: "The whole file.", ...file },
      "206": { description: "The range asked for.", ...file },
      "403": problem("The API key whose call made this link was revoked (`revoked-api-key`)."),
      "404": problem("Not a token we made, or changed (`invalid-tunnel-url`)."),
      "410": problem("The link expired (`expired-tunnel-url`): call the API again for a fresh one."),
      "416": problem("The range starts beyond the end of the file (`range-not-satisfiable`)."),
      "502": problem(
        "The platform's media server failed or no longer serves the file (`upstream-failed`): retry, or call the API again.",
      ),
    },
  };
}

let cached: JsonSchema | undefined;

/** Every hosted API described; loads them all (the first request for it in an isolate). */
export async function buildOpenApiDocument(origin = "https://portico.dev"): Promise<JsonSchema> {
  if (cached && (cached.servers as { url: string }[])[0]?.url === origin) return cached;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const definition of await loadDefinitions()) {
    for (const operation of definition.operations) {
      const path = openApiPath(definition.slug, operation.path);
      paths[path] ??= {};
      paths[path][operation.method.toLowerCase()] = operationObject(definition.slug, operation);
    }
    for (const legacy of definition.legacyRoutes ?? []) {
      const operation = definition.operations.find((candidate) => candidate.id === legacy.operationId);
      if (!operation) continue;
      (paths[legacy.path] ??= {})[legacy.method.toLowerCase()] = legacyOperationObject(
        definition.slug,
        operation,
        legacy,
      );
    }
  }
  paths[`${TUNNEL_PATH}/{token}`] = { get: tunnelOperation("get"), head: tunnelOperation("head") };
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Portico hosted APIs",
      version: "1.0.0",
      description: "Every hosted API behind one key. Limits are in every response's RateLimit headers.",
      contact: { email: "support@portico.dev", url: "https://portico.dev" },
    },
    servers: [{ url: origin }],
    security: [{ ApiKey: [] }, { Bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        Bearer: { type: "http", scheme: "bearer", description: "The API key as a bearer token" },
        LegacyKey: {
          type: "apiKey",
          in: "header",
          name: "X-Avatar-Key",
          description: "The API key, in the header clients of the earlier product send",
        },
      },
      schemas: {
        Base64File: {
          type: "object",
          description: "A binary answer as JSON, when the call is made with `?as=json`",
          required: ["data", "mimeType", "size"],
          properties: {
            data: { type: "string", contentEncoding: "base64" },
            mimeType: { type: "string" },
            size: { type: "integer", description: "Bytes before base64" },
          },
        },
        Problem: {
          type: "object",
          description: "RFC 9457 problem details",
          // Each type URL is a page saying what the problem means and what to do.
          externalDocs: { description: "Every problem type: what it means and what to do", url: `${origin}/problems` },
          required: ["type", "title", "status", "detail", "requestId"],
          properties: {
            type: {
              type: "string",
              format: "uri",
              description: "Identifies the problem; open it for what it means and what to do.",
              enum: Object.keys(PROBLEM_TYPES).map((type) => PROBLEM_BASE_URL + type),
            },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
            requestId: { type: "string" },
            message: { type: "string", description: "The detail again, for older clients" },
            errors: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    },
  };
  return cached;
}
